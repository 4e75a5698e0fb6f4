/**
 * The step-up question (src/lib/step-up.ts): a risky call (exporting every lead, creating or
 * changing staff access, approving a mass send) was refused until the admin confirms it is them.
 * The password (and the current 2FA code when 2FA is on, or when the server asks for it) goes to
 * proveIdentity; once accepted the API client repeats the call. Cancel leaves the action undone.
 * An admin with a passkey is offered "Use a passkey" beside the password: the passkey's answer goes
 * to provePasskey and proves the session the same way.
 */
import { useState } from 'react'
import { proveIdentity } from '#contract/auth'
import { SecondFactorRequired, call } from '#src/lib/api.ts'
import { answerStepUp, type StepUpRequest } from '#src/lib/step-up.ts'
import { FieldControl } from '#src/crud/form/field-control.tsx'
import { showFailure, textOf, useContractForm } from '#src/crud/form/form-hook.ts'
import { password, text } from '#src/crud/form/form-fields.ts'
import { Button } from '#src/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFormFooter, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { USE_PASSKEY } from '#contract/passkeys'
import { errorMessage } from '#src/crud/form/error-message.ts'

const passwordField = password('password', 'Password', { autoComplete: 'current-password' })
const codeField = text('twoFACode', '2FA Code', { autoComplete: 'one-time-code' })

export function StepUpDialog({ request }: { request: StepUpRequest }) {
  const form = useContractForm(proveIdentity.input, { password: '', twoFACode: '' })
  const { isSubmitting } = form.formState
  const [needsCode, setNeedsCode] = useState(request.twoFactor)
  const [passkeyBusy, setPasskeyBusy] = useState(false)
  const [passkeyError, setPasskeyError] = useState<string | null>(null)
  const busy = isSubmitting || passkeyBusy
  const confirmWithPasskey = async () => {
    if (busy) return
    setPasskeyBusy(true)
    setPasskeyError(null)
    try {
      const { provePasskeyNow } = await import('#src/lib/passkeys.ts')
      await provePasskeyNow()
      answerStepUp(true)
    } catch (error) {
      setPasskeyError(errorMessage(error))
    } finally {
      setPasskeyBusy(false)
    }
  }
  const confirm = form.handleSubmit(async (values) => {
    try {
      await call(proveIdentity, { password: textOf(values['password']), twoFACode: needsCode ? textOf(values['twoFACode']) : '' })
      answerStepUp(true)
    } catch (error) {
      if (error instanceof SecondFactorRequired) {
        // The server asks for the code (2FA turned on since the refusal): its field appears.
        setNeedsCode(true)
        return
      }
      showFailure(form, error, ['password', 'twoFACode'])
    }
  })
  return (
    <Dialog open onOpenChange={(open) => (open || busy ? undefined : answerStepUp(false))}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Confirm it is you</DialogTitle>
          <DialogDescription>{needsCode ? `${request.message}, and the code from your authenticator app.` : `${request.message}.`}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={confirm} aria-busy={busy} className="relative flex flex-col gap-4">
          <FieldControl field={passwordField} form={form} />
          {needsCode ? <FieldControl field={codeField} form={form} /> : null}
          {request.passkey ? (
            <div className="flex flex-col gap-2 border-t border-slate-200 pt-4">
              <p className="text-sm text-slate-700">Or confirm with one of your passkeys instead of the password.</p>
              <Button variant="outline" className="w-fit" onClick={() => void confirmWithPasskey()} disabled={busy}>
                {USE_PASSKEY}
              </Button>
              {passkeyError === null ? null : (
                <p role="alert" className="text-sm text-red-700">
                  {passkeyError}
                </p>
              )}
            </div>
          ) : null}
          <DialogFormFooter submit="Confirm" onCancel={() => answerStepUp(false)} busy={busy} />
        </form>
      </DialogContent>
    </Dialog>
  )
}
