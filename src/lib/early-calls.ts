/**
 * A signed-in visit's first calls, sent before the app's code has arrived.
 *
 * Opened cold (a new tab, a reload, the installed app), a screen could ask for its data only once
 * its code had been fetched and run: on a slow line or a slow device that is most of the wait for
 * the rows. So the app notes the calls each page made first (its rows, the public settings, the
 * saved views: whatever answered before the page went quiet), per page (path and query), and the
 * next cold load of that page sends them at once from a small classic script in index.html
 * (src/boot/early-calls.ts, built by vite.config.ts), while the code downloads, and asks for the
 * page's own scripts along with the entry. `call` (api.ts) then takes the answer already on its
 * way instead of asking again.
 *
 * Only GET calls of the API are noted, a few per page and for a few pages; they are sent with the
 * stored token and only while it is unexpired and the session not idle, and an answer is taken
 * only by a call with that same token, once, within EARLY_CALLS_TTL_MS. The notes are wiped with
 * the offline copy (offline-store.ts) whenever a session ends or the app starts without one:
 * their queries can hold what staff searched for.
 */
import { API_BASE } from './api-origin.ts'
import { idleExpired } from './activity.ts'
import { BASE } from './base.ts'
import { jwtPayload } from './jwt-payload.ts'
import { FIRST_CALLS_KEY } from './offline-store.ts'
import { readAuthorization } from './token.ts'

/**
 * Local storage, under FIRST_CALLS_KEY: { [page]: URLs }, the most recently noted page last. A
 * page's URLs are its first calls (API paths) and the app's scripts it loaded (BASE/assets/*.js):
 * the early script asks for those scripts too (modulepreload), so the signed-in code comes in one
 * wave with the entry instead of after it has run (on a line with 150 ms of latency the list's
 * code otherwise arrives about a second after the page opens, and the rows wait for it).
 */
/** Pages remembered (the oldest noted goes first), calls and scripts per page. */
export const MAX_PAGES = 12
export const MAX_CALLS = 6
export const MAX_SCRIPTS = 30
/** An early answer not taken by then is left: the app asks afresh. */
export const EARLY_CALLS_TTL_MS = 15_000

/** What the early script started, for the app to take. */
export interface EarlyCalls {
  authorization: string
  startedAt: number
  calls: Map<string, Promise<Response>>
}

declare global {
  interface Window {
    boEarlyCalls?: EarlyCalls
    /** Set by the app as it first renders: from then on it asks for its data itself. */
    boAppRendering?: boolean
  }
}

type FirstCalls = Record<string, string[]>

/** The key of the page a visit opens: its path and query, as the calls it makes depend on both. */
export const pageKey = (at: Pick<Location, 'pathname' | 'search'>): string => at.pathname + at.search

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

const isCallUrl = (url: unknown): url is string => typeof url === 'string' && url.startsWith(`${API_BASE}/`)
/** One of the app's own built scripts: a hashed file right under BASE/assets/, nothing else. */
const isScriptUrl = (url: unknown): url is string =>
  typeof url === 'string' && url.startsWith(`${BASE}/assets/`) && /^[\w-]+\.js$/.test(url.slice(`${BASE}/assets/`.length))

