/**
 * `--only=public`: the calls the public makes at its own rate, not staff: the referral redirect
 * (`/admin/app/:code`), the restricted countries the platform's apps read, and `/public-info`.
 * The server runs with the configuration `npm start` ships: no LOG_LEVEL or LOG_REQUESTS (their
 * defaults, info and summary), its log written to a file as a service's goes to its journal.
 * Each call is loaded with autocannon (50 connections) beside a bare Fastify answering a fixed
 * JSON in a process of its own, and read as a ratio to it: what this machine can do at that moment
 * is what the figures are read against. On a machine shared with other work that changes from one
 * second to the next, so the two sides take turns in short slices (SLICES of SLICE_SECONDS each,
 * bare Fastify first), and each side's rate and latency percentiles are those of all its slices
 * together (every answer's latency kept, not an average of percentiles). Every call is measured
 * twice: first without a warm-up (the route's first requests in the process, as after a restart),
 * then after WARMUP_SECONDS of warm-up, its bare Fastify too.
 *
 * The redirect's visits must be counted exactly: after its run the brand's count (written by the
 * server every REFERRAL_FLUSH_MS) is compared with the 302 answers autocannon received. Every
 * request comes from one address, which REFERRAL_VISITS_PER_ADDRESS would stop counting after 10
 * an hour: the bench raises it to its highest, so each visit is counted (more work for the server
 * than the shipped limit, never less). The server's log lines are counted at the end, beside the
 * requests it answered.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import autocannon from 'autocannon'
import { encodeReferral } from '../server/areas/brands/referral.ts'
import type { Engine } from './engines.ts'
import { bearer, f1, login, printRows, root, startServer } from './lib.ts'

/** Throughput as a share of bare Fastify's, at least. */
export const PUBLIC_RATIO_TARGET = 0.5
/** p99 under this, in ms. */
export const PUBLIC_P99_TARGET_MS = 20
const CONNECTIONS = 50
const WARMUP_SECONDS = 2
/** Each side's turns: SLICES x SLICE_SECONDS of load, the two sides alternating. */
const SLICES = 5
const SLICE_SECONDS = 2
/** REFERRAL_VISITS_PER_ADDRESS's highest value (server/config.ts): every visit from the bench's one address is counted. */
const VISITS_PER_ADDRESS = '1000000'
const REFERRAL_KEY = 'bench-referral-key'
/**
 * What the server runs with: `shipped`, the defaults `npm start` and `npm run demo` ship, always
 * measured; `all` (`--public-log=shipped,all`), a line for every request, to see what that costs.
 */
export const PUBLIC_LOGS = ['shipped', 'all'] as const
export type PublicLog = (typeof PUBLIC_LOGS)[number]
const CONFIGURATIONS: Record<PublicLog, { label: string; env: Record<string, string> }> = {
  shipped: { label: 'shipped defaults (LOG_LEVEL info, LOG_REQUESTS summary)', env: {} },
  all: { label: 'LOG_REQUESTS=all (two lines a request, LOG_LEVEL info)', env: { LOG_REQUESTS: 'all' } },
}

export interface LoadFigures {
  call: string
  requestsPerSecond: number
  p50: number
  p99: number
  /** Answers by status code. */
  statuses: Record<string, number>
  errors: number
}

/** One call and the bare Fastify measured just before it, both with or both without a warm-up. */
export interface PublicPair {
  warmUp: boolean
  bare: LoadFigures
  call: LoadFigures
}

export interface PublicResult {
  engine: Engine['engine']
  version: string
  log: PublicLog
  configuration: string
  seconds: number
  /** Redirects sent in the exactness run (a fixed number, so every answer is counted). */
  requests: number
  pairs: PublicPair[]
  /** Visits the brand's count shows after the redirect's run, and the 302s sent for it. */
  visitsCounted: number
  redirectsAnswered: number
  /** The server's log over the whole run: its lines, and its summary lines of the public calls. */
  logLines: number
  summaryLines: number
  /** Answers the server sent over the whole run (every load and the exactness run). */
  answered: number
}

const statusesOf = (result: autocannon.Result): Record<string, number> => {
  const statuses: Record<string, number> = {}
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0
  return statuses
}

/** What one side's slices gathered: answers, seconds under load, every answer's latency (ms). */
interface Gathered {
  seconds: number
  latencies: number[]
  statuses: Record<string, number>
  errors: number
}

const gathered = (): Gathered => ({ seconds: 0, latencies: [], statuses: {}, errors: 0 })

