/**
 * The SWR cache, persisted to IndexedDB so recently opened lists still render offline
 * (docs/decisions/004-pwa-shell.md, "Offline reads").
 * - One snapshot per scope (the admin and their permissions), read BEFORE the first render, so a
 *   reload offline shows the same lists again, and again on the next reload: the snapshot is only
 *   rewritten from data that was actually shown, never emptied by a failed revalidation.
 * - Saved as soon as new data is shown (later changes within SAVE_GAP_MS are grouped into one
 *   more save), and each save asks IndexedDB to commit at once: a write left for a timer or for
 *   `pagehide` is lost when the user reloads in between, since the browser drops a transaction
 *   that has not committed when the page goes away.
 * - Wiped at logout and at a forced logout, pending writes included; wiped at start without a
 *   valid session, and only the current scope's snapshot is ever kept (offline-store.ts).
 * - Each entry remembers when it was fetched, for the "showing data from <time>" banner.
 * Entries read back from storage are only trusted after the endpoint's output schema accepts them
 * (see `verify`), since storage may hold data of an older version of the app.
 */
import type { Cache, State } from 'swr'
import { z } from 'zod/mini'
import { delMany, get, keys, promisifyRequest } from 'idb-keyval'
import { store, wipeStored, wipesDone } from './offline-store.ts'
const SNAPSHOT_VERSION = 1
/** Bound on stored entries (each is one page of one list): old pages give way to new ones. */
const MAX_ENTRIES = 150
/** Least time between two saves: a burst of answers is saved at once, then once more after it. */
const SAVE_GAP_MS = 250

const Snapshot = z.object({
  v: z.literal(SNAPSHOT_VERSION),
  entries: z.array(
    z.object({ key: z.string(), name: z.string(), input: z.unknown(), data: z.unknown(), at: z.number() }),
  ),
})

export interface EntryMeta {
  /** Endpoint name (first element of the SWR key). */
  name: string
  /** The call's input (second element of the SWR key). */
  input: unknown
  /** When the data was fetched (ms since epoch). */
  at: number
  /** False for entries read from storage until their endpoint's schema accepted them. */
  verified: boolean
}

/** A Map-backed SWR cache that records entry metadata and saves itself after changes. */
class PersistedCache implements Cache {
  readonly states = new Map<string, State>()
  readonly meta = new Map<string, EntryMeta>()
  constructor(readonly scope: string) {}
  keys(): IterableIterator<string> {
    return this.states.keys()
  }
  get(key: string): State | undefined {
    return this.states.get(key)
  }
  set(key: string, value: State): void {
    const before = this.states.get(key)
    this.states.set(key, value)
    if (value.data !== undefined && value.data !== before?.data && this.meta.has(key)) scheduleSave()
  }
  delete(key: string): void {
    this.states.delete(key)
    if (this.meta.delete(key)) scheduleSave()
  }
}

let cache: PersistedCache | null = null
let saveTimer: ReturnType<typeof setTimeout> | undefined
/** Changes not yet handed to IndexedDB. */
let dirty = false
let saving = false
let lastSaveAt = 0
const listeners = new Set<() => void>()
const activeKeys = new Map<string, number>()

const storageKey = (scope: string): string => `scope:${scope}`

function notify(): void {
  for (const listener of listeners) listener()
}

function scheduleSave(): void {
  dirty = true
  planSave()
}

/** Saves on the next turn (grouping the changes of one answer), or once the gap has passed. */
function planSave(): void {
  if (!dirty || saving || saveTimer !== undefined) return
  saveTimer = setTimeout(
    () => {
      saveTimer = undefined
      void saveNow()
    },
    Math.max(0, lastSaveAt + SAVE_GAP_MS - Date.now()),
  )
}

async function saveNow(): Promise<void> {
  dirty = false
  saving = true
  lastSaveAt = Date.now()
  try {
    await save()
  } finally {
    saving = false
    planSave()
  }
}

async function save(): Promise<void> {
  const target = cache
  if (!target) return
  const entries = [...target.meta.entries()]
    .map(([key, m]) => ({ key, name: m.name, input: m.input, data: target.states.get(key)?.data, at: m.at }))
    .filter((e) => e.data !== undefined)
    .sort((a, b) => b.at - a.at)
    .slice(0, MAX_ENTRIES)
  try {
    await store('readwrite', (s) => {
      // Wiped (a logout) since this save began: the snapshot must not come back.
      if (cache === target) s.put({ v: SNAPSHOT_VERSION, entries }, storageKey(target.scope))
      // Commit now rather than after the put's answer comes back to this page: a reload in
      // between would otherwise abort the transaction and lose the snapshot.
      s.transaction.commit()
      return promisifyRequest(s.transaction)
    })
  } catch (error) {
    // Storage full or blocked: the app still works online, only offline reads are lost.
    console.warn('Could not save the offline copy of the data', error)
  }
}

