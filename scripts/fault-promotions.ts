/**
 * `npm run fault:promotions`: kill -9 in the middle of a promotion's delivery, start again, and
 * count every recipient exactly once. On PGlite (a data folder) and on
 * PostgreSQL (a fresh database on the server the tests use; skipped when none answers):
 *
 * 1. 100,000 leads are inserted with SQL, before the server starts;
 * 2. the real server (`server/main.ts` under tsx, in a child process) starts, an admin signs in
 *    and submits a promotion to all of them (select all);
 * 3. once some but not all are sent (listNotification's progress), the process gets SIGKILL: a
 *    batch may be half recorded, rows leased, the job mid-run;
 * 4. the server starts again on the same data, and the delivery finishes (leases expire, the jobs
 *    and their batches are taken again);
 * 5. with the server stopped, every recipient must have exactly one notification and one sent
 *    delivery, and the promotion's counters must say so.
 *
 * Each engine ends with one line, `fault promotions <engine>: PASS (...)` with the seconds the
 * delivery took to finish after the restart, or `fault promotions <engine>: FAIL: <reason>`
 * (`SKIPPED: <reason>` when no PostgreSQL answers, a FAIL in CI); the command exits 1 when any engine failed.
 * Both engines together take about a minute and a half on two cores.
 *
 * Options: --engines=pglite,postgres, --leads=N (default 100000 on both engines).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { z } from 'zod'
import { Promotion } from '../contract/promotions.ts'
import { loadConfig, type Config } from '../server/config.ts'
import { openDb } from '../server/db/index.ts'
import { freePort, log } from './fault-kit.ts'
import { findPostgres, withDatabase } from './pg.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=')
    return [k ?? '', v ?? 'true'] as const
  }),
)
const ENGINES = (args.get('engines') ?? 'pglite,postgres').split(',')
const LEADS = Number(args.get('leads') ?? 100_000)
const EMAIL = 'fault@example.com'
const PASSWORD = 'Fault#2024pw'
/** Short, so that the rows and the job the killed process held are taken again soon after the restart. */
const LEASE_SECONDS = 3


interface Child {
  process: ChildProcess
  base: string
}

/** Starts `server/main.ts` (the production entry) and waits until it answers. */
async function start(env: NodeJS.ProcessEnv): Promise<Child> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'main.ts')], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: EMAIL,
      ADMIN_PASSWORD: PASSWORD,
      JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      JOB_POLL_MS: '200',
      // Four eyes off: the delivery is what is tested, not a second Admin's approval.
      FOUR_EYES_THRESHOLD: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  const end = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    const up = await fetch(`${base}/api/admin/login`, { method: 'POST' }).then(
      () => true,
      () => false,
    )
    if (up) return { process: child, base }
    if (Date.now() > end) throw new Error('the server did not start within 120 s')
    await new Promise((r) => setTimeout(r, 200))
  }
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()))

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) })
  return `Bearer ${z.object({ token: z.string() }).parse(await res.json()).token}`
}

async function progress(base: string, token: string, id: string): Promise<Promotion> {
  const res = await fetch(`${base}/api/admin/listNotification?page=1&limit=10`, { headers: { authorization: token } })
  const found = z.object({ result: z.array(Promotion) }).parse(await res.json()).result.find((p) => p._id === id)
  if (found === undefined) throw new Error('the promotion is not listed')
  return found
}

const Counts = z.object({ rows: z.array(z.record(z.string(), z.coerce.number())) })

