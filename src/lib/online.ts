import { useSyncExternalStore } from 'react'

/** Shown on, and in place of, every write while the browser has no connection. */
export const WRITES_OFFLINE_MESSAGE =
  'You are offline. Changes need a connection: reconnect to add, edit or delete. Nothing is saved or queued while offline.'

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange)
  window.addEventListener('offline', onChange)
  return () => {
    window.removeEventListener('online', onChange)
    window.removeEventListener('offline', onChange)
  }
}

export const isOnline = (): boolean => (typeof navigator === 'undefined' ? true : navigator.onLine)

/** Whether the browser reports a network connection; re-renders on change. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true)
}