// Changes still waiting for the gap are saved at once when the page goes away.
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    if (!dirty) return
    clearTimeout(saveTimer)
    saveTimer = undefined
    void saveNow()
  })
}

/**
 * Loads the stored snapshot of a scope into a fresh cache and makes it current. Call (and await)
 * before rendering anything that reads the cache.
 */
export async function hydrate(scope: string): Promise<void> {
  await wipesDone()
  if (cache?.scope === scope) return
  const next = new PersistedCache(scope)
  try {
    // Another scope's snapshot (another admin, or this one before their access changed) is never
    // left beside this one: it goes before anything of this session is read or saved.
    const others = (await keys(store)).filter((key) => key !== storageKey(scope))
    if (others.length > 0) await delMany(others, store)
    const stored = Snapshot.safeParse(await get(storageKey(scope), store))
    if (stored.success) {
      for (const e of stored.data.entries) {
        // `_k` is the original key SWR keeps beside the data; its key-filter mutations read it.
        const state: State & { _k: unknown[] } = { data: e.data, _k: [e.name, e.input] }
        next.states.set(e.key, state)
        next.meta.set(e.key, { name: e.name, input: e.input, at: e.at, verified: false })
      }
    }
  } catch (error) {
    console.warn('Could not read the offline copy of the data', error)
  }
  cache = next
  notify()
}

/** The current cache, for SWRConfig's `provider`. */
export function currentCache(): Cache {
  if (!cache) throw new Error('The data cache is used before hydrate() finished')
  return cache
}

export const isHydrated = (scope: string): boolean => cache?.scope === scope

/** Deletes every stored snapshot and the in-memory cache (logout, forced logout). */
export function wipe(): Promise<void> {
  clearTimeout(saveTimer)
  saveTimer = undefined
  dirty = false
  cache = null
  activeKeys.clear()
  notify()
  return wipeStored()
}

/** Records that `key` (the SWR key of [name, input]) was fetched now. */
export function stamp(key: string, name: string, input: unknown): void {
  cache?.meta.set(key, { name, input, at: Date.now(), verified: true })
  notify()
}

/**
 * Checks a stored entry against its endpoint's schema the first time a screen asks for it;
 * an entry the schema refuses is dropped (then fetched afresh).
 */
export function verify(key: string, accepts: (data: unknown) => boolean): void {
  const m = cache?.meta.get(key)
  if (!cache || !m || m.verified) return
  if (accepts(cache.states.get(key)?.data)) m.verified = true
  else {
    cache.states.delete(key)
    cache.meta.delete(key)
  }
}

/** A mounted screen reads `key`: its time counts for the offline banner. */
export function markActive(key: string): () => void {
  activeKeys.set(key, (activeKeys.get(key) ?? 0) + 1)
  notify()
  return () => {
    const n = (activeKeys.get(key) ?? 1) - 1
    if (n <= 0) activeKeys.delete(key)
    else activeKeys.set(key, n)
    notify()
  }
}

export function fetchedAt(key: string): number | undefined {
  return cache?.meta.get(key)?.at
}

/** The oldest fetch time among the data on screen now, or undefined when none is shown. */
export function shownDataTime(): number | undefined {
  let oldest: number | undefined
  for (const key of activeKeys.keys()) {
    const at = cache?.states.get(key)?.data === undefined ? undefined : cache?.meta.get(key)?.at
    if (at !== undefined && (oldest === undefined || at < oldest)) oldest = at
  }
  return oldest
}

/** Cached answers of one endpoint, newest first (the palette's offline records). */
export function cachedAnswers(name: string): Array<{ input: unknown; data: unknown; at: number }> {
  if (!cache) return []
  const out: Array<{ input: unknown; data: unknown; at: number }> = []
  for (const [key, m] of cache.meta) {
    const data = cache.states.get(key)?.data
    if (m.name === name && data !== undefined) out.push({ input: m.input, data, at: m.at })
  }
  return out.sort((a, b) => b.at - a.at)
}

export function subscribeCache(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