/** The checks, on the stopped server's data. */
async function check(config: Config, id: string): Promise<{ problems: string[]; retried: number }> {
  const handle = await openDb(config.database)
  try {
    const one = async (query: ReturnType<typeof sql>): Promise<Record<string, number>> => Counts.parse(await handle.db.execute(query)).rows[0] ?? {}
    const c = await one(sql`
      select
        (select count(*) from promotion_recipients where promotion_id = ${id}) as recipients,
        (select count(*) from lead_notifications where promotion_id = ${id}) as notifications,
        (select count(distinct lead_id) from lead_notifications where promotion_id = ${id}) as notified_leads,
        (select count(*) from promotion_recipients r where r.promotion_id = ${id}
           and (select count(*) from lead_notifications n where n.promotion_id = r.promotion_id and n.lead_id = r.lead_id) <> 1) as not_exactly_once,
        (select count(*) from promotion_deliveries where promotion_id = ${id} and status = 'sent') as sent_deliveries,
        (select count(*) from promotion_deliveries where promotion_id = ${id}) as deliveries,
        (select count(*) from promotion_deliveries where promotion_id = ${id} and attempts > 1) as retried,
        (select count(*) from jobs where payload->>'promotionId' = ${id} and failed_at is null) as jobs_waiting,
        (select count(*) from jobs where payload->>'promotionId' = ${id} and failed_at is not null) as jobs_failed,
        (select sent from promotions where id = ${id}) as counted_sent,
        (select failed from promotions where id = ${id}) as counted_failed,
        (select total from promotions where id = ${id}) as counted_total`)
    log(`  ${JSON.stringify(c)}`)
    const problems: string[] = []
    if (c['recipients'] !== LEADS) problems.push(`recipients ${c['recipients']} != ${LEADS}`)
    if (c['notifications'] !== LEADS) problems.push(`notifications ${c['notifications']} != ${LEADS}`)
    if (c['notified_leads'] !== LEADS) problems.push(`notified leads ${c['notified_leads']} != ${LEADS}`)
    if (c['not_exactly_once'] !== 0) problems.push(`${c['not_exactly_once']} recipients without exactly one notification`)
    if (c['sent_deliveries'] !== LEADS || c['deliveries'] !== LEADS) problems.push(`sent deliveries ${c['sent_deliveries']} of ${c['deliveries']}, expected ${LEADS}`)
    if (c['counted_sent'] !== LEADS || c['counted_failed'] !== 0 || c['counted_total'] !== LEADS) {
      problems.push(`the promotion counts ${c['counted_sent']} sent, ${c['counted_failed']} failed of ${c['counted_total']}`)
    }
    // A lane's job may still wait for its next look when the round closes (the server is stopped
    // right after); it finds nothing pending then and ends. A job kept as failed is a fault.
    if (c['jobs_failed'] !== 0) problems.push(`${c['jobs_failed']} delivery jobs failed for good`)
    return { problems, retried: c['retried'] ?? 0 }
  } finally {
    await handle.close()
  }
}

/** What one engine's run found: the problems (none is a pass) and its figures. */
interface Outcome {
  problems: string[]
  killedAt: number
  /** Seconds from the second start until the promotion was done, and until the server answered. */
  finishSeconds: number
  upSeconds: number
  /** Deliveries taken again after the kill (a batch the killed process had claimed). */
  retried: number
}

/** Servers this process started, ended whatever happens. */
const children = new Set<ChildProcess>()

