/**
 * Login (requirements R2.8, R4.1, R5.2): email, password, and the 6-digit 2FA code revealed only after
 * the server answers TWO_FA. The schema is the contract's, so the form shows the same messages
 * the server would send back.
 *
 * The first screen anyone loads, so it carries no form library (the login's JS budget, docs/benchmarks.md):
 * the inputs keep their own values (read from the form when it is checked, so whatever was typed
 * into the painted form before hydration counts), and it behaves as the kit's forms do: checked
 * on submit, then again on every change, the first wrong field focused.
 *
 * "Sign in with a passkey" signs in without the password (contract/passkeys.ts); where the browser
 * offers passkeys in the email field's autofill (conditional mediation), the request for them
 * starts when that field takes the focus. The passkey code (src/lib/passkeys.ts) loads then, or
 * when the button is pressed, never with the page.
 */
import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from 'react'
import type { UseFormRegisterReturn } from 'react-hook-form'
import { Link, useLocation } from 'wouter'
import { toast } from '#src/ui/toast.ts'
import { useOnline } from '#src/lib/online.ts'
import { HOME } from '#src/lib/base.ts'
import { Button } from '#src/ui/button.tsx'
import { Input } from '#src/ui/input.tsx'
import { LABEL_CLASSES } from '#src/ui/label-classes.ts'
import type { AuthPath } from '#src/crud/screens/screens.ts'
import type { LoginErrors, LoginFields } from './login-rules.ts'

// The rules (contract schemas, zod, the API client) load on the first keystroke or focus, not
// with the page: painting the form needs none of them.
const loadRules = () => import('./login-rules.ts')
// The code field shows only after the server answers TWO_FA; it loads with the rules.
const loadCodeField = () => import('#src/crud/form/second-factor-field.tsx')
const SecondFactorField = lazy(async () => ({ default: (await loadCodeField()).SecondFactorField }))
// The passkey ceremonies: loaded when the email field takes the focus or the passkey button is pressed.
const loadPasskeys = () => import('#src/lib/passkeys.ts')
// contract/passkeys.ts's words, written here: the contract module would bring zod with the page.
const SIGN_IN_WITH_PASSKEY = 'Sign in with a passkey'
const PASSKEY_SIGN_IN_FAILED = 'Passkey sign-in failed. Please try again.'

const FIELDS = ['email', 'password', 'twoFACode'] as const

/** What the inputs hold now (the code field only once it is shown). */
function valuesOf(form: HTMLFormElement): LoginFields {
  const data = new FormData(form)
  const text = (name: string): string => {
    const value = data.get(name)
    return typeof value === 'string' ? value : ''
  }
  return { email: text('email'), password: text('password'), twoFACode: text('twoFACode') }
}

/** The input named `field`, to take the focus. */
function inputOf(form: HTMLFormElement, field: string): HTMLInputElement | null {
  const element = form.elements.namedItem(field)
  return element instanceof HTMLInputElement ? element : null
}

