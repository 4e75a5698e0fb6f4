/**
 * Work the first screen does not need (the service worker, the real-time link): run it once the
 * page has loaded, the calls to the server in flight have answered and the main thread is idle,
 * so neither its download nor its start-up competes with the first render. Waiting for the calls
 * matters on a slow link: the main thread is idle while the first screen waits for its data,
 * and socket.io's handshake (several round trips) would otherwise go out then, ahead of the
 * rows. `timeout` bounds the wait for idleness on a busy main thread, QUIET_WAIT_MS the wait for
 * the calls.
 */
let inFlight = 0
const quietWaiters = new Set<() => void>()

/** Counts a call to the server while it is in flight (src/lib/api.ts sends every call through it). */
export function trackCall<T>(pending: Promise<T>): Promise<T> {
  inFlight += 1
  const done = () => {
    inFlight -= 1
    if (inFlight > 0) return
    const waiters = [...quietWaiters]
    quietWaiters.clear()
    for (const waiter of waiters) waiter()
  }
  pending.then(done, done)
  return pending
}

/** Longest wait for the calls to answer: a slow download must not hold the work back for good. */
export const QUIET_WAIT_MS = 10_000

export function afterLoadAndIdle(run: () => void, timeout = 2000): () => void {
  let cancelled = false
  let idleHandle: number | undefined
  let timer: number | undefined
  let quietTimer: number | undefined
  let waitedLongEnough = false
  let ran = false
  const whenQuiet = (next: () => void): boolean => {
    if (inFlight === 0 || waitedLongEnough) return true
    quietWaiters.add(next)
    quietTimer ??= window.setTimeout(() => {
      waitedLongEnough = true
      quietWaiters.delete(next)
      next()
    }, QUIET_WAIT_MS)
    return false
  }
  const whenIdle = () => {
    if (ran || cancelled || !whenQuiet(whenIdle)) return
    // A call may start while waiting for idleness (the first screen asks for its data): wait again.
    const go = () => {
      if (ran || cancelled || !whenQuiet(whenIdle)) return
      // Once: the bound on the wait for calls must not run the work a second time later.
      ran = true
      if (quietTimer !== undefined) window.clearTimeout(quietTimer)
      run()
    }
    if (typeof window.requestIdleCallback === 'function') idleHandle = window.requestIdleCallback(go, { timeout })
    else timer = window.setTimeout(go, 0)
  }
  const onLoad = () => whenIdle()
  if (document.readyState === 'complete') whenIdle()
  else window.addEventListener('load', onLoad, { once: true })
  return () => {
    cancelled = true
    quietWaiters.delete(whenIdle)
    window.removeEventListener('load', onLoad)
    if (idleHandle !== undefined) window.cancelIdleCallback(idleHandle)
    if (timer !== undefined) window.clearTimeout(timer)
    if (quietTimer !== undefined) window.clearTimeout(quietTimer)
  }
}
