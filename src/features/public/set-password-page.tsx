/**
 * The set-password page (/set-password?token=..., public): the link mailed to an approved member
 * who has no password yet (server/areas/access-requests/password-setup.ts). Opening it changes
 * nothing, since mail scanners follow links; the button sets the password, with Forgot
 * Password's fields and rules. A link that was used, replaced or has expired says so.
 */
import { useEffect, useState } from 'react'
import { Link, useSearch } from 'wouter'
import { setFirstPassword } from '#contract/access-requests'
import { FieldControl } from '#src/crud/form/field-control.tsx'
import { password } from '#src/crud/form/form-fields.ts'
import { showFailure, textOf, useContractForm } from '#src/crud/form/form-hook.ts'
import { ApiError, call } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { LoadingOverlay } from '#src/ui/spinner.tsx'
import { Outcome, PublicPage, failedMessage } from './public-page.tsx'

const fields = [
  password('newPassword', 'New Password', { autoComplete: 'new-password' }),
  password('confirmPassword', 'Confirm Password', { autoComplete: 'new-password' }),
] as const
const names = fields.map((f) => f.name)

type Result = { kind: 'done'; message: string } | { kind: 'failed'; message: string } | null

export function SetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  const [outcome, setOutcome] = useState<Result>(null)
  const form = useContractForm(setFirstPassword.input, { token, newPassword: '', confirmPassword: '' })
  const { isSubmitting } = form.formState

  useEffect(() => {
    document.title = 'Set your password · Back Office'
  }, [])

  const submit = form.handleSubmit(async (v) => {
    try {
      const answer = await call(setFirstPassword, { token, newPassword: textOf(v['newPassword']), confirmPassword: textOf(v['confirmPassword']) })
      setOutcome({ kind: 'done', message: answer.message })
    } catch (error) {
      // A link the server refuses is no field's mistake: said once, in place of the form.
      if (error instanceof ApiError && error.errors['token'] !== undefined) {
        setOutcome({ kind: 'failed', message: failedMessage(error) })
        return
      }
      showFailure(form, error, names)
    }
  })

  return (
    <PublicPage title="Set your password">
      {outcome === null ? (
        <>
          <p className="text-slate-800">Your access to the back office was approved. Choose the password you will log in with.</p>
          <form noValidate onSubmit={submit} aria-busy={isSubmitting} className="relative grid gap-4">
            {fields.map((f) => (
              <FieldControl key={f.name} field={f} form={form} />
            ))}
            <Button type="submit" disabled={isSubmitting} className="w-full">
              Set Password
            </Button>
            {isSubmitting ? <LoadingOverlay /> : null}
          </form>
        </>
      ) : (
        <Outcome kind={outcome.kind} message={outcome.message} />
      )}
      <p className="text-sm text-slate-700">
        <Link href="/login" className="font-medium text-indigo-700 underline-offset-4 hover:underline">
          Back to Login
        </Link>
      </p>
    </PublicPage>
  )
}