/** `seconds` of load on `url`; with `into`, its answers, their latencies and its time are added there. */
function loadFor(url: string, seconds: number, into?: Gathered): Promise<void> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds }, (error: unknown, result: autocannon.Result) => {
      if (error !== null && error !== undefined) return reject(error instanceof Error ? error : new Error(String(error)))
      if (into !== undefined) {
        into.seconds += result.duration
        into.errors += result.errors
        for (const [code, n] of Object.entries(statusesOf(result))) into.statuses[code] = (into.statuses[code] ?? 0) + n
      }
      resolve()
    })
    if (into !== undefined) instance.on('response', (_client, _status, _bytes, responseTime) => void into.latencies.push(responseTime))
  })
}

/** The `q` quantile of sorted latencies (nearest rank). */
const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN

const figuresOf = (call: string, g: Gathered): LoadFigures => {
  const sorted = Float64Array.from(g.latencies).sort()
  const list = Array.from(sorted)
  const answers = Object.values(g.statuses).reduce((a, b) => a + b, 0)
  return { call, requestsPerSecond: g.seconds > 0 ? answers / g.seconds : 0, p50: quantile(list, 0.5), p99: quantile(list, 0.99), statuses: g.statuses, errors: g.errors }
}

/** One call beside bare Fastify, slice by slice, after WARMUP_SECONDS of each or not. */
async function pairOf(call: string, url: string, bareUrl: string, warmUp: boolean): Promise<PublicPair> {
  if (warmUp) {
    await loadFor(bareUrl, WARMUP_SECONDS)
    await loadFor(url, WARMUP_SECONDS)
  }
  const bare = gathered()
  const mine = gathered()
  for (let i = 0; i < SLICES; i++) {
    await loadFor(bareUrl, SLICE_SECONDS, bare)
    await loadFor(url, SLICE_SECONDS, mine)
  }
  return { warmUp, bare: figuresOf('bare Fastify, fixed JSON', bare), call: figuresOf(call, mine) }
}

const answersOf = (f: LoadFigures): number => Object.values(f.statuses).reduce((a, b) => a + b, 0)

/** A bare Fastify answering a fixed JSON, in a process of its own as the server is. */
async function bareFastify(): Promise<{ url: string; stop: () => void }> {
  const script = `
    import Fastify from 'fastify'
    const app = Fastify()
    app.get('/fixed', async () => ({ status: 'success', message: 'fixed', result: [] }))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    console.log('LISTENING ' + address)
  `
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const found = /LISTENING (\S+)/.exec(out)
      if (found?.[1] !== undefined) resolve(`${found[1]}/fixed`)
    })
    child.once('exit', (code) => reject(new Error(`bare Fastify exited (${code})`)))
  })
  return { url, stop: () => child.kill('SIGTERM') }
}

