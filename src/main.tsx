import './index.css'
import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { App, loadLogin, privateArea } from './app/app.tsx'
import { BASE } from './lib/base.ts'
import { preloadScreen } from './app/route-table.ts'
import { getSession, loadSessionDecoder, onSessionEnd } from './lib/session.ts'
import { afterLoadAndIdle } from './lib/idle.ts'
import { readAuthorization, subscribeToken } from './lib/token.ts'
import { initTheme } from './lib/theme.ts'
import { listenForInstall } from './lib/install.ts'
import { shareCspNonce } from './ui/csp-nonce.ts'

shareCspNonce()
initTheme()
listenForInstall()

// Logout, a refused token, another tab's logout or the server's LOGOUT: the cached data goes too.
onSessionEnd(() => {
  void import('./lib/swr-cache.ts').then((cache) => cache.wipe())
  void import('./lib/early-calls.ts').then((early) => early.forgetFirstCalls())
})

async function start(): Promise<void> {
  let chunks: Promise<unknown> = Promise.resolve()
  if (readAuthorization()) {
    // Everything the first signed-in screen needs is fetched at once, not one chunk after another,
    // and is in before the first render: a screen that suspended would keep its Loading state on
    // screen for React's 300 ms and ask for its data only then (src/lib/preloadable.ts). A chunk
    // that fails to arrive is not waited for: the screen shows its error when it renders.
    const path = window.location.pathname.slice(BASE.length) || '/'
    chunks = Promise.all([privateArea.preload(), preloadScreen(path)]).catch(() => undefined)
    await loadSessionDecoder()
  }
  const session = getSession()
  if (session.isAuth) {
    // The offline copy must be in memory before the first render, or an offline reload would
    // show empty lists and then overwrite the copy with nothing.
    const [cache, early, rows] = await Promise.all([import('./lib/swr-cache.ts'), import('./lib/early-calls.ts'), import('./lib/rows-keep.ts')])
    await Promise.all([cache.hydrate(session.scope), chunks])
    rows.keepRowsOnLeave(() => early.pageKey(window.location), readAuthorization, cache.shownDataTime, subscribeToken)
    // What this page asks for first is sent before its code next time (src/lib/early-calls.ts).
    early.noteFirstCalls(early.pageKey(window.location))
    afterLoadAndIdle(() => early.saveFirstCalls(early.pageKey(window.location)))
  } else {
    // Fetch the login chunk in parallel with React's start instead of after it.
    void loadLogin()
    // No valid session (none, or an expired or idle one): whatever a previous session left in the
    // offline copy goes now, before anyone signs in on this browser.
    void import('./lib/offline-store.ts').then((offline) => offline.wipeStored())
  }
  const root = document.getElementById('root')
  if (!root) throw new Error('index.html has no #root element')
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  )
  // The login shell (login.html, made at build) holds the login screen's markup, painted before
  // this ran: it is hydrated when it is what this visit shows. With a session the visit goes on
  // to the first screen instead, so the markup goes and the app renders from nothing. The other
  // shell (index.html) holds the loading state, which stays until React's first commit clears it.
  const path = window.location.pathname.slice(BASE.length) || '/'
  const prerendered = root.dataset['prerendered']
  // Early calls not sent yet are not sent now (src/lib/early-calls.ts): the screens ask themselves.
  window.boAppRendering = true
  if (prerendered === path && !session.isAuth) hydrateRoot(root, app)
  else {
    if (prerendered !== undefined) root.replaceChildren()
    createRoot(root).render(app)
  }
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    // Not needed to paint: registered (and workbox-window fetched) once the page has loaded.
    afterLoadAndIdle(() => {
      void import('./app/sw-register.ts').then(({ registerServiceWorker }) => registerServiceWorker(`${BASE}/sw.js`, `${BASE}/`))
    })
  }
}

void start()
