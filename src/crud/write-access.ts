import { useSession } from '#src/app/session.ts'
import { WRITES_OFFLINE_MESSAGE, useOnline } from '#src/lib/online.ts'

export interface WriteAccess {
  /** Admin access level: write controls exist at all (spec section 6). View Only never sees them. */
  allowed: boolean
  /** Shown but unusable, with this reason, while the browser is offline (writes are never queued). */
  blockedReason: string | undefined
}

/** The one place that decides whether add, edit and delete controls are shown and usable. */
export function useWriteAccess(): WriteAccess {
  const { canWrite } = useSession()
  const online = useOnline()
  return { allowed: canWrite, blockedReason: online ? undefined : WRITES_OFFLINE_MESSAGE }
}
