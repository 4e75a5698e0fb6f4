/**
 * The one engine behind every kit form: the add/edit form (form-body.tsx) and the single-record
 * form (record-form-body.tsx) differ in layout and in what follows a save, never in how a form is
 * set up or sent. Here, once: the schema (the endpoint's input, widened by each field's own rule),
 * the starting values kept up with the record (useFreshDefaults), fields kept in step (`derive`),
 * and the send itself, with the outcomes of requirements R4.11 and R8: the server's message in a toast, a TWO_FA answer
 * that asks for the code in place, a write kept for a second admin (said like a save), a concurrent edit said beside its Reload, and any other failure
 * as field errors plus a toast. What a body does after a save is its `onSent`.
 */
import { useEffect, useState } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import { z } from 'zod/mini'
import type { FileRule } from '#contract/define'
import { HeldForApproval, SecondFactorRequired, call } from '#src/lib/api.ts'
import { toast } from '#src/ui/toast.ts'
import { ConflictNotice, isRecordChanged } from './conflict-notice.tsx'
import { fieldSchemas, requiredFields, splitValues, startValues } from './field-registry.ts'
import type { FormEndpoint } from './form-def.ts'
import type { FormField, Values } from './form-fields.ts'
import { fieldError, reportHiddenErrors, showFailure, useContractForm, useFreshDefaults } from './form-hook.ts'
import { SecondFactorField } from './second-factor-field.tsx'

/** The hidden input a TWO_FA answer adds to the form. */
const CODE = 'twoFACode'

export interface FormEngineSetup {
  endpoint: FormEndpoint
  fields: readonly FormField<string>[]
  /** Replaces `endpoint.input` to add form-only rules (confirm password). */
  schema?: z.ZodMiniObject
  /** Starting values; fields not given start at their kind's blank value. */
  defaults: Values
  /** Saved file URLs per file field, previewed and kept unless replaced. */
  currentFiles?: Record<string, string | readonly string[]>
  /** Called after the user changes a field, with every value; returns the fields to set. */
  derive?: (changed: string, values: Values) => Values
  /** Last touch to the checked values before sending. */
  prepare?: (values: Values) => Values
  /** After a successful save, once its message is toasted. */
  onSent: () => void | Promise<void>
}

export interface FormEngine {
  form: UseFormReturn<Values>
  /** The endpoint's file rule per file field. */
  rules: Record<string, FileRule>
  /** The fields marked as required: those a blank value does not satisfy. */
  required: ReadonlySet<string>
  /** The starting values the form was given (what a reset goes back to). */
  start: Values
  isSubmitting: boolean
  /** The `<form onSubmit>`: checks, then sends. */
  onSubmit: (event?: React.BaseSyntheticEvent) => Promise<void>
  /** The server's TWO_FA message while a code is asked for. */
  secondFactor: string | null
  /** The concurrent-edit message while one stands. */
  conflict: string | null
}

export function useFormEngine({ endpoint, fields, schema: extra, defaults, currentFiles, derive, prepare, onSent }: FormEngineSetup): FormEngine {
  const [{ rules, schema, required }] = useState(() => {
    const rules: Record<string, FileRule> = endpoint.files ?? {}
    const schema = z.extend(extra ?? endpoint.input, fieldSchemas(fields, rules))
    return { rules, schema, required: requiredFields(fields, schema) }
  })
  const start = startValues(fields, defaults, currentFiles)
  const form = useContractForm(schema, start)
  const [fieldNames] = useState(() => fields.map((f) => f.name))
  useFreshDefaults(form, start, fieldNames)
  const [secondFactor, setSecondFactor] = useState<string | null>(null)
  const [conflict, setConflict] = useState<string | null>(null)

  // Fields kept in step with each other: only the user's own changes trigger it (setValue does not).
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

  async function send(values: Values) {
    const { input, files } = splitValues(fields, values)
    setConflict(null)
    try {
      // Multipart only when the form has file fields: a JSON endpoint cannot read form data.
      const answer = await call(endpoint, prepare ? prepare(input) : input, Object.keys(files).length > 0 ? files : undefined)
      toast.success(answer.message)
      setSecondFactor(null)
      await onSent()
    } catch (error) {
      // Kept for a second admin: the save went as far as it may, so the form is done with it.
      if (error instanceof HeldForApproval) {
        toast.success(error.message)
        setSecondFactor(null)
        await onSent()
        return
      }
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
      showFailure(form, error, [...fieldNames, CODE])
    }
  }

  const shown = [...fieldNames, ...(secondFactor ? [CODE] : [])]
  return {
    form,
    rules,
    required,
    start,
    isSubmitting: form.formState.isSubmitting,
    onSubmit: form.handleSubmit(send, reportHiddenErrors(shown)),
    secondFactor,
    conflict,
  }
}

/**
 * What a form says above its submit button: the 2FA code while one is asked for, why writes are
 * blocked now, and a concurrent edit with its Reload.
 */
export function FormNotices({ engine, blockedReason, onReload }: { engine: FormEngine; blockedReason: string | undefined; onReload: (() => Promise<void>) | undefined }) {
  const { form, secondFactor, conflict } = engine
  return (
    <>
      {secondFactor ? <SecondFactorField message={secondFactor} registration={form.register(CODE)} error={fieldError(form, CODE)} /> : null}
      {blockedReason ? <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{blockedReason}</p> : null}
      {conflict ? <ConflictNotice message={conflict} onReload={onReload} /> : null}
    </>
  )
}
