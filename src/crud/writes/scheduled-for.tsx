/**
 * A scheduled send's time ("Send later"), in the admin's own time zone with the UTC time beside
 * it, with "Edit time" where the list says which send it is (`reschedule`); or, for one cancelled
 * before its time, that it never started.
 */
import { utcText } from '../form/fields/send-later.tsx'
import { RescheduleSend, type Reschedule } from './reschedule-send.tsx'

export function ScheduledFor({ at, cancelled = false, reschedule }: { at: string; cancelled?: boolean; reschedule?: Reschedule | undefined }) {
  const when = new Date(at)
  const local = when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
  return (
    <span className="flex min-w-40 flex-col gap-0.5 text-sm">
      <span className={cancelled ? 'text-amber-800' : 'font-medium text-slate-900'}>{cancelled ? 'Cancelled before its time: nothing was sent' : 'Scheduled'}</span>
      <span className="text-xs text-slate-600">
        {cancelled ? 'It was scheduled for ' : null}
        <time dateTime={at}>{local}</time> ({utcText(when)})
      </span>
      {cancelled || reschedule === undefined ? null : <RescheduleSend at={at} reschedule={reschedule} />}
    </span>
  )
}
