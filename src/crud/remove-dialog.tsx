import { useState } from 'react'
import { useSWRConfig } from 'swr'
import { ConfirmDialog } from '#src/ui/alert-dialog.tsx'
import { call } from '#src/lib/api.ts'
import { toast } from '#src/lib/toast.ts'
import { errorMessage } from './error-message.ts'
import type { RemoveDef, Row } from './list-types.ts'

interface RemoveDialogProps {
  remove: RemoveDef
  /** The record asked about; null closes the dialog. */
  row: Row | null
  onClose: () => void
  /** Endpoint name of the list whose cached pages must be fetched again after a removal. */
  listName: string
}

/**
 * Asks the spec's confirmation question, then deletes, toasts the server's message and refreshes
 * every cached page of the list. On failure the dialog stays open, so the user can retry.
 */
export function RemoveDialog({ remove, row, onClose, listName }: RemoveDialogProps) {
  const [busy, setBusy] = useState(false)
  const { mutate } = useSWRConfig()

  async function confirm(target: Row) {
    setBusy(true)
    try {
      const answer =
        remove.idField === '_id'
          ? await call(remove.endpoint, { _id: target._id })
          : await call(remove.endpoint, { id: target._id })
      toast.success(answer.message)
      onClose()
      await mutate((key) => Array.isArray(key) && key[0] === listName)
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <ConfirmDialog
      open={row !== null}
      onOpenChange={(open) => (open || busy ? null : onClose())}
      title={remove.confirm}
      busy={busy}
      onConfirm={() => (row ? void confirm(row) : undefined)}
    />
  )
}
