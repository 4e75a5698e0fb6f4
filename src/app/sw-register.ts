/**
 * Registers the service worker (sw/sw.ts) and, once a new version is waiting, loads the update
 * prompt (sw-update.ts, with workbox-window) to offer "Reload to update", rather than swapping
 * code under a staff member in the middle of a form.
 *
 * The registration itself is the browser's one call: every first visit makes it, while an update
 * to offer is rare. So workbox-window (2.3 KiB of the first load's script) is fetched only when
 * there is one, not with every screen.
 */
export function registerServiceWorker(url: string, scope: string): void {
  const offer = (): void => {
    void import('./sw-update.ts').then(({ offerUpdate }) => offerUpdate(url, scope))
  }
  navigator.serviceWorker
    .register(url, { scope })
    .then((registration) => {
      // A worker installed while this page was away (or in another tab) waits already. Only a page
      // an older worker controls has anything to update: a first visit's worker takes over alone.
      if (registration.waiting !== null && navigator.serviceWorker.controller !== null) offer()
      registration.addEventListener('updatefound', () => {
        const worker = registration.installing
        worker?.addEventListener('statechange', () => {
          if (worker.state === 'installed' && navigator.serviceWorker.controller !== null) offer()
        })
      })
    })
    .catch((error: unknown) => {
      // Without a worker the app still works online; only offline use and install are lost.
      console.warn('Service worker registration failed', error)
    })
}
