/**
 * "Send a test to me" on a mass send's form (a promotion, a newsletter): the form's fields as they
 * are now, checked by the form's own rules, go to the server, which mails them to the signed-in
 * admin only (no ledger, no cap, no second Admin; audited). The answer's words, which name the
 * address, are the confirmation toast; a refusal shows under the fields it names. Like the submit
 * button beside it, it keeps the focus on mouse down, so a blur's error line cannot move it away.
 */
import { useState } from 'react'
import type { UseFormReturn } from 'react-hook-form'
import { Button } from '#src/ui/button.tsx'
import { toast } from '#src/ui/toast.ts'
import type { Values } from '../form/form-fields.ts'
import { showFailure } from '../form/form-hook.ts'
import { keepFocus } from '../form/keep-focus.ts'

export function SendTestButton({ form, fields, send, disabled = false }: { form: UseFormReturn<Values>; fields: readonly string[]; send: (values: Values) => Promise<{ message: string }>; disabled?: boolean }) {
  const [busy, setBusy] = useState(false)
  async function test() {
    if (!(await form.trigger([...fields], { shouldFocus: true }))) return
    setBusy(true)
    try {
      toast.success((await send(form.getValues())).message)
    } catch (error) {
      showFailure(form, error, fields)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button type="button" variant="outline" disabled={disabled || busy} aria-busy={busy} onMouseDown={keepFocus} onClick={() => void test()}>
      {busy ? 'Sending the test…' : 'Send a test to me'}
    </Button>
  )
}
