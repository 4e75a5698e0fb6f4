/**
 * The login form's rules and its call, loaded when the user starts typing (see login-page.tsx):
 * the contract's schemas (and zod with them) are not needed to paint the form.
 */
import { z } from 'zod/mini'
import { LoginEmail, LoginPassword, TwoFACode, login as loginCall } from '#contract/auth'
import { ApiError, SecondFactorRequired, call } from '#src/lib/api.ts'
import { login } from '#src/lib/session.ts'
import '#src/lib/zod-messages.ts'

export const LoginForm = z.object({ email: LoginEmail, password: LoginPassword, twoFACode: TwoFACode })
export type LoginFields = z.input<typeof LoginForm>
export type LoginValues = z.output<typeof LoginForm>

export type LoginErrors = Partial<Record<keyof LoginFields, string>>

/** The form's values checked by the contract's rules: the values to send, or each field's first message. */
export function checkLogin(fields: LoginFields): { ok: true; values: LoginValues } | { ok: false; errors: LoginErrors } {
  const parsed = LoginForm.safeParse(fields)
  if (parsed.success) return { ok: true, values: parsed.data }
  const errors: LoginErrors = {}
  for (const issue of parsed.error.issues) {
    const [field] = issue.path
    if ((field === 'email' || field === 'password' || field === 'twoFACode') && errors[field] === undefined) errors[field] = issue.message
  }
  return { ok: false, errors }
}

export type LoginResult =
  | { kind: 'success'; message: string }
  | { kind: 'two-fa'; message: string }
  | { kind: 'failed'; message: string; errors: Record<string, string> }

/** Calls /login; on success the token is stored (with the 'Bearer ' prefix) and the session opens. */
export async function submitLogin(values: LoginValues): Promise<LoginResult> {
  try {
    const answer = await call(loginCall, {
      ...values,
      // Login sends a login-history record (requirements R7.2); the browser and the time are what it is for.
      loginHistory: { browser: navigator.userAgent, at: new Date().toISOString() },
    })
    await login(answer.token)
    return { kind: 'success', message: answer.message }
  } catch (error) {
    if (error instanceof SecondFactorRequired) return { kind: 'two-fa', message: error.message }
    if (error instanceof ApiError) return { kind: 'failed', message: error.message, errors: error.errors }
    return { kind: 'failed', message: 'Login failed. Please try again.', errors: {} }
  }
}
