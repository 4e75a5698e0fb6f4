/**
 * `npm run fault:postgres`: PostgreSQL restarted under load. On a throwaway
 * cluster of its own (scripts/fault-kit.ts), never the server other tests use:
 *
 * 1. the real server starts on it; four clients add buy links (a write with its transaction,
 *    preference lock and audit row), two list them, one polls /readyz, without pause;
 * 2. PostgreSQL is stopped (`pg_ctl stop -m fast`: every session is ended), stays down 3 s, and is
 *    started again; the server is left alone;
 * 3. checks: meanwhile every answer is a success or a 503 with the database-unavailable message
 *    (never a 500, never slower than ANSWER_BOUND_MS) and /readyz says not ready; once PostgreSQL
 *    is back, writes, reads and /readyz succeed within RECOVERY_BOUND_MS with the same process; and
 *    every write answered with success is in the database afterwards, exactly once.
 *
 * Prints `fault <name>: PASS` or `fault <name>: FAIL: reason` per check and exits 1 on a failure.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { addbuyLink, ListBuyLink } from '../contract/links.ts'
import { DATABASE_UNAVAILABLE } from '../server/app.ts'
import { API_PREFIX } from '../server/kit/ground/services.ts'
import { TempCluster, log, login, report, sleep, startServer, stopServer, tail, type Check } from './fault-kit.ts'

const WRITERS = 4
const READERS = 2
const WARM_MS = 2000
const DOWN_MS = 3000
/** After PostgreSQL is back, the server must serve again within this, without a restart. */
const RECOVERY_BOUND_MS = 10_000
/** No answer may take longer, outage or not (a hung request is a failure, not a slow success). */
const ANSWER_BOUND_MS = 6000
/** Load after recovery, so the acknowledged writes include some made on fresh connections. */
const AFTER_MS = 1500

type Kind = 'write' | 'read' | 'ready'

interface Call {
  kind: Kind
  started: number
  ms: number
  /** HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number
  body: unknown
  /** The buy link a write added. */
  url?: string
  error?: string
}

async function call(kind: Kind, url: string, init: RequestInit, link?: string): Promise<Call> {
  const started = Date.now()
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) })
    const text = await res.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // Kept as text: a non-JSON answer fails the shape check below.
    }
    return { kind, started, ms: Date.now() - started, status: res.status, body, ...(link === undefined ? {} : { url: link }) }
  } catch (error) {
    return { kind, started, ms: Date.now() - started, status: 0, body: null, error: error instanceof Error ? error.message : String(error) }
  }
}

const isSuccess = (c: Call): boolean => c.status === 200 && typeof c.body === 'object' && c.body !== null && 'status' in c.body && c.body.status === 'success'
const isUnavailable = (c: Call): boolean =>
  c.status === 503 && typeof c.body === 'object' && c.body !== null && 'message' in c.body && 'status' in c.body && c.body.status === 'failed' && c.body.message === DATABASE_UNAVAILABLE
const describe = (c: Call): string => `${c.kind} at +${c.started} ms: ${c.status === 0 ? (c.error ?? 'no answer') : `${c.status} ${JSON.stringify(c.body).slice(0, 160)}`}`

