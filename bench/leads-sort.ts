/**
 * `--only=sort`: the leads list sorted, narrowed and exported as shown, on --rows leads (default
 * 1,000,000), on one engine. Seeded as the leads section seeds (bench/seed.ts), then:
 *
 * - what the sort indexes cost, measured before the server starts: each one's size, the time to
 *   build it on the seeded rows, and the time inserts take with it and without it (INSERT_ROWS
 *   new leads in statements of INSERT_BATCH, the best of INSERT_ROUNDS, with every index; without
 *   the name index; without either; the difference is each index's share);
 * - through the real server over HTTP (/api/admin/getuser, limit 50): each sortable column's first
 *   page both ways, a deep page in the default order and sorted by name, the filters' first pages;
 * - /api/admin/DownloadFile of every lead (the export of requirements R2.10) and of a filtered, sorted set:
 *   seconds, rows/s and the server's peak RSS.
 */
import { z } from 'zod'
import { leadSort } from '../contract/leads.ts'
import type { Engine } from './engines.ts'
import { exportCsv, f1, latency, login, ms, printRows, series, startServer, type ExportResult, type Latency } from './lib.ts'
import { insertSql, seedLeads, type SeedReport, type Sql } from './seed.ts'

const LIMIT = 50
const WARMUP = 2
/** The targets for each sortable column's first page, p95 in ms. */
export const SORT_TARGETS = { postgres: 20, pglite: 100 } as const
/** The sort indexes the migration leads-sort adds (server/db/schema.ts). */
const SORT_INDEXES = ['leads_name_sort_idx', 'leads_email_sort_idx'] as const
const INSERT_ROWS = 10_000
const INSERT_BATCH = 100
const INSERT_ROUNDS = 2
/** The filtered export: a quarter of the leads (seed.ts: providers and systems alternate), by name. */
const FILTERED_EXPORT = 'provider=ipfs&operatingsystem=ios&sortBy=name&sortOrder=asc'

interface IndexCost {
  name: string
  sizeMiB: number
  buildSeconds: number
  /** Insert time this index adds, per 1,000 rows inserted. */
  insertMsPer1000: number
}

export interface SortResult {
  engine: Engine['engine']
  version: string
  rows: number
  seed: SeedReport
  tableMiB: number
  /** Insert time per 1,000 rows with every index of the table. */
  insertMsPer1000: number
  indexes: IndexCost[]
  firstPages: (Latency & { sortBy: string; sortOrder: 'asc' | 'desc' })[]
  deepPage: { page: number; defaultOrder: Latency; byName: Latency }
  filters: (Latency & { query: string; count: number })[]
  export: { full: ExportResult; filtered: ExportResult & { query: string } }
}

const mib = (bytes: unknown): number => Number(bytes) / 2 ** 20
const one = async (sql: Sql, text: string): Promise<Record<string, unknown>> => z.array(z.record(z.string(), z.unknown())).parse((await sql.query(text)).rows)[0] ?? {}

/** Seconds to insert INSERT_ROWS new leads (numbered after `after`), then removed again; the best of INSERT_ROUNDS. */
async function timeInserts(sql: Sql, after: number): Promise<number> {
  let best = Number.POSITIVE_INFINITY
  for (let round = 0; round < INSERT_ROUNDS; round++) {
    const t0 = performance.now()
    for (let from = after + 1; from <= after + INSERT_ROWS; from += INSERT_BATCH) await sql.exec(insertSql(from, from + INSERT_BATCH - 1))
    best = Math.min(best, (performance.now() - t0) / 1000)
    // The seed numbers each lead in its email (bench/seed.ts emailOf): the new ones are past `after`.
    await sql.exec(`DELETE FROM leads WHERE substring(email from '([0-9]+)@')::int > ${after}`)
    await sql.exec('VACUUM leads')
  }
  return best
}

/** Sizes, build times and insert costs of the sort indexes on the seeded table. */
async function indexCosts(sql: Sql, rows: number): Promise<{ tableMiB: number; insertMsPer1000: number; indexes: IndexCost[] }> {
  const tableMiB = mib((await one(sql, `SELECT pg_table_size('leads') AS n`))['n'])
  const definitions = new Map<string, string>()
  const sizes = new Map<string, number>()
  for (const name of SORT_INDEXES) {
    const found = await one(sql, `SELECT indexdef, pg_relation_size(indexname::regclass) AS n FROM pg_indexes WHERE indexname = '${name}'`)
    definitions.set(name, z.string().parse(found['indexdef']))
    sizes.set(name, mib(found['n']))
  }
  const perThousand = (seconds: number) => (seconds * 1000 * 1000) / INSERT_ROWS
  // With every index; then one sort index fewer at a time: each step's difference is that index's share.
  const withAll = await timeInserts(sql, rows)
  const times = [withAll]
  for (const name of SORT_INDEXES) {
    await sql.exec(`DROP INDEX ${name}`)
    times.push(await timeInserts(sql, rows))
  }
  const indexes: IndexCost[] = []
  for (const [i, name] of SORT_INDEXES.entries()) {
    const t0 = performance.now()
    await sql.exec(definitions.get(name) ?? '')
    const buildSeconds = (performance.now() - t0) / 1000
    indexes.push({ name, sizeMiB: sizes.get(name) ?? 0, buildSeconds, insertMsPer1000: perThousand((times[i] ?? 0) - (times[i + 1] ?? 0)) })
  }
  await sql.exec('VACUUM (ANALYZE) leads')
  return { tableMiB, insertMsPer1000: perThousand(withAll), indexes }
}

