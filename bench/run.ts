/**
 * `npm run bench`: seeds 1,000,000 leads on PGlite and on PostgreSQL, runs the real server in a
 * child process, and measures over HTTP with a real login token:
 *   - /api/admin/getuser page 1, a deep page and a search: p50/p95 of 20 requests each;
 *   - /api/admin/DownloadFile of every row: seconds, rows/s, and the server's peak RSS;
 * then the PWA's budget (bench/budget.ts): gzip size of the JS and CSS that /admin/login and
 * /admin/users load, and Lighthouse 12 scores. Prints a table and writes bench/results.json.
 *
 * Options: --rows=N (default 1000000), --only=pglite,postgres,budget, --requests=N (default 20).
 * Not part of `npm test`: it takes minutes and measures, it does not judge.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { loadConfig } from '../server/config.ts'
import { openDb } from '../server/db/index.ts'
import { findPostgres, redact, withDatabase } from '../scripts/pg.ts'
import { runBudget, type BudgetResult } from './budget.ts'
import { login, memoryOf, percentile, prng, resetPeak, root, startServer, timeGet, bearer } from './lib.ts'
import { emailOf, seedLeads, type SeedReport, type Sql } from './seed.ts'

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=')
    return [k ?? '', v ?? 'true'] as const
  }),
)
const ROWS = Number(args.get('rows') ?? 1_000_000)
const REQUESTS = Number(args.get('requests') ?? 20)
const ONLY = new Set((args.get('only') ?? 'pglite,postgres,budget').split(','))
/** Requests before each measured series, not counted: the first answers pay for cold caches and JIT. */
const WARMUP = 2
const LIMIT = 50
const DEEP_PAGE = Math.max(1, Math.floor(ROWS / LIMIT / 2))
/** Words many leads contain (a mail domain, a common surname, a first name, a hex pair). */
const BROAD = ['gmail', 'smith', 'olivia', '0xab'] as const

interface Latency {
  p50: number
  p95: number
  min: number
  max: number
}
interface EngineResult {
  engine: 'pglite' | 'postgres'
  /** PGlite's package version or the PostgreSQL server's `server_version`. */
  version: string
  rows: number
  seed: SeedReport
  serverStartSeconds: number
  getuser: {
    page1: Latency
    deepPage: Latency & { page: number }
    search: Latency & { examples: string[]; avgMatches: number }
    broadSearch: Latency & { terms: string[]; avgMatches: number }
  }
  export: { seconds: number; rows: number; rowsPerSecond: number; bytes: number; peakRssMiB: number; rssBeforeMiB: number; peakFrom: string }
}

const log = (s: string) => console.log(`[bench] ${s}`)

function latency(samples: number[]): Latency {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), min: Math.min(...samples), max: Math.max(...samples) }
}

async function series(urls: string[], token: string): Promise<number[]> {
  const out: number[] = []
  for (const u of urls) out.push(await timeGet(u, token))
  return out
}

/** Search fragments as a staff member types them: the start of an email, up to a few digits. */
function fragments(count: number, seed: number): string[] {
  const rnd = prng(seed)
  return Array.from({ length: count }, () => {
    const email = emailOf(1 + Math.floor(rnd() * ROWS))
    const digits = email.search(/\d/)
    return email.slice(0, digits + 3)
  })
}

async function measure(engine: EngineResult['engine'], version: string, env: NodeJS.ProcessEnv, seed: SeedReport): Promise<EngineResult> {
  const t0 = performance.now()
  const server = await startServer(env)
  const serverStartSeconds = (performance.now() - t0) / 1000
  try {
    const token = await login(server.base)
    const api = `${server.base}/api/admin`
    const page = (p: number, search = '') =>
      `${api}/getuser?page=${p}&limit=${LIMIT}${search ? `&search=${encodeURIComponent(search)}` : ''}`

    log(`${engine}: getuser page 1, page ${DEEP_PAGE}, search, broad search (${WARMUP} warm-up + ${REQUESTS} each)`)
    await series(Array.from({ length: WARMUP }, () => page(1)), token)
    const page1 = await series(Array.from({ length: REQUESTS }, () => page(1)), token)
    await series(Array.from({ length: WARMUP }, () => page(DEEP_PAGE)), token)
    const deep = await series(Array.from({ length: REQUESTS }, () => page(DEEP_PAGE)), token)
    await series(fragments(WARMUP, 7).map((f) => page(1, f)), token)
    const terms = fragments(REQUESTS, 42)
    const search = await series(terms.map((f) => page(1, f)), token)
    // The hard case for a trigram index: a word that a large share of rows contain.
    const broadTerms = Array.from({ length: REQUESTS }, (_, i) => BROAD[i % BROAD.length] ?? 'gmail')
    await series(BROAD.slice(0, WARMUP).map((t) => page(1, t)), token)
    const broad = await series(broadTerms.map((t) => page(1, t)), token)
    const matches = async (ts: string[]) => {
      let n = 0
      for (const t of ts) {
        const res = await fetch(page(1, t), { headers: { authorization: bearer(token) } })
        const body = (await res.json()) as { count?: unknown }
        n += typeof body.count === 'number' ? body.count : 0
      }
      return n / ts.length
    }

    log(`${engine}: DownloadFile of all rows`)
    const exp = await exportAll(`${api}/DownloadFile`, token, server.pid)
    return {
      engine,
      version,
      rows: ROWS,
      seed,
      serverStartSeconds,
      getuser: {
        page1: latency(page1),
        deepPage: { ...latency(deep), page: DEEP_PAGE },
        search: { ...latency(search), examples: terms.slice(0, 3), avgMatches: await matches(terms.slice(0, 5)) },
        broadSearch: { ...latency(broad), terms: [...BROAD], avgMatches: await matches([...BROAD]) },
      },
      export: exp,
    }
  } finally {
    await server.stop()
  }
}

