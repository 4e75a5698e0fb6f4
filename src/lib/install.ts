/**
 * Installing the PWA from our own menu. Chromium offers installation once, through
 * `beforeinstallprompt`; we keep that event (listened for from the start, so it is not missed) and
 * offer an Install action in the account menu and the palette while it is usable.
 */
import { useSyncExternalStore } from 'react'

/** The part of Chromium's BeforeInstallPromptEvent we use (not in TypeScript's DOM types). */
interface InstallPrompt extends Event {
  prompt(): Promise<void>
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>
}

const isInstallPrompt = (e: Event): e is InstallPrompt => 'prompt' in e && typeof e.prompt === 'function'

let deferred: InstallPrompt | null = null
const listeners = new Set<() => void>()
const changed = (): void => {
  for (const l of listeners) l()
}

export function listenForInstall(): void {
  window.addEventListener('beforeinstallprompt', (e) => {
    if (!isInstallPrompt(e)) return
    // Keep the browser's own mini-bar away; our menus offer it instead.
    e.preventDefault()
    deferred = e
    changed()
  })
  window.addEventListener('appinstalled', () => {
    deferred = null
    changed()
  })
}

/** Shows the browser's install dialog; the offer is used up either way. */
export async function promptInstall(): Promise<void> {
  const prompt = deferred
  if (prompt === null) return
  deferred = null
  changed()
  await prompt.prompt()
  await prompt.userChoice
}

const subscribe = (l: () => void): (() => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}
export const useInstallable = (): boolean => useSyncExternalStore(subscribe, () => deferred !== null, () => false)
