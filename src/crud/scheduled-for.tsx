/** A scheduled send's time ("Send later"), in the admin's own time zone with the UTC time beside it. */
import { utcText } from './fields/send-later.tsx'

export function ScheduledFor({ at }: { at: string }) {
  const when = new Date(at)
  const local = when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
  return (
    <span className="flex min-w-40 flex-col gap-0.5 text-sm">
      <span className="font-medium text-slate-900">Scheduled</span>
      <span className="text-xs text-slate-600">
        <time dateTime={at}>{local}</time> ({utcText(when)})
      </span>
    </span>
  )
}