/** The stored notes: per page, its API calls and the app's scripts, anything else dropped. */
function readFirstCalls(): FirstCalls {
  let parsed: unknown
  try {
    parsed = JSON.parse(storage()?.getItem(FIRST_CALLS_KEY) ?? '{}')
  } catch {
    return {}
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {}
  const notes: FirstCalls = {}
  for (const [page, urls] of Object.entries(parsed)) {
    if (Array.isArray(urls)) notes[page] = [...urls.filter(isCallUrl).slice(0, MAX_CALLS), ...urls.filter(isScriptUrl).slice(0, MAX_SCRIPTS)]
  }
  return notes
}

/** Whether a token's own expiry and the idle timeout still allow it to be sent. */
function tokenIsLive(authorization: string, now: number): boolean {
  const claims = jwtPayload(authorization.slice('Bearer '.length))
  if (typeof claims !== 'object' || claims === null) return false
  const { exp, idle } = claims as { exp?: unknown; idle?: unknown }
  if (typeof exp === 'number' && exp * 1000 <= now) return false
  return !(typeof idle === 'number' && idleExpired(idle, now))
}

/** The stored token while its session is live (unexpired, not idle), else null. */
export function liveAuthorization(now: number): string | null {
  const authorization = readAuthorization()
  return authorization !== null && tokenIsLive(authorization, now) ? authorization : null
}

/** The early script's work: sends the calls noted for this page with the stored token. */
export function startEarlyCalls(now = Date.now()): EarlyCalls | undefined {
  // Sent after the app has begun, they would only ask a second time.
  if (window.boAppRendering === true) return undefined
  const authorization = liveAuthorization(now)
  if (authorization === null) return undefined
  const urls = readFirstCalls()[pageKey(window.location)] ?? []
  if (urls.length === 0) return undefined
  const calls = new Map<string, Promise<Response>>()
  for (const url of urls.filter(isCallUrl)) {
    const answer = fetch(url, { headers: { Accept: 'application/json', Authorization: authorization } })
    // A call that gets no answer is the app's to report when it takes it (or asks again).
    answer.catch(() => undefined)
    calls.set(url, answer)
  }
  // Then the code: the calls first, as the server's answer is the longer wait.
  for (const url of urls.filter(isScriptUrl)) {
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    // As the document's module script is fetched (crossorigin), so the import takes this fetch.
    link.crossOrigin = ''
    link.href = url
    document.head.appendChild(link)
  }
  window.boEarlyCalls = { authorization, startedAt: now, calls }
  return window.boEarlyCalls
}

/**
 * The answer the early script is fetching for `url`, if it was sent with `authorization` and not
 * too long ago; taken once (a second call asks the server). Offline or refused on the way, the
 * call is sent afresh.
 */
export function takeEarlyCall(url: string, authorization: string | null, now = Date.now()): Promise<Response> | undefined {
  const early = typeof window === 'undefined' ? undefined : window.boEarlyCalls
  const answer = early?.calls.get(url)
  if (early === undefined || answer === undefined) return undefined
  early.calls.delete(url)
  if (early.authorization !== authorization || now - early.startedAt > EARLY_CALLS_TTL_MS) return undefined
  return answer
}

let noting: { page: string; urls: string[] } | null = null

/** Starts noting the calls of the page this visit opened (main.tsx, with a session). */
export function noteFirstCalls(page: string): void {
  noting = { page, urls: [] }
}

/** A GET call sent by `call` (api.ts): noted while the first page's calls are being noted. */
export function noteCall(url: string): void {
  if (noting === null || !isCallUrl(url) || noting.urls.includes(url) || noting.urls.length >= MAX_CALLS) return
  noting.urls.push(url)
}

/**
 * Stores what the first page asked for, once its calls have answered. A visit that moved to
 * another page meanwhile stores nothing: its calls were not that page's alone.
 */
export function saveFirstCalls(pageNow: string): void {
  const done = noting
  noting = null
  if (done === null || done.page !== pageNow || readAuthorization() === null) return
  const notes = readFirstCalls()
  delete notes[done.page]
  if (done.urls.length > 0) notes[done.page] = [...done.urls, ...scriptsLoaded()]
  const pages = Object.keys(notes)
  for (const old of pages.slice(0, Math.max(0, pages.length - MAX_PAGES))) delete notes[old]
  try {
    storage()?.setItem(FIRST_CALLS_KEY, JSON.stringify(notes))
  } catch {
    // Storage full or refused: the next visit simply asks once its code has run.
  }
}

/**
 * The app's scripts this visit has loaded so far (resource timing, in the order they finished),
 * but for those the document itself asks for: they need no hint.
 */
function scriptsLoaded(): string[] {
  if (typeof performance === 'undefined' || typeof document === 'undefined') return []
  const inDocument = new Set(Array.from(document.scripts, (script) => new URL(script.src || '/', window.location.href).pathname))
  const paths = performance
    .getEntriesByType('resource')
    .map((entry) => new URL(entry.name, window.location.href))
    .filter((url) => url.origin === window.location.origin && !inDocument.has(url.pathname))
    .map((url) => url.pathname)
  return [...new Set(paths)].filter(isScriptUrl).slice(0, MAX_SCRIPTS)
}

/** Wipes the notes and anything the early script started (a session ended). */
export function forgetFirstCalls(): void {
  noting = null
  if (typeof window !== 'undefined') delete window.boEarlyCalls
  storage()?.removeItem(FIRST_CALLS_KEY)
}
