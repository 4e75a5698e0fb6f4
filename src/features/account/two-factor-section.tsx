/**
 * The Profile screen's two-factor section (issue: "a staff member enables TOTP from Profile").
 * Enabling: the server makes a pending secret and answers it as a QR code image and as text; the
 * first code from the app (and the password, see contract/two-factor.ts) turns it on. Disabling asks
 * for a current code.
 */
import { useId, useState } from 'react'
import { twofaDisable, twofaEnable, twofaSetup } from '#contract/two-factor'
import { call } from '#src/lib/api.ts'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { FieldControl } from '#src/crud/form/field-control.tsx'
import { showFailure, textOf, useContractForm } from '#src/crud/form/form-hook.ts'
import { password, text } from '#src/crud/form/form-fields.ts'
import { Button } from '#src/ui/button.tsx'
import { LoadingOverlay } from '#src/ui/spinner.tsx'

interface Setup {
  qr: string
  secret: string
}

const codeField = text('code', '2FA Code', { autoComplete: 'one-time-code' })

function EnableForm({ setup, onDone, onCancel }: { setup: Setup; onDone: () => void; onCancel: () => void }) {
  const secretId = useId()
  const form = useContractForm(twofaEnable.input, { code: '', password: '' })
  const { isSubmitting } = form.formState
  const enable = form.handleSubmit(async (values) => {
    try {
      const answer = await call(twofaEnable, { code: textOf(values['code']), password: textOf(values['password']) })
      toast.success(answer.message)
      onDone()
    } catch (error) {
      showFailure(form, error, ['code', 'password'])
    }
  })
  return (
    <form noValidate onSubmit={enable} aria-busy={isSubmitting} className="relative flex flex-col gap-4">
      <p className="text-sm text-slate-700">Scan this QR code with your authenticator app, or type the secret key into it by hand.</p>
      <img src={setup.qr} alt="QR code for your authenticator app" width={200} height={200} className="size-50 rounded border border-slate-200" />
      <div className="flex flex-col gap-1">
        <span id={secretId} className="text-sm font-medium text-slate-800">
          Secret key
        </span>
        <code aria-labelledby={secretId} data-testid="twofa-secret" className="w-fit rounded bg-slate-100 px-2 py-1 font-mono text-sm break-all">
          {setup.secret}
        </code>
      </div>
      <p className="text-sm text-slate-700">Then enter the first code the app shows, and your password, to turn 2FA on.</p>
      <FieldControl field={codeField} form={form} />
      <FieldControl field={password('password', 'Password', { autoComplete: 'current-password' })} form={form} />
      <FormActions submit="Enable" onCancel={onCancel} busy={isSubmitting} />
    </form>
  )
}

/** Both forms' last row: submit, then Cancel, and the overlay covering the form while it is sent. */
function FormActions({ submit, destructive = false, onCancel, busy }: { submit: string; destructive?: boolean; onCancel: () => void; busy: boolean }) {
  return (
    <>
      <div className="flex gap-2">
        <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={busy}>
          {submit}
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
      {busy ? <LoadingOverlay /> : null}
    </>
  )
}

function DisableForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const form = useContractForm(twofaDisable.input, { code: '' })
  const { isSubmitting } = form.formState
  const disable = form.handleSubmit(async (values) => {
    try {
      const answer = await call(twofaDisable, { code: textOf(values['code']) })
      toast.success(answer.message)
      onDone()
    } catch (error) {
      showFailure(form, error, ['code'])
    }
  })
  return (
    <form noValidate onSubmit={disable} aria-busy={isSubmitting} className="relative flex flex-col gap-4">
      <p className="text-sm text-slate-700">Enter a current code from your authenticator app to turn 2FA off.</p>
      <FieldControl field={codeField} form={form} />
      <FormActions submit="Disable" destructive onCancel={onCancel} busy={isSubmitting} />
    </form>
  )
}

export function TwoFactorSection({ enabled, onChange }: { enabled: boolean; onChange: () => void }) {
  const headingId = useId()
  const [step, setStep] = useState<{ kind: 'idle' } | { kind: 'enable'; setup: Setup } | { kind: 'disable' }>({ kind: 'idle' })
  const [starting, setStarting] = useState(false)

  async function start() {
    setStarting(true)
    try {
      const answer = await call(twofaSetup, {})
      setStep({ kind: 'enable', setup: { qr: answer.qr, secret: answer.secret } })
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setStarting(false)
    }
  }

  const finish = () => {
    setStep({ kind: 'idle' })
    onChange()
  }
  const cancel = () => setStep({ kind: 'idle' })

  let body
  if (step.kind === 'enable') body = <EnableForm setup={step.setup} onDone={finish} onCancel={cancel} />
  else if (step.kind === 'disable') body = <DisableForm onDone={finish} onCancel={cancel} />
  else if (enabled) {
    body = (
      <div>
        <Button variant="outline" onClick={() => setStep({ kind: 'disable' })}>
          Disable 2FA
        </Button>
      </div>
    )
  } else {
    body = (
      <div>
        <Button onClick={() => void start()} disabled={starting}>
          {starting ? 'Starting…' : 'Enable 2FA'}
        </Button>
      </div>
    )
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-md border border-slate-200 bg-white p-6">
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Two-factor authentication
        </h2>
        <p className="text-sm text-slate-700">
          {enabled
            ? 'On: logging in asks for a code from your authenticator app.'
            : 'Off: add a code from an authenticator app to every login.'}
        </p>
      </div>
      {body}
    </section>
  )
}
