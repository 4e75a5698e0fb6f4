/**
 * The kit's form hook, shared by the defined forms and the hand-built account screens: a
 * react-hook-form form checked by a contract schema, so the screen shows the server's own
 * messages before a round trip, and the failure handling of requirements R8.1 and R8.2 (server `errors` under the
 * inputs this form has, the message in an error toast).
 */
import { useEffect, useRef } from 'react'
import { useForm, type FieldErrors, type UseFormReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import type { z } from 'zod/mini'
import { ApiError } from '#src/lib/api.ts'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from './error-message.ts'
import type { Values } from './form-fields.ts'
import '#src/lib/zod-messages.ts'

/** Checked on the first blur of each field, then on every change (react-hook-form's onTouched). */
export function useContractForm(schema: z.ZodMiniType<Values, Values>, defaults: Values): UseFormReturn<Values> {
  return useForm<Values>({ resolver: zodResolver(schema), defaultValues: defaults, mode: 'onTouched' })
}

/**
 * Keeps a form up with the values it started from: when they change (a record shown from the
 * cache, then fetched again; a field cleared by a delete), the fields the user has not touched
 * take the new values, while edits, errors and the submitted state stay. Values are compared by
 * content, so a parent rebuilding an equal object changes nothing.
 *
 * With `fields` (the names of the inputs shown), the hidden values (the record's edit `version`)
 * take the new values only while the user has changed no field: a form holding edits made on the
 * old record keeps the old version, so its save is refused as a conflict (conflict-notice.tsx)
 * rather than written over a change the user never saw.
 */
export function useFreshDefaults(form: UseFormReturn<Values>, start: Values, fields?: readonly string[]): void {
  const signature = JSON.stringify(start)
  const applied = useRef({ signature, start })
  useEffect(() => {
    const previous = applied.current
    if (previous.signature === signature) return
    let next = start
    if (fields) {
      const values = form.getValues()
      const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)
      // An edit: a value neither the old record nor the new one holds (a field this form emptied
      // after its own delete holds the new record's value, and is no edit).
      const edited = fields.some((name) => !same(values[name], previous.start[name]) && !same(values[name], start[name]))
      if (edited) {
        const hidden = Object.keys(start).filter((name) => !fields.includes(name))
        next = { ...start, ...Object.fromEntries(hidden.map((name) => [name, values[name]])) }
      }
    }
    applied.current = { signature, start }
    form.reset(next, { keepDirtyValues: true, keepErrors: true, keepTouched: true, keepIsSubmitted: true, keepSubmitCount: true })
  }, [form, signature, start, fields])
}

/**
 * A failed call: each message of the server's `errors` under the input of that name (when this
 * form has one; the first such input gets the focus), and the message in an error toast.
 */
export function showFailure(form: UseFormReturn<Values>, error: unknown, fields: readonly string[]): void {
  if (error instanceof ApiError) {
    for (const [key, message] of Object.entries(error.errors)) {
      if (fields.includes(key)) form.setError(key, { type: 'server', message }, { shouldFocus: true })
    }
  }
  toast.error(errorMessage(error))
}

/** A string field's value as a string ('' for anything else). */
export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '')

/** The message under field `name`, if it has one. */
export function fieldError(form: UseFormReturn<Values>, name: string): string | undefined {
  const message = form.formState.errors[name]?.message
  return typeof message === 'string' && message !== '' ? message : undefined
}

/**
 * The invalid-submit handler: a value with no input on screen (an `_id` the record lacked) would
 * otherwise fail in silence, so its message goes to an error toast; shown fields carry their own.
 */
export const reportHiddenErrors =
  (shown: readonly string[]) =>
  (errors: FieldErrors<Values>): void => {
    const hidden = Object.entries(errors).find(([name]) => !shown.includes(name))
    const message = hidden?.[1]?.message
    if (typeof message === 'string') toast.error(message)
  }
