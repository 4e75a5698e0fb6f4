import { useEffect, useState } from 'react'
import { useSWRConfig } from 'swr'
import type { Endpoint } from '#contract/define'
import { useSession } from '#src/lib/session.ts'
import { ConfirmDialog } from '#src/ui/alert-dialog.tsx'
import { Button } from '#src/ui/button.tsx'
import { cn } from '#src/ui/cn.ts'
import { LoadingOverlay } from '#src/ui/spinner.tsx'
import { toast } from '#src/ui/toast.ts'
import { changedFields, type FieldChange } from '../form/changed-fields.ts'
import type { FormEndpoint, RecordFormDef } from '../form/form-def.ts'
import { FormNotices, useFormEngine } from '../form/form-engine.tsx'
import { FieldControl, RequiredLegend } from '../form/field-control.tsx'
import { FieldAdornment } from '../form/field-adornment.tsx'
import type { FieldAction, Values } from '../form/form-fields.ts'
import { showFailure } from '../form/form-hook.ts'
import { refreshAfterWrite } from '../writes/refresh.ts'
import { keepFocus } from '../form/keep-focus.ts'
import { toastWriteAnswer } from '../writes/undo-keys.ts'
import { useWriteAccess } from '../writes/write-access.ts'

interface BodyProps<S extends FormEndpoint, G extends Endpoint, R> {
  def: RecordFormDef<S, G, R>
  defaults: Values
  currentFiles: Record<string, string | readonly string[]>
  /** After a save, once the read was fetched again. */
  onSaved: () => void
  /** After a conflict (someone else saved the record): fetch it again and start a new form. */
  onReload: () => Promise<void>
}

/** Kinds that take the whole row of a two-column form. */
const WIDE: ReadonlySet<string> = new Set(['textarea', 'richtext', 'image', 'images', 'video', 'search-multiselect'])

/** The single-record form: guarded fields, per-field actions, Update for Admin, read-only for View Only. */
export function RecordFormBody<S extends FormEndpoint, G extends Endpoint, R>({ def, defaults, currentFiles, onSaved, onReload }: BodyProps<S, G, R>) {
  const { mutate } = useSWRConfig()
  const { userId } = useSession()
  const write = useWriteAccess(def.writeRule)
  const engine = useFormEngine({
    endpoint: def.save,
    fields: def.fields,
    defaults,
    currentFiles,
    onSent: async () => {
      await refreshAfterWrite(mutate)
      onSaved()
    },
  })
  const { form, rules, required, isSubmitting } = engine
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())
  const [focus, setFocus] = useState<string | null>(null)
  const [pending, setPending] = useState<{ name: string; action: FieldAction } | null>(null)
  const [busy, setBusy] = useState(false)
  const [review, setReview] = useState<readonly FieldChange[] | null>(null)
  const names = def.fields.map((f) => f.name)
  const grid = def.columns === 2

  // A field just unlocked takes the focus once it is editable (a disabled input cannot before).
  useEffect(() => {
    if (focus) form.setFocus(focus)
  }, [focus, form])

  const toggle = (name: string) => {
    const next = new Set(open)
    if (next.delete(name)) setFocus(null)
    else {
      next.add(name)
      setFocus(name)
    }
    setOpen(next)
  }

  async function runAction() {
    if (!pending) return
    setBusy(true)
    try {
      const answer = await pending.action.run(pending.name, form.getValues())
      // A cleared link or version offers Undo, which writes it back (undo.ts).
      toastWriteAnswer(answer, mutate, userId)
      // Only this field changes: edits in the others stay on screen until Update.
      if (pending.action.clears) form.resetField(pending.name, { defaultValue: '' })
      void refreshAfterWrite(mutate)
      setPending(null)
    } catch (error) {
      showFailure(form, error, names)
    } finally {
      setBusy(false)
    }
  }

  // A form that confirms its changes checks them first (errors show as on any save), then asks.
  const question = def.confirmChanges
  const submit =
    question === undefined
      ? engine.onSubmit
      : async (event?: React.BaseSyntheticEvent) => {
          event?.preventDefault()
          const changes = (await form.trigger()) ? changedFields(def.fields, defaults, form.getValues()) : []
          if (changes.length === 0) return engine.onSubmit()
          setReview(changes)
        }

  const blocked = write.blockedReason
  const field = (f: (typeof def.fields)[number]) => {
    const isOpen = open.has(f.name)
    const adornment =
      write.allowed && (f.guard || f.action) ? (
        <FieldAdornment
          field={f}
          form={form}
          open={isOpen}
          blocked={blocked !== undefined}
          onToggle={() => toggle(f.name)}
          onAction={(action) => (blocked ? toast.error(blocked) : setPending({ name: f.name, action }))}
        />
      ) : null
    return (
      <div key={f.name} className={grid && WIDE.has(f.kind) ? 'md:col-span-2' : undefined}>
        <FieldControl
          field={f}
          form={form}
          rule={rules[f.name]}
          required={write.allowed && required.has(f.name)}
          readOnly={!write.allowed || (f.guard === 'lock' && !isOpen)}
          disabled={write.allowed && f.guard === 'pencil' && !isOpen}
          adornment={adornment}
        />
      </div>
    )
  }
  const columns = grid ? 'md:grid-cols-2 md:gap-x-6' : ''
  const sections = def.sections
  const label = def.submitLabel ?? 'Update'
  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-busy={isSubmitting}
      className={cn('relative rounded-md border border-slate-200 bg-white p-6', sections ? 'flex flex-col gap-6' : cn('grid gap-4', columns))}
    >
      {write.allowed ? null : (
        <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 md:col-span-full">Your access is View Only: you can read this section but not change it.</p>
      )}
      {write.allowed && required.size > 0 ? (
        <div className="md:col-span-full">
          <RequiredLegend />
        </div>
      ) : null}
      {sections
        ? sections.map((section, i) => (
            <fieldset key={section.title} className={cn('min-w-0', i > 0 ? 'border-t border-slate-200 pt-6' : '')}>
              <legend className="float-left w-full">
                <h2 className="text-base font-semibold text-slate-900">{section.title}</h2>
              </legend>
              {section.description === undefined ? null : <p className="clear-left pt-1 text-sm text-slate-700">{section.description}</p>}
              <div className={cn('clear-left grid gap-4 pt-4', columns)}>{def.fields.filter((f) => section.fields.includes(f.name)).map(field)}</div>
            </fieldset>
          ))
        : def.fields.map(field)}
      {write.allowed && sections ? (
        <>
          <FormNotices engine={engine} blockedReason={blocked} onReload={onReload} />
          <SaveBar label={label} dirty={form.formState.isDirty} saving={isSubmitting} blocked={blocked !== undefined} />
        </>
      ) : write.allowed ? (
        <div className="flex flex-col gap-4 md:col-span-full">
          <FormNotices engine={engine} blockedReason={blocked} onReload={onReload} />
          <div>
            <Button type="submit" onMouseDown={keepFocus} disabled={isSubmitting || blocked !== undefined}>
              {label}
            </Button>
          </div>
        </div>
      ) : null}
      {isSubmitting ? <LoadingOverlay /> : null}
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(next) => (next || busy ? undefined : setPending(null))}
        title={pending?.action.confirm ?? ''}
        description={pending ? actionDescription(pending.action, pending.name, form.getValues()) : undefined}
        busy={busy}
        onConfirm={() => void runAction()}
      />
      {question === undefined ? null : (
        <ConfirmDialog
          open={review !== null}
          onOpenChange={(next) => (next ? undefined : setReview(null))}
          title={question}
          description={<ChangeList changes={review ?? []} />}
          // A save, not a removal: the app's primary colour rather than the red of a delete.
          choices={[
            {
              label: `Yes, ${label.toLowerCase()}`,
              onChoose: () => {
                setReview(null)
                void engine.onSubmit()
              },
            },
          ]}
          onConfirm={() => undefined}
        />
      )}
    </form>
  )
}

