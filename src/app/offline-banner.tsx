import { useSyncExternalStore } from 'react'
import { useOnline } from '#src/lib/online.ts'
import { formatDateTime } from '#src/lib/dates.ts'
import { shownDataTime, subscribeCache } from '#src/lib/swr-cache.ts'

/**
 * The offline state (docs/decisions/005-crud-kit-second-edition.md, "Offline, one notice"), as ONE notice: what is shown, from when, and that writes wait for
 * a connection (each write control also says so when pressed). Lists do not add their own.
 */
export function OfflineBanner() {
  const online = useOnline()
  const at = useSyncExternalStore(subscribeCache, shownDataTime, () => undefined)
  if (online) return null
  return (
    <div role="status" className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950">
      <p>
        <span className="font-medium">
          {at === undefined ? 'You are offline — no saved data for this screen yet' : `You are offline — showing data from ${formatDateTime(at)}`}
        </span>
        . Changes need a connection; nothing is saved or queued while offline.
      </p>
    </div>
  )
}
