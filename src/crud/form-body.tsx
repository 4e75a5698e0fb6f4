import { useEffect, useState } from 'react'
import { useWatch } from 'react-hook-form'
import { z } from 'zod/mini'
import { useSWRConfig } from 'swr'
import { Link, useLocation } from 'wouter'
import type { FileRule } from '#contract/define'
import { SecondFactorRequired, call } from '#src/lib/api.ts'
import { toast } from '#src/ui/toast.ts'
import { Button } from '#src/ui/button.tsx'
import { LoadingOverlay } from '#src/ui/spinner.tsx'
import { ConflictNotice, isRecordChanged } from './conflict-notice.tsx'
import type { FormDef, FormEndpoint } from './form-def.ts'
import { FieldControl } from './field-control.tsx'
import { fieldSchemas, splitValues, startValues } from './field-registry.ts'
import type { FormField, Values } from './form-fields.ts'
import { fieldError, reportHiddenErrors, showFailure, useContractForm, useFreshDefaults } from './form-hook.ts'
import type { Identified } from './record.ts'
import { refreshAfterWrite } from './refresh.ts'
import { SecondFactorField } from './second-factor-field.tsx'

/** A field with a `when` rule shows only while the rule holds for the current values. */
function ShownField({ field, ...rest }: React.ComponentProps<typeof FieldControl> & { field: FormField<string> }) {
  const values = useWatch({ control: rest.form.control })
  if (field.when && !field.when(values)) return null
  return <FieldControl field={field} {...rest} />
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
}

/** The form itself: validation, sending, server errors, the overlay, the toast and the redirect. */
export function FormBody<E extends FormEndpoint, R extends Identified>({ def, defaults, currentFiles, blockedReason, onSaved, onCancel, onReload }: BodyProps<E, R>) {
  const [, navigate] = useLocation()
  const { mutate } = useSWRConfig()
  const [{ rules, schema }] = useState(() => {
    const rules: Record<string, FileRule> = def.endpoint.files ?? {}
    return { rules, schema: z.extend(def.schema ?? def.endpoint.input, fieldSchemas(def.fields, rules)) }
  })
  const start = startValues(def.fields, defaults, currentFiles)
  const form = useContractForm(schema, start)
  const [fieldNames] = useState(() => def.fields.map((f) => f.name))
  useFreshDefaults(form, start, fieldNames)
  const { isSubmitting } = form.formState
  const [secondFactor, setSecondFactor] = useState<string | null>(null)
  const [conflict, setConflict] = useState<string | null>(null)

  // Fields kept in step with each other: only the user's own changes trigger it (setValue does not).
  const { derive } = def
  useEffect(() => {
    if (!derive) return
    return form.subscribe({
      formState: { values: true },
      callback: ({ values, name, type }) => {
        if (type !== 'change' || name === undefined) return
        for (const [key, value] of Object.entries(derive(name, values))) form.setValue(key, value, { shouldValidate: form.formState.isSubmitted })
      },
    })
  }, [derive, form])

  const shown = [...def.fields.map((f) => f.name), ...(secondFactor ? ['twoFACode'] : [])]

  async function send(values: Values) {
    const { input, files } = splitValues(def.fields, values)
    setConflict(null)
    try {
      // Widened to the kit's own endpoint type: the values were parsed by its schema just above.
      const endpoint: FormEndpoint = def.endpoint
      // Multipart only when the form has file fields: a JSON endpoint cannot read form data.
      const answer = await call(endpoint, def.prepare ? def.prepare(input) : input, Object.keys(files).length > 0 ? files : undefined)
      toast.success(answer.message)
      setSecondFactor(null)
      form.reset(start)
      void refreshAfterWrite(mutate)
      if (onSaved) onSaved()
      else navigate(def.done)
    } catch (error) {
      if (error instanceof SecondFactorRequired) {
        setSecondFactor(error.message)
        toast.success(error.message)
        return
      }
      // Said in the form, beside its way out (Reload), rather than in a passing toast.
      if (isRecordChanged(error)) {
        setConflict(error.message)
        return
      }
      showFailure(form, error, [...def.fields.map((f) => f.name), 'twoFACode'])
    }
  }

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(send, reportHiddenErrors(shown))}
      aria-busy={isSubmitting}
      className="relative flex flex-col gap-4 rounded-md border border-slate-200 bg-white p-6"
    >
      {def.fields.map((f) => (
        <ShownField key={f.name} field={f} form={form} rule={rules[f.name]} />
      ))}
      {secondFactor ? <SecondFactorField message={secondFactor} registration={form.register('twoFACode')} error={fieldError(form, 'twoFACode')} /> : null}
      {blockedReason ? <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{blockedReason}</p> : null}
      {conflict ? <ConflictNotice message={conflict} onReload={onReload} /> : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={isSubmitting || blockedReason !== undefined}>
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
      </div>
      {isSubmitting ? <LoadingOverlay /> : null}
    </form>
  )
}
