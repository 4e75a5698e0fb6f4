/**
 * Bulk actions chosen by the server (contract/bulk.ts): the bar above a list whose rows the admin
 * ticks (or chooses all those matching the search and filters), the preview dialog each action
 * opens, and the run that follows, its progress told over the socket (polled too, in case the
 * socket is down), cancellable, ending in one toast whose Undo (and Ctrl+Z) reverts all of it.
 */
import { Suspense, lazy, useEffect, useState } from 'react'
import { useSWRConfig } from 'swr'
import { BulkRun, bulkRunGoesOn, cancelBulkRun, getBulkRun, type BulkCalls, type BulkSelection } from '#contract/bulk'
import { SocketEvents } from '#contract/socket'
import { call } from '#src/lib/api.ts'
import { onRealtime } from '#src/lib/realtime-events.ts'
import { useSession } from '#src/lib/session.ts'
import { Button } from '#src/ui/button.tsx'
import { toast } from '#src/ui/toast.ts'
import { Tooltip } from '#src/ui/tooltip.tsx'
import { errorMessage } from '../form/error-message.ts'
import { refreshAfterWrite } from '../writes/refresh.ts'
import { toastWriteAnswer } from '../writes/undo-keys.ts'

// The dialog (Radix Dialog) is fetched the first time an action is pressed.
const BulkPreviewDialog = lazy(async () => ({ default: (await import('./bulk-preview-dialog.tsx')).BulkPreviewDialog }))

/** How often a running action is read again when no event came. */
const POLL_MS = 1500

/** Follows a run until it ends: its progress as the socket and the poll tell it; at the end, the toast with Undo. */
function useRun(onEnded: () => void): [BulkRun | null, (run: BulkRun) => void] {
  const [run, setRun] = useState<BulkRun | null>(null)
  const { mutate } = useSWRConfig()
  const { userId } = useSession()
  const id = run !== null && bulkRunGoesOn(run) ? run.id : null
  useEffect(() => {
    if (id === null) return
    const take = (payload: unknown) => {
      const parsed = BulkRun.safeParse(payload)
      if (parsed.success && parsed.data.id === id) setRun(parsed.data)
    }
    const off = onRealtime(SocketEvents.bulkProgress, take)
    const timer = setInterval(() => void call(getBulkRun, { id }).then((answer) => take(answer.run), () => undefined), POLL_MS)
    return () => {
      off()
      clearInterval(timer)
    }
  }, [id])
  // Its end is told once: the toast (with Undo while its ticket lasts), the list read again, the selection cleared.
  const [told, setTold] = useState<string | null>(null)
  if (run !== null && !bulkRunGoesOn(run) && told !== run.id) {
    setTold(run.id)
    setRun(null)
    toastWriteAnswer({ message: run.label, ...(run.undo === null ? {} : { undo: run.undo }) }, mutate, userId)
    void refreshAfterWrite(mutate)
    onEnded()
  }
  return [run, setRun]
}

interface ServerBulkBarProps {
  calls: BulkCalls
  /** Rows ticked, on every page. */
  count: number
  /** The rows the list's search and filters match now (undefined while counted). */
  matchingCount: number | undefined
  /** Whether the choice is "every row matching" rather than the rows ticked. */
  matching: boolean
  selection: BulkSelection | null
  blockedReason: string | undefined
  onSelectMatching: () => void
  onClear: () => void
}

/** "3 selected" or "All 120 matching", Select all matching, Clear, and the list's actions; then the run's progress. */
export function ServerBulkBar({ calls, count, matchingCount, matching, selection, blockedReason, onSelectMatching, onClear }: ServerBulkBarProps) {
  const [asking, setAsking] = useState<string | null>(null)
  const [run, follow] = useRun(onClear)
  const actions = Object.entries(calls.actions as Record<string, { label: string; danger?: boolean }>)

  if (run !== null) {
    return (
      <div role="region" aria-label="Bulk action" className="flex flex-wrap items-center gap-3 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm">
        <p role="status" className="font-medium text-indigo-950">
          {run.label}
        </p>
        <progress max={run.total} value={run.done + run.skipped} aria-label="Progress" className="h-2 w-40" />
        <Button
          variant="outline"
          size="sm"
          className="ml-auto"
          onClick={() =>
            void call(cancelBulkRun, { id: run.id }).then(
              (answer) => follow(answer.run),
              (error: unknown) => toast.error(errorMessage(error)),
            )
          }
        >
          Cancel
        </Button>
      </div>
    )
  }
  if (count === 0 && !matching) return null
  const chosen = matching ? (matchingCount ?? 0) : count
  return (
    <>
      <div role="region" aria-label="Selected rows" className="flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm">
        <p role="status" className="font-medium text-indigo-950">
          {matching ? `All ${matchingCount ?? ''} matching selected` : `${count} selected`}
        </p>
        {!matching && matchingCount !== undefined && matchingCount > count ? (
          <Button variant="outline" size="sm" onClick={onSelectMatching}>
            Select all {matchingCount} matching
          </Button>
        ) : null}
        <Button variant="ghost" size="sm" onClick={onClear}>
          Clear
        </Button>
        <div className="ml-auto flex flex-wrap gap-2">
          {actions.map(([name, action]) =>
            blockedReason ? (
              <Tooltip key={name} content={blockedReason}>
                <Button variant="outline" size="sm" aria-disabled onClick={() => toast.error(blockedReason)}>
                  {action.label}
                </Button>
              </Tooltip>
            ) : (
              <Button key={name} variant={action.danger === true ? 'destructive' : 'outline'} size="sm" disabled={chosen === 0} onClick={() => setAsking(name)}>
                {action.label}
              </Button>
            ),
          )}
        </div>
      </div>
      {asking !== null && selection !== null ? (
        <Suspense fallback={null}>
          <BulkPreviewDialog
            calls={calls}
            action={asking}
            selection={selection}
            onClose={() => setAsking(null)}
            onApplied={(applied) => {
              setAsking(null)
              follow(applied)
            }}
          />
        </Suspense>
      ) : null}
    </>
  )
}