/** Streams the whole CSV, counting rows by newlines, while watching the server's memory. */
async function exportAll(url: string, token: string, pid: number): Promise<EngineResult['export']> {
  const before = memoryOf(pid)
  const reset = resetPeak(pid)
  let sampled = before.rssMiB
  const sampler = setInterval(() => {
    try {
      sampled = Math.max(sampled, memoryOf(pid).rssMiB)
    } catch {
      // The process may be gone; the error surfaces through the request instead.
    }
  }, 25)
  const t0 = performance.now()
  const res = await fetch(url, { headers: { authorization: bearer(token) } })
  if (!res.ok || !res.body) throw new Error(`DownloadFile: HTTP ${res.status}`)
  let bytes = 0
  let newlines = 0
  const reader = res.body.getReader()
  for (;;) {
    const { done, value: buf } = await reader.read()
    if (done) break
    bytes += buf.length
    // indexOf is a native scan: the client must not steal CPU from the server it measures.
    const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength)
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) newlines++
  }
  const seconds = (performance.now() - t0) / 1000
  clearInterval(sampler)
  const after = memoryOf(pid)
  // Seeded values hold no newline, so lines = rows + the header line.
  const rows = newlines - 1
  const peak = reset ? Math.max(after.hwmMiB, sampled) : sampled
  return {
    seconds,
    rows,
    rowsPerSecond: rows / seconds,
    bytes,
    peakRssMiB: peak,
    rssBeforeMiB: before.rssMiB,
    peakFrom: reset ? 'VmHWM, reset before the export' : 'VmRSS sampled every 25 ms',
  }
}