/**
 * A long form's save bar: the last thing in the form, stuck to the bottom of the viewport while the
 * form runs past it, so Save is always in reach. It says whether there is anything to save; Save
 * waits for a change. Sticky positions stop at the scrolling main's padding: the negative bottom
 * (that padding, src/app/layout.tsx) puts the bar on the screen's edge, with nothing showing under it.
 */
function SaveBar({ label, dirty, saving, blocked }: { label: string; dirty: boolean; saving: boolean; blocked: boolean }) {
  return (
    <div data-save-bar="" className="sticky -bottom-4 z-10 md:-bottom-6 -mx-6 -mb-6 flex flex-wrap items-center justify-end gap-3 rounded-b-md border-t border-slate-200 bg-white px-6 py-3 shadow-[0_-4px_8px_-6px_rgb(0_0_0/0.25)]">
      <p aria-live="polite" className="mr-auto text-sm text-slate-700">
        {saving ? 'Saving…' : dirty ? 'You have unsaved changes.' : 'No changes to save.'}
      </p>
      <Button type="submit" onMouseDown={keepFocus} disabled={!dirty || saving || blocked}>
        {label}
      </Button>
    </div>
  )
}

/** Each changed field with its stored and new value, as the confirmation of a risky Update lists them. */
function ChangeList({ changes }: { changes: readonly FieldChange[] }) {
  return (
    <span className="block">
      <span className="block">Check each change before it reaches users:</span>
      <span className="mt-2 block" role="list">
        {changes.map((c) => (
          <span key={c.label} role="listitem" className="block py-0.5">
            <span className="font-medium text-slate-900">{c.label}</span>: <span className="line-through decoration-slate-400">{c.before}</span>
            <span aria-hidden="true"> → </span>
            <span className="sr-only"> becomes </span>
            <span className="font-medium text-slate-900">{c.after}</span>
          </span>
        ))}
      </span>
    </span>
  )
}

/** What a field action's confirmation says under its question: what goes and what that does, then whether it can be undone. */
function actionDescription(action: FieldAction, name: string, values: Values): string | undefined {
  const parts = [action.explain?.(name, values), action.note].filter((p): p is string => p !== undefined && p !== '')
  return parts.length === 0 ? undefined : parts.join(' ')
}
