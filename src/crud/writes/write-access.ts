import { useSession, type Session } from '#src/lib/session.ts'
import { WRITES_OFFLINE_MESSAGE, useOnline } from '#src/lib/online.ts'

export interface WriteAccess {
  /** Admin access level: write controls exist at all (requirements R6.5). View Only never sees them. */
  allowed: boolean
  /** Shown but unusable, with this reason, while the browser is offline (writes are never queued). */
  blockedReason: string | undefined
}

/** Who may write on a screen, when it is stricter than the Admin access level (staff management). */
export type WriteRule = (session: Session) => boolean

/** The one place that decides whether add, edit and delete controls are shown and usable. */
export function useWriteAccess(rule?: WriteRule): WriteAccess {
  const session = useSession()
  const online = useOnline()
  const allowed = session.canWrite && (rule === undefined || rule(session))
  return { allowed, blockedReason: online ? undefined : WRITES_OFFLINE_MESSAGE }
}
