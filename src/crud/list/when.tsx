import { useSyncExternalStore } from 'react'
import { currentNow, describeWhen, subscribeMinute } from '#src/lib/dates.ts'

/** The current time, updated once a minute by the page's shared timer (src/lib/dates.ts). */
function useMinuteNow(): number {
  return useSyncExternalStore(subscribeMinute, currentNow, currentNow)
}

/**
 * A moment as the staff member reads it (src/lib/dates.ts): '3 minutes ago' within the last day, its
 * date and time before that, in their locale and time zone; the exact moment in the tooltip and
 * for screen readers. Recent ones move on with the page's one minute timer.
 */
export function When({ at, className }: { at: string; className?: string }) {
  const now = useMinuteNow()
  if (at === '') return '--'
  const { text, exact, recent } = describeWhen(at, now)
  if (text === exact) return <span className={className}>{text}</span>
  return (
    <time dateTime={at} title={exact} className={className}>
      <span aria-hidden="true">{text}</span>
      <span className="sr-only">{recent ? `${text}, ${exact}` : exact}</span>
    </time>
  )
}
