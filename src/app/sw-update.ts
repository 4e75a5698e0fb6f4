/**
 * Offers "Reload to update" for the new version of the service worker that is waiting
 * (sw-register.ts loads this only then), and reloads into it once asked.
 */
import { Workbox } from 'workbox-window'
import { toast } from '#src/ui/toast.ts'

let offered: Workbox | null = null

export function offerUpdate(url: string, scope: string): void {
  // Once per page: the Workbox follows every later update itself.
  if (offered !== null) return
  const wb = new Workbox(url, { scope })
  offered = wb
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
  // Registering again returns the same registration; with a worker waiting, Workbox then says
  // 'waiting' at once (wasWaitingBeforeRegister).
  wb.register({ immediate: true }).catch((error: unknown) => {
    console.warn('Service worker registration failed', error)
  })
}
