import { useId } from 'react'
import { Link } from 'wouter'
import { useSession } from '#src/app/session.ts'
import { Button } from '#src/ui/button.tsx'
import { Skeleton } from '#src/ui/skeleton.tsx'
import type { FormDef, FormEndpoint } from './define-form.tsx'
import type { Values } from './field-control.tsx'
import { FormBody } from './form-body.tsx'
import { isImage } from './form-fields.ts'
import type { Row } from './list-types.ts'
import { useEditRecord } from './record.ts'
import { useWriteAccess } from './write-access.ts'

function Frame({ title, done, children }: { title: string; done: string; children: React.ReactNode }) {
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="flex max-w-2xl flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <h1 id={headingId} className="text-xl font-semibold text-slate-900">
          {title}
        </h1>
        <Button variant="link" asChild>
          <Link href={done}>Back</Link>
        </Button>
      </div>
      {children}
    </section>
  )
}

/** Text fields start empty, file fields with no file. */
function blankValues<E extends FormEndpoint, R extends Row>(def: FormDef<E, R>): Values {
  return Object.fromEntries(def.fields.map((f) => [f.name, isImage(f) || f.kind === 'multiselect' ? [] : '']))
}

function EditForm<E extends FormEndpoint, R extends Row>({ def, blockedReason }: { def: FormDef<E, R>; blockedReason: string | undefined }) {
  const source = def.record
  if (!source) throw new Error('EditForm needs a record source')
  const state = useEditRecord(source.list, source.schema)
  if (state.status === 'loading') {
    return (
      <div aria-busy="true" className="flex flex-col gap-4 rounded-md border border-slate-200 bg-white p-6">
        <span className="sr-only">Loading the record…</span>
        {def.fields.map((f) => (
          <Skeleton key={f.name} className="h-9" />
        ))}
      </div>
    )
  }
  if (state.status !== 'found') {
    return (
      <p role="alert" className="rounded-md border border-slate-200 bg-white p-6 text-sm text-slate-800">
        {state.status === 'error' ? `Could not load the record: ${state.message}` : 'This record was not found. It may have been removed.'}{' '}
        <Link href={def.done} className="font-medium text-indigo-700 underline">
          Back to the list
        </Link>
      </p>
    )
  }
  const defaults: Values = { ...blankValues(def), ...source.values(state.record) }
  return (
    <FormBody
      key={state.record._id}
      def={def}
      defaults={defaults}
      currentFiles={source.files?.(state.record) ?? {}}
      blockedReason={blockedReason}
    />
  )
}

/** The generic add/edit screen behind every `defineForm`. View Only sessions get no form. */
export function FormPage<E extends FormEndpoint, R extends Row>({ def }: { def: FormDef<E, R> }) {
  const write = useWriteAccess(def.writeRule)
  // An Admin held back by a stricter rule (staff management) is not View Only: say it right.
  const { canWrite } = useSession()
  let content
  if (!write.allowed) {
    content = (
      <p role="alert" className="rounded-md border border-slate-200 bg-white p-6 text-sm text-slate-800">
        {canWrite
          ? 'Your account can read this section but not change it.'
          : 'Your access is View Only: you can read this section but not change it.'}
      </p>
    )
  } else if (def.record) {
    content = <EditForm def={def} blockedReason={write.blockedReason} />
  } else {
    const defaults: Values = { ...blankValues(def), ...def.initial }
    content = <FormBody def={def} defaults={defaults} currentFiles={{}} blockedReason={write.blockedReason} />
  }
  return (
    <Frame title={def.title} done={def.done}>
      {content}
    </Frame>
  )
}
