/**
 * Two real server processes (`server/main.ts`, the production entry, under tsx) on two ports,
 * sharing one fresh PostgreSQL database, Redis and S3-compatible object storage (s3rver), each
 * with its own data folder (docs/operations.md, "Several instances"), behind Debian's nginx
 * running deploy/nginx/back-office.conf (server/testing/nginx.ts says what the test changes in it).
 * Some checks call one instance directly (a sign-in on A, a check on B); the rest go through
 * nginx as a browser would. Runs in the PostgreSQL pass when Redis answers; skipped with a note
 * otherwise, and a failure in CI, where Redis is always there. Without nginx it fails, naming
 * the Debian package.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { and, eq, sql } from 'drizzle-orm'
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { REALTIME_TRANSPORTS, SocketEvents } from '#contract/socket'
import * as schema from '../db/schema.ts'
import { admins, loginPairFailures } from '../db/schema.ts'
import { BODY_TOO_LARGE } from '../app.ts'
import { encodePng } from '../db/png.ts'
import { LOGIN_FAILED } from '../kit/ground/access/sign-in-answers.ts'
import { Passwords } from '../kit/ground/access/auth.ts'
import { lockedMessage } from '../kit/ground/access/lockout.ts'
import { redisAnswers, TEST_REDIS_URL } from './redis-probe.ts'
import { findNginx, freePort, startNginx, type Nginx, type NginxRequest } from './nginx.ts'
import { startS3, type TestS3 } from './s3-server.ts'
import { scratchDatabase, testEngine, TEST_PASSWORD } from './test-app.ts'

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const SUPERADMIN = 'cluster@example.com'
const LOCK_FAILURES = 3
const LEADS = 5000
/**
 * This run's client address, sent as X-Forwarded-For (the instances trust it from 127.0.0.1 only):
 * rate limits in Redis and lockouts counted for 127.0.0.1 by other suites or runs never mix with these.
 */
const CLIENT = `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`

const redisUp = testEngine() === 'pg' && (await redisAnswers(TEST_REDIS_URL))
if (testEngine() === 'pg' && !redisUp) {
  if (process.env['CI']) throw new Error(`Redis does not answer at ${TEST_REDIS_URL}: in CI the cluster test must run`)
  console.log(`SKIPPED cluster: two server processes need Redis, and none answers at ${TEST_REDIS_URL} (set REDIS_URL or start redis-server)`)
}

