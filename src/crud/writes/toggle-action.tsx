/**
 * The on/off write of a row (`toggle` in defineList): staff Active/DeActive as a switch, a game's
 * Freeze/UnFreeze as a button with its tooltip. It calls, toasts the server's message and
 * refetches like every write (refresh.ts); with `confirm` it asks first.
 */
import { useState } from 'react'
import { useSWRConfig } from 'swr'
import { toast } from '#src/ui/toast.ts'
import { useSession } from '#src/lib/session.ts'
import { Button } from '#src/ui/button.tsx'
import { cn } from '#src/ui/cn.ts'
import { SwitchFace } from '#src/ui/switch.tsx'
import { Tooltip } from '#src/ui/tooltip.tsx'
import type { PendingWrite } from '../form/confirm-write-dialog.tsx'
import { errorMessage } from '../form/error-message.ts'
import type { Row, ToggleModel } from '../list/list-types.ts'
import { refreshAfterWrite } from './refresh.ts'
import { toastWriteAnswer } from './undo-keys.ts'

interface ToggleActionProps<R extends Row> {
  toggle: ToggleModel<R>
  row: R
  /** The record's name for screen readers ("Active Ann Lee"). */
  subject: string
  /** Offline: shown, announced as unavailable, and pressing it says why. */
  blockedReason: string | undefined
  /** Opens the confirmation when the toggle asks first. */
  onAsk: (write: PendingWrite) => void
}

export function ToggleAction<R extends Row>({ toggle, row, subject, blockedReason, onAsk }: ToggleActionProps<R>) {
  const { mutate } = useSWRConfig()
  const { userId } = useSession()
  const [busy, setBusy] = useState(false)
  const on = toggle.isOn(row)
  const label = toggle.label(row)
  const unavailable = blockedReason !== undefined || busy

  async function flip() {
    if (blockedReason) {
      toast.error(blockedReason)
      return
    }
    const request = toggle.request(row)
    if (toggle.confirm) {
      onAsk({ question: toggle.confirm(row), request, confirmLabel: label })
      return
    }
    setBusy(true)
    try {
      const answer = await request.send()
      // A freeze's answer carries an undo ticket: its toast offers Undo (undo.ts).
      toastWriteAnswer(answer, mutate, userId)
      await refreshAfterWrite(mutate)
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  const press = () => (busy ? undefined : void flip())
  if (toggle.kind === 'switch') {
    return (
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-label={`${toggle.name ?? label} ${subject}`.trim()}
        aria-disabled={unavailable ? true : undefined}
        onClick={press}
        className={cn(
          'inline-flex h-8 items-center gap-2 rounded-md px-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-indigo-600',
          'text-slate-800 hover:bg-slate-100',
          unavailable ? 'cursor-not-allowed opacity-50' : '',
        )}
      >
        {/* The shared switch's look with its On or Off word, then the list's own label (Active / DeActive). */}
        <SwitchFace on={on} /> {label}
      </button>
    )
  }
  return (
    <Tooltip content={blockedReason ?? label}>
      <Button
        variant="outline"
        size="sm"
        aria-label={`${label} ${subject}`.trim()}
        aria-disabled={unavailable ? true : undefined}
        onClick={press}
        className={unavailable ? 'cursor-not-allowed opacity-50' : undefined}
      >
        {label}
      </Button>
    </Tooltip>
  )
}
