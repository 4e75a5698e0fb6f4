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
import { errorMessage } from '../form/error-message.ts'
import { refreshAfterWrite } from '../writes/refresh.ts'
import { toastWriteAnswer } from '../writes/undo-keys.ts'
import { BarAction, BarFrame, SelectionBar } from './selection-bar.tsx'

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

/** The selection bar with the list's server actions, each previewed before it runs; then the run's progress in its place. */
export function ServerBulkBar({ calls, count, matchingCount, matching, selection, blockedReason, onSelectMatching, onClear }: ServerBulkBarProps) {
  const [asking, setAsking] = useState<string | null>(null)
  const [run, follow] = useRun(onClear)
  const actions = Object.entries(calls.actions as Record<string, { label: string; danger?: boolean }>)

  if (run !== null) {
    return (
      <BarFrame label="Bulk action">
        <p role="status" className="font-medium">
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
      </BarFrame>
    )
  }
  const chosen = matching ? (matchingCount ?? 0) : count
  return (
    <>
      <SelectionBar count={count} matching={{ count: matchingCount, chosen: matching, onChoose: onSelectMatching }} onClear={onClear}>
        {actions.map(([name, action]) => (
          <BarAction key={name} label={action.label} danger={action.danger === true} disabled={chosen === 0} blockedReason={blockedReason} onRun={() => setAsking(name)} />
        ))}
      </SelectionBar>
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
