/**
 * Registers the service worker (sw/sw.ts) and offers "Reload to update" when a new version is
 * waiting, rather than swapping code under a staff member in the middle of a form.
 */
import { Workbox } from 'workbox-window'
import { toast } from '#src/ui/toast.ts'

export function registerServiceWorker(url: string, scope: string): void {
  const wb = new Workbox(url, { scope })
  wb.addEventListener('waiting', () => {
    toast.action('A new version of the back office is ready.', 'Reload to update', () => {
      // Reload once the new worker has taken over, so the page and the worker match. If it took
      // over already (another tab pressed the button first) no event comes: reload anyway.
      const reload = () => window.location.reload()
      wb.addEventListener('controlling', reload)
      wb.messageSkipWaiting()
      window.setTimeout(reload, 3000)
    })
  })
  wb.register().catch((error: unknown) => {
    // Without a worker the app still works online; only offline use and install are lost.
    console.warn('Service worker registration failed', error)
  })
}
