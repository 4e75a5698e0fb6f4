/**
 * The last rows a list showed, painted again the moment the app is reopened.
 *
 * Reopened (the installed app, a reload), a list could show its rows only once the app's code had
 * been read and run: about a second on a mid-range phone, for rows the device already holds. So
 * when a page with rows is left or hidden, its screen's markup is kept, per page (path and query),
 * and the early script (src/boot/early-calls.ts) paints it into #root before the app's code has
 * arrived, inert, with a notice saying how old the rows are. The app's first render replaces it
 * (React empties #root) with the same rows from the offline copy, and the network refreshes them.
 *
 * What is kept is what was on screen, as text the browser serialised (so escaped as it was
 * shown): the same data the offline copy holds, kept as long as it is and wiped with it when a
 * session ends or the app starts without one (offline-store.ts). It is painted only for the
 * session that saved it (the token's signature must match) while that session is live. Inline
 * style attributes are not allowed by the policy (server/pwa.ts), so they are kept aside and put
 * back through the CSSOM.
 */
import { describeWhen } from './dates.ts'
import { SNAPSHOTS_KEY } from './offline-store.ts'

/** Pages kept (the oldest goes first), and the largest markup kept for one. */
export const MAX_SNAPSHOT_PAGES = 6
export const MAX_SNAPSHOT_CHARS = 400_000
/** Where a painted snapshot's notice is (tests and the bench look for it). */
export const AGE_ATTRIBUTE = 'data-rows-age'
/** Where a kept element's inline style waits (the policy refuses style attributes in markup put into the page). */
export const STYLE_ATTRIBUTE = 'data-snapshot-style'

export interface Snapshot {
  /** The last characters of the token it was saved under (its signature): another session's token never paints it. */
  session: string
  /** When its rows were fetched. */
  at: number
  html: string
}
export type Snapshots = Record<string, Snapshot>

export const sessionMark = (authorization: string): string => authorization.slice(-24)

export function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

export function readSnapshots(): Snapshots {
  let parsed: unknown
  try {
    parsed = JSON.parse(storage()?.getItem(SNAPSHOTS_KEY) ?? '{}')
  } catch {
    return {}
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
  const out: Snapshots = {}
  for (const [page, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null) continue
    const { session, at, html } = value as Record<string, unknown>
    if (typeof session === 'string' && typeof at === 'number' && typeof html === 'string') out[page] = { session, at, html }
  }
  return out
}

/**
 * Paints the snapshot of `page` into `root`, inert, with its age, when the live session
 * `authorization` saved it. Whether it painted.
 */
export function paintSnapshot(page: string, root: HTMLElement, authorization: string, now: number, online: boolean): boolean {
  const snapshot = readSnapshots()[page]
  if (snapshot === undefined || snapshot.session !== sessionMark(authorization)) return false
  root.innerHTML = snapshot.html
  for (const element of root.querySelectorAll<HTMLElement>(`[${STYLE_ATTRIBUTE}]`)) {
    element.style.cssText = element.getAttribute(STYLE_ATTRIBUTE) ?? ''
    element.removeAttribute(STYLE_ATTRIBUTE)
  }
  // Nothing in it works until the app has started: it can be read, not used.
  // Hidden from assistive technology as inert content is, and said so with aria-hidden too, so
  // every reader of the page's roles (and a test's getByRole) waits for the live screen.
  for (const child of root.children) {
    child.setAttribute('inert', '')
    child.setAttribute('aria-hidden', 'true')
  }
  const notice = document.createElement('p')
  notice.setAttribute(AGE_ATTRIBUTE, '')
  notice.setAttribute('role', 'status')
  notice.className = 'fixed bottom-4 left-1/2 z-50 -translate-x-1/2 rounded-full border border-slate-300 bg-white px-4 py-2 text-sm text-slate-700 shadow'
  const age = describeWhen(snapshot.at, now)
  notice.textContent = online ? `Rows as of ${age.text}, updating…` : `Offline: rows as of ${age.text}`
  notice.title = age.exact
  root.appendChild(notice)
  return true
}
