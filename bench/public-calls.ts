/**
 * `--only=public`: the calls the public makes at its own rate, not staff: the referral redirect
 * (`/admin/app/:code`), the restricted countries the platform's apps read, and `/public-info`.
 * Each is loaded with autocannon (50 connections, a fixed number of requests so every answer is
 * counted) against the real server on the engine, and beside it a bare Fastify answering a fixed
 * JSON in a process of its own, measured in the same run: the targets are a ratio to it, since
 * what this machine can do at that moment is what the figures are read against.
 *
 * The redirect's visits must be counted exactly: after its run the brand's count (written by the
 * server every REFERRAL_FLUSH_MS) is compared with the 302 answers autocannon received.
 */
import { spawn } from 'node:child_process'
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
const REFERRAL_KEY = 'bench-referral-key'

export interface LoadFigures {
  call: string
  requestsPerSecond: number
  p50: number
  p99: number
  /** Answers by status code. */
  statuses: Record<string, number>
  errors: number
}

export interface PublicResult {
  engine: Engine['engine']
  version: string
  seconds: number
  /** Redirects sent in the exactness run (a fixed number, so every answer is counted). */
  requests: number
  bare: LoadFigures
  calls: LoadFigures[]
  /** Visits the brand's count shows after the redirect's run, and the 302s sent for it. */
  visitsCounted: number
  redirectsAnswered: number
}

const statusesOf = (result: autocannon.Result): Record<string, number> => {
  const statuses: Record<string, number> = {}
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0
  return statuses
}

/** Throughput and latency over `seconds` of load (autocannon samples answers per second). */
async function load(call: string, url: string, seconds: number): Promise<LoadFigures> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_SECONDS })
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds })
  const statuses = statusesOf(result)
  return {
    call,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors,
  }
}

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

const SECONDS = 10

export async function benchPublic(e: Engine, requests: number, log: (s: string) => void): Promise<PublicResult> {
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
  const server = await startServer({ ...e.env, REFERRAL_KEY, REFERRAL_FLUSH_MS: '1000', LOG_LEVEL: 'warn' })
  try {
    log(`${e.engine}: ${SECONDS} s per call, ${CONNECTIONS} connections (after ${WARMUP_SECONDS} s to warm up), bare Fastify first`)
    const bareFigures = await load('bare Fastify, fixed JSON', bare.url, SECONDS)
    const calls = [
      await load('referral redirect /admin/app/:code', `${server.base}/admin/app/${code}`, SECONDS),
      await load('GET /api/admin/restricted-countries', `${server.base}/api/admin/restricted-countries`, SECONDS),
      await load('GET /api/admin/public-info', `${server.base}/api/admin/public-info`, SECONDS),
    ]
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
    return {
      engine: e.engine,
      version: e.version,
      seconds: SECONDS,
      requests,
      bare: bareFigures,
      calls,
      visitsCounted: visits,
      redirectsAnswered: statusesOf(exact)['302'] ?? 0,
    }
  } finally {
    bare.stop()
    await server.stop()
  }
}

export function printPublic(results: readonly PublicResult[]): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\nPublic calls, ${first.seconds} s each, ${CONNECTIONS} connections (targets: at least ${PUBLIC_RATIO_TARGET * 100} % of bare Fastify's requests/s, p99 under ${PUBLIC_P99_TARGET_MS} ms)`)
  const rows: string[][] = []
  for (const r of results) {
    rows.push([r.version, r.bare.call, f1(r.bare.requestsPerSecond), '100 %', `${f1(r.bare.p50)} / ${f1(r.bare.p99)}`, statusText(r.bare), ''])
    for (const c of r.calls) {
      const ratio = c.requestsPerSecond / r.bare.requestsPerSecond
      const met = ratio >= PUBLIC_RATIO_TARGET && c.p99 < PUBLIC_P99_TARGET_MS
      rows.push([r.version, c.call, f1(c.requestsPerSecond), `${(ratio * 100).toFixed(0)} %`, `${f1(c.p50)} / ${f1(c.p99)}`, statusText(c), met ? 'met' : 'not met'])
    }
  }
  printRows(['engine', 'call', 'requests/s', 'of bare', 'p50 / p99 ms', 'answers', 'target'], rows)
  for (const r of results) {
    const exact = r.visitsCounted === r.redirectsAnswered
    console.log(`${r.version}: referral visits counted ${r.visitsCounted} for ${r.redirectsAnswered} redirects answered: ${exact ? 'exact' : 'NOT exact'}`)
  }
}

const statusText = (f: LoadFigures): string =>
  Object.entries(f.statuses)
    .map(([code, n]) => `${n} x ${code}`)
    .join(', ') + (f.errors > 0 ? `, ${f.errors} errors` : '')
