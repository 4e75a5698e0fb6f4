import { useState } from 'react'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { Button } from '#src/ui/button.tsx'

/**
 * The Send OTP action of Reset Password and Forgot: sends, toasts the server's message, and then
 * offers to send again (a new code voids the old one on the server). `send` answers null when it
 * sent nothing because the form already shows why (an invalid email).
 */
export function SendOtpButton({ send, disabled = false }: { send: () => Promise<{ message: string } | null>; disabled?: boolean }) {
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle')
  async function run() {
    setState('sending')
    try {
      const answer = await send()
      if (answer === null) {
        setState('idle')
        return
      }
      toast.success(answer.message)
      setState('sent')
    } catch (error) {
      toast.error(errorMessage(error))
      setState('idle')
    }
  }
  return (
    <Button variant="outline" onClick={() => void run()} disabled={disabled || state === 'sending'}>
      {state === 'sending' ? 'Sending…' : state === 'sent' ? 'Resend OTP' : 'Send OTP'}
    </Button>
  )
}
