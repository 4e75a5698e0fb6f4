/**
 * Keeping a list's rows for the next opening (rows-snapshot.ts says why and paints them): the
 * app's half, apart from the painting the early script does, so neither loads the other's code.
 */
import { SNAPSHOTS_KEY } from './offline-store.ts'
import { AGE_ATTRIBUTE, MAX_SNAPSHOT_CHARS, MAX_SNAPSHOT_PAGES, STYLE_ATTRIBUTE, readSnapshots, sessionMark, storage } from './rows-snapshot.ts'

/**
 * The body rows a reopened page shows in its first screen: those that start within the window's
 * height from the top of the page (a reopened page starts at its top), and one more. The rest
 * would be painted out of sight for the moment before the app replaces them, and painting costs
 * in proportion to the markup (50 Leads rows were 240 KB and 300 to 700 ms to paint on a
 * throttled, busy machine, against some 15 in sight at 800 px).
 */
function rowsInFirstScreen(rows: readonly HTMLElement[]): number {
  const limit = window.innerHeight
  const inSight = rows.findIndex((row) => row.getBoundingClientRect().top + window.scrollY >= limit)
  return inSight === -1 ? rows.length : inSight + 1
}

/** The screen's markup when it shows rows of data, else null (a loading state, a form, an empty list, a painted snapshot). */
export function screenMarkup(root: HTMLElement): string | null {
  if (root.querySelector(`[${AGE_ATTRIBUTE}]`) !== null || root.querySelector('main tbody tr td + td') === null) return null
  const liveRows = [...root.querySelectorAll<HTMLElement>('main tbody tr')]
  const keep = rowsInFirstScreen(liveRows)
  const copy = root.cloneNode(true) as HTMLElement
  // The copy's rows are the live ones in the same order.
  for (const row of [...copy.querySelectorAll<HTMLElement>('main tbody tr')].slice(keep)) row.remove()
  for (const element of copy.querySelectorAll<HTMLElement>('[style]')) {
    element.setAttribute(STYLE_ATTRIBUTE, element.getAttribute('style') ?? '')
    element.removeAttribute('style')
  }
  const html = copy.innerHTML
  return html.length > MAX_SNAPSHOT_CHARS ? null : html
}

/** Keeps what `root` shows for `page`, fetched at `at`, under the session `authorization`. */
export function saveSnapshot(page: string, root: HTMLElement, authorization: string, at: number): void {
  const html = screenMarkup(root)
  if (html === null) return
  const snapshots = readSnapshots()
  delete snapshots[page]
  snapshots[page] = { session: sessionMark(authorization), at, html }
  const pages = Object.keys(snapshots)
  for (const old of pages.slice(0, Math.max(0, pages.length - MAX_SNAPSHOT_PAGES))) delete snapshots[old]
  try {
    storage()?.setItem(SNAPSHOTS_KEY, JSON.stringify(snapshots))
  } catch {
    // Storage full or refused: the next visit waits for the app, as before.
  }
}

/**
 * Keeps the screen's rows whenever the page is left or hidden (closed, reloaded, sent to the
 * background), under the session the app last rendered with. A page left after logout keeps
 * nothing; nor does one whose stored token was replaced without the app being told (a script
 * writing storage in this document fires no event): the rows on screen are then another
 * session's, and painting them for the new one would show it what it may not see.
 */
export function keepRowsOnLeave(page: () => string, authorization: () => string | null, dataTime: () => number | undefined, onTokenChange: (listener: () => void) => void): void {
  let rendered = authorization()
  onTokenChange(() => {
    rendered = authorization()
  })
  const keep = (): void => {
    const auth = authorization()
    const root = document.getElementById('root')
    if (auth === null || auth !== rendered || root === null) return
    saveSnapshot(page(), root, auth, dataTime() ?? Date.now())
  }
  window.addEventListener('pagehide', keep)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') keep()
  })
}
