/** How far a newsletter send has come: sent / failed / total, a bar, and where it stands. */
import { rescheduleNewsletter, type NewsletterSend, type SendStatus } from '#contract/newsletter'
import { AWAITING_APPROVAL } from '#contract/four-eyes'
import { reasonLabels } from '#contract/forecast'
import { ApprovalNote } from '#src/crud/writes/approval.tsx'
import { cn } from '#src/ui/cn.ts'
import { ScheduledFor } from '#src/crud/writes/scheduled-for.tsx'

export const statusText: Record<SendStatus, string> = { sending: 'Sending', paused: 'Paused', done: 'Done', cancelled: 'Cancelled', awaiting: AWAITING_APPROVAL, rejected: 'Rejected', scheduled: 'Scheduled' }

export const isRunning = (s: Pick<NewsletterSend, 'status'>): boolean => s.status === 'sending'

/** What else the numbers hold besides sent and failed, in words ("2 unsubscribed, skipped"). */
function notes(s: NewsletterSend): string[] {
  const out: string[] = []
  if (s.pending > 0 && s.status !== 'cancelled' && s.status !== 'awaiting') out.push(`${s.pending} to go`)
  if (s.skipped > 0) out.push(`${s.skipped} unsubscribed, skipped`)
  for (const { reason, count } of s.excludedBy) out.push(`${count} left out: ${reasonLabels[reason].toLowerCase()}`)
  if (s.held > 0) out.push(`${s.held} held: no mail server is set up`)
  if (s.cancelled > 0) out.push(`${s.cancelled} not sent`)
  return out
}

/** `editTime`: the list's cell offers "Edit time" on a scheduled send. */
export function SendProgress({ send, editTime = false }: { send: NewsletterSend; editTime?: boolean }) {
  const { sent, failed, total, status } = send
  if (status === 'scheduled' && send.scheduledAt !== null)
    return <ScheduledFor at={send.scheduledAt} reschedule={editTime ? { endpoint: rescheduleNewsletter, id: send._id, name: send.subject } : undefined} />
  if (status === 'cancelled' && send.scheduledAt !== null && total === 0) return <ScheduledFor at={send.scheduledAt} cancelled />
  const settled = total - send.pending
  return (
    <div className="flex min-w-40 flex-col gap-1 text-sm">
      <span className="whitespace-nowrap tabular-nums">{`${sent} sent / ${failed} failed / ${total} total`}</span>
      <progress
        value={settled}
        max={Math.max(total, 1)}
        aria-label={`${settled} of ${total} handled`}
        className="h-1.5 w-full overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-indigo-600"
      />
      <span className={cn('text-xs', status === 'cancelled' || status === 'paused' || status === 'rejected' || status === 'awaiting' ? 'text-amber-800' : failed > 0 ? 'text-red-700' : 'text-slate-600')}>
        {[statusText[status], ...notes(send)].join(' · ')}
      </span>
      <ApprovalNote row={send} />
    </div>
  )
}
