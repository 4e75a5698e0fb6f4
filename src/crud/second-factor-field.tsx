import { useEffect, useId, useRef } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import { Input } from '#src/ui/input.tsx'
import { Label } from '#src/ui/label.tsx'
import type { Values } from './field-control.tsx'

/**
 * A 2FA code asked for once the server answers TWO_FA (spec section 8: create user; ours: forgot): the
 * server's message success-styled above a 6-digit input, sent as `twoFACode` with the next submit.
 */
export function SecondFactorField({ message, form }: { message: string; form: UseFormReturn<Values> }) {
  const id = useId()
  const ref = useRef<HTMLInputElement | null>(null)
  useEffect(() => ref.current?.focus(), [])
  const code = form.register('twoFACode')
  const error = form.formState.errors['twoFACode']?.message
  return (
    <div className="flex flex-col gap-1.5">
      <p role="status" className="rounded-md border border-emerald-600 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
        {message}
      </p>
      <Label htmlFor={id}>2FA Code</Label>
      <Input
        id={id}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        aria-invalid={typeof error === 'string' ? true : undefined}
        aria-describedby={typeof error === 'string' ? `${id}-error` : undefined}
        {...code}
        // Digits only, up to 6 (spec section 5), as the login form does.
        onChange={(event) => {
          event.target.value = event.target.value.replace(/\D/g, '').slice(0, 6)
          void code.onChange(event)
        }}
        ref={(element) => {
          code.ref(element)
          ref.current = element
        }}
      />
      {typeof error === 'string' ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}
