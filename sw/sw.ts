/**
 * The service worker (docs/decisions/004-pwa-shell.md, "The service worker"):
 * - precaches the built shell (the list is injected at build), so the app starts offline;
 * - answers navigations under /admin/ with the cached index.html (login.html for /admin/login),
 *   so every client route and a reload work offline;
 * - keeps uploaded images (/uploads/*) cache-first with a bound, since their names never change;
 * - never caches /api: API answers are per-session data, kept only in the app's own per-admin
 *   cache that logout wipes.
 * A new version waits until the page asks it to take over ("Reload to update").
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'
import { CacheFirst } from 'workbox-strategies'
import { ExpirationPlugin } from 'workbox-expiration'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> }

const BASE = new URL(self.registration.scope).pathname // '/admin/'

precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()

// The login shell holds the login screen already rendered (server/pwa.ts): for /admin/login only,
// so no other route paints a login form first.
const appShell = createHandlerBoundToURL(`${BASE}index.html`)
const loginShell = createHandlerBoundToURL(`${BASE}login.html`)

registerRoute(
  new NavigationRoute((options) => (options.url.pathname === `${BASE}login` ? loginShell(options) : appShell(options)), {
    allowlist: [new RegExp(`^${BASE}`)],
    // Files that happen to be requested as a navigation (an opened upload) are not the app, and the
    // referral redirect is the server's: it counts the visit and answers the store listing.
    denylist: [/\/api\//, /\/uploads\//, /\.[a-z0-9]+$/i, new RegExp(`^${BASE}app/`)],
  }),
)

registerRoute(
  ({ url, request }) => url.pathname.startsWith('/uploads/') && request.destination === 'image',
  new CacheFirst({
    cacheName: 'uploads',
    plugins: [new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true })],
  }),
)

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data: unknown = event.data
  if (typeof data === 'object' && data !== null && 'type' in data && data.type === 'SKIP_WAITING') void self.skipWaiting()
})
