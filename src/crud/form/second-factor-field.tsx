import { useEffect, useId, useRef } from 'react'
import type { UseFormRegisterReturn } from 'react-hook-form'
import { Input } from '#src/ui/input.tsx'
import { Label } from '#src/ui/label.tsx'

interface SecondFactorFieldProps {
  /** The server's TWO_FA message, shown success-styled above the input (requirements R4.1). */
  message: string
  /** `form.register('twoFACode')` of the form the code is sent with. */
  registration: UseFormRegisterReturn
  error: string | undefined
}

/**
 * A 2FA code asked for once the server answers TWO_FA (login, create user; ours: forgot): the
 * server's message success-styled above a 6-digit input, sent as `twoFACode` with the next submit.
 * It takes the focus when it appears. Light on purpose: the login page shows it, and its first
 * load carries no schema code.
 */
export function SecondFactorField({ message, registration, error }: SecondFactorFieldProps) {
  const id = useId()
  const ref = useRef<HTMLInputElement | null>(null)
  useEffect(() => ref.current?.focus(), [])
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
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...registration}
        // Digits only, up to 6 (requirements R5.2): anything else is stripped as it is typed.
        onChange={(event) => {
          event.target.value = event.target.value.replace(/\D/g, '').slice(0, 6)
          void registration.onChange(event)
        }}
        ref={(element) => {
          registration.ref(element)
          ref.current = element
        }}
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}