interface Instance {
  name: string
  child: ChildProcess
  port: number
  base: string
  dataDir: string
  /** What it printed, for the failure message. */
  output: () => string
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((done) => child.once('exit', () => done()))

/** Starts `server/main.ts` with the shared environment and its own port and data folder; resolves once /readyz answers 200. */
async function startInstance(name: string, shared: Record<string, string>, again?: Instance): Promise<Instance> {
  // Started again, an instance keeps its port (nginx's upstream) and its data folder.
  const port = again?.port ?? (await freePort())
  const dataDir = again?.dataDir ?? (await mkdtemp(join(tmpdir(), `bo-cluster-${name}-`)))
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], TMPDIR: process.env['TMPDIR'], ...shared, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir }
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server', 'main.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let printed = ''
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()))
  const instance = { name, child, port, base: `http://127.0.0.1:${port}`, dataDir, output: () => printed }
  const deadline = Date.now() + 150_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited with ${child.exitCode}:\n${printed}`)
    const ready = await fetch(`${instance.base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ready) return instance
    if (Date.now() > deadline) throw new Error(`instance ${name} was not ready within 150 s:\n${printed}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * A call to the API, from this run's client address: straight to one instance (its base), or
 * through nginx, which appends the address it sees to X-Forwarded-For.
 */
const api = (to: string | Nginx, path: string, init: NginxRequest = {}): Promise<Response> => {
  const request = { ...init, headers: { 'x-forwarded-for': CLIENT, ...init.headers } }
  return typeof to === 'string' ? fetch(`${to}/api/admin${path}`, request) : to.request(`/api/admin${path}`, request)
}

const Token = z.object({ token: z.string() })
const Answer = z.object({ status: z.string(), message: z.string().optional() }).loose()

async function login(to: string | Nginx, email: string, password: string, init: NginxRequest = {}): Promise<{ status: number; body: z.output<typeof Answer> }> {
  const res = await api(to, '/login', { ...init, method: 'POST', headers: { 'content-type': 'application/json', ...init.headers }, body: JSON.stringify({ email, password }) })
  return { status: res.status, body: Answer.parse(await res.json()) }
}
async function tokenFrom(to: string | Nginx, email: string, password = TEST_PASSWORD): Promise<string> {
  const { body } = await login(to, email, password)
  return `Bearer ${Token.parse(body).token}`
}

/** Polls `check` until it is true; fails with `what` after `ms`. */
async function until(what: string, check: () => Promise<boolean>, ms: number, everyMs = 50): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

describe.runIf(redisUp)('two server processes sharing PostgreSQL, Redis and object storage, behind nginx', () => {
  let s3: TestS3
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>
  let pool: pg.Pool
  let db: NodePgDatabase<typeof schema>
  let a: Instance
  let b: Instance
  let nginx: Nginx
  const sockets: Socket[] = []
  let tablesAtStart = -1
  let shared: Record<string, string> = {}
  const passwords = new Passwords({ memoryCost: 1024, timeCost: 1, parallelism: 1 })

  async function addAdmin(label: string): Promise<{ id: string; email: string }> {
    const email = `${label}-${Date.now().toString(36)}@example.com`
    const [row] = await db
      .insert(admins)
      .values({ name: label, email, role: 'subadmin', accessLevel: 'Admin', restrictions: [], passwordHash: await passwords.hash(TEST_PASSWORD) })
      .returning({ id: admins.id })
    if (row === undefined) throw new Error('no admin inserted')
    return { id: row.id, email }
  }

  beforeAll(async () => {
    // First, before anything is started: the whole file runs behind nginx.
    findNginx()
    s3 = await startS3()
    // Empty, not a clone of the migrated template: the two instances are to migrate it.
    scratch = await scratchDatabase({ empty: true })
    if (scratch.database.kind !== 'pg') throw new Error('the cluster test needs PostgreSQL')
    pool = new pg.Pool({ connectionString: scratch.database.url, max: 3 })
    db = drizzle({ client: pool, schema })
    const Tables = z.object({ rows: z.array(z.object({ n: z.coerce.number() })) })
    tablesAtStart = Tables.parse(await db.execute(sql`select count(*) as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`)).rows[0]?.n ?? -1
    shared = {
      ...s3.env,
      DATABASE_URL: scratch.database.url,
      REDIS_URL: TEST_REDIS_URL,
      JWT_SECRET: `cluster-${'k'.repeat(40)}`,
      ADMIN_EMAIL: SUPERADMIN,
      ADMIN_PASSWORD: TEST_PASSWORD,
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000',
      // nginx's address, as in deploy/back-office.env.example.
      TRUST_PROXY: '127.0.0.1',
      LOGIN_LOCK_FAILURES: String(LOCK_FAILURES),
      // Promotions: small batches and a short lease, so both instances hold work during a send and
      // the one left takes over the other's quickly.
      PROMOTION_BATCH_SIZE: '50',
      JOB_CONCURRENCY: '1',
      JOB_POLL_MS: '50',
      JOB_LEASE_SECONDS: '2',
      // Mass sends without a second approval here: this test is about the instances.
      FOUR_EYES_THRESHOLD: '0',
      UPLOAD_SWEEP_INTERVAL_MINUTES: '0',
    }
    // Both at once, on an empty database: they race to migrate and to create the superadmin.
    ;[a, b] = await Promise.all([startInstance('a', shared), startInstance('b', shared)])
    nginx = await startNginx([a.port, b.port])
  }, 240_000)

  afterAll(async () => {
    for (const s of sockets) s.close()
    await nginx?.close()
    for (const instance of [a, b]) {
      if (instance === undefined) continue
      instance.child.kill('SIGTERM')
      const killer = setTimeout(() => instance.child.kill('SIGKILL'), 10_000)
      await exited(instance.child)
      clearTimeout(killer)
      await rm(instance.dataDir, { recursive: true, force: true })
    }
    await pool?.end()
    await scratch?.drop()
    await s3?.close()
  }, 60_000)

  it('both started at once on an empty database: each migration applied once, one superadmin, both ready', async () => {
    expect(tablesAtStart).toBe(0)
    const journal = z.object({ entries: z.array(z.object({ tag: z.string() })) }).parse(JSON.parse(readFileSync(join(root, 'server/db/migrations/meta/_journal.json'), 'utf8')))
    const Applied = z.object({ rows: z.array(z.object({ n: z.coerce.number(), distinct_hashes: z.coerce.number() })) })
    const [applied] = Applied.parse(await db.execute(sql`select count(*) as n, count(distinct hash) as distinct_hashes from drizzle.__drizzle_migrations`)).rows
    expect(applied).toEqual({ n: journal.entries.length, distinct_hashes: journal.entries.length })
    expect(await db.select({ id: admins.id }).from(admins)).toHaveLength(1)
    for (const instance of [a, b]) expect((await fetch(`${instance.base}/readyz`)).status).toBe(200)
  })

  it('a token from a sign-in on A works on B', async () => {
    const token = await tokenFrom(a.base, SUPERADMIN)
    const onB = await api(b.base, '/getuser?page=1&limit=10', { headers: { authorization: token } })
    expect(onB.status).toBe(200)
    expect(Answer.parse(await onB.json()).status).toBe('success')
  })

  it('deactivating an admin through A logs out the socket that admin holds on B within 2 s', async () => {
    const staff = await addAdmin('socket')
    const socket = io(b.base, { auth: { token: await tokenFrom(b.base, staff.email) }, transports: ['websocket'], reconnection: false })
    sockets.push(socket)
    await new Promise<void>((done, fail) => {
      socket.once('connect', () => done())
      socket.once('connect_error', fail)
    })
    // In its admin's room on B once acknowledged.
    expect(await socket.timeout(5000).emitWithAck(SocketEvents.createRoom, staff.id)).toBe(true)

    const superadmin = await tokenFrom(a.base, SUPERADMIN)
    const started = Date.now()
    const loggedOut = new Promise<number>((done) => socket.once(SocketEvents.logout, () => done(Date.now() - started)))
    const res = await api(a.base, '/ActivateSubadminStatusUpdate', { method: 'POST', headers: { authorization: superadmin, 'content-type': 'application/json' }, body: JSON.stringify({ id: staff.id, activate: 0 }) })
    expect(res.status).toBe(200)
    const elapsed = await Promise.race([loggedOut, new Promise<number>((r) => setTimeout(() => r(Infinity), 2000))])
    expect(elapsed).toBeLessThan(2000)
  })

  it("the PWA's real-time link through nginx: upgraded on either instance without sticky sessions, and LOGOUT reaches it on both", async () => {
    const staff = await addAdmin('balanced')
    const token = await tokenFrom(nginx, staff.email)
    // The PWA's own options (src/lib/socket.ts): the token and the transports of the contract,
    // over TLS. One after the other, so nginx's turn gives each link the other instance.
    const links: Socket[] = []
    for (let i = 0; i < 2; i++) {
      const link = io(nginx.base, { auth: { token }, transports: [...REALTIME_TRANSPORTS], reconnection: false, ca: nginx.ca })
      sockets.push(link)
      links.push(link)
      await new Promise<void>((done, fail) => {
        link.once('connect', () => done())
        link.once('connect_error', fail)
        link.once('disconnect', (reason) => fail(new Error(`disconnected: ${reason}`)))
      })
    }
    for (const link of links) expect(await link.timeout(5000).emitWithAck(SocketEvents.createRoom, staff.id)).toBe(true)

    const loggedOut = links.map((link) => new Promise<void>((done) => link.once(SocketEvents.logout, () => done())))
    const res = await api(nginx, '/ActivateSubadminStatusUpdate', {
      method: 'POST',
      headers: { authorization: await tokenFrom(nginx, SUPERADMIN), 'content-type': 'application/json' },
      body: JSON.stringify({ id: staff.id, activate: 0 }),
    })
    expect(res.status).toBe(200)
    const all = Promise.all(loggedOut).then(() => true)
    expect(await Promise.race([all, new Promise<boolean>((r) => setTimeout(() => r(false), 2000))])).toBe(true)

    // nginx logs an upgrade once its link closes: one link went to each instance.
    for (const link of links) link.close()
    await until(
      'both upgrades are in the access log',
      async () => (await nginx.logged()).filter((r) => r.uri === '/socket.io/' && r.status === 101).length === 2,
      5000,
    )
    const upgrades = (await nginx.logged()).filter((r) => r.uri === '/socket.io/' && r.status === 101)
    expect(new Set(upgrades.flatMap((r) => r.instances))).toEqual(new Set([a.port, b.port]))
  })

  it('a lockout taken on A holds on B, even with the right password', async () => {
    const staff = await addAdmin('lockout')
    const answers: string[] = []
    for (let i = 0; i < LOCK_FAILURES; i++) answers.push(String((await login(a.base, staff.email, 'Wrong@1234')).body.message))
    expect(answers[0]).toBe(LOGIN_FAILED)
    const onB = await login(b.base, staff.email, TEST_PASSWORD)
    expect(onB.status).toBe(429)
    expect(onB.body).toMatchObject({ status: 'failed', message: lockedMessage(10 * 60_000) })
  })

  it('through nginx, the instances count a client at the address nginx saw, whatever X-Forwarded-For it wrote', async () => {
    const staff = await addAdmin('forwarded')
    // A client the instances do not trust (every 127.x address is this machine; only 127.0.0.1,
    // nginx's, is trusted) claims another address: nginx appends the one it saw, which counts.
    const spoofed = await login(nginx, staff.email, 'Wrong@1234', { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '6.6.6.6' } })
    expect(spoofed.body.message).toBe(LOGIN_FAILED)
    // From 127.0.0.1, standing for a proxy in front of nginx, the address it forwards counts.
    expect((await login(nginx, staff.email, 'Wrong@1234')).body.message).toBe(LOGIN_FAILED)
    const pairs = await db.select({ address: loginPairFailures.address }).from(loginPairFailures).where(eq(loginPairFailures.email, staff.email))
    expect(new Set(pairs.map((p) => p.address))).toEqual(new Set(['127.0.0.2', CLIENT]))
    const [spoofedPair] = await db.select().from(loginPairFailures).where(and(eq(loginPairFailures.email, staff.email), eq(loginPairFailures.address, '6.6.6.6')))
    expect(spoofedPair).toBeUndefined()
  })

  it('an upload through nginx is served by either instance from the shared storage, and by nginx as the instances send it', async () => {
    const content = encodePng(400, 200, (x, y) => [x % 256, y % 256, 60])
    const form = new FormData()
    form.append('categoryName', `Shared ${Date.now().toString(36)}`)
    form.append('image', new Blob([new Uint8Array(content)], { type: 'image/png' }), 'shared.png')
    const added = await api(nginx, '/addcategory', { method: 'POST', headers: { authorization: await tokenFrom(nginx, SUPERADMIN) }, body: form })
    expect(Answer.parse(await added.json()).status).toBe('success')
    const [row] = await db.select({ image: schema.categories.image }).from(schema.categories)
    const name = row?.image ?? 'missing'

    for (const instance of [a, b]) {
      const original = await fetch(`${instance.base}/uploads/${name}`)
      expect(original.status).toBe(200)
      expect(Buffer.from(await original.arrayBuffer()).equals(content)).toBe(true)
      const thumb = await fetch(`${instance.base}/uploads/${name.replace('.png', '-thumb.webp')}`)
      expect(thumb.status).toBe(200)
      expect(thumb.headers.get('content-type')).toBe('image/webp')
    }
    // Through nginx: as sent (an image is not compressed again), cached for good, in ranges.
    const whole = await nginx.request(`/uploads/${name}`, { headers: { 'accept-encoding': 'gzip' } })
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-type')).toBe('image/png')
    expect(whole.headers.get('content-encoding')).toBeNull()
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(Buffer.from(await whole.arrayBuffer()).equals(content)).toBe(true)
    const part = await nginx.request(`/uploads/${name}`, { headers: { range: 'bytes=8-15' } })
    expect(part.status).toBe(206)
    expect(Buffer.from(await part.arrayBuffer())).toEqual(content.subarray(8, 16))
    // Nothing of it on either instance's disk: each read it from the bucket.
    for (const instance of [a, b]) expect(await readdir(join(instance.dataDir, 'uploads')).catch(() => [])).toEqual([])
  })

  it("nginx compresses the API's JSON, and answers a body over its limit as the server answers one over its own", async () => {
    const countries = await api(nginx, '/listCountry', { headers: { authorization: await tokenFrom(nginx, SUPERADMIN), 'accept-encoding': 'gzip' } })
    expect(countries.status).toBe(200)
    expect(countries.headers.get('content-encoding')).toBe('gzip')
    const parsed = z.object({ status: z.literal('success'), result: z.array(z.string()) }).parse(JSON.parse(gunzipSync(Buffer.from(await countries.arrayBuffer())).toString('utf8')))
    expect(parsed.result.length).toBeGreaterThan(200)

    // A form declared larger than client_max_body_size: refused from its headers, before its body.
    const refused = await new Promise<{ status: number; type: string; body: string }>((done, fail) => {
      const request = https.request(`${nginx.base}/api/admin/addcategory`, { method: 'POST', ca: nginx.ca, headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(1024 * 1024 * 1024) } }, (answer) => {
        let body = ''
        answer.on('data', (chunk: Buffer) => (body += chunk.toString()))
        answer.once('end', () => {
          done({ status: answer.statusCode ?? 0, type: answer.headers['content-type'] ?? '', body })
          request.destroy()
        })
      })
      request.once('error', fail)
      request.write('--x\r\n')
    })
    expect(refused.status).toBe(413)
    expect(refused.type).toBe('application/json')
    expect(JSON.parse(refused.body)).toEqual({ status: 'failed', message: BODY_TOO_LARGE })
  })

  it('kill -9 of B during a promotion send: A finishes it, every recipient delivered exactly once, and nginx sends every read to A meanwhile', async () => {
    await db.execute(sql`
      insert into leads (name, email, provider, country, created_at)
      select 'Lead ' || i, 'lead' || i || '@cluster.example', (array['ipfs','web3auth'])[1 + i % 2], 'US', now() - make_interval(secs => i)
      from generate_series(1, ${LEADS}) as s(i)`)
    const superadmin = await tokenFrom(nginx, SUPERADMIN)
    const form = new FormData()
    form.append('title', 'Cluster send')
    form.append('content', 'Exactly once, whichever instance sends it')
    form.append('selectall', 'true')
    const submitted = await api(nginx, '/addNotification', { method: 'POST', headers: { authorization: superadmin }, body: form })
    const { _id: id } = z.object({ _id: z.string() }).parse(await submitted.json())

    // Part way through, both instances hold a delivery job at once (two distinct workers): one of them is B.
    const Held = z.object({ rows: z.array(z.object({ workers: z.coerce.number(), sent: z.coerce.number() })) })
    let heldAtKill = { workers: 0, sent: 0 }
    await until(
      'both instances hold delivery work',
      async () => {
        const [held] = Held.parse(
          await db.execute(sql`
            select (select count(distinct locked_by) from jobs where kind = 'promotion.deliver' and locked_until > now()) as workers,
                   (select sent from promotions where id = ${id}) as sent`),
        ).rows
        if (held === undefined) return false
        heldAtKill = held
        return held.workers === 2 && held.sent > 0
      },
      30_000,
      5,
    )
    b.child.kill('SIGKILL')
    await exited(b.child)
    expect(heldAtKill.sent).toBeGreaterThan(0)
    expect(heldAtKill.sent).toBeLessThan(LEADS)
    const loggedAtKill = (await nginx.logged()).length

    // The PWA's promotion list, read through nginx until the send is done: every read answered.
    const Listed = z.object({ result: z.array(z.object({ _id: z.string(), status: z.string() }).loose()) }).loose()
    const statuses: number[] = []
    await until(
      'A finishes the send, as read through nginx',
      async () => {
        const res = await api(nginx, '/listNotification?page=1&limit=10', { headers: { authorization: superadmin } })
        statuses.push(res.status)
        if (res.status !== 200) return false
        return Listed.parse(await res.json()).result.find((p) => p._id === id)?.status === 'done'
      },
      60_000,
      100,
    )
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    // B was tried, refused the connection, and nginx went on to A within the same request.
    const afterKill = (await nginx.logged()).slice(loggedAtKill)
    expect(afterKill.some((r) => r.status === 200 && r.instances.join() === `${b.port},${a.port}`)).toBe(true)
    expect(afterKill.filter((r) => r.status === 200).every((r) => r.instances.at(-1) === a.port)).toBe(true)

    const Counts = z.object({ rows: z.array(z.record(z.string(), z.coerce.number())) })
    const [counts] = Counts.parse(
      await db.execute(sql`
        select
          (select count(*) from promotion_recipients where promotion_id = ${id}) as recipients,
          (select count(*) from lead_notifications where promotion_id = ${id}) as notifications,
          (select count(distinct lead_id) from lead_notifications where promotion_id = ${id}) as notified_leads,
          (select count(*) from promotion_deliveries where promotion_id = ${id} and status = 'sent') as sent_deliveries,
          (select sent from promotions where id = ${id}) as counted_sent`),
    ).rows
    expect(counts).toEqual({ recipients: LEADS, notifications: LEADS, notified_leads: LEADS, sent_deliveries: LEADS, counted_sent: LEADS })
  }, 120_000)

  it('B started again joins in, and a graceful stop of A under load loses no read through nginx', async () => {
    b = await startInstance('b', shared, b)
    const token = await tokenFrom(nginx, SUPERADMIN)
    const read = () => api(nginx, '/listCountry', { headers: { authorization: token } })
    // nginx tries B again once the 10 s for which its failure took it out have passed.
    const seen = (await nginx.logged()).length
    await until('nginx sends reads to B again', async () => (await read()).status === 200 && (await nginx.logged()).slice(seen).some((r) => r.instances.at(-1) === b.port), 15_000, 200)

    const statuses: number[] = []
    const loggedAtLoad = (await nginx.logged()).length
    let stopped = false
    const reader = async () => {
      while (!stopped) statuses.push((await read()).status)
    }
    const readers = [reader(), reader(), reader(), reader()]
    await new Promise((r) => setTimeout(r, 500))
    const loggedAtStop = (await nginx.logged()).length
    a.child.kill('SIGTERM')
    await exited(a.child)
    await new Promise((r) => setTimeout(r, 500))
    stopped = true
    await Promise.all(readers)
    expect(statuses.length).toBeGreaterThan(20)
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    // Both were answering before the stop.
    const before = (await nginx.logged()).slice(loggedAtLoad, loggedAtStop).map((r) => r.instances.at(-1))
    expect(new Set(before)).toEqual(new Set([a.port, b.port]))
  }, 90_000)

  it('the leads export streams through nginx to its last row, compressed', async () => {
    const res = await api(nginx, '/DownloadFile', { headers: { authorization: await tokenFrom(nginx, SUPERADMIN), 'accept-encoding': 'gzip' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    expect(res.headers.get('content-encoding')).toBe('gzip')
    const rows = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8').trim().split('\n')
    // B alone now. The header, then every lead of the promotion test.
    expect(rows).toHaveLength(LEADS + 1)
  })
})
