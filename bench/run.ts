/**
 * `npm run bench`: each section seeds a fresh database on PGlite and on PostgreSQL, runs the real
 * server in a child process, and measures over HTTP with a real login token:
 *   - leads (`pglite`, `postgres`): 1,000,000 leads; /api/admin/getuser page 1, a deep page and
 *     searches (p50/p95), /api/admin/getDashboard (p50/p95), and /api/admin/DownloadFile of every
 *     row (seconds, rows/s, peak RSS);
 *   - `games` (bench/games.ts): 10,000 games; /api/admin/listCms page 1, the last page, a title
 *     search and a category filter (p50/p95);
 *   - `media` (bench/media.ts): uploads of a 100 MiB video through /api/admin/addcms (seconds and
 *     the server's peak RSS growth);
 *   - `promotions` (bench/promotions.ts): --rows leads with countries; /api/admin/FilterOption by
 *     provider, country, email and together (p50/p95), and a Submit to 100,000 of them delivered
 *     by the job queue with the default transport (seconds, recipients/s);
 *   - `trash` (bench/trash.ts): a promotion with --deliveries deliveries (default 1000000) deleted
 *     and undone through the API (seconds, the server's RSS growth and longest event-loop stall,
 *     other calls answered meanwhile);
 *   - `bulk` (bench/bulk.ts): Freeze, Mark Resolved and Delete on every one of --bulk-rows games
 *     and enquiries (default 100000), applied as a job and undone, measured as the trash is;
 *   - `forecast` (bench/forecast.ts): the send forecast of every one of --rows leads with every
 *     reason to leave some out, "Select all N matching" on Leads (its call and bytes), and the
 *     selection's export;
 * then the PWA's budget (`budget`, bench/budget.ts): gzip size of the JS and CSS that /admin/login
 * and /admin/users load, and Lighthouse 12 scores; then reopening Leads (`reopen`, bench/reopen.ts):
 * cold, warm and offline loads in throttled Chromium to the first lead row; then Contact Us Triage
 * (`triage`, bench/triage.ts): the next enquiry painted after R or S; then who else is there
 * (`presence`, bench/presence.ts): two instances on PostgreSQL and Redis, a record opened on one
 * seen from the other (p50/p95) and the announcements still standing 10 s after their tabs
 * closed, fell silent or lost their instance. Prints tables and writes bench/results.json.
 *
 *   - `sort` (bench/leads-sort.ts): --rows leads sorted by each sortable column (first pages,
 *     p50/p95, against the targets), deep pages, the filters' first pages, DownloadFile of every lead
 *     beside a filtered, sorted one (rows/s, peak RSS), and each sort index's size, build time and
 *     insert cost;
 *   - `register` (bench/register.ts): /register's answer time for a new email, an unconfirmed or
 *     confirmed request's and an admin's (p50/p95 and the spread of the medians);
 *   - `counting` (bench/leads-count.ts): a new broad term's first page rows first (getuser
 *     count=later) and its count call (getuserCount) on --rows leads (p50/p95, against the
 *     targets), a repeat, and the same breadth with the count as before (count=now);
 *   - `search` (bench/record-search.ts): the palette's server search on --rows leads (p50/p95 per
 *     query); `palette`: the palette's filter over 5,000 cached records, per keystroke;
 *   - `public` (bench/public-calls.ts): the referral redirect, the restricted countries and
 *     /public-info under 50 connections (autocannon), beside a bare Fastify in the same run
 *     (requests/s, p50/p99), and the redirect's visits counted against the 302s answered;
 * Options: --only=pglite,postgres,sort,counting,games,media,promotions,register,trash,bulk,forecast,public,search,palette,budget,reopen,triage,presence (default all), --engines=pglite,postgres
 * (the engines of sort, counting, games, media, promotions, register, trash, bulk, forecast and public), --pg-shared-buffers=SIZE (the leads section's PostgreSQL
 * on a throwaway cluster with that shared_buffers), --rows=N (leads, default 1000000), --games=N (default 10000),
 * --video-mib=N (default 100), --uploads=N (default 3), --requests=N (default 20), --deliveries=N (default 1000000), --bulk-rows=N (default 100000), --bulk-actions=freeze,resolve,delete (default all), --public-requests=N (redirects counted for exactness, default 20000), --public-log=shipped,all (the public calls' log
 * settings: the shipped defaults, and with `all` a line for every request as well; default shipped).
 * Not part of `npm test`: it takes minutes and measures, it does not judge.
 */
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { BUDGET_TARGETS, runBudget, type BudgetResult, type LighthouseScore } from './budget.ts'
import { printReopen, runReopen, type ReopenResult } from './reopen.ts'
import { printTriage, runTriage, type TriageResult } from './triage.ts'
import { PRESENCE_SEEN_TARGET_MS, PRESENCE_STALE_TARGET, printPresence, runPresence, type PresenceResult } from './presence.ts'
import { withEngine, type EngineName } from './engines.ts'
import { GAMES_LIMIT, GAMES_P95_TARGET_MS, benchGames, printGames, type GamesResult } from './games.ts'
import { bearer, exportCsv, f1, latency, login, ms, printRows, prng, root, series, startServer, type ExportResult, type Latency } from './lib.ts'
import { GROWTH_TARGET_MIB, benchMedia, printMedia, type MediaResult } from './media.ts'
import { REGISTER_SPREAD_TARGET, benchRegister, printRegister, type RegisterResult } from './register.ts'
import { emailOf, seedLeads, type SeedReport } from './seed.ts'
import { SORT_TARGETS, benchLeadsSort, printSort, type SortResult } from './leads-sort.ts'
import { ROWS_FIRST_TARGETS, benchCounting, printCounting, type CountingResult } from './leads-count.ts'
import { DELIVERY_TARGET_SECONDS, benchPromotions, printPromotions, type PromotionsResult } from './promotions.ts'
import { TRASH_GROWTH_TARGET_MIB, TRASH_STALL_TARGET_MS, benchTrash, printTrash, type TrashResult } from './trash.ts'
import { BULK_ACTIONS, BULK_GROWTH_TARGET_MIB, BULK_SECONDS_TARGET, BULK_STALL_TARGET_MS, benchBulk, printBulk, type BulkResult } from './bulk.ts'
import { FORECAST_P95_TARGET_MS, SELECT_ALL_TARGET, benchForecast, printForecast, type ForecastResult } from './forecast.ts'
import { PUBLIC_LOGS, PUBLIC_P99_TARGET_MS, PUBLIC_RATIO_TARGET, benchPublic, printPublic, type PublicResult } from './public-calls.ts'
import { KEYSTROKE_TARGET_MS, SEARCH_TARGETS, benchPaletteFilter, benchRecordSearch, printPaletteFilter, printRecordSearch, type PaletteFilterResult, type SearchResult } from './record-search.ts'

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=')
    return [k ?? '', v ?? 'true'] as const
  }),
)
const SECTIONS = ['pglite', 'postgres', 'sort', 'counting', 'games', 'media', 'promotions', 'register', 'trash', 'bulk', 'forecast', 'public', 'search', 'palette', 'budget', 'reopen', 'triage', 'presence'] as const
const ENGINES: readonly EngineName[] = ['pglite', 'postgres']

