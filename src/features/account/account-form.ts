/**
 * What the account screens (profile, reset password, forgot, 2FA) share: a react-hook-form form
 * checked by a contract schema, so the screen shows the server's own messages before a round
 * trip, and the spec's failure handling (server `errors` under the inputs, message in a toast).
 */
import { useForm, type UseFormReturn } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import type { z } from 'zod'
import { ApiError } from '#src/lib/api.ts'
import { toast } from '#src/lib/toast.ts'
import { errorMessage } from '#src/crud/error-message.ts'
import type { Values } from '#src/crud/field-control.tsx'

export function useContractForm(schema: z.ZodType<Values, Values>, defaults: Values): UseFormReturn<Values> {
  return useForm<Values>({ resolver: zodResolver(schema), defaultValues: defaults, mode: 'onTouched' })
}

/** A failed call: field errors under the inputs this form has, the message in an error toast. */
export function showFailure(form: UseFormReturn<Values>, error: unknown, fields: readonly string[]): void {
  if (error instanceof ApiError) {
    for (const [key, message] of Object.entries(error.errors)) {
      if (fields.includes(key)) form.setError(key, { type: 'server', message }, { shouldFocus: true })
    }
  }
  toast.error(errorMessage(error))
}