/** The code field's wiring: its value is read from the form, its changes reach the form's onChange. */
const CODE_FIELD: UseFormRegisterReturn<'twoFACode'> = { name: 'twoFACode', onChange: async () => {}, onBlur: async () => {}, ref: () => {} }

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
  // The server's TWO_FA message, shown success-styled above the code input (requirements R4.1).
  const [secondFactor, setSecondFactor] = useState<string | null>(null)
  const hydrated = useHydrated()
  const [errors, setErrors] = useState<LoginErrors>({})
  const [isSubmitting, setSubmitting] = useState(false)
  // Checked on every change once a submit has been tried, as the kit's forms are.
  const tried = useRef(false)
  const [passkeyBusy, setPasskeyBusy] = useState(false)
  // Set while the passkey button's request runs: an autofill request then stays away.
  const passkeyPressed = useRef(false)
  // The autofill's passkey request, while one waits (at most one at a time).
  const autofillWaiting = useRef(false)
  const mounted = useRef(true)

  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
      // A waiting autofill request must not outlive the page (it would sign in from nowhere).
      if (autofillWaiting.current) void loadPasskeys().then((lib) => lib.cancelPasskeyRequest())
    }
  }, [])

  const signedIn = (message: string): void => {
    toast.success(message)
    navigate(HOME, { replace: true })
  }

  /** Waits for a passkey chosen in the email field's autofill, where the browser offers that. */
  const startAutofill = async (): Promise<void> => {
    if (autofillWaiting.current || passkeyPressed.current || !online) return
    autofillWaiting.current = true
    try {
      const lib = await loadPasskeys()
      if (!(await lib.autofillSupported()) || !mounted.current) return
      const message = await lib.signInWithPasskey(true, () => mounted.current && !passkeyPressed.current)
      if (mounted.current) signedIn(message)
    } catch (error) {
      // Closing the autofill, or the passkey button taking over, is no failure to report.
      const lib = await loadPasskeys()
      if (mounted.current && !(error instanceof lib.PasskeyCancelled)) toast.error(error instanceof Error ? error.message : PASSKEY_SIGN_IN_FAILED)
    } finally {
      autofillWaiting.current = false
    }
  }

  const signInWithPasskey = async (): Promise<void> => {
    if (passkeyBusy || isSubmitting) return
    setPasskeyBusy(true)
    passkeyPressed.current = true
    try {
      const lib = await loadPasskeys()
      signedIn(await lib.signInWithPasskey(false))
    } catch (error) {
      toast.error(error instanceof Error ? error.message : PASSKEY_SIGN_IN_FAILED)
    } finally {
      passkeyPressed.current = false
      if (mounted.current) setPasskeyBusy(false)
    }
  }

  const recheck = async (form: HTMLFormElement): Promise<void> => {
    if (!tried.current) return
    const checked = (await loadRules()).checkLogin(valuesOf(form))
    setErrors(checked.ok ? {} : checked.errors)
  }

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault()
    const form = event.currentTarget
    if (isSubmitting) return
    tried.current = true
    setSubmitting(true)
    try {
      const rules = await loadRules()
      const checked = rules.checkLogin(valuesOf(form))
      if (!checked.ok) {
        setErrors(checked.errors)
        const first = FIELDS.find((field) => checked.errors[field] !== undefined)
        if (first !== undefined) inputOf(form, first)?.focus()
        return
      }
      setErrors({})
      const result = await rules.submitLogin(checked.values)
      if (result.kind === 'success') {
        toast.success(result.message)
        navigate(HOME, { replace: true })
      } else if (result.kind === 'two-fa') {
        setSecondFactor(result.message)
        toast.success(result.message)
      } else {
        const fieldErrors: LoginErrors = {}
        for (const [key, message] of Object.entries(result.errors)) if (isField(key)) fieldErrors[key] = message
        setErrors(fieldErrors)
        toast.error(result.message)
      }
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <main className="grid min-h-full place-items-center bg-slate-50 p-4">
      <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow">
        <p className="text-center text-sm font-semibold tracking-wide text-indigo-700 uppercase">Back Office</p>
        <h1 className="mt-1 mb-6 text-center text-2xl font-semibold">Login</h1>
        <form
          onSubmit={(event) => void submit(event)}
          onChange={(event) => void recheck(event.currentTarget)}
          onFocus={(event) => {
            void Promise.all([loadRules(), loadCodeField()])
            // The autofill's passkeys are offered in the email field: its request starts there.
            if (event.target instanceof HTMLInputElement && event.target.name === 'email') void startAutofill()
          }}
          noValidate
          className="grid gap-4"
        >
          <Field id="email" label="Email" error={errors.email}>
            <Input
              id="email"
              type="email"
              autoComplete="username webauthn"
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? 'email-error' : undefined}
              name="email"
            />
          </Field>
          <Field id="password" label="Password" error={errors.password}>
            <Input
              id="password"
              type="password"
              autoComplete="current-password"
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? 'password-error' : undefined}
              name="password"
            />
          </Field>
          {secondFactor ? (
            <Suspense fallback={null}>
              <SecondFactorField message={secondFactor} registration={CODE_FIELD} error={errors.twoFACode} />
            </Suspense>
          ) : null}
          <Button type="submit" disabled={!hydrated || isSubmitting || passkeyBusy || !online} className="mt-2 w-full">
            {isSubmitting ? 'Logging in…' : 'Login'}
          </Button>
          <Button variant="outline" disabled={!hydrated || isSubmitting || passkeyBusy || !online} className="w-full" onClick={() => void signInWithPasskey()}>
            {passkeyBusy ? 'Waiting for your passkey…' : SIGN_IN_WITH_PASSKEY}
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
      {/* The kit's Label look without its module: one chunk fewer on the first screen. */}
      <label htmlFor={id} className={LABEL_CLASSES}>
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}