async function main(): Promise<boolean> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'fault-postgres-'))
  let cluster: TempCluster | null = null
  try {
    cluster = await TempCluster.create()
    log(`PostgreSQL of its own at ${cluster.url}`)
    const server = await startServer({ ...process.env, DATA_DIR: path.join(work, 'data'), DATABASE_URL: cluster.url, REDIS_URL: '' }, path.join(work, 'server.log'))
    const pid = server.process.pid
    const token = await login(server.base)
    const headers = { authorization: token, 'content-type': 'application/json' }

    const calls: Call[] = []
    let running = true
    let written = 0
    const writer = async (w: number): Promise<void> => {
      while (running) {
        const link = `https://fault.example/w${w}/${written++}`
        calls.push(await call('write', `${server.base}${API_PREFIX}${addbuyLink.path}`, { method: 'POST', headers, body: JSON.stringify({ buylink: link }) }, link))
      }
    }
    const reader = async (): Promise<void> => {
      while (running) calls.push(await call('read', `${server.base}${API_PREFIX}${ListBuyLink.path}`, { method: 'POST', headers, body: JSON.stringify({ page: 1, limit: 10 }) }))
    }
    const ready = async (): Promise<void> => {
      while (running) {
        calls.push(await call('ready', `${server.base}/readyz`, {}))
        await sleep(100)
      }
    }
    const t0 = Date.now()
    const load = Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), ...Array.from({ length: READERS }, reader), ready()])

    await sleep(WARM_MS)
    const downAt = Date.now()
    await cluster.stop('fast')
    const stoppedAt = Date.now()
    log(`PostgreSQL stopped (${stoppedAt - downAt} ms); down for ${DOWN_MS} ms`)
    await sleep(DOWN_MS)
    await cluster.start()
    const upAt = Date.now()
    log(`PostgreSQL started again (${upAt - stoppedAt} ms after it stopped)`)

    // Load goes on until each kind of call has succeeded since PostgreSQL is back, or the bound passes.
    const recovered = (kind: Kind): Call | undefined => calls.find((c) => c.kind === kind && c.started >= upAt && isSuccess(c))
    while (Date.now() - upAt < RECOVERY_BOUND_MS && !(['write', 'read', 'ready'] as const).every((k) => recovered(k) !== undefined)) await sleep(50)
    await sleep(AFTER_MS)
    running = false
    await load

    const rel = (c: Call): Call => ({ ...c, started: c.started - t0 })
    const outage = calls.filter((c) => c.started >= downAt && c.started < upAt)
    const checks: Check[] = []

    // While it is down (and at any time): a success or a 503 with the message, quickly.
    const down: string[] = []
    const wrong = calls.filter((c) => !isSuccess(c) && !isUnavailable(c))
    if (wrong.length > 0) down.push(`${wrong.length} answers neither a success nor 503 "${DATABASE_UNAVAILABLE}", first ${describe(rel(wrong[0]!))}`)
    const slow = calls.filter((c) => c.ms > ANSWER_BOUND_MS)
    if (slow.length > 0) down.push(`${slow.length} answers took over ${ANSWER_BOUND_MS} ms (longest ${Math.max(...slow.map((c) => c.ms))} ms)`)
    for (const kind of ['write', 'read'] as const) {
      if (!outage.some((c) => c.kind === kind && isUnavailable(c))) down.push(`no ${kind} was answered 503 while PostgreSQL was down`)
    }
    if (!outage.some((c) => c.kind === 'ready' && c.status === 503)) down.push('/readyz never said not ready while PostgreSQL was down')
    checks.push({ name: 'postgres-down-503', problems: down })

    // Back by itself, the same process.
    const back: string[] = []
    const times: string[] = []
    for (const kind of ['write', 'read', 'ready'] as const) {
      const first = recovered(kind)
      if (first === undefined) back.push(`no ${kind} succeeded within ${RECOVERY_BOUND_MS} ms of PostgreSQL's start`)
      else {
        const ms = first.started + first.ms - upAt
        times.push(`${kind} ${ms} ms`)
        if (ms > RECOVERY_BOUND_MS) back.push(`the first ${kind} success came ${ms} ms after PostgreSQL's start`)
      }
    }
    if (server.process.exitCode !== null || server.process.signalCode !== null || server.process.pid !== pid) back.push('the server process did not stay up')
    checks.push({ name: 'postgres-recovers', problems: back })

    // No acknowledged write lost, none stored twice.
    const acknowledged = calls.filter((c) => c.kind === 'write' && isSuccess(c)).map((c) => c.url ?? '')
    const client = new pg.Client({ connectionString: cluster.url })
    await client.connect()
    const stored = new Map<string, number>()
    try {
      const { rows } = await client.query<{ url: string; n: string }>("select url, count(*) as n from links where kind = 'buy' group by url")
      for (const row of rows) stored.set(row.url, Number(row.n))
    } finally {
      await client.end()
    }
    const lost = acknowledged.filter((u) => !stored.has(u))
    const twice = [...stored].filter(([, n]) => n > 1)
    const lostProblems: string[] = []
    if (acknowledged.length === 0) lostProblems.push('no write was acknowledged')
    if (lost.length > 0) lostProblems.push(`${lost.length} of ${acknowledged.length} acknowledged writes are missing, first ${lost[0]}`)
    if (twice.length > 0) lostProblems.push(`${twice.length} links stored more than once`)
    checks.push({ name: 'postgres-no-lost-write', problems: lostProblems })

    const unavailable = calls.filter(isUnavailable)
    const refusedButStored = calls.filter((c) => c.kind === 'write' && !isSuccess(c) && c.url !== undefined && stored.has(c.url)).length
    log(
      `${calls.length} calls (${calls.filter((c) => c.kind === 'write').length} writes), ${unavailable.length} answered 503, ` +
        `longest answer during the outage ${Math.max(0, ...outage.map((c) => c.ms))} ms; first success after the start: ${times.join(', ')}; ` +
        `${acknowledged.length} acknowledged writes, all checked; ${refusedButStored} writes answered 503 were stored (allowed: not acknowledged)`,
    )
    await stopServer(server)
    const passed = report(checks)
    if (!passed) console.error(`[fault] the server's log:\n${tail(server.logFile, 80)}`)
    return passed
  } finally {
    await cluster?.remove()
    rmSync(work, { recursive: true, force: true })
  }
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error: unknown) => {
    console.log(`fault postgres-restart: FAIL: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  },
)
