/**
 * `npm run fault:promotions`: kill -9 in the middle of a promotion's delivery, start again, and
 * count every recipient exactly once (issue 10, section 2). On PGlite (a data folder) and on
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
 * Exits 1 when a check fails. Options: --engines=pglite,postgres, --leads=N (default 100000).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { z } from 'zod'
import { Promotion } from '../contract/promotions.ts'
import { loadConfig, type Config } from '../server/config.ts'
import { openDb } from '../server/db/index.ts'
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

const log = (s: string): void => console.log(`[fault] ${s}`)

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      s.close(() => resolve(port))
    })
  })
}

interface Child {
  process: ChildProcess
  base: string
}

/** Starts `server/main.ts` (the production entry) and waits until it answers. */
async function start(env: NodeJS.ProcessEnv): Promise<Child> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD, JOB_LEASE_SECONDS: String(LEASE_SECONDS), JOB_POLL_MS: '200' },
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
async function check(config: Config, id: string): Promise<string[]> {
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
        (select sent from promotions where id = ${id}) as counted_sent`)
    log(`  ${JSON.stringify(c)}`)
    const problems: string[] = []
    if (c['recipients'] !== LEADS) problems.push(`recipients ${c['recipients']} != ${LEADS}`)
    if (c['notifications'] !== LEADS) problems.push(`notifications ${c['notifications']} != ${LEADS}`)
    if (c['notified_leads'] !== LEADS) problems.push(`notified leads ${c['notified_leads']} != ${LEADS}`)
    if (c['not_exactly_once'] !== 0) problems.push(`${c['not_exactly_once']} recipients without exactly one notification`)
    if (c['sent_deliveries'] !== LEADS || c['deliveries'] !== LEADS) problems.push(`sent deliveries ${c['sent_deliveries']} of ${c['deliveries']}, expected ${LEADS}`)
    if (c['counted_sent'] !== LEADS) problems.push(`the promotion counts ${c['counted_sent']} sent`)
    return problems
  } finally {
    await handle.close()
  }
}

async function run(engine: string, env: NodeJS.ProcessEnv, config: Config): Promise<string[]> {
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
    if (atKill.sent >= Math.min(5000, total / 10)) break
    if (atKill.status === 'done') return ['the delivery finished before it could be killed']
    await new Promise((r) => setTimeout(r, 25))
  }
  server.process.kill('SIGKILL')
  await exited(server.process)
  log(`${engine}: SIGKILL with ${atKill.sent.toLocaleString('en')} of ${total.toLocaleString('en')} sent (${seconds()} s)`)

  server = await start(env)
  token = await login(server.base)
  log(`${engine}: started again (${seconds()} s)`)
  const end = Date.now() + 300_000
  for (;;) {
    const now = await progress(server.base, token, id)
    if (now.status === 'done') break
    if (Date.now() > end) return [`not done 5 minutes after the restart: ${now.sent} sent`]
    await new Promise((r) => setTimeout(r, 250))
  }
  log(`${engine}: delivery done (${seconds()} s)`)
  server.process.kill('SIGTERM')
  await exited(server.process)
  return check(config, id)
}

async function main(): Promise<void> {
  const failures: string[] = []
  for (const engine of ENGINES) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `fault-${engine}-`))
    try {
      if (engine === 'pglite') {
        const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }
        failures.push(...(await run(engine, env, loadConfig(env))).map((p) => `${engine}: ${p}`))
        continue
      }
      const { found } = await findPostgres()
      if (found === null) {
        log('postgres: skipped, no PostgreSQL answers')
        continue
      }
      const name = `fault_promotions_${process.pid}_${Date.now()}`
      const admin = new pg.Client({ connectionString: found.url })
      await admin.connect()
      await admin.query(`CREATE DATABASE "${name}"`)
      try {
        const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: withDatabase(found.url, name) }
        failures.push(...(await run(engine, env, loadConfig(env))).map((p) => `${engine}: ${p}`))
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {})
        await admin.end()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  if (failures.length > 0) {
    for (const f of failures) console.error(`[fault] FAILED ${f}`)
    process.exit(1)
  }
  log('every recipient delivered exactly once')
}

await main()