function option(name: string, fallback: number): number {
  const text = args.get(name)
  const n = Number(text ?? fallback)
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number of at least 1 (got ${text})`)
  return n
}
function list<T extends string>(name: string, allowed: readonly T[]): Set<T> {
  const words = (args.get(name) ?? allowed.join(',')).split(',').filter((w) => w !== '')
  const picked = new Set(allowed.filter((a) => words.includes(a)))
  const unknown = words.filter((w) => !allowed.some((a) => a === w))
  if (unknown.length > 0 || picked.size === 0) throw new Error(`--${name} takes ${allowed.join(', ')} (got ${args.get(name)})`)
  return picked
}

const ROWS = option('rows', 1_000_000)
const REQUESTS = option('requests', 20)
/** Tabs on the second instance for each way of going (closed, silent, lost with it) in the presence section. */
const PRESENCE_TABS = 10
const GAMES = option('games', 10_000)
const VIDEO_MIB = option('video-mib', 100)
const UPLOADS = option('uploads', 3)
const DELIVERIES = option('deliveries', 1_000_000)
const BULK_ROWS = option('bulk-rows', 100_000)
const BULK_WORDS = list('bulk-actions', BULK_ACTIONS.map((a) => a.word))
const PUBLIC_REQUESTS = option('public-requests', 20_000)
const ONLY = list('only', SECTIONS)
/** The public calls' log settings measured: the shipped defaults unless --public-log names others. */
const PUBLIC_LOG = args.get('public-log') === undefined ? new Set(['shipped'] as const) : list('public-log', PUBLIC_LOGS)
/**
 * --pg-shared-buffers=1GB: the leads section's PostgreSQL is a throwaway cluster of the bench's own
 * with that much shared memory (docs/operations.md, "Several instances") instead of the server the tests use.
 */
const PG_SHARED_BUFFERS = args.get('pg-shared-buffers')
if (PG_SHARED_BUFFERS !== undefined && !/^\d+(kB|MB|GB)$/.test(PG_SHARED_BUFFERS)) throw new Error(`--pg-shared-buffers takes a size such as 1GB (got ${PG_SHARED_BUFFERS})`)
const ON = list('engines', ENGINES)
/** Requests before each measured series, not counted: the first answers pay for cold caches and JIT. */
const WARMUP = 2
const LIMIT = 50
const DEEP_PAGE = Math.max(1, Math.floor(ROWS / LIMIT / 2))
/** Words many leads contain (a mail domain, a common surname, a first name, a hex pair). */
const BROAD = ['gmail', 'smith', 'olivia', '0xab'] as const
/** Broad words for the warm-up only, so the measured terms are each asked for the first time. */
const BROAD_WARMUP = ['outlook', 'yahoo'] as const
/** Pages of each broad term a person looks at, one after another. */
const BROAD_PAGES = 5

interface EngineResult {
  engine: EngineName
  /** PGlite's package version or the PostgreSQL server's `server_version`. */
  version: string
  rows: number
  seed: SeedReport
  serverStartSeconds: number
  getuser: {
    page1: Latency
    deepPage: Latency & { page: number }
    search: Latency & { examples: string[]; avgMatches: number }
    /** Every page of the broad series: each term's page 1 (its count not known yet), then its pages 2 to BROAD_PAGES. */
    broadSearch: Latency & { terms: string[]; avgMatches: number }
    /** The first page of each broad term: the exact count is computed. */
    broadFirst: Latency
    /** The next pages of a broad term: its count is known until anything is written. */
    broadNext: Latency
  }
  /** /api/admin/getDashboard as the superadmin sees it: every card (leads' total and 30-day series, promotions, links). */
  dashboard: Latency
  export: ExportResult
}

/** The targets for 1,000,000 leads (counts exact); p95 in ms, export in rows/s and MiB. */
const LEADS_TARGETS: Record<EngineName, { page1P95Ms: number; deepPageP95Ms: number; searchP95Ms?: number; broadSearchP95Ms: number; exportRowsPerSecond: number; exportPeakRssMiB: number }> = {
  postgres: { page1P95Ms: 15, deepPageP95Ms: 30, searchP95Ms: 10, broadSearchP95Ms: 50, exportRowsPerSecond: 700_000, exportPeakRssMiB: 250 },
  pglite: { page1P95Ms: 100, deepPageP95Ms: 100, broadSearchP95Ms: 150, exportRowsPerSecond: 100_000, exportPeakRssMiB: 400 },
}

const log = (s: string) => console.log(`[bench] ${s}`)

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
    await series(BROAD_WARMUP.map((t) => page(1, t)), token)
    const broadAsks = BROAD.flatMap((t) => Array.from({ length: BROAD_PAGES }, (_, i) => ({ term: t, page: i + 1 })))
    const broad = await series(broadAsks.map((a) => page(a.page, a.term)), token)
    const broadFirst = broad.filter((_, i) => broadAsks[i]?.page === 1)
    const broadNext = broad.filter((_, i) => broadAsks[i]?.page !== 1)
    const matches = async (ts: string[]) => {
      let n = 0
      for (const t of ts) {
        const res = await fetch(page(1, t), { headers: { authorization: bearer(token) } })
        n += z.object({ count: z.number() }).parse(await res.json()).count
      }
      return n / ts.length
    }

    log(`${engine}: getDashboard (${WARMUP} warm-up + ${REQUESTS})`)
    const dashboardUrl = `${api}/getDashboard`
    await series(Array.from({ length: WARMUP }, () => dashboardUrl), token)
    const dashboard = await series(Array.from({ length: REQUESTS }, () => dashboardUrl), token)

    log(`${engine}: DownloadFile of all rows`)
    // The export is a step-up call: a sign-in just before is its proof (the first may be minutes old).
    const exp = await exportCsv(`${api}/DownloadFile`, await login(server.base), server.pid)
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
        broadFirst: latency(broadFirst),
        broadNext: latency(broadNext),
      },
      dashboard: latency(dashboard),
      export: exp,
    }
  } finally {
    await server.stop()
  }
}

/** The leads section on one engine: seed, then measure. */
const benchLeads = (engine: EngineName): Promise<EngineResult | string> =>
  withEngine(engine, 'leads', async (e) => {
    log(`${engine}: ${e.version}; seeding ${ROWS.toLocaleString('en')} leads in ${e.where}`)
    const seed = await e.session((sql) => seedLeads(sql, ROWS))
    log(`${engine}: seeded in ${(seed.insertSeconds + seed.indexSeconds).toFixed(1)} s`)
    return measure(engine, e.version, e.env, seed)
  }, PG_SHARED_BUFFERS === undefined ? {} : { postgresSharedBuffers: PG_SHARED_BUFFERS })

function printTable(results: EngineResult[]): void {
  const head = ['engine', 'page 1 p50/p95 ms', `page ${DEEP_PAGE} p50/p95 ms`, 'search p50/p95 ms', 'broad search p50/p95', 'broad, new term', 'broad, next pages', 'dashboard p50/p95 ms', 'export s', 'rows/s', 'peak RSS MiB']
  const rows: string[][] = []
  for (const r of results) {
    rows.push([
      r.engine,
      ms(r.getuser.page1),
      ms(r.getuser.deepPage),
      ms(r.getuser.search),
      ms(r.getuser.broadSearch),
      ms(r.getuser.broadFirst),
      ms(r.getuser.broadNext),
      ms(r.dashboard),
      r.export.seconds.toFixed(2),
      Math.round(r.export.rowsPerSecond).toLocaleString('en'),
      f1(r.export.peakRssMiB),
    ])
    const t = LEADS_TARGETS[r.engine]
    rows.push([
      '  target',
      `p95 < ${t.page1P95Ms}`,
      `p95 < ${t.deepPageP95Ms}`,
      t.searchP95Ms === undefined ? '' : `p95 < ${t.searchP95Ms}`,
      `p95 < ${t.broadSearchP95Ms}`,
      '',
      '',
      '',
      '',
      `≥ ${t.exportRowsPerSecond.toLocaleString('en')}`,
      `< ${t.exportPeakRssMiB}`,
    ])
  }
  console.log(`\n${ROWS.toLocaleString('en')} leads, ${REQUESTS} requests per series, limit ${LIMIT}`)
  printRows(head, rows)
}

function printBudget(b: BudgetResult): void {
  const floorJs = b.floor.page.jsGzipKiB
  const simulated = (scores: LighthouseScore[], p: string) => scores.find((l) => l.path === p && l.preset === 'simulated')
  const desktop = (scores: LighthouseScore[], p: string) => scores.find((l) => l.path === p && l.preset === 'desktop')
  const lcp = (l: LighthouseScore | undefined) => (l?.metrics['lcpMs'] == null ? '?' : `${(l.metrics['lcpMs'] / 1000).toFixed(1)} s`)
  const runs = (l: LighthouseScore | undefined) => (l ? `median of ${l.runs.join(', ')}` : '')
  const triple = (l: LighthouseScore | undefined) => (l ? `${l.performance}/${l.accessibility}/${l.bestPractices}` : '?')
  console.log(`\nPWA budget (${b.chromium}; JS = gzip -9 of the scripts the page loaded)`)
  console.log('  "simulated": Lighthouse 12, desktop form factor, no screen emulation, default simulated throttling')
  const head = ['page', 'JS KiB gzip', 'target', 'x floor', 'uncompressed files', 'simulated perf', 'target', 'LCP', 'desktop preset', 'target']
  const rows = (['/admin/login', '/admin/users'] as const).map((p) => {
    const load = b.pages.find((l) => l.path === p)
    const target = BUDGET_TARGETS[p]
    const sim = simulated(b.lighthouse, p)
    return [
      p,
      load ? f1(load.jsGzipKiB) : '?',
      `≤ ${target.jsGzipKiB}`,
      load ? `${(load.jsGzipKiB / floorJs).toFixed(2)}x` : '?',
      load ? `${load.uncompressedFiles} of ${load.jsFiles + load.cssFiles}` : '?',
      `${sim?.performance} (${runs(sim)})`,
      target.performance === undefined ? '' : `≥ ${target.performance}`,
      lcp(sim),
      triple(desktop(b.lighthouse, p)),
      '100/100/100',
    ]
  })
  const fSim = simulated(b.floor.lighthouse, '/')
  rows.push(['floor (React alone)', f1(floorJs), '', '1.00x', `${b.floor.page.uncompressedFiles} of ${b.floor.page.jsFiles}`, `${fSim?.performance} (${runs(fSim)})`, '', lcp(fSim), triple(desktop(b.floor.lighthouse, '/')), ''])
  printRows(head, rows)
  for (const l of [...b.lighthouse, ...b.floor.lighthouse]) {
    if (l.failing.length > 0) console.log(`  ${l.path} ${l.preset}: below 1: ${l.failing.join('; ')}`)
  }
}

async function main(): Promise<void> {
  // Other work on the machine skews latencies; the load average is kept beside the figures.
  const loadAtStart = os.loadavg()
  const results: EngineResult[] = []
  const notes: string[] = []
  const keep = <T>(into: T[], section: string, r: T | string) => {
    if (typeof r === 'string') notes.push(`${section} skipped: ${r}`)
    else into.push(r)
  }
  for (const engine of ENGINES) if (ONLY.has(engine)) keep(results, `leads on ${engine}`, await benchLeads(engine))
  const games: GamesResult[] = []
  const media: MediaResult[] = []
  const promotions: PromotionsResult[] = []
  const register: RegisterResult[] = []
  const trash: TrashResult[] = []
  const bulk: BulkResult[] = []
  const forecasts: ForecastResult[] = []
  const publicCalls: PublicResult[] = []
  const searches: SearchResult[] = []
  const paletteFilter: PaletteFilterResult | null = ONLY.has('palette') ? benchPaletteFilter() : null
  const sorts: SortResult[] = []
  const counting: CountingResult[] = []
  for (const engine of ENGINES) {
    if (!ON.has(engine)) continue
    if (ONLY.has('sort')) keep(sorts, `sort on ${engine}`, await withEngine(engine, 'sort', (e) => benchLeadsSort(e, ROWS, REQUESTS, log)))
    if (ONLY.has('counting')) keep(counting, `counting on ${engine}`, await withEngine(engine, 'counting', (e) => benchCounting(e, ROWS, REQUESTS, log)))
    if (ONLY.has('promotions')) keep(promotions, `promotions on ${engine}`, await withEngine(engine, 'promotions', (e) => benchPromotions(e, ROWS, REQUESTS, log)))
    if (ONLY.has('games')) keep(games, `games on ${engine}`, await withEngine(engine, 'games', (e) => benchGames(e, GAMES, REQUESTS, log)))
    if (ONLY.has('media')) keep(media, `media on ${engine}`, await withEngine(engine, 'media', (e) => benchMedia(e, VIDEO_MIB, UPLOADS, log)))
    if (ONLY.has('register')) keep(register, `register on ${engine}`, await withEngine(engine, 'register', (e) => benchRegister(e, REQUESTS, log)))
    if (ONLY.has('trash')) keep(trash, `trash on ${engine}`, await withEngine(engine, 'trash', (e) => benchTrash(e, DELIVERIES, log)))
    if (ONLY.has('bulk')) keep(bulk, `bulk on ${engine}`, await withEngine(engine, 'bulk', (e) => benchBulk(e, BULK_ROWS, BULK_WORDS, log)))
    if (ONLY.has('forecast')) keep(forecasts, `forecast on ${engine}`, await withEngine(engine, 'forecast', (e) => benchForecast(e, ROWS, REQUESTS, log)))
    if (ONLY.has('search')) keep(searches, `search on ${engine}`, await withEngine(engine, 'search', (e) => benchRecordSearch(e, ROWS, REQUESTS, log)))
    if (ONLY.has('public')) for (const mode of PUBLIC_LOG) keep(publicCalls, `public calls on ${engine} (${mode})`, await withEngine(engine, 'public', (e) => benchPublic(e, PUBLIC_REQUESTS, log, mode)))
  }
  let budget: BudgetResult | string | undefined
  if (ONLY.has('budget')) budget = await runBudget()
  if (typeof budget === 'string') notes.push(`budget skipped: ${budget}`)
  let reopen: ReopenResult | string | undefined
  if (ONLY.has('reopen')) reopen = await runReopen()
  if (typeof reopen === 'string') notes.push(`reopen skipped: ${reopen}`)
  let triage: TriageResult | string | undefined
  if (ONLY.has('triage')) triage = await runTriage()
  if (typeof triage === 'string') notes.push(`triage skipped: ${triage}`)
  let presence: PresenceResult | string | undefined
  if (ONLY.has('presence')) presence = await runPresence(REQUESTS, PRESENCE_TABS)
  if (typeof presence === 'string') notes.push(`presence skipped: ${presence}`)

  if (results.length > 0) printTable(results)
  if (sorts.length > 0) printSort(sorts, REQUESTS)
  if (counting.length > 0) printCounting(counting)
  if (games.length > 0) printGames(games, REQUESTS)
  if (media.length > 0) printMedia(media)
  if (promotions.length > 0) printPromotions(promotions, REQUESTS)
  if (register.length > 0) printRegister(register)
  if (trash.length > 0) printTrash(trash)
  if (bulk.length > 0) printBulk(bulk)
  if (forecasts.length > 0) printForecast(forecasts, REQUESTS)
  if (publicCalls.length > 0) printPublic(publicCalls)
  if (searches.length > 0) printRecordSearch(searches)
  if (paletteFilter !== null) printPaletteFilter(paletteFilter)
  if (budget !== undefined && typeof budget !== 'string') printBudget(budget)
  if (reopen !== undefined && typeof reopen !== 'string') printReopen(reopen)
  if (triage !== undefined && typeof triage !== 'string') printTriage(triage)
  if (presence !== undefined && typeof presence !== 'string') printPresence(presence)
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
      broadSearch: `terms matching many rows, each asked for the first time, pages 1 to ${BROAD_PAGES} in turn: ${BROAD.join(', ')} (warm-up: ${BROAD_WARMUP.join(', ')})`,
      client: 'Node fetch, sequential, keep-alive, from a separate process on 127.0.0.1',
    },
    targets: {
      leads: LEADS_TARGETS,
      loginJsGzipKiB: BUDGET_TARGETS['/admin/login'].jsGzipKiB,
      usersJsGzipKiB: BUDGET_TARGETS['/admin/users'].jsGzipKiB,
      loginPerformance: BUDGET_TARGETS['/admin/login'].performance,
      usersPerformance: BUDGET_TARGETS['/admin/users'].performance,
      gamesListPostgresP95Ms: GAMES_P95_TARGET_MS,
      videoUploadRssGrowthMiB: GROWTH_TARGET_MIB,
      promotionDeliverySeconds: DELIVERY_TARGET_SECONDS,
      registerMedianSpread: REGISTER_SPREAD_TARGET,
      trashRssGrowthMiB: TRASH_GROWTH_TARGET_MIB,
      trashEventLoopStallMs: TRASH_STALL_TARGET_MS,
      bulkSeconds: BULK_SECONDS_TARGET,
      bulkRssGrowthMiB: BULK_GROWTH_TARGET_MIB,
      bulkEventLoopStallMs: BULK_STALL_TARGET_MS,
      forecastP95Ms: FORECAST_P95_TARGET_MS,
      selectAll: SELECT_ALL_TARGET,
      publicShareOfBareFastify: PUBLIC_RATIO_TARGET,
      publicP99Ms: PUBLIC_P99_TARGET_MS,
      searchP95Ms: SEARCH_TARGETS,
      paletteKeystrokeMs: KEYSTROKE_TARGET_MS,
      sortFirstPageP95Ms: SORT_TARGETS,
      rowsFirstP95Ms: ROWS_FIRST_TARGETS,
      presenceSeenMs: PRESENCE_SEEN_TARGET_MS,
      presenceStaleAfter10s: PRESENCE_STALE_TARGET,
    },
    engines: results,
    games: {
      method: `listCms with limit ${GAMES_LIMIT}: page 1, the last page, a title word per request in turn, a category per request in turn`,
      results: games,
    },
    media: {
      method: `addcms with one 64x64 PNG and a ${VIDEO_MIB} MiB MP4, streamed by the client; growth = peak RSS during the upload - RSS before it, after one 1 MiB upload not counted`,
      results: media,
    },
    promotions: {
      method: `FilterOption limit 100 on ${ROWS} leads, a request per kind of filter with varied values; Submit with select all in one country (a tenth of the leads), delivered by the job queue (JOB_CONCURRENCY default) with the database transport, timed until listNotification shows it done`,
      results: promotions,
    },
    register: {
      method: `/register with production argon2 settings: a new email, an unconfirmed request's, a confirmed request's and an admin's, interleaved round by round, each from its own address`,
      results: register,
    },
    sort: {
      method: `getuser limit 50 sorted by each sortable column both ways, a deep page, filters; DownloadFile of every lead and of a filtered sorted set; sort indexes: pg_relation_size, CREATE INDEX time, and inserts of 10,000 leads 100 a statement with and without each (best of 2)`,
      results: sorts,
    },
    counting: {
      method: `getuser limit 50 with count=later for a new broad term (a mail domain, with and without @), then getuserCount for it at once; the same terms again; getuser with count=now on new terms of the same breadth and shape (each domain one letter shorter, with and without @)`,
      results: counting,
    },
    search: { method: `findRecords for each query, --requests times after 2 to warm up, on --rows leads`, results: searches },
    palette: { method: `the palette filter over 5000 cached records, one call per keystroke`, results: paletteFilter },
    public: {
      method: `the server with the shipped defaults (no LOG_LEVEL or LOG_REQUESTS; with --public-log=all also LOG_REQUESTS=all), its log to a file; REFERRAL_VISITS_PER_ADDRESS at its highest; autocannon, 50 connections, each call taking turns with a bare Fastify answering a fixed JSON in a process of its own, 5 slices of 2 s each side, rate and latency percentiles over every answer of a side's slices; each pair first without a warm-up, then each after 2 s of one; then ${PUBLIC_REQUESTS} redirects to count`,
      results: publicCalls,
    },
    trash: {
      method: `DeletePromotion then undo of a promotion with ${DELIVERIES} deliveries; growth = peak RSS during the call - RSS before it; stall = the server's monitorEventLoopDelay max during the call; /healthz and listNotification each asked every 20 ms meanwhile`,
      results: trash,
    },
    bulk: {
      method: `${BULK_ROWS} games and as many open enquiries; Freeze, Mark Resolved and Delete on every row matching (no search, no filter): preview, then apply and wait for the job (getBulkRun), then undo by the run's ticket; growth, stall and probes as for the trash`,
      results: bulk,
    },
    forecast: {
      method: `${ROWS} leads, Nigeria restricted and Japan hidden, every 97th unsubscribed, 1,000 suppressed, the frequency cap at 1 in 7 days with 10,000 sent today; forecastPromotion (every lead, one country), forecastNewsletter (all), getuserCount (no filter, one country), --requests times after 2 to warm up; DownloadFile of one country`,
      results: forecasts,
    },
    budget,
    triage: triage === undefined || typeof triage === 'string' ? triage : { method: 'Chromium at 1280 px, unthrottled; ms from the keydown to the first frame with the next enquiry', ...triage },
    presence:
      presence === undefined || typeof presence === 'string'
        ? presence
        : {
            method: `two server processes on one PostgreSQL and Redis; socket.io clients as the PWA: ms from a tab on B opening a record to the PRESENCE event on A's tab, --requests rounds; ${PRESENCE_TABS} tabs on B renewed, then closed, silent (socket open, no heartbeat) or lost with B (SIGKILL), and the announcements a list on A still sees 10 s later`,
            ...presence,
          },
    reopen: reopen === undefined || typeof reopen === 'string' ? reopen : { method: 'Chromium, 4x CPU, 150 ms RTT, 1.6 Mbps down; ms from navigation start to the first frame with a lead row; cold: fresh profile per load; warm: a profile that visited Leads; offline: that profile offline', ...reopen },
    notes,
  }
  writeFileSync(path.join(root, 'bench', 'results.json'), JSON.stringify(out, null, 2) + '\n')
  log('wrote bench/results.json')
}

await main()
