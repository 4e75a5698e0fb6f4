/**
 * The palette's own filter (cmdk's is off): what is shown for a query, run on every keystroke over
 * every entry (screens, actions and up to a few thousand cached records), so it stays a plain
 * pass over prepared lower-case text. `npm run bench -- --only=palette` times it at 5,000 records.
 */

export interface Entry {
  /** Unique: cmdk tracks the highlighted entry by it. */
  value: string
  group: string
  label: string
  detail: string
  /** Lower-case text the query is matched against ('' for the server's records: already matched). */
  haystack: string
  disabled: boolean
  run: () => void
  /** The keys that do the same outside the palette (shown beside the entry). */
  shortcut?: string
}

/** Records shown per group while typing. */
export const MAX_SHOWN = 8

/** Every word of the query appears somewhere in the entry (case-insensitive). */
const matches = (entry: Entry, words: readonly string[]): boolean => words.every((w) => entry.haystack.includes(w))

/**
 * The entries a query shows: screens and actions that match, a few matching records per group
 * (none before a word is typed), then the server's records after the cached ones of their group,
 * one the cache already shows not repeated.
 */
export function visibleEntries(entries: readonly Entry[], found: readonly Entry[], search: string): Entry[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean)
  const perGroup = new Map<string, number>()
  const cached = entries.filter((e) => {
    if (!matches(e, words)) return false
    const n = perGroup.get(e.group) ?? 0
    const isRecord = e.group !== 'Screens' && e.group !== 'Actions'
    if (isRecord && (words.length === 0 || n >= MAX_SHOWN)) return false
    perGroup.set(e.group, n + 1)
    return true
  })
  const present = new Set(cached.map((e) => e.value))
  const joined = [...cached]
  for (const e of found) {
    const n = perGroup.get(e.group) ?? 0
    if (present.has(e.value) || n >= MAX_SHOWN) continue
    perGroup.set(e.group, n + 1)
    const lastOfGroup = joined.findLastIndex((x) => x.group === e.group)
    joined.splice(lastOfGroup === -1 ? joined.length : lastOfGroup + 1, 0, e)
  }
  return joined
}
