/**
 * Login (spec sections 2, 4, 5): email, password, and the 6-digit 2FA code revealed only after
 * the server answers TWO_FA. The schema is the contract's, so the form shows the same messages
 * the server would send back.
 */
import { useState, useSyncExternalStore } from 'react'
import { useForm, type Resolver } from 'react-hook-form'
import { Link, useLocation } from 'wouter'
import { toast } from '#src/ui/toast.ts'
import { useOnline } from '#src/lib/online.ts'
import { HOME } from '#src/lib/base.ts'
import { Button } from '#src/ui/button.tsx'
import { Input } from '#src/ui/input.tsx'
import { Label } from '#src/ui/label.tsx'
import type { AuthPath } from '#src/crud/screens.ts'
import { SecondFactorField } from '#src/crud/second-factor-field.tsx'
import type { LoginFields, LoginValues } from './login-rules.ts'

// The rules (contract schemas, zod, the API client) load on the first keystroke or focus, not
// with the page: painting the form needs none of them.
const loadRules = () => import('./login-rules.ts')
const resolver: Resolver<LoginFields, unknown, LoginValues> = async (values, context, options) =>
  (await loadRules()).loginResolver(values, context, options)

const FIELDS = ['email', 'password', 'twoFACode'] as const

// The form is painted from the build's markup before this code runs (login.html, see main.tsx).
// Until it is hydrated the Login button stays disabled: a press would send the browser's own
// submission, the password in the address. False in that markup and while hydrating, then true.
const noSubscription = () => () => {}
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
const isField = (key: string): key is (typeof FIELDS)[number] => FIELDS.some((field) => field === key)

/** `hasAuthRoute`: whether an auth screen is built (the route table is the app's; features do not import it). */
export function LoginPage({ hasAuthRoute }: { hasAuthRoute: (path: AuthPath) => boolean }) {
  const [, navigate] = useLocation()
  const online = useOnline()
  // The server's TWO_FA message, shown success-styled above the code input (spec section 4).
  const [secondFactor, setSecondFactor] = useState<string | null>(null)
  const hydrated = useHydrated()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LoginFields, unknown, LoginValues>({
    resolver,
    // No defaults for email and password: the form takes what is in the inputs when it attaches,
    // so whatever was typed into the painted form before hydration is kept, not blanked.
    defaultValues: { twoFACode: '' },
  })

  const submit = handleSubmit(async (values) => {
    const result = await (await loadRules()).submitLogin(values)
    if (result.kind === 'success') {
      toast.success(result.message)
      navigate(HOME, { replace: true })
    } else if (result.kind === 'two-fa') {
      setSecondFactor(result.message)
      toast.success(result.message)
    } else {
      for (const [key, message] of Object.entries(result.errors)) {
        if (isField(key)) setError(key, { message })
      }
      toast.error(result.message)
    }
  })

  return (
    <main className="grid min-h-full place-items-center bg-slate-100 p-4">
      <div className="w-full max-w-sm rounded-lg bg-white p-8 shadow">
        <p className="text-center text-sm font-semibold tracking-wide text-indigo-700 uppercase">Back Office</p>
        <h1 className="mt-1 mb-6 text-center text-2xl font-semibold">Login</h1>
        <form onSubmit={submit} onFocus={() => void loadRules()} noValidate className="grid gap-4">
          <Field id="email" label="Email" error={errors.email?.message}>
            <Input
              id="email"
              type="email"
              autoComplete="username"
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? 'email-error' : undefined}
              {...register('email')}
            />
          </Field>
          <Field id="password" label="Password" error={errors.password?.message}>
            <Input
              id="password"
              type="password"
              autoComplete="current-password"
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? 'password-error' : undefined}
              {...register('password')}
            />
          </Field>
          {secondFactor ? <SecondFactorField message={secondFactor} registration={register('twoFACode')} error={errors.twoFACode?.message} /> : null}
          <Button type="submit" disabled={!hydrated || isSubmitting || !online} className="mt-2 w-full">
            {isSubmitting ? 'Logging in…' : 'Login'}
          </Button>
          {online ? null : (
            <p role="status" className="text-sm text-amber-800">
              You are offline. Logging in needs a connection.
            </p>
          )}
          {hasAuthRoute('/forgot') ? (
            <Link href="/forgot" className="text-center text-sm font-medium text-indigo-700 underline-offset-4 hover:underline">
              Forgot Password
            </Link>
          ) : null}
          {hasAuthRoute('/register') ? (
            <p className="text-center text-sm text-slate-700">
              No account yet?{' '}
              <Link href="/register" className="font-medium text-indigo-700 underline-offset-4 hover:underline">
                Request access
              </Link>
            </p>
          ) : null}
        </form>
      </div>
    </main>
  )
}

function Field({ id, label, error, children }: { id: string; label: string; error: string | undefined; children: React.ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}
