/**
 * Register (/register, requirements R2.5), made a request for access rather than an open sign-up,
 * and without the password fields: its address is confirmed from a mailed link, then a superadmin
 * reviews it, and once approved a second link mailed to the address sets the password. Nobody
 * who typed someone else's address ever holds a secret of their account
 * (server/areas/access-requests/password-setup.ts). The answer is the same for every email
 * (nobody learns who has an account), so the page always ends on the same "what happens next".
 */
import { useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { register } from '#contract/access-requests'
import { FieldControl } from '#src/crud/form/field-control.tsx'
import { email, text } from '#src/crud/form/form-fields.ts'
import { showFailure, textOf, useContractForm } from '#src/crud/form/form-hook.ts'
import { call } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { LoadingOverlay } from '#src/ui/spinner.tsx'
import { toast } from '#src/ui/toast.ts'

export const REGISTER_TITLE = 'Request access'

const fields = [
  text('name', 'Name', { autoComplete: 'name' }),
  email('email', 'Email', { autoComplete: 'email' }),
] as const
const names = fields.map((f) => f.name)

const linkClass = 'text-center text-sm font-medium text-indigo-700 underline-offset-4 hover:underline'

/** After sending: what happens next, read out first (the heading takes the focus). */
function RequestSent() {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <div className="grid gap-4">
      <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
        Request sent
      </h2>
      <p className="text-sm text-slate-800">What happens next:</p>
      <ol className="grid list-decimal gap-2 pl-5 text-sm text-slate-800">
        <li>Open the link we mailed to your address to confirm that it is yours. The link works for 24 hours.</li>
        <li>A superadmin then reviews your request and chooses what you may see and change.</li>
        <li>Once it is approved, we mail you a link to set your password. The link works for 72 hours; then you can log in with this email.</li>
      </ol>
      <p className="text-sm text-slate-700">No mail? Check your spam folder, or send the request again.</p>
      <Button asChild className="w-full">
        <Link href="/login">Back to Login</Link>
      </Button>
    </div>
  )
}

export function RegisterPage() {
  const [sent, setSent] = useState(false)
  const form = useContractForm(register.input, { name: '', email: '' })
  const { isSubmitting } = form.formState

  useEffect(() => {
    document.title = `${REGISTER_TITLE} · Back Office`
  }, [])

  const submit = form.handleSubmit(async (v) => {
    try {
      const answer = await call(register, {
        name: textOf(v['name']),
        email: textOf(v['email']),
      })
      toast.success(answer.message)
      form.reset()
      setSent(true)
    } catch (error) {
      showFailure(form, error, names)
    }
  })

  return (
    <main className="grid min-h-full place-items-center bg-slate-50 p-4">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow">
        <p className="text-center text-sm font-semibold tracking-wide text-indigo-700 uppercase">Back Office</p>
        <h1 className="mt-1 text-center text-2xl font-semibold">{REGISTER_TITLE}</h1>
        {sent ? (
          <div className="mt-6">
            <RequestSent />
          </div>
        ) : (
          <>
            <p className="mt-2 mb-6 text-center text-sm text-slate-700">
              Ask for an account on the back office. You confirm your email address from a link we send, a superadmin reviews the request, and once it is approved we mail you a link to set your password.
            </p>
            <form noValidate onSubmit={submit} aria-busy={isSubmitting} className="relative grid gap-4">
              {fields.map((f) => (
                <FieldControl key={f.name} field={f} form={form} />
              ))}
              <Button type="submit" disabled={isSubmitting} className="mt-2 w-full">
                Submit
              </Button>
              <p className="text-center text-sm text-slate-700">
                Already have an account?{' '}
                <Link href="/login" className={linkClass}>
                  Back to Login
                </Link>
              </p>
              {isSubmitting ? <LoadingOverlay /> : null}
            </form>
          </>
        )}
      </div>
    </main>
  )
}