export async function benchLeadsSort(e: Engine, rows: number, requests: number, log: (s: string) => void): Promise<SortResult> {
  log(`${e.engine}: sort: seeding ${rows.toLocaleString('en')} leads in ${e.where}`)
  const seed = await e.session((sql) => seedLeads(sql, rows))
  log(`${e.engine}: sort: index sizes, build times and insert costs (${INSERT_ROWS.toLocaleString('en')} rows in statements of ${INSERT_BATCH}, best of ${INSERT_ROUNDS})`)
  const costs = await e.session((sql) => indexCosts(sql, rows))
  const server = await startServer(e.env)
  try {
    const token = await login(server.base)
    const api = `${server.base}/api/admin`
    const url = (query: string) => `${api}/getuser?limit=${LIMIT}&${query}`
    const measured = async (query: string) => {
      await series(Array.from({ length: WARMUP }, () => url(query)), token)
      return latency(await series(Array.from({ length: requests }, () => url(query)), token))
    }
    log(`${e.engine}: sort: first pages by each column both ways, deep pages, filters (${WARMUP} warm-up + ${requests} each)`)
    const firstPages: SortResult['firstPages'] = []
    for (const sortBy of leadSort.columns) {
      for (const sortOrder of ['asc', 'desc'] as const) firstPages.push({ sortBy, sortOrder, ...(await measured(`page=1&sortBy=${sortBy}&sortOrder=${sortOrder}`)) })
    }
    const deep = Math.max(1, Math.floor(rows / LIMIT / 2))
    const deepPage = { page: deep, defaultOrder: await measured(`page=${deep}`), byName: await measured(`page=${deep}&sortBy=name`) }
    const week = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)
    const filters: SortResult['filters'] = []
    for (const query of ['provider=ipfs', 'operatingsystem=ios', `from=${week(60)}&to=${week(53)}&tz=Europe/Lisbon`, 'provider=web3auth&sortBy=name']) {
      const timing = await measured(`page=1&${query}`)
      const answer = z.object({ count: z.number() }).parse(await (await fetch(url(`page=1&${query}`), { headers: { authorization: `Bearer ${token}` } })).json())
      filters.push({ query, count: answer.count, ...timing })
    }
    log(`${e.engine}: sort: DownloadFile of every lead, then of ${FILTERED_EXPORT}`)
    // The export is a step-up call: a sign-in just before each is its proof (the first may be minutes old).
    const full = await exportCsv(`${api}/DownloadFile`, await login(server.base), server.pid)
    const filtered = await exportCsv(`${api}/DownloadFile?${FILTERED_EXPORT}`, await login(server.base), server.pid)
    return {
      engine: e.engine,
      version: e.version,
      rows,
      seed,
      ...costs,
      firstPages,
      deepPage,
      filters,
      export: { full, filtered: { ...filtered, query: FILTERED_EXPORT } },
    }
  } finally {
    await server.stop()
  }
}

export function printSort(results: readonly SortResult[], requests: number): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\n${first.rows.toLocaleString('en')} leads sorted and narrowed: getuser limit ${LIMIT}, ${requests} requests per series, p50 / p95 ms`)
  const columns = first.firstPages.map((p) => `${p.sortBy} ${p.sortOrder}`)
  const rows = results.map((r) => [r.version, ...r.firstPages.map(ms), ms(r.deepPage.defaultOrder), ms(r.deepPage.byName)])
  for (const r of results) rows.push([`  target (${r.engine})`, ...r.firstPages.map(() => `p95 < ${SORT_TARGETS[r.engine]}`), 'as today', ''])
  printRows(['engine', ...columns, `page ${first.deepPage.page}`, `page ${first.deepPage.page} by name`], rows)

  console.log('\nFiltered first pages, p50 / p95 ms (the count of a filter is kept until a write, so the series after its first ask reuses it)')
  printRows(['engine', ...first.filters.map((f) => `${f.query} (${f.count.toLocaleString('en')})`)], results.map((r) => [r.version, ...r.filters.map(ms)]))

  console.log('\nDownloadFile: every lead against a filtered, sorted set')
  printRows(
    ['engine', 'export', 'rows', 'seconds', 'rows/s', 'peak RSS MiB', 'target'],
    results.flatMap((r) => [
      [r.version, 'every lead', r.export.full.rows.toLocaleString('en'), r.export.full.seconds.toFixed(2), Math.round(r.export.full.rowsPerSecond).toLocaleString('en'), f1(r.export.full.peakRssMiB), 'as the leads section'],
      ['', r.export.filtered.query, r.export.filtered.rows.toLocaleString('en'), r.export.filtered.seconds.toFixed(2), Math.round(r.export.filtered.rowsPerSecond).toLocaleString('en'), f1(r.export.filtered.peakRssMiB), 'beside it (no target)'],
    ]),
  )

  console.log(`\nSort indexes on ${first.rows.toLocaleString('en')} leads: size, build time, and insert time added per 1,000 rows (inserts of ${INSERT_BATCH} rows a statement)`)
  printRows(
    ['engine', 'index', 'size MiB', 'build s', 'insert ms / 1,000 rows', 'all indexes: ms / 1,000 rows', 'table MiB'],
    results.flatMap((r) => r.indexes.map((ix, i) => [i === 0 ? r.version : '', ix.name, f1(ix.sizeMiB), ix.buildSeconds.toFixed(1), f1(ix.insertMsPer1000), i === 0 ? f1(r.insertMsPer1000) : '', i === 0 ? f1(r.tableMiB) : ''])),
  )
}