async function benchPglite(): Promise<EngineResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'))
  try {
    const config = loadConfig({ DATA_DIR: dataDir })
    log(`pglite: seeding ${ROWS.toLocaleString('en')} leads in ${dataDir}`)
    const handle = await openDb(config.database)
    if (handle.kind !== 'pglite') throw new Error('expected PGlite')
    const client = handle.client
    const sql: Sql = { query: (t) => client.query(t), exec: (t) => client.exec(t) }
    const seed = await seedLeads(sql, ROWS)
    await handle.close()
    log(`pglite: seeded in ${(seed.insertSeconds + seed.indexSeconds).toFixed(1)} s`)
    // The package does not export its package.json, so read the installed copy.
    const pkg = JSON.parse(readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version?: string }
    const version = pkg.version ?? '?'
    return await measure('pglite', `PGlite ${version}`, { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, seed)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function benchPostgres(): Promise<EngineResult | string> {
  const { found, tried } = await findPostgres()
  if (!found) return `no PostgreSQL answers (${tried.map((t) => `${t.url}: ${t.result.reason ?? 'may not create databases'}`).join('; ')})`
  const name = `bench_leads_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: found.url })
  await admin.connect()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'))
  try {
    await admin.query(`CREATE DATABASE "${name}"`)
    const url = withDatabase(found.url, name)
    log(`postgres: seeding ${ROWS.toLocaleString('en')} leads in ${redact(url)}`)
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url })
    const handle = await openDb(config.database)
    await handle.close()
    // One session for the seed, so its SET applies to the index builds that follow.
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query(`SET maintenance_work_mem = '512MB'`)
    const sql: Sql = { query: (t) => client.query(t), exec: (t) => client.query(t) }
    const seed = await seedLeads(sql, ROWS)
    await client.end()
    log(`postgres: seeded in ${(seed.insertSeconds + seed.indexSeconds).toFixed(1)} s`)
    const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '?'
    return await measure('postgres', `PostgreSQL ${version}`, { ...process.env, DATA_DIR: dataDir, DATABASE_URL: url }, seed)
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {})
    await admin.end()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const f1 = (n: number) => n.toFixed(1)
const ms = (l: Latency) => `${f1(l.p50)} / ${f1(l.p95)}`

function printTable(results: EngineResult[]): void {
  const head = ['engine', 'page 1 p50/p95 ms', `page ${DEEP_PAGE} p50/p95 ms`, 'search p50/p95 ms', 'broad search p50/p95', 'export s', 'rows/s', 'peak RSS MiB']
  const rows = results.map((r) => [
    r.engine,
    ms(r.getuser.page1),
    ms(r.getuser.deepPage),
    ms(r.getuser.search),
    ms(r.getuser.broadSearch),
    r.export.seconds.toFixed(2),
    Math.round(r.export.rowsPerSecond).toLocaleString('en'),
    f1(r.export.peakRssMiB),
  ])
  rows.push(['target (PostgreSQL)', '', '', 'p95 < 25', '', '', '≥ 300,000', '< 250'])
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')
  console.log(`\n${ROWS.toLocaleString('en')} leads, ${REQUESTS} requests per series, limit ${LIMIT}`)
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'))
  for (const r of rows) console.log(line(r))
}

function printBudget(b: BudgetResult): void {
  console.log('\nPWA budget (gzip -9 of the bodies the page loaded; transfer = bytes on the wire)')
  for (const p of b.pages) {
    console.log(
      `  ${p.path}: JS ${f1(p.jsGzipKiB)} KiB gzip in ${p.jsFiles} files (transfer ${f1(p.jsTransferKiB)} KiB), ` +
        `CSS ${f1(p.cssGzipKiB)} KiB gzip in ${p.cssFiles} files`,
    )
  }
  console.log('  Lighthouse 12 (performance / accessibility / best practices):')
  for (const l of b.lighthouse) {
    console.log(`    ${l.path.padEnd(14)} ${l.preset.padEnd(8)} ${l.performance} / ${l.accessibility} / ${l.bestPractices}`)
  }
  console.log('  targets: login JS ≤ 100 KiB gzip; desktop 100/100/100; mobile (default throttling) performance ≥ 90')
}

async function main(): Promise<void> {
  // Other work on the machine skews latencies; the load average is kept beside the figures.
  const loadAtStart = os.loadavg()
  const results: EngineResult[] = []
  const notes: string[] = []
  if (ONLY.has('pglite')) results.push(await benchPglite())
  if (ONLY.has('postgres')) {
    const r = await benchPostgres()
    if (typeof r === 'string') notes.push(`PostgreSQL skipped: ${r}`)
    else results.push(r)
  }
  let budget: BudgetResult | string | undefined
  if (ONLY.has('budget')) budget = await runBudget()
  if (typeof budget === 'string') notes.push(`budget skipped: ${budget}`)

  if (results.length > 0) printTable(results)
  if (budget !== undefined && typeof budget !== 'string') printBudget(budget)
  for (const n of notes) console.log(`note: ${n}`)
  console.log(`load average (1 min) at start ${loadAtStart[0]?.toFixed(2)}, at end ${os.loadavg()[0]?.toFixed(2)}, on ${os.cpus().length} CPUs`)

  const cpu = os.cpus()
  const out = {
    measuredAt: new Date().toISOString(),
    machine: {
      cpus: cpu.length,
      cpuModel: cpu[0]?.model ?? 'unknown',
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      loadAverage1mAtStart: loadAtStart[0],
      loadAverage1mAtEnd: os.loadavg()[0],
    },
    method: {
      requestsPerSeries: REQUESTS,
      warmupRequests: WARMUP,
      percentile: 'nearest rank',
      limit: LIMIT,
      deepPage: DEEP_PAGE,
      search: 'a different email fragment per request (first.last + up to 3 digits)',
      broadSearch: `terms matching many rows, in turn: ${BROAD.join(', ')}`,
      client: 'Node fetch, sequential, keep-alive, from a separate process on 127.0.0.1',
    },
    targets: { postgresSearchP95Ms: 25, exportRowsPerSecond: 300_000, exportPeakRssMiB: 250, loginJsGzipKiB: 100 },
    engines: results,
    budget,
    notes,
  }
  writeFileSync(path.join(root, 'bench', 'results.json'), JSON.stringify(out, null, 2) + '\n')
  log('wrote bench/results.json')
}

await main()
