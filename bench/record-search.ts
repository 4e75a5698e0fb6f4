/**
 * `--only=search`: the palette's server search (findRecords) on --rows leads: broad words (many
 * leads match), a whole email (one matches), a wallet prefix, and a word nothing matches (the
 * trigram index is read through), each asked --requests times after two to warm up, p50/p95.
 * The other areas' tables are empty here: on 1,000,000 leads the leads are what costs.
 *
 * `--only=palette`: the PWA's palette filter (src/app/palette-filter.ts) over 5,000 cached
 * records and the screens and actions, one call per keystroke of typing a query: the time of each.
 */
import { visibleEntries, type Entry } from '../src/app/palette-filter.ts'
import type { Engine } from './engines.ts'
import { f1, latency, login, printRows, series, startServer, type Latency } from './lib.ts'
import { emailOf, seedLeads, type SeedReport } from './seed.ts'

/** The targets for the server search, p95 in ms. */
export const SEARCH_TARGETS = { postgres: 50, pglite: 150 } as const
/** Each keystroke's filtering under this, in ms (one frame at 60 Hz). */
export const KEYSTROKE_TARGET_MS = 16
const PALETTE_RECORDS = 5_000

export interface SearchResult {
  engine: Engine['engine']
  version: string
  rows: number
  seed: SeedReport
  terms: (Latency & { term: string; found: number })[]
}

export async function benchRecordSearch(e: Engine, rows: number, requests: number, log: (s: string) => void): Promise<SearchResult> {
  log(`${e.engine}: search: seeding ${rows.toLocaleString('en')} leads in ${e.where}`)
  const seed = await e.session((sql) => seedLeads(sql, rows))
  const server = await startServer(e.env)
  try {
    const token = await login(server.base)
    const one = emailOf(Math.ceil(rows * 0.77))
    const terms = ['gmail', 'smith', 'olivia', '0xab', one, 'zzqx-nothing']
    const results: SearchResult['terms'] = []
    for (const term of terms) {
      const url = `${server.base}/api/admin/findRecords?q=${encodeURIComponent(term)}`
      await series([url, url], token)
      const samples = await series(Array.from({ length: requests }, () => url), token)
      const answer: unknown = await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()
      const found = typeof answer === 'object' && answer !== null && 'result' in answer && Array.isArray(answer.result) ? answer.result.length : -1
      results.push({ term, found, ...latency(samples) })
      log(`${e.engine}: search '${term}': p95 ${f1(latency(samples).p95)} ms`)
    }
    return { engine: e.engine, version: e.version, rows, seed, terms: results }
  } finally {
    await server.stop()
  }
}

export function printRecordSearch(results: readonly SearchResult[]): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\nThe palette's server search (findRecords) on ${first.rows.toLocaleString('en')} leads, p50 / p95 ms`)
  const rows = results.flatMap((r) =>
    r.terms.map((t) => {
      const target = SEARCH_TARGETS[r.engine]
      return [r.version, t.term, String(t.found), `${f1(t.p50)} / ${f1(t.p95)}`, `< ${target}`, t.p95 < target ? 'met' : 'not met']
    }),
  )
  printRows(['engine', 'query', 'records', 'p50 / p95', 'target p95', ''], rows)
}

export interface PaletteFilterResult {
  records: number
  query: string
  /** One per keystroke, ms. */
  keystrokes: number[]
}

export function benchPaletteFilter(): PaletteFilterResult {
  const entry = (group: string, id: string, label: string, detail: string): Entry => ({ value: `${group}:${id}`, group, label, detail, haystack: `${group} ${label} ${detail}`.toLowerCase(), disabled: false, run: () => undefined })
  const groups = ['Leads', 'Games', 'Brands', 'Categories', 'Promotions']
  const entries: Entry[] = [
    ...Array.from({ length: 40 }, (_, i) => entry('Screens', `/screen${i}`, `Screen ${i}`, `/screen${i}`)),
    ...Array.from({ length: 30 }, (_, i) => entry('Actions', `action${i}`, `Action ${i}`, '')),
    ...Array.from({ length: PALETTE_RECORDS }, (_, i) => entry(groups[i % groups.length] ?? 'Leads', `r${i}`, emailOf(i + 1), `Lead ${i + 1}`)),
  ]
  const query = emailOf(4521)
  // Warm the function up once, as a user's first keystrokes do.
  for (let i = 0; i < 20; i++) visibleEntries(entries, [], query.slice(0, 1 + (i % query.length)))
  const keystrokes: number[] = []
  for (let i = 1; i <= query.length; i++) {
    const t0 = performance.now()
    visibleEntries(entries, [], query.slice(0, i))
    keystrokes.push(performance.now() - t0)
  }
  return { records: PALETTE_RECORDS, query, keystrokes }
}

export function printPaletteFilter(r: PaletteFilterResult): void {
  const l = latency(r.keystrokes)
  const worst = Math.max(...r.keystrokes)
  console.log(`\nThe palette filter over ${r.records.toLocaleString('en')} cached records, typing '${r.query}' (${r.keystrokes.length} keystrokes)`)
  printRows(['p50 ms', 'p95 ms', 'slowest ms', 'target'], [[f1(l.p50), f1(l.p95), f1(worst), `< ${KEYSTROKE_TARGET_MS} each: ${worst < KEYSTROKE_TARGET_MS ? 'met' : 'not met'}`]])
}
