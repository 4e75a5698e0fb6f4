import { useEffect, useState } from 'react'
import { BULK_SET_CHANGED, type BulkCalls, type BulkPreviewAnswer, type BulkRun, type BulkSelection } from '#contract/bulk'
import { ApiError, call } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { errorMessage } from '../form/error-message.ts'

export interface BulkPreviewProps {
  calls: BulkCalls
  action: string
  selection: BulkSelection
  onClose: () => void
  /** Apply was accepted: the run is under way. */
  onApplied: (run: BulkRun) => void
}

/** A group's names, and how many more it holds than the names shown. */
function Names({ names, count }: { names: readonly string[]; count: number }) {
  if (names.length === 0) return null
  return (
    <ul className="ml-5 list-disc text-sm text-slate-700">
      {names.map((name, i) => (
        <li key={`${i}:${name}`}>{name}</li>
      ))}
      {count > names.length ? <li className="list-none text-slate-600">and {count - names.length} more</li> : null}
    </ul>
  )
}

/**
 * Before a bulk action: the server's preview of what will change and what will be skipped and
 * why; Apply sends the preview's token, so only that set is changed. When the rows changed since
 * (409), the dialog says so and shows the new preview: the admin confirms again what they see.
 */
export function BulkPreviewDialog({ calls, action, selection, onClose, onApplied }: BulkPreviewProps) {
  const spec = (calls.actions as Record<string, { label: string; danger?: boolean; final?: boolean } | undefined>)[action]
  const label = spec?.label ?? action
  const [preview, setPreview] = useState<BulkPreviewAnswer | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const [changed, setChanged] = useState(false)
  const [busy, setBusy] = useState(false)
  const [asked, setAsked] = useState(0)

  useEffect(() => {
    let live = true
    call(calls.preview, { action, selection } as never).then(
      (answer) => live && setPreview(answer),
      (error: unknown) => live && setFailed(errorMessage(error)),
    )
    return () => {
      live = false
    }
  }, [calls, action, selection, asked])

  async function apply(token: string) {
    setBusy(true)
    try {
      const answer = await call(calls.apply, { action, selection, token } as never)
      onApplied(answer.run)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.message === BULK_SET_CHANGED) {
        setChanged(true)
        setPreview(null)
        setAsked((n) => n + 1)
      } else setFailed(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  const count = preview?.change.count ?? 0
  return (
    <Dialog open onOpenChange={(open) => (open || busy ? null : onClose())}>
      <DialogContent aria-describedby={undefined}>
        <DialogHeader>
          <DialogTitle>
            {label}: {calls.noun}
          </DialogTitle>
          <DialogDescription>Only the rows counted here are changed. {spec?.final === true ? 'This cannot be undone.' : 'You can undo it afterwards.'}</DialogDescription>
        </DialogHeader>
        {changed ? (
          <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {BULK_SET_CHANGED}: the numbers below are new.
          </p>
        ) : null}
        {failed !== null ? (
          <p role="alert" className="text-sm text-red-700">
            {failed}
          </p>
        ) : preview === null ? (
          <p role="status" className="text-sm text-slate-600">
            Counting the rows…
          </p>
        ) : (
          <div className="flex flex-col gap-3" aria-live="polite">
            <section aria-label="Will change">
              <h3 className="text-sm font-semibold text-slate-900">
                Will change: {count} {calls.noun}
              </h3>
              <Names names={preview.change.names} count={count} />
            </section>
            {preview.skipped.map((group) => (
              <section key={group.reason} aria-label={`Skipped: ${group.label}`}>
                <h3 className="text-sm font-semibold text-slate-900">
                  Skipped, {group.label.toLowerCase()}: {group.count}
                </h3>
                <Names names={group.names} count={group.count} />
              </section>
            ))}
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button variant={spec?.danger === true ? 'destructive' : 'default'} disabled={busy || preview === null || count === 0} onClick={() => (preview ? void apply(preview.token) : undefined)}>
            {label} {count} {calls.noun}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
