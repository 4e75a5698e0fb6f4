/**
 * Reset Password (/resetpassword, requirements R2.33, R4.3): Send OTP mails a code to the signed-in
 * admin's own address; OTP, old, new and confirm password change it. Success ends every session
 * of this admin on the server, so this one logs out to /login too.
 */
import { useId } from 'react'
import { useLocation } from 'wouter'
import { changePassword, sendMail } from '#contract/password'
import { call } from '#src/lib/api.ts'
import { toast } from '#src/ui/toast.ts'
import { logout, useSession } from '#src/lib/session.ts'
import { FieldControl } from '#src/crud/form/field-control.tsx'
import { showFailure, textOf, useContractForm } from '#src/crud/form/form-hook.ts'
import { password, text } from '#src/crud/form/form-fields.ts'
import { Button } from '#src/ui/button.tsx'
import { LoadingOverlay } from '#src/ui/spinner.tsx'
import { SendOtpButton } from './send-otp-button.tsx'

const fields = [
  text('otp', 'OTP', { autoComplete: 'one-time-code' }),
  password('oldPassword', 'Old Password', { autoComplete: 'current-password' }),
  password('newPassword', 'New Password', { autoComplete: 'new-password' }),
  password('confirmPassword', 'Confirm Password', { autoComplete: 'new-password' }),
] as const
const names = fields.map((f) => f.name)

export function ResetPasswordPage() {
  const headingId = useId()
  const { email } = useSession()
  const [, navigate] = useLocation()
  // The address is the session's own (the server refuses another), so it is not an input.
  const form = useContractForm(changePassword.input, { otp: '', oldPassword: '', newPassword: '', confirmPassword: '', email })
  const { isSubmitting } = form.formState

  const submit = form.handleSubmit(async (v) => {
    try {
      const answer = await call(changePassword, {
        otp: textOf(v['otp']),
        oldPassword: textOf(v['oldPassword']),
        newPassword: textOf(v['newPassword']),
        confirmPassword: textOf(v['confirmPassword']),
        email,
      })
      toast.success(answer.message)
      logout()
      navigate('/login', { replace: true })
    } catch (error) {
      showFailure(form, error, names)
    }
  })

  return (
    <section aria-labelledby={headingId} className="flex max-w-2xl flex-col gap-4">
      <h1 id={headingId} className="text-xl font-semibold text-slate-900">
        Reset Password
      </h1>
      <form noValidate onSubmit={submit} aria-busy={isSubmitting} className="relative flex flex-col gap-4 rounded-md border border-slate-200 bg-white p-6">
        <div className="flex flex-wrap items-center gap-3">
          <SendOtpButton send={() => call(sendMail, {})} />
          <p className="text-sm text-slate-700">A one-time code goes to {email}.</p>
        </div>
        {fields.map((f) => (
          <FieldControl key={f.name} field={f} form={form} />
        ))}
        <div>
          <Button type="submit" disabled={isSubmitting}>
            Submit
          </Button>
        </div>
        {isSubmitting ? <LoadingOverlay /> : null}
      </form>
    </section>
  )
}