export async function benchPublic(e: Engine, requests: number, log: (s: string) => void, mode: PublicLog = 'shipped'): Promise<PublicResult> {
  const configuration = CONFIGURATIONS[mode]
  // Seeded before the server opens the database (PGlite has one connection): one brand for the
  // throughput run, one for the exactness run.
  const [brandId, countedId] = await e.session(async (sql) => {
    const rows = await sql.query(`insert into brands (brandname, type) values ('Bench Referral Brand', 'web3auth'), ('Bench Counted Brand', 'ipfs') returning id`)
    await sql.exec(`insert into restricted_countries (country, code) values ('France', 'FR'), ('Japan', 'JP'), ('Chile', 'CL')`)
    const ids = rows.rows.map((row) => (typeof row === 'object' && row !== null && 'id' in row && typeof row.id === 'string' ? row.id : ''))
    if (ids.length !== 2 || ids.includes('')) throw new Error('no brands inserted')
    return ids
  })
  const code = encodeURIComponent(encodeReferral(brandId ?? '', REFERRAL_KEY))
  const counted = encodeURIComponent(encodeReferral(countedId ?? '', REFERRAL_KEY))
  const bare = await bareFastify()
  const logDir = path.join(root, '.tmp')
  mkdirSync(logDir, { recursive: true })
  const logFile = path.join(logDir, `public-calls-${e.engine}-${mode}.log`)
  // Whatever the shell exported, the server gets the defaults it ships with (and the mode's own settings).
  const { LOG_LEVEL: _level, LOG_REQUESTS: _requests, LOG_SLOW_MS: _slow, ...shipped } = e.env
  const server = await startServer({ ...shipped, ...configuration.env, REFERRAL_KEY, REFERRAL_FLUSH_MS: '1000', REFERRAL_VISITS_PER_ADDRESS: VISITS_PER_ADDRESS }, undefined, { logFile })
  try {
    log(`${e.engine}: ${configuration.label}; ${SLICES} x ${SLICE_SECONDS} s per call, ${CONNECTIONS} connections, taking turns with a bare Fastify; without a warm-up, then after ${WARMUP_SECONDS} s of one (log: ${path.relative(root, logFile)})`)
    const calls = [
      { call: 'referral redirect /admin/app/:code', url: `${server.base}/admin/app/${code}` },
      { call: 'GET /api/admin/restricted-countries', url: `${server.base}/api/admin/restricted-countries` },
      { call: 'GET /api/admin/public-info', url: `${server.base}/api/admin/public-info` },
    ]
    const pairs: PublicPair[] = []
    for (const warmUp of [false, true]) {
      for (const { call, url } of calls) pairs.push(await pairOf(call, url, bare.url, warmUp))
    }
    // Exactness: a fixed number of redirects to a brand of its own, every answer awaited.
    log(`${e.engine}: ${requests} redirects to count`)
    const exact = await autocannon({ url: `${server.base}/admin/app/${counted}`, connections: CONNECTIONS, amount: requests })
    // Two flush intervals: what the redirect counted is written by then.
    await new Promise((r) => setTimeout(r, 2_500))
    const token = await login(server.base)
    const res = await fetch(`${server.base}/api/admin/listbrandUser`, {
      method: 'POST',
      headers: { authorization: bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ id: countedId }),
    })
    const body: unknown = await res.json()
    const visits = typeof body === 'object' && body !== null && 'visits' in body && typeof body.visits === 'number' ? body.visits : -1
    await server.stop()
    const lines = readFileSync(logFile, 'utf8').split('\n').filter((l) => l !== '')
    return {
      engine: e.engine,
      version: e.version,
      log: mode,
      configuration: configuration.label,
      seconds: SLICES * SLICE_SECONDS,
      requests,
      pairs,
      visitsCounted: visits,
      redirectsAnswered: statusesOf(exact)['302'] ?? 0,
      logLines: lines.length,
      summaryLines: lines.filter((l) => l.includes('"msg":"public calls"')).length,
      // Warm-ups are answered too but not counted by autocannon's result: this is a floor.
      answered: pairs.reduce((n, p) => n + answersOf(p.call), 0) + exact.requests.total,
    }
  } finally {
    bare.stop()
    await server.stop()
  }
}

export function printPublic(results: readonly PublicResult[]): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\nPublic calls (log: ${[...new Set(results.map((r) => `${r.log}, ${r.configuration}`))].join('; ')}), ${first.seconds} s each, ${CONNECTIONS} connections, in ${SLICES} turns of ${SLICE_SECONDS} s with a bare Fastify (targets: at least ${PUBLIC_RATIO_TARGET * 100} % of bare Fastify's requests/s, p99 under ${PUBLIC_P99_TARGET_MS} ms)`)
  const rows: string[][] = []
  for (const r of results) {
    for (const p of r.pairs) {
      const ratio = p.call.requestsPerSecond / p.bare.requestsPerSecond
      const met = ratio >= PUBLIC_RATIO_TARGET && p.call.p99 < PUBLIC_P99_TARGET_MS
      rows.push([
        r.version,
        r.log,
        p.call.call,
        p.warmUp ? `${WARMUP_SECONDS} s` : 'none',
        `${f1(p.bare.requestsPerSecond)} (${f1(p.bare.p50)} / ${f1(p.bare.p99)})`,
        f1(p.call.requestsPerSecond),
        ratio.toFixed(2),
        `${f1(p.call.p50)} / ${f1(p.call.p99)}`,
        statusText(p.call),
        met ? 'met' : 'not met',
      ])
    }
  }
  printRows(['engine', 'log', 'call', 'warm-up', 'bare req/s (p50 / p99 ms)', 'req/s', 'of bare', 'p50 / p99 ms', 'answers', 'target'], rows)
  for (const r of results) {
    const exact = r.visitsCounted === r.redirectsAnswered
    console.log(`${r.version}, ${r.log}: referral visits counted ${r.visitsCounted} for ${r.redirectsAnswered} redirects answered: ${exact ? 'exact' : 'NOT exact'}`)
    console.log(`${r.version}, ${r.log}: the server logged ${r.logLines} lines (${r.summaryLines} of them summaries of the public calls) for ${r.answered} answers measured`)
  }
}

const statusText = (f: LoadFigures): string =>
  Object.entries(f.statuses)
    .map(([code, n]) => `${n} x ${code}`)
    .join(', ') + (f.errors > 0 ? `, ${f.errors} errors` : '')
