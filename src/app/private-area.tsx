/**
 * Everything behind login, as one lazy chunk: the guard (requirements R2.4, R6.3), the offline data
 * cache, the real-time link and the layout. Login does not load any of it.
 */
import { Suspense, useEffect, useSyncExternalStore } from 'react'
import { Redirect, useLocation } from 'wouter'
import { SWRConfig, type SWRConfiguration } from 'swr'
import { ApiError } from '#src/lib/api.ts'
import { afterLoadAndIdle } from '#src/lib/idle.ts'
import { currentCache, hydrate, isHydrated, subscribeCache } from '#src/lib/swr-cache.ts'
import { readAuthorization } from '#src/lib/token.ts'
import { Layout } from './layout.tsx'
import { Loading } from './loading.tsx'
import { firstAllowed, mayWrite, routeFor } from './route-table.ts'
import { endSession, useSession, type Session } from '#src/lib/session.ts'
import { IdleGuard } from './idle-guard.tsx'
import { ApprovalAlerts } from '#src/crud/writes/approval-alerts.tsx'

const swrOptions: SWRConfiguration = {
  provider: () => currentCache(),
  // Retry only what may pass on retry: a server hiccup. A refusal, bad input or being offline
  // will not change by asking again (reconnecting revalidates on its own).
  onErrorRetry: (error: unknown, _key, _config, revalidate, { retryCount }) => {
    if (!(error instanceof ApiError) || error.status < 500 || retryCount >= 3) return
    setTimeout(() => void revalidate({ retryCount }), 1000 * 2 ** retryCount)
  },
}

/** Joins the admin's real-time room; the server's LOGOUT ends the session (requirements R4.3). */
function useRealtime(session: Session): void {
  useEffect(() => {
    const authorization = readAuthorization()
    if (!session.isAuth || !authorization) return
    let stop: (() => void) | undefined
    let cancelled = false
    const connect = () =>
      void import('#src/lib/socket.ts').then(({ connectRealtime }) => {
        if (cancelled) return
        stop = connectRealtime(authorization, session.userId, () => endSession('Your session has ended. Please log in again.'))
      })
    // The link is not needed to paint the screen: socket.io-client is fetched and the link opened
    // once the page has loaded and the main thread is idle, so its code does not compete with
    // the first render. A LOGOUT missed meanwhile still ends the session: the revoked token gets
    // a 401 on the next call.
    const cancelWait = afterLoadAndIdle(connect)
    return () => {
      cancelled = true
      cancelWait()
      stop?.()
    }
  }, [session.isAuth, session.scope, session.userId])
}

function NoScreens() {
  return (
    <div className="mx-auto max-w-lg rounded-lg bg-white p-6 shadow-sm">
      <h1 className="text-xl font-semibold">No screen available</h1>
      <p className="mt-2 text-slate-700">Your account has no access to any screen yet. Ask an administrator to grant access.</p>
    </div>
  )
}

export function PrivateArea() {
  const session = useSession()
  const [location] = useLocation()
  const ready = useSyncExternalStore(subscribeCache, () => isHydrated(session.scope))
  useRealtime(session)
  useEffect(() => {
    // main.tsx hydrates before the first render; this covers a login without reload.
    if (session.isAuth && !ready) void hydrate(session.scope)
  }, [ready, session.isAuth, session.scope])

  const row = routeFor(location)
  useEffect(() => {
    document.title = row ? `${row.title} · Back Office` : 'Back Office'
  }, [row])

  if (!session.isAuth) return <Redirect to="/login" replace />
  if (!ready) return <Loading />

  const home = firstAllowed(session.mayOpen)
  let body = null
  // A page that only shows one record of a list (View Brand) opens for whoever may open the list:
  // the server answers its read under the list's route too.
  const opens = row !== undefined && session.mayOpen(row.kind === 'view' && row.parent ? row.parent : row.path)
  if (!row || !opens) {
    // A refused route goes to the first allowed one (requirements R6.3).
    body = home && home.path !== row?.path ? <Redirect to={home.path} replace /> : <NoScreens />
  } else if ((row.kind === 'action' || row.kind === 'record') && !mayWrite(row, session)) {
    // Add and edit pages are writes: View Only staff go back to the list.
    const back = row.parent && session.mayOpen(row.parent) ? row.parent : home?.path
    body = back ? <Redirect to={back} replace /> : <NoScreens />
  } else {
    const Screen = row.component
    body = (
      <Suspense fallback={<Loading />}>
        <Screen />
      </Suspense>
    )
  }

  return (
    <SWRConfig key={session.scope} value={swrOptions}>
      <Layout>{body}</Layout>
      <ApprovalAlerts />
      {session.idleSeconds === null ? null : <IdleGuard key={session.scope} idleSeconds={session.idleSeconds} />}
    </SWRConfig>
  )
}
