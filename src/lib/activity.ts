/**
 * The admin's last activity (pointer or keyboard), shared by every tab of the app through local
 * storage, for the idle timeout. A tab writes the time at most every few
 * seconds; the others hear it through the `storage` event, so activity in any tab keeps the
 * session of all of them alive, and a session left idle ends in all of them together.
 *
 * Stored, not only in memory: a browser closed on a signed-in screen and opened again after the
 * idle time starts signed out (session.ts reads it before accepting a stored token).
 */
export const ACTIVITY_KEY = 'admin_last_activity'
/** Local storage is written at most this often (a mouse move fires many events). */
export const ACTIVITY_WRITE_GAP_MS = 5_000
/** The warning shows this long before the session ends ("You will be signed out in 60 seconds"). */
export const IDLE_WARNING_MS = 60_000

/** The events that count as the admin being there. */
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const

type Listener = () => void
const listeners = new Set<Listener>()
/** This tab's latest activity, written to storage only every ACTIVITY_WRITE_GAP_MS. */
let latest: number | null = null
let lastWrite = 0

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

function stored(): number | null {
  const value = Number(storage()?.getItem(ACTIVITY_KEY) ?? Number.NaN)
  return Number.isFinite(value) && value > 0 ? value : null
}

/** The latest activity of any tab (ms since the epoch), or null when none was ever recorded. */
export function lastActivity(): number | null {
  const shared = stored()
  if (latest === null) return shared
  return shared === null ? latest : Math.max(latest, shared)
}

/**
 * Records activity at `now`. Written through to storage when `force` (a login, "Stay signed in")
 * or when the last write is ACTIVITY_WRITE_GAP_MS old; in between it counts for this tab at once.
 */
export function recordActivity(now: number, force = false): void {
  latest = Math.max(latest ?? 0, now)
  if (!force && now - lastWrite < ACTIVITY_WRITE_GAP_MS) return
  lastWrite = now
  try {
    storage()?.setItem(ACTIVITY_KEY, String(latest))
  } catch {
    // Storage full or blocked: this tab still counts its own activity.
  }
  for (const listener of listeners) listener()
}

/** Whether a session with this idle time is over at `now`. No recorded activity counts as none yet (not idle). */
export function idleExpired(idleSeconds: number, now: number): boolean {
  const last = lastActivity()
  return last !== null && now - last >= idleSeconds * 1000
}

/** Called when any tab records activity. */
export function subscribeActivity(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/**
 * Listens for pointer and keyboard activity in this tab while `counts()` says it counts (the
 * warning dialog asks for an explicit answer instead). Returns the function that stops it.
 */
export function trackActivity(counts: () => boolean, onActivity: (now: number) => void): () => void {
  const handler = () => {
    if (counts()) onActivity(Date.now())
  }
  for (const name of ACTIVITY_EVENTS) window.addEventListener(name, handler, { passive: true, capture: true })
  return () => {
    for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, handler, { capture: true })
  }
}

// Another tab's activity arrives as a storage event: tell this tab's timer.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== ACTIVITY_KEY && event.key !== null) return
    for (const listener of listeners) listener()
  })
}
