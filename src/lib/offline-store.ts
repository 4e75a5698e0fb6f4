/**
 * Where the offline copy of the data lives (IndexedDB through idb-keyval, one snapshot per
 * scope; swr-cache.ts reads and writes it), and the wipe. Kept apart from swr-cache.ts (and its
 * zod) so that the login page can wipe what a previous session left without loading the cache.
 *
 * The snapshot is wiped when a session ends (Logout, LOGOUT, a refused token,
 * the idle timeout), when the app starts without a valid session (no token, an expired or idle
 * one), and before a different scope is hydrated (swr-cache.ts keeps only the current one's), so
 * the next person to sign in on this browser cannot read the previous admin's lists.
 */
import { clear, createStore } from 'idb-keyval'

export const store = createStore('back-office-cache', 'swr')

/**
 * The calls each page made first (src/lib/early-calls.ts): local storage, as the early script
 * reads them before any code could open IndexedDB. Their queries can hold what staff searched for.
 */
export const FIRST_CALLS_KEY = 'admin_first_calls'

/**
 * The markup of the last rows each list showed (src/lib/rows-snapshot.ts): local storage, as the
 * early script paints it before any code could open IndexedDB. It holds what the rows held.
 */
export const SNAPSHOTS_KEY = 'admin_rows_snapshots'

/** The service worker's cache of uploaded images (sw/sw.ts): the images the last session's lists showed. */
const UPLOADS_CACHE = 'uploads'

let pending: Promise<void> = Promise.resolve()

/** Resolves once every wipe asked for so far has finished (hydrate waits for it). */
export const wipesDone = (): Promise<void> => pending

/** Deletes every stored snapshot, the cached uploads, the first calls' notes and the rows' markup. Failures are logged: the app still works online. */
export function wipeStored(): Promise<void> {
  try {
    window.localStorage.removeItem(FIRST_CALLS_KEY)
    window.localStorage.removeItem(SNAPSHOTS_KEY)
  } catch {
    // Storage refused: there are no notes either.
  }
  pending = pending
    .then(async () => {
      await clear(store)
      if (typeof caches !== 'undefined') await caches.delete(UPLOADS_CACHE)
    })
    .catch((error: unknown) => {
      console.warn('Could not wipe the offline copy of the data', error)
    })
  return pending
}
