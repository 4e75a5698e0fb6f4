import type { ReactNode } from 'react'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import { useSWRConfig } from 'swr'
import { Link, useLocation } from 'wouter'
import { Button } from '#src/ui/button.tsx'
import { LoadingOverlay } from '#src/ui/spinner.tsx'
import { FieldControl, RequiredLegend } from './field-control.tsx'
import type { FormDef, FormEndpoint } from './form-def.ts'
import { FormNotices, useFormEngine } from './form-engine.tsx'
import type { FormField, Values } from './form-fields.ts'
import type { Identified } from '../record/record.ts'
import { refreshAfterWrite } from '../writes/refresh.ts'
import { keepFocus } from './keep-focus.ts'

/** A field with a `when` rule shows only while the rule holds for the current values. */
function ShownField({ field, ...rest }: React.ComponentProps<typeof FieldControl> & { field: FormField<string> }) {
  const values = useWatch({ control: rest.form.control })
  if (field.when && !field.when(values)) return null
  return <FieldControl field={field} {...rest} />
}

/** The definition's account of what saving will change, kept in step with the values. */
function Summary({ form, start, render }: { form: React.ComponentProps<typeof FieldControl>['form']; start: Values; render: NonNullable<FormDef<FormEndpoint>['summary']> }) {
  const values = useWatch({ control: form.control })
  return render({ values, start })
}

export interface BodyProps<E extends FormEndpoint, R extends Identified> {
  def: FormDef<E, R>
  /** Starting values; fields not given start at their kind's blank value. */
  defaults: Values
  /** Saved file URLs per file field (edit forms), previewed and kept unless replaced. */
  currentFiles?: Record<string, string | readonly string[]>
  blockedReason: string | undefined
  /** Called after a successful save instead of going to `def.done` (a form inside a dialog). */
  onSaved?: () => void
  /** A Cancel button that calls this; without it Cancel links to `def.done`, except in a dialog (`onSaved`), whose own close button serves. */
  onCancel?: () => void
  /**
   * Edit forms: starts the form again from the latest saved record, offered when a save is
   * refused because someone else saved the record meanwhile (conflict-notice.tsx).
   */
  onReload?: () => Promise<void>
  /** More buttons beside Submit that act on the form as it stands (a promotion's "Send a test to me"). */
  actions?: (form: UseFormReturn<Values>, busy: boolean) => ReactNode
}

/** The add/edit form (form-engine.tsx does the sending): its fields, Submit and Cancel, then the redirect. */
export function FormBody<E extends FormEndpoint, R extends Identified>({ def, defaults, currentFiles, blockedReason, onSaved, onCancel, onReload, actions }: BodyProps<E, R>) {
  const [, navigate] = useLocation()
  const { mutate } = useSWRConfig()
  const engine = useFormEngine({
    endpoint: def.endpoint,
    fields: def.fields,
    schema: def.schema,
    defaults,
    currentFiles,
    derive: def.derive,
    prepare: def.prepare,
    onSent: () => {
      engine.form.reset(engine.start)
      void refreshAfterWrite(mutate)
      if (onSaved) onSaved()
      else navigate(def.done)
    },
  })
  const { form, rules, required, isSubmitting } = engine

  return (
    <form noValidate onSubmit={engine.onSubmit} aria-busy={isSubmitting} className="relative flex flex-col gap-4 rounded-md border border-slate-200 bg-white p-6">
      {required.size > 0 ? <RequiredLegend /> : null}
      {def.fields.map((f) => (
        <ShownField key={f.name} field={f} form={form} rule={rules[f.name]} required={required.has(f.name)} />
      ))}
      <FormNotices engine={engine} blockedReason={blockedReason} onReload={onReload} />
      {/* Kept in sight at the bottom of the window (or dialog) while the form is taller than it; the
          negative bottom is the scrolling area's padding, as the long forms' save bar does. */}
      <div className="sticky -bottom-4 z-10 -mx-6 -mb-6 flex md:-bottom-6 flex-wrap gap-2 rounded-b-md border-t border-slate-200 bg-white px-6 py-4">
        <Button type="submit" onMouseDown={keepFocus} disabled={isSubmitting || blockedReason !== undefined}>
          {def.submitLabel ?? 'Submit'}
        </Button>
        {onCancel ? (
          <Button variant="outline" onClick={onCancel} disabled={isSubmitting}>
            Cancel
          </Button>
        ) : onSaved ? null : (
          <Button variant="outline" asChild>
            <Link href={def.done}>Cancel</Link>
          </Button>
        )}
        {actions?.(form, isSubmitting || blockedReason !== undefined)}
      </div>
      {def.summary ? <Summary form={form} start={defaults} render={def.summary} /> : null}
      {isSubmitting ? <LoadingOverlay /> : null}
    </form>
  )
}
