/**
 * The idle timeout: a session without pointer or keyboard activity in any tab
 * for the token's `idle` seconds (IDLE_TIMEOUT_MINUTES, 30 by default) ends as a forced logout
 * does. A minute before, a dialog says "You will be signed out in N seconds" and offers "Stay
 * signed in"; while it shows, only an answer counts (a mouse passing over the page does not).
 * Activity is also reported to the server at most once a minute, which enforces the same limit
 * with a grace (server/kit/ground/access/sessions.ts), so a copied token does not outlive the session.
 */
import { Suspense, lazy, useEffect, useRef, useState } from 'react'
import { keepAlive } from '#contract/auth'
import { ACTIVITY_REPORT_MS } from '#contract/common'
import { call } from '#src/lib/api.ts'
import { IDLE_WARNING_MS, lastActivity, recordActivity, subscribeActivity, trackActivity } from '#src/lib/activity.ts'
import { endSession, logoutAndReload } from '#src/lib/session.ts'

// Radix's dialog comes with the first warning, not with the first screen.
const IdleWarning = lazy(async () => ({ default: (await import('./idle-warning.tsx')).IdleWarning }))

/** How long an idle session lasted, in words, for the message after it ends. */
export const idleWords = (seconds: number): string => {
  const minutes = Math.round(seconds / 60)
  return minutes === 1 ? '1 minute' : `${minutes} minutes`
}

export function IdleGuard({ idleSeconds }: { idleSeconds: number }) {
  /** Milliseconds left while the warning shows; null otherwise. */
  const [left, setLeft] = useState<number | null>(null)
  const warning = useRef(false)

  useEffect(() => {
    // A session from before activity was recorded counts from now.
    if (lastActivity() === null) recordActivity(Date.now(), true)
    let lastReport = Date.now()
    let ended = false
    const check = () => {
      if (ended) return
      const now = Date.now()
      const remaining = (lastActivity() ?? now) + idleSeconds * 1000 - now
      if (remaining <= 0) {
        ended = true
        endSession(`You were signed out after ${idleWords(idleSeconds)} without activity.`)
        return
      }
      warning.current = remaining <= IDLE_WARNING_MS
      setLeft(warning.current ? remaining : null)
    }
    const stopTracking = trackActivity(
      () => !warning.current,
      (now) => {
        recordActivity(now)
        if (now - lastReport < ACTIVITY_REPORT_MS) return
        lastReport = now
        // A refused token (401) ends the session through the API client; other failures wait for the next report.
        call(keepAlive, {}).catch(() => {})
      },
    )
    const stopListening = subscribeActivity(check)
    // Once a second: the countdown needs it, and a check costs next to nothing.
    const timer = window.setInterval(check, 1000)
    // A hidden tab's timers are slowed down: check as soon as it is shown again.
    document.addEventListener('visibilitychange', check)
    check()
    return () => {
      stopTracking()
      stopListening()
      window.clearInterval(timer)
      document.removeEventListener('visibilitychange', check)
    }
  }, [idleSeconds])

  const stay = () => {
    warning.current = false
    setLeft(null)
    recordActivity(Date.now(), true)
  }

  if (left === null) return null
  return (
    <Suspense fallback={null}>
      <IdleWarning secondsLeft={Math.ceil(left / 1000)} onStay={stay} onLogout={logoutAndReload} />
    </Suspense>
  )
}
