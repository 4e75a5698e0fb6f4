import { useState } from 'react'
import { useSWRConfig } from 'swr'
import { ConfirmDialog } from '#src/ui/alert-dialog.tsx'
import { toast } from '#src/ui/toast.ts'
import { useSession } from '#src/lib/session.ts'
import { errorMessage } from './error-message.ts'
import { refreshAfterWrite } from '../writes/refresh.ts'
import { toastWriteAnswer } from '../writes/undo-keys.ts'
import { undoNote } from '../writes/undo.ts'
import type { BoundCall } from '../writes/row-writes.ts'

/** A write that waits for a yes: a delete, a bulk action, a toggle that asks first. */
export interface PendingWrite {
  /** The required question, word for word ("Are you sure you want to remove this Link"). */
  question: string
  request: BoundCall
  /** The yes button; the dialog's own default is "Yes, remove". */
  confirmLabel?: string
  /** After success, before the refetch (a bulk action clears its selection). */
  onDone?: () => void
  /** Said under the question; unless told, that the write can be undone when its answer offers Undo. */
  description?: string
  /** The button that closes without acting; 'Cancel' by default. */
  dismissLabel?: string
  /** Several answers, each its own call, instead of the one yes for `request` (row-actions.tsx). */
  choices?: readonly { label: string; request: BoundCall }[]
}

/**
 * Asks the question, then makes the call, toasts the server's message and refetches (one rule
 * for every write, refresh.ts). On failure the dialog stays open with the error toasted, so the
 * user can retry or cancel.
 */
export function ConfirmWriteDialog({ pending, onClose }: { pending: PendingWrite | null; onClose: () => void }) {
  const [busy, setBusy] = useState(false)
  const { mutate } = useSWRConfig()
  const { userId } = useSession()
  // The question stays on screen while the dialog closes, after `pending` is already gone.
  const [shown, setShown] = useState<PendingWrite | null>(pending)
  if (pending !== null && pending !== shown) setShown(pending)
  const current = pending ?? shown

  async function confirm(write: PendingWrite, request: BoundCall) {
    setBusy(true)
    try {
      const answer = await request.send()
      // A delete's answer carries an undo ticket: its toast offers Undo (undo.ts).
      toastWriteAnswer(answer, mutate, userId)
      onClose()
      write.onDone?.()
      await refreshAfterWrite(mutate)
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <ConfirmDialog
      open={pending !== null}
      onOpenChange={(open) => (open || busy ? null : onClose())}
      title={current?.question ?? ''}
      confirmLabel={current?.confirmLabel}
      description={current === null ? undefined : (current.description ?? undoNote(current.request.endpoint))}
      cancelLabel={current?.dismissLabel}
      busy={busy}
      onConfirm={() => (pending ? void confirm(pending, pending.request) : undefined)}
      choices={current?.choices?.map((choice) => ({ label: choice.label, onChoose: () => (pending ? void confirm(pending, choice.request) : undefined) }))}
    />
  )
}
