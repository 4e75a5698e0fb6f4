/**
 * How far a promotion's delivery has come (sent / failed / total of its current round, and its
 * status), and one recipient's delivery status.
 */
import type { DeliveryStatus, PromotionProgress, PromotionStatus } from '#contract/promotions'
import { AWAITING_APPROVAL } from '#contract/four-eyes'
import { cn } from '#src/ui/cn.ts'
import { ScheduledFor } from '#src/crud/writes/scheduled-for.tsx'
import type { Reschedule } from '#src/crud/writes/reschedule-send.tsx'

type Progress = Omit<PromotionProgress, 'id'>

/** A round still delivering: it can be cancelled, not resent. */
export const isRunning = (p: Pick<Progress, 'status'>): boolean => p.status === 'queued' || p.status === 'sending'
/** A round not over yet: delivering, waiting for a second Admin or for its time; it can be cancelled (withdrawn), not resent. */
export const isOpen = (p: Pick<Progress, 'status'>): boolean => isRunning(p) || p.status === 'awaiting' || p.status === 'scheduled'

export const statusText: Record<PromotionStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  done: 'Done',
  cancelled: 'Cancelled',
  awaiting: AWAITING_APPROVAL,
  rejected: 'Rejected',
  scheduled: 'Scheduled',
}

export function DeliveryProgress({ progress, reschedule }: { progress: Progress & { scheduledAt?: string | null }; reschedule?: Reschedule }) {
  const { sent, failed, excluded, total, status, round } = progress
  if (status === 'scheduled' && progress.scheduledAt) return <ScheduledFor at={progress.scheduledAt} reschedule={reschedule} />
  if (status === 'cancelled' && progress.scheduledAt && total === 0) return <ScheduledFor at={progress.scheduledAt} cancelled />
  const done = sent + failed + excluded
  return (
    <div className="flex min-w-40 flex-col gap-1 text-sm">
      <span className="tabular-nums">
        {sent} sent / {failed} failed / {total} total
      </span>
      <progress
        value={done}
        max={Math.max(total, 1)}
        aria-label={`Delivered ${done} of ${total}`}
        className="h-1.5 w-full overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-indigo-600"
      />
      <span className={cn('text-xs', status === 'cancelled' || status === 'rejected' || status === 'awaiting' ? 'text-amber-800' : failed > 0 ? 'text-red-700' : 'text-slate-600')}>
        {statusText[status]}
        {round > 1 ? `, round ${round}` : ''}
        {excluded > 0 ? ` · ${excluded} left out` : ''}
        {status === 'cancelled' || status === 'rejected' ? `: ${total - done} not sent` : ''}
      </span>
    </div>
  )
}

const recipientText: Record<DeliveryStatus, string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed', cancelled: 'Not sent', excluded: 'Left out' }

export function RecipientStatus({ status }: { status: DeliveryStatus }) {
  return (
    <span
      className={cn(
        'rounded-full px-2 py-0.5 text-xs font-medium',
        status === 'sent' ? 'bg-emerald-50 text-emerald-800' : status === 'failed' ? 'bg-red-50 text-red-800' : 'bg-slate-100 text-slate-700',
      )}
    >
      {recipientText[status]}
    </span>
  )
}