async function run(engine: string, env: NodeJS.ProcessEnv, config: Config): Promise<Outcome> {
  const t0 = performance.now()
  const seconds = (): string => ((performance.now() - t0) / 1000).toFixed(1)
  const seed = await openDb(config.database)
  try {
    await seed.db.execute(sql`
      insert into leads (name, email, provider, country, created_at)
      select 'Lead ' || i, 'lead' || i || '@fault.example', (array['ipfs','web3auth'])[1 + i % 2], 'US', now() - make_interval(secs => i)
      from generate_series(1, ${LEADS}) as s(i)`)
  } finally {
    await seed.close()
  }
  log(`${engine}: ${LEADS.toLocaleString('en')} leads inserted (${seconds()} s)`)

  let server = await start(env)
  children.add(server.process)
  let token = await login(server.base)
  const form = new FormData()
  form.append('title', 'Fault test')
  form.append('content', 'Exactly once, whatever happens')
  form.append('selectall', 'true')
  const submitted = await fetch(`${server.base}/api/admin/addNotification`, { method: 'POST', headers: { authorization: token }, body: form })
  const { _id: id, total } = z.object({ _id: z.string(), total: z.number() }).parse(await submitted.json())
  log(`${engine}: submitted to ${total.toLocaleString('en')} recipients (${seconds()} s)`)

  // Kill once a part is sent: after the first batches, well before the end.
  let atKill: Promotion
  for (;;) {
    atKill = await progress(server.base, token, id)
    if (atKill.status === 'done') throw new Error('the delivery finished before it could be killed')
    if (atKill.sent >= Math.min(5000, total / 10)) break
    await new Promise((r) => setTimeout(r, 25))
  }
  server.process.kill('SIGKILL')
  await exited(server.process)
  children.delete(server.process)
  log(`${engine}: SIGKILL with ${atKill.sent.toLocaleString('en')} of ${total.toLocaleString('en')} sent (${seconds()} s)`)

  const restart = performance.now()
  server = await start(env)
  children.add(server.process)
  token = await login(server.base)
  const upSeconds = (performance.now() - restart) / 1000
  log(`${engine}: started again (${seconds()} s)`)
  const end = Date.now() + 300_000
  for (;;) {
    const now = await progress(server.base, token, id)
    if (now.status === 'done') break
    if (Date.now() > end) throw new Error(`not done 5 minutes after the restart: ${now.sent} sent`)
    await new Promise((r) => setTimeout(r, 100))
  }
  const finishSeconds = (performance.now() - restart) / 1000
  log(`${engine}: delivery done (${seconds()} s)`)
  server.process.kill('SIGTERM')
  await exited(server.process)
  children.delete(server.process)
  const { problems, retried } = await check(config, id)
  return { problems, killedAt: atKill.sent, finishSeconds, upSeconds, retried }
}

/** One engine, in a data folder (and for PostgreSQL a database) of its own, removed afterwards. */
async function runEngine(engine: string): Promise<Outcome | string> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `fault-${engine}-`))
  try {
    if (engine === 'pglite') {
      const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }
      return await run(engine, env, loadConfig(env))
    }
    const { found } = await findPostgres()
    if (found === null) return 'no PostgreSQL answers (set DATABASE_URL)'
    const name = `fault_promotions_${process.pid}_${Date.now()}`
    const admin = new pg.Client({ connectionString: found.url })
    await admin.connect()
    await admin.query(`CREATE DATABASE "${name}"`)
    try {
      const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: withDatabase(found.url, name) }
      return await run(engine, env, loadConfig(env))
    } finally {
      for (const child of children) child.kill('SIGKILL')
      await Promise.all([...children].map(exited))
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {})
      await admin.end()
    }
  } finally {
    for (const child of children) child.kill('SIGKILL')
    await Promise.all([...children].map(exited))
    children.clear()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  let failed = false
  for (const engine of ENGINES) {
    const t0 = performance.now()
    let line: string
    try {
      const outcome = await runEngine(engine)
      if (typeof outcome === 'string') {
        // In CI nothing is skipped: a missing PostgreSQL there is a failure.
        failed ||= Boolean(process.env.CI)
        line = `fault promotions ${engine}: ${process.env.CI ? 'FAIL' : 'SKIPPED'}: ${outcome}`
      } else {
        const figures =
          `${LEADS.toLocaleString('en')} recipients, killed at ${outcome.killedAt.toLocaleString('en')} sent, ` +
          `done ${outcome.finishSeconds.toFixed(1)} s after the restart (server up in ${outcome.upSeconds.toFixed(1)} s), ` +
          `${outcome.retried.toLocaleString('en')} deliveries taken again, ${((performance.now() - t0) / 1000).toFixed(0)} s in all`
        failed ||= outcome.problems.length > 0
        line = outcome.problems.length === 0 ? `fault promotions ${engine}: PASS (${figures})` : `fault promotions ${engine}: FAIL: ${outcome.problems.join('; ')} (${figures})`
      }
    } catch (error) {
      failed = true
      line = `fault promotions ${engine}: FAIL: ${error instanceof Error ? error.message : String(error)}`
    }
    console.log(line)
  }
  process.exit(failed ? 1 : 0)
}

await main()
