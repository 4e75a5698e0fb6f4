/**
 * The step-up question (src/lib/step-up.ts): a risky call (exporting every lead, creating or
 * changing staff access, approving a mass send) was refused until the admin confirms it is them.
 * The password (and the current 2FA code when 2FA is on, or when the server asks for it) goes to
 * proveIdentity; once accepted the API client repeats the call. Cancel leaves the action undone.
 */
import { useState } from 'react'
import { proveIdentity } from '#contract/auth'
import { SecondFactorRequired, call } from '#src/lib/api.ts'
import { answerStepUp, type StepUpRequest } from '#src/lib/step-up.ts'
import { FieldControl } from '#src/crud/field-control.tsx'
import { showFailure, textOf, useContractForm } from '#src/crud/form-hook.ts'
import { password, text } from '#src/crud/form-fields.ts'
import { Button } from '#src/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { LoadingOverlay } from '#src/ui/spinner.tsx'

const passwordField = password('password', 'Password', { autoComplete: 'current-password' })
const codeField = text('twoFACode', '2FA Code', { autoComplete: 'one-time-code' })

export function StepUpDialog({ request }: { request: StepUpRequest }) {
  const form = useContractForm(proveIdentity.input, { password: '', twoFACode: '' })
  const { isSubmitting } = form.formState
  const [needsCode, setNeedsCode] = useState(request.twoFactor)
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
    <Dialog open onOpenChange={(open) => (open || isSubmitting ? undefined : answerStepUp(false))}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Confirm it is you</DialogTitle>
          <DialogDescription>{needsCode ? `${request.message}, and the code from your authenticator app.` : `${request.message}.`}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={confirm} aria-busy={isSubmitting} className="relative flex flex-col gap-4">
          <FieldControl field={passwordField} form={form} />
          {needsCode ? <FieldControl field={codeField} form={form} /> : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => answerStepUp(false)} disabled={isSubmitting}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              Confirm
            </Button>
          </DialogFooter>
          {isSubmitting ? <LoadingOverlay /> : null}
        </form>
      </DialogContent>
    </Dialog>
  )
}
