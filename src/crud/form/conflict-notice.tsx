/**
 * Concurrent edits: a save refused because someone else saved the record since this
 * form loaded it (HTTP 409, contract/common.ts RECORD_CHANGED). The form keeps what the user typed
 * and says so, with Reload, which starts the form again from the latest saved record.
 */
import { useEffect, useRef, useState } from 'react'
import { RECORD_CHANGED } from '#contract/common'
import { ApiError } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from './error-message.ts'

/** Whether a failed save is the edit-version conflict (rather than a field error or a refusal). */
export const isRecordChanged = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.status === 409 && error.errors['version'] === RECORD_CHANGED

export function ConflictNotice({ message, onReload }: { message: string; onReload: (() => Promise<void>) | undefined }) {
  const [busy, setBusy] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  // The user pressed Save at the bottom of the form: the way on is right there, and focused.
  useEffect(() => button.current?.focus(), [])
  const reload = async () => {
    if (!onReload) return
    setBusy(true)
    try {
      await onReload()
    } catch (error) {
      // Offline, or the record was deleted meanwhile: say why, and keep the form as it is.
      toast.error(errorMessage(error))
      setBusy(false)
    }
  }
  return (
    <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 md:col-span-full">
      <span>{message}</span>
      {onReload ? (
        <Button ref={button} variant="outline" size="sm" onClick={() => void reload()} disabled={busy}>
          {busy ? 'Reloading…' : 'Reload'}
        </Button>
      ) : null}
    </div>
  )
}
