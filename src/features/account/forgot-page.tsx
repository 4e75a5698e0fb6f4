/**
 * Forgot (/forgot, requirements R2.9): email, Send OTP, OTP, new password, confirm password, Submit.
 * An admin with 2FA enabled is asked for a current code too (the server answers TWO_FA), so a
 * reset never skips the second factor. Success goes back to Login. A box, ticked by default, also
 * removes the account's passkeys: a passkey would otherwise still sign in after the reset (a reset
 * is often what follows a lost or stolen device).
 */
import { useState } from 'react'
import { Link, useLocation } from 'wouter'
import { ForgotSendMail, forgotPassword } from '#contract/password'
import { LoginEmail } from '#contract/auth'
import { SecondFactorRequired, call } from '#src/lib/api.ts'
import { toast } from '#src/ui/toast.ts'
import { FieldControl } from '#src/crud/form/field-control.tsx'
import { fieldError, showFailure, textOf, useContractForm } from '#src/crud/form/form-hook.ts'
import { email, password, text } from '#src/crud/form/form-fields.ts'
import { SecondFactorField } from '#src/crud/form/second-factor-field.tsx'
import { Button } from '#src/ui/button.tsx'
import { Checkbox } from '#src/ui/checkbox.tsx'
import { LoadingOverlay } from '#src/ui/spinner.tsx'
import { SendOtpButton } from './send-otp-button.tsx'

const emailField = email('email', 'Email', { autoComplete: 'username' })
const fields = [
  text('otp', 'OTP', { autoComplete: 'one-time-code' }),
  password('newPassword', 'New Password', { autoComplete: 'new-password' }),
  password('confirmPassword', 'Confirm Password', { autoComplete: 'new-password' }),
] as const
const names = ['email', 'twoFACode', ...fields.map((f) => f.name)]

export function ForgotPage() {
  const [, navigate] = useLocation()
  const [secondFactor, setSecondFactor] = useState<string | null>(null)
  const [removePasskeys, setRemovePasskeys] = useState(true)
  const form = useContractForm(forgotPassword.input, { email: '', otp: '', newPassword: '', confirmPassword: '', twoFACode: '' })
  const { isSubmitting } = form.formState

  // Send OTP needs only a well-formed address: check that field alone, with Login's messages
  // under the input (and no toast repeating them).
  async function sendOtp(): Promise<{ message: string } | null> {
    const address = LoginEmail.safeParse(form.getValues('email'))
    if (!address.success) {
      form.setError('email', { type: 'manual', message: address.error.issues[0]?.message ?? 'Incorrect format' }, { shouldFocus: true })
      return null
    }
    form.clearErrors('email')
    return call(ForgotSendMail, { email: address.data })
  }

  const submit = form.handleSubmit(async (v) => {
    try {
      const answer = await call(forgotPassword, {
        email: textOf(v['email']),
        otp: textOf(v['otp']),
        newPassword: textOf(v['newPassword']),
        confirmPassword: textOf(v['confirmPassword']),
        twoFACode: textOf(v['twoFACode']),
        removePasskeys,
      })
      toast.success(answer.message)
      navigate('/login', { replace: true })
    } catch (error) {
      if (error instanceof SecondFactorRequired) {
        setSecondFactor(error.message)
        toast.success(error.message)
        return
      }
      showFailure(form, error, names)
    }
  })

  return (
    <main className="grid min-h-full place-items-center bg-slate-50 p-4">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow">
        <p className="text-center text-sm font-semibold tracking-wide text-indigo-700 uppercase">Back Office</p>
        <h1 className="mt-1 mb-6 text-center text-2xl font-semibold">Forgot Password</h1>
        <form noValidate onSubmit={submit} aria-busy={isSubmitting} className="relative grid gap-4">
          <FieldControl field={emailField} form={form} />
          <div>
            <SendOtpButton send={sendOtp} />
          </div>
          {fields.map((f) => (
            <FieldControl key={f.name} field={f} form={form} />
          ))}
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <Checkbox className="mt-0.5" checked={removePasskeys} onChange={() => setRemovePasskeys(!removePasskeys)} />
            Also remove all passkeys of this account
          </label>
          {secondFactor ? <SecondFactorField message={secondFactor} registration={form.register('twoFACode')} error={fieldError(form, 'twoFACode')} /> : null}
          <Button type="submit" disabled={isSubmitting} className="mt-2 w-full">
            Submit
          </Button>
          <Link href="/login" className="text-center text-sm font-medium text-indigo-700 underline-offset-4 hover:underline">
            Back to Login
          </Link>
          {isSubmitting ? <LoadingOverlay /> : null}
        </form>
      </div>
    </main>
  )
}
