import { Link } from 'wouter'
import type { Endpoint } from '#contract/define'
import type { FormDef, FormEndpoint } from './define-form.tsx'
import { FormBody } from './form-body.tsx'
import { FormFrame, FormProblem, FormSkeleton, ReadOnlyNotice } from './form-frame.tsx'
import { useEditRecord, type Identified } from './record.ts'
import { useWriteAccess } from './write-access.ts'

function EditForm<E extends FormEndpoint, R extends Identified, G extends Endpoint>({ def, blockedReason }: { def: FormDef<E, R, G>; blockedReason: string | undefined }) {
  const source = def.record
  if (!source) throw new Error('EditForm needs a record source')
  const state = useEditRecord(source)
  if (state.status === 'loading') return <FormSkeleton rows={def.fields.length} label="Loading the record…" />
  if (state.status !== 'found') {
    return (
      <FormProblem
        action={
          <Link href={def.done} className="font-medium text-indigo-700 underline">
            Back to the list
          </Link>
        }
      >
        {state.status === 'error' ? `Could not load the record: ${state.message}` : 'This record was not found. It may have been removed.'}
      </FormProblem>
    )
  }
  return (
    <FormBody
      key={state.record._id}
      def={def}
      defaults={source.values(state.record)}
      currentFiles={source.files?.(state.record) ?? {}}
      blockedReason={blockedReason}
    />
  )
}

/** The generic add/edit screen behind every `defineForm`. View Only sessions get no form. */
export function FormPage<E extends FormEndpoint, R extends Identified, G extends Endpoint>({ def }: { def: FormDef<E, R, G> }) {
  const write = useWriteAccess(def.writeRule)
  let content
  if (!write.allowed) content = <ReadOnlyNotice />
  else if (def.record) content = <EditForm def={def} blockedReason={write.blockedReason} />
  else content = <FormBody def={def} defaults={def.initial ?? {}} blockedReason={write.blockedReason} />
  return (
    <FormFrame title={def.title} back={def.done}>
      {content}
    </FormFrame>
  )
}
