/**
 * The top of the router. Only what every visitor needs is eager here (router, session, toasts);
 * the login form, the public pages, Not Found and the whole signed-in area are lazy chunks, so
 * /admin/login loads little.
 */
import { Suspense, lazy } from 'react'
import { preloadable } from '#src/lib/preloadable.ts'
import { Redirect, Route, Router, Switch, useLocation } from 'wouter'
import { Toaster } from '#src/ui/toaster.tsx'
import { BASE, HOME } from '#src/lib/base.ts'
import { Loading } from './loading.tsx'
import { authRoutes, hasAuthRoute, routeFor } from './route-table.ts'
import { useSession } from '#src/lib/session.ts'

export const loadLogin = () => import('#src/features/auth/login-page.tsx')
const LoginPage = lazy(async () => ({ default: (await loadLogin()).LoginPage }))
const DataDeletionPage = lazy(async () => ({ default: (await import('#src/features/public/data-deletion.tsx')).DataDeletionPage }))
const ReferralRedirect = lazy(async () => ({ default: (await import('#src/features/public/referral-redirect.tsx')).ReferralRedirect }))
const UnsubscribePage = lazy(async () => ({ default: (await import('#src/features/public/unsubscribe-page.tsx')).UnsubscribePage }))
const ConfirmRequestPage = lazy(async () => ({ default: (await import('#src/features/public/confirm-request-page.tsx')).ConfirmRequestPage }))
const SetPasswordPage = lazy(async () => ({ default: (await import('#src/features/public/set-password-page.tsx')).SetPasswordPage }))
const NotFound = lazy(async () => ({ default: (await import('./not-found.tsx')).NotFound }))
// Loaded ahead by main.tsx when a token is stored, so the first signed-in render does not suspend.
export const privateArea = preloadable(async () => (await import('./private-area.tsx')).PrivateArea)
const PrivateArea = privateArea.Component

/** Auth routes redirect to /users when already logged in (requirements R2.1). */
function AuthOnly({ children }: { children: React.ReactNode }) {
  const { isAuth } = useSession()
  return isAuth ? <Redirect to={HOME} replace /> : <Suspense fallback={<Loading />}>{children}</Suspense>
}

/** Private screens need a stored token; everything else about access is decided inside. */
function PrivateOrNotFound() {
  const [location] = useLocation()
  const { isAuth } = useSession()
  if (!routeFor(location)) {
    return (
      <Suspense fallback={<Loading />}>
        <NotFound />
      </Suspense>
    )
  }
  if (!isAuth) return <Redirect to="/login" replace />
  return (
    <Suspense fallback={<Loading />}>
      <PrivateArea />
    </Suspense>
  )
}

/** `ssrPath`: the path to render when there is no browser (the build's prerender, src/app/prerender.tsx). */
export function App({ ssrPath }: { ssrPath?: string }) {
  return (
    <Router base={BASE} ssrPath={ssrPath}>
      <Switch>
        <Route path="/">
          <AuthOnly>
            <LoginPage hasAuthRoute={hasAuthRoute} />
          </AuthOnly>
        </Route>
        <Route path="/login">
          <AuthOnly>
            <LoginPage hasAuthRoute={hasAuthRoute} />
          </AuthOnly>
        </Route>
        {authRoutes.map(({ path, component: Screen }) => (
          <Route key={path} path={path}>
            <AuthOnly>
              <Screen />
            </AuthOnly>
          </Route>
        ))}
        <Route path="/data-deletion">
          <Suspense fallback={<Loading />}>
            <DataDeletionPage />
          </Suspense>
        </Route>
        {/* The newsletter's unsubscribe link (server/areas/newsletter/unsubscribe.ts): public, asks before it acts. */}
        <Route path="/unsubscribe">
          <Suspense fallback={<Loading />}>
            <UnsubscribePage />
          </Suspense>
        </Route>
        {/* The link mailed to an access request's address (server/areas/access-requests/routes.ts): public, asks before it acts. */}
        <Route path="/confirm-request">
          <Suspense fallback={<Loading />}>
            <ConfirmRequestPage />
          </Suspense>
        </Route>
        {/* The link mailed to an approved member with no password (server/areas/access-requests/password-setup.ts): public, asks before it acts. */}
        <Route path="/set-password">
          <Suspense fallback={<Loading />}>
            <SetPasswordPage />
          </Suspense>
        </Route>
        <Route path="/app/:id">
          {(params) => (
            <Suspense fallback={<Loading />}>
              <ReferralRedirect code={params.id} />
            </Suspense>
          )}
        </Route>
        <Route>
          <PrivateOrNotFound />
        </Route>
      </Switch>
      <Toaster />
    </Router>
  )
}
