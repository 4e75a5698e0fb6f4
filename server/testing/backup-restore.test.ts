/**
 * Backup and restore (server/kit/backup/, `npm run backup` and `npm run restore`), on real engines.
 *
 * A populated instance of this pass's engine (every table of the schema with rows, uploads, a
 * promotion delivered and one still to deliver) is backed up while it runs, then restored into a
 * fresh PGlite DATA_DIR and a fresh PostgreSQL database (when one answers): every table's row
 * count and content checksum and every upload's bytes match, and the restored server starts,
 * logs in, lists the leads, serves an upload and finishes the promotion. The PGlite pass covers
 * PGlite to PGlite and PGlite to PostgreSQL, the PostgreSQL pass the other two.
 *
 * In the PGlite pass also: `npm run backup` (the real script) against a running server process,
 * which makes the snapshot while it goes on serving, the scheduled backups and their rotation,
 * a second server refused on the same DATA_DIR, and a backup after the server was killed -9
 * (its socket left behind) that opens DATA_DIR itself.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync, gzipSync } from 'node:zlib'
import { eq, getTableName, is } from 'drizzle-orm'
import { PgTable } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { login } from '#contract/auth'
import { editTemplate } from '#contract/emails'
import { getuser } from '#contract/leads'
import { sendNewsletter } from '#contract/newsletter'
import { ForgotSendMail, forgotPassword } from '#contract/password'
import { addNotification } from '#contract/promotions'
import { CheckBoxDelete } from '#contract/restrictions'
import { applyContactBulk } from '#contract/bulk'
import { saveView } from '#contract/saved-views'
import { addPasskey, passkeyRegistrationOptions, passkeySignInOptions } from '#contract/passkeys'
import type { Endpoint } from '#contract/define'
import { buildApp } from '../app.ts'
import { loadConfig, type Config } from '../config.ts'
import { createPglite } from '../db/index.ts'
import { encodePng } from '../db/png.ts'
import * as schema from '../db/schema.ts'
import { categories, mailEventsSeen, mailOutbox, promotions, suppressedAddresses } from '../db/schema.ts'
import { seedDemo } from '../demo.ts'
import { keyFingerprint } from '../kit/ground/backup/format.ts'
import { openStorage } from '../kit/ground/storage.ts'
import { RestoreRefused, restoreFromFile } from '../kit/ground/backup/restore.ts'
import { pgliteSession, postgresSession, readCatalog, type Session } from '../kit/ground/backup/session.ts'
import { backupToFile } from '../kit/ground/backup/write.ts'
import { makeFixtures, samples, send, type Payload } from './endpoint-samples.ts'
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.ts'
import { startS3 } from './s3-server.ts'
import { SoftPasskey } from './soft-authenticator.ts'
import { PGLITE_IMAGE_ENV } from './template-db.ts'
import { SUPERADMIN_EMAIL, TEST_PASSWORD, bodyOf, makeTestApp, testEngine, type TestApp } from './test-app.ts'

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const SLOW = 180_000

/** The PostgreSQL to restore into: DATABASE_URL (it must answer), else the usual local one if it answers. */
async function postgresServer(): Promise<string | null> {
  const named = process.env['DATABASE_URL']
  const url = named ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  client.on('error', () => {})
  try {
    await client.connect()
    return url
  } catch (error) {
    if (named !== undefined) throw error
    return null
  } finally {
    await client.end().catch(() => {})
  }
}

const POSTGRES = await postgresServer()
if (POSTGRES === null) console.log('SKIPPED the restores into PostgreSQL: no PostgreSQL answers at postgres://postgres@127.0.0.1:5432/postgres (set DATABASE_URL)')

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** A new, empty database on the PostgreSQL server (not the tests' migrated template). */
async function emptyPostgres(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bo_test_${randomBytes(6).toString('hex')}`
  await onServer(url, `CREATE DATABASE ${name}`)
  const u = new URL(url)
  u.pathname = `/${name}`
  return { url: u.toString(), drop: () => onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/** Every table schema.ts declares. */
const schemaTables = Object.values<unknown>(schema)
  .flatMap((value) => (is(value, PgTable) ? [getTableName(value)] : []))
  .sort()

type Digest = Record<string, { rows: number; md5: string }>

/**
 * Each table's row count and a checksum of its content: every row as its columns' text, sorted
 * bytewise (so the two engines' collations cannot reorder them), in UTC.
 */
async function digestOf(session: Session): Promise<Digest> {
  await session.query(`SET LOCAL TimeZone = 'UTC'`)
  const digest: Digest = {}
  for (const table of await readCatalog(session)) {
    const line = `json_build_array(${table.columns.map((c) => `"${c.name}"::text`).join(', ')})::text`
    const [row] = await session.query(`SELECT count(*)::int AS rows, md5(coalesce(string_agg(line, E'\\n' ORDER BY line COLLATE "C"), '')) AS md5 FROM (SELECT ${line} AS line FROM "${table.name}") s`)
    digest[table.name] = { rows: Number(row?.['rows']), md5: String(row?.['md5']) }
  }
  return digest
}

async function digestOfPostgres(url: string): Promise<Digest> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('BEGIN')
    return await digestOf(postgresSession(client))
  } finally {
    await client.query('ROLLBACK').catch(() => {})
    await client.end()
  }
}

async function digestOfPgliteDir(dir: string): Promise<Digest> {
  const client = await createPglite({ kind: 'pglite', dir })
  try {
    return await client.transaction((tx) => digestOf(pgliteSession(tx)))
  } finally {
    await client.close()
  }
}

/** Every file directly in a folder, by name, as its SHA-256. */
async function filesIn(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for (const name of (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name)) {
    files[name] = createHash('sha256').update(await readFile(join(dir, name))).digest('hex')
  }
  return files
}

const Token = z.object({ token: z.string() })

/** Polls until `condition` holds (expect.poll works only inside a test, and set-up needs it too). */
async function until(what: string, condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`)
    await new Promise((done) => setTimeout(done, 200))
  }
}

describe.sequential(`backup and restore of a populated ${testEngine() === 'pg' ? 'PostgreSQL' : 'PGlite'} instance`, () => {
  let t: TestApp
  let smtp: SmtpReceiver
  let work: string
  let file: string
  let source: Digest
  let sourceFiles: Record<string, string>
  let waiting: string
  let leadsCount = 0
  let image = ''
  const cleanups: (() => Promise<void>)[] = []
  const secret = randomBytes(32).toString('hex')

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'bo-backup-'))
    file = join(work, 'instance.backup')
    smtp = await startSmtpReceiver()
    t = await makeTestApp({ env: { JWT_SECRET: secret, UNDO_SECONDS: '3600', SMTP_URL: smtp.url, FOUR_EYES_THRESHOLD: '1000000' } })
    waiting = await populate(t, smtp)
    source = await (t.handle.kind === 'pglite' ? t.handle.client.transaction((tx) => digestOf(pgliteSession(tx))) : digestOfPostgres(t.config.database.kind === 'pg' ? t.config.database.url : ''))
    sourceFiles = await filesIn(t.config.uploadsDir)
    leadsCount = source['leads']?.rows ?? 0
    const [category] = await t.handle.db.select({ image: categories.image }).from(categories).where(eq(categories.categoryName, 'Action'))
    image = category?.image ?? ''
  }, SLOW)

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
    await t.close()
    await smtp.close()
    await rm(work, { recursive: true, force: true })
  })

  it('starts from an instance where every table of the schema has rows, with uploads', () => {
    expect(Object.keys(source).sort()).toEqual(schemaTables)
    // A new table must get a row in populate() below, or this backup test proves nothing about it.
    expect(Object.entries(source).filter(([, d]) => d.rows === 0).map(([name]) => name)).toEqual([])
    expect(Object.keys(sourceFiles).length).toBeGreaterThan(20)
    expect(sourceFiles[image]).toBeDefined()
  })

  it('writes one file holding every table and upload, while the instance runs', async () => {
    const summary = await backupToFile(t.config, file, t.handle.kind === 'pglite' ? { pglite: t.handle.client } : {})
    expect(summary.tables).toBe(schemaTables.length)
    expect(summary.rows).toBe(Object.values(source).reduce((sum, d) => sum + d.rows, 0))
    expect(summary.files).toBe(Object.keys(sourceFiles).length)
    expect(summary.notes).toEqual([])
    // The server still answers: the snapshot held nothing.
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
  }, SLOW)

  it('restores into a fresh PGlite DATA_DIR: the same rows, checksums and uploads, and the server serves them', async () => {
    const dataDir = await mkdtemp(join(work, 'pglite-'))
    const config = targetConfig(dataDir)
    const restored = await restoreFromFile(config, file)
    expect(restored.rows).toBe(Object.values(source).reduce((sum, d) => sum + d.rows, 0))
    expect(restored.notes).toEqual([])
    expect(await digestOfPgliteDir(join(dataDir, 'db'))).toEqual(source)
    expect(await filesIn(config.uploadsDir)).toEqual(sourceFiles)
    await servesRestored(config)
    // Non-empty now: a second restore is refused, and says what --force would do.
    await expect(restoreFromFile(config, file)).rejects.toThrow(RestoreRefused)
    await expect(restoreFromFile(config, file)).rejects.toThrow(/not empty[\s\S]*holds a database[\s\S]*--force/)
  }, SLOW)

  it.skipIf(POSTGRES === null)('restores into a fresh PostgreSQL database: the same rows, checksums and uploads, and the server serves them', async () => {
    const database = await emptyPostgres(POSTGRES ?? '')
    cleanups.push(database.drop)
    const config = targetConfig(await mkdtemp(join(work, 'pg-')), database.url)
    await restoreFromFile(config, file)
    expect(await digestOfPostgres(database.url)).toEqual(source)
    expect(await filesIn(config.uploadsDir)).toEqual(sourceFiles)
    await servesRestored(config)
    // A database a server has used is refused; --force drops its tables and restores again,
    // this time with S3 storage: the backup's uploads go into the bucket.
    await expect(restoreFromFile(config, file)).rejects.toThrow(/The target is not empty:\n {2}the database holds \d+ tables \(\d+ with rows: /)
    const s3 = await startS3()
    cleanups.push(s3.close)
    const inBucket = targetConfig(await mkdtemp(join(work, 'pg-s3-')), database.url, s3.env)
    // Not while a server still uses the database: its tables would go from under it.
    const running = await buildApp(config)
    try {
      await running.ready()
      await expect(restoreFromFile(inBucket, file, { force: true })).rejects.toThrow(/The database is in use: \d+ connections? of a running back-office server/)
    } finally {
      await running.close()
    }
    const forced = await restoreFromFile(inBucket, file, { force: true })
    expect(forced.tables).toBe(schemaTables.length)
    expect(await digestOfPostgres(database.url)).toEqual(source)
    const bucket = await openStorage(inBucket)
    const stored: Record<string, string> = {}
    for await (const object of bucket.list()) {
      const hash = createHash('sha256')
      for await (const piece of (await bucket.read(object.name)) as AsyncIterable<Buffer>) hash.update(piece)
      stored[object.name] = hash.digest('hex')
    }
    expect(stored).toEqual(sourceFiles)
    await servesRestored(inBucket)
  }, SLOW)

  it('refuses a backup whose migration is newer than this code, before touching the target', async () => {
    const lines = gunzipSync(await readFile(file)).toString('utf8').split('\n')
    const header = z.object({ migration: z.object({ tag: z.string().nullable(), when: z.number(), hash: z.string() }) }).passthrough().parse(JSON.parse(lines[0] ?? ''))
    const future = join(work, 'future.backup')
    await writeFile(future, gzipSync([JSON.stringify({ ...header, migration: { tag: '9999_future', when: header.migration.when + 1, hash: 'x' } }), ...lines.slice(1)].join('\n')))
    const dataDir = await mkdtemp(join(work, 'future-'))
    await expect(restoreFromFile(targetConfig(dataDir), future)).rejects.toThrow(/newer than this version's .* or unknown to it: update this installation/)
    expect(existsSync(join(dataDir, 'db'))).toBe(false)
  })

  it('leaves an S3 bucket out, and says so with the commands that copy it', async () => {
    const s3Backup = join(work, 's3.backup')
    const s3 = { endpoint: 'http://127.0.0.1:9', bucket: 'bo-uploads', accessKey: 'key', secretKey: 'secret', region: 'us-east-1', pathStyle: true }
    const summary = await backupToFile({ ...t.config, s3, storagePrefix: 'site-a/' }, s3Backup, t.handle.kind === 'pglite' ? { pglite: t.handle.client } : {})
    expect(summary.files).toBe(0)
    expect(summary.notes.join('\n')).toMatch(/The uploads are in the bucket bo-uploads at http:\/\/127\.0\.0\.1:9, under site-a\/, and this backup does not include them/)
    expect(summary.notes.join('\n')).toContain('mc mirror backup-source/bo-uploads/site-a/')
    expect(summary.notes.join('\n')).toContain('aws s3 sync s3://bo-uploads/site-a/ ./uploads-copy --endpoint-url http://127.0.0.1:9')
    const lines = gunzipSync(await readFile(s3Backup)).toString('utf8').trimEnd().split('\n')
    expect(lines.some((line) => line.startsWith('{"file"'))).toBe(false)
    expect(lines.at(-1)).toMatch(/"files":0\}$/)
  })

  function targetConfig(dataDir: string, databaseUrl?: string, s3: Record<string, string> = {}): Config {
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret, LOG_LEVEL: 'silent', LOGIN_RATE_LIMIT: '1000', ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }), ...s3 })
    return { ...config, hashCost: { memoryCost: 1024, timeCost: 1, parallelism: 1 } }
  }

  /** The restored server starts, signs in, lists the leads, serves an upload and delivers the waiting promotion. */
  async function servesRestored(config: Config): Promise<void> {
    const app = await buildApp(config)
    try {
      await app.ready()
      const signedIn = await app.inject({ method: 'POST', url: `/api/admin${login.path}`, payload: { email: SUPERADMIN_EMAIL, password: TEST_PASSWORD, twoFACode: '' } })
      const { token } = Token.parse(signedIn.json())
      const listed = bodyOf(await app.inject({ method: 'GET', url: `/api/admin${getuser.path}`, query: { page: '1', limit: '10', search: '' }, headers: { authorization: `Bearer ${token}` } }))
      expect(listed['count']).toBe(leadsCount)
      const served = await app.inject({ method: 'GET', url: `/uploads/${image}` })
      expect(served.statusCode).toBe(200)
      expect(createHash('sha256').update(served.rawPayload).digest('hex')).toBe(sourceFiles[image])
      // The promotion that was still to deliver when the backup was made is delivered by the restored server.
      const db = app.services.handle.db
      await expect.poll(async () => (await db.select({ status: promotions.status }).from(promotions).where(eq(promotions.id, waiting)))[0]?.status, { timeout: 60_000, interval: 200 }).toBe('done')
      const [row] = await db.select({ sent: promotions.sent, failed: promotions.failed, excluded: promotions.excluded, total: promotions.total }).from(promotions).where(eq(promotions.id, waiting))
      // Every recipient accounted for: the demo's leads in restricted countries are left out.
      expect((row?.sent ?? 0) + (row?.failed ?? 0) + (row?.excluded ?? 0)).toBe(row?.total)
      expect(row?.failed).toBe(0)
      expect(row?.total).toBeGreaterThan(600)
    } finally {
      await app.close()
    }
  }
})

/**
 * Rows in every table: the demo's data and uploads, the endpoint samples' fixtures, then calls
 * through the API for what only a call writes (sessions, audit, mail, the sign-in limits,
 * trash, a promotion delivered). Answers the id of a promotion left to deliver: the queue is
 * stopped before it is submitted, so the backup holds its job and its pending deliveries.
 */
async function populate(t: TestApp, smtp: SmtpReceiver): Promise<string> {
  await seedDemo(t.handle.db, t.app.services.storage, Date.now())
  const fixtures = await makeFixtures(t)
  const headers = await t.auth(t.superadmin)
  const ok = async (e: Endpoint, payload: Payload): Promise<Record<string, unknown>> => {
    const answer = bodyOf(await send(t, e, headers, payload))
    expect(answer['status'], `${e.name}: ${JSON.stringify(answer)}`).toBe('success')
    return answer
  }
  // A wrong password (the sign-in limits and their audit), then the one-time code flow: its mail goes out over SMTP.
  await send(t, login, {}, { json: { email: SUPERADMIN_EMAIL, password: 'Wrong#2024x', twoFACode: '' } })
  // A real sign-in: it records the device it came from (admin_devices).
  await ok(login, { json: { email: SUPERADMIN_EMAIL, password: TEST_PASSWORD, twoFACode: '' } })
  // A passkey (admin_passkeys), and a sign-in's challenge left unanswered (passkey_challenges).
  const key = new SoftPasskey({ origin: 'http://localhost', rpId: 'localhost' })
  const creation = z.object({ options: z.object({ challenge: z.string(), rp: z.object({ id: z.string().optional() }), user: z.object({ id: z.string() }) }) }).parse(await ok(passkeyRegistrationOptions, { json: {} }))
  await ok(addPasskey, { json: { name: 'Backed-up laptop', response: key.register(creation.options) } })
  await ok(passkeySignInOptions, { json: {} })
  await ok(ForgotSendMail, { json: { email: SUPERADMIN_EMAIL } })
  await smtp.next(SUPERADMIN_EMAIL)
  await until('the OTP mail marked sent', async () => (await t.handle.db.select({ status: mailOutbox.status }).from(mailOutbox)).some((m) => m.status === 'sent'))
  await send(t, forgotPassword, {}, { json: { otp: '000000', newPassword: 'Fresh#2024', confirmPassword: 'Fresh#2024', email: SUPERADMIN_EMAIL } })
  await ok(editTemplate, samples['editTemplate']?.(fixtures) ?? { json: {} })
  await ok(saveView, samples['saveView']?.(fixtures) ?? { json: {} })
  await ok(sendNewsletter, samples['sendNewsletter']?.(fixtures) ?? { json: {} })
  await ok(CheckBoxDelete, samples['CheckBoxDelete']?.(fixtures) ?? { json: {} })
  // A bulk action applied: its run and the rows it takes (bulk_runs, bulk_run_rows).
  await ok(applyContactBulk, samples['applyContactBulk']?.(fixtures) ?? { json: {} })
  // An address a provider reported as bouncing (written by its event in production).
  await t.handle.db.insert(suppressedAddresses).values({ address: 'bounced@backup.test', reason: 'bounce', source: 'provider-event-1' })
  await t.handle.db.insert(mailEventsSeen).values({ eventId: 'provider-event-1', type: 'bounce', address: 'bounced@backup.test' })
  const image = { field: 'image', name: 'promo.png', type: 'image/png', content: encodePng(16, 16, (x, y) => [x * 16, y * 16, 90]) }
  const delivered = String((await ok(addNotification, { form: { fields: { title: 'Spring', content: 'Tickets half price', selectall: 'true' }, files: [image] } }))['_id'])
  await until('the first promotion delivered', async () => (await t.handle.db.select({ status: promotions.status }).from(promotions).where(eq(promotions.id, delivered)))[0]?.status === 'done')
  await t.app.services.jobs.stop()
  return String((await ok(addNotification, { form: { fields: { title: 'Summer', content: 'New games', selectall: 'true' }, files: [image] } }))['_id'])
}

// ---------------------------------------------------------------------------------------------
// A running server process and the real script (PGlite only: the snapshot is PGlite's problem)
// ---------------------------------------------------------------------------------------------

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      s.close(() => done(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
}

interface Child {
  process: ChildProcess
  output: () => string
  exited: Promise<number | null>
}

function run(args: readonly string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TMPDIR: process.env['TMPDIR'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let printed = ''
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()))
  return { process: child, output: () => printed, exited: new Promise((done) => child.once('exit', (code) => done(code))) }
}

/** The lines of a backup file: its header, each table's rows, each file's bytes. */
async function readBackup(path: string): Promise<{ header: Record<string, unknown>; rows: Record<string, unknown[][]>; files: Record<string, Buffer> }> {
  const lines = gunzipSync(await readFile(path)).toString('utf8').trimEnd().split('\n')
  const header = z.record(z.string(), z.unknown()).parse(JSON.parse(lines[0] ?? ''))
  const rows: Record<string, unknown[][]> = {}
  const files: Record<string, Buffer> = {}
  let table = ''
  let name = ''
  let pieces: Buffer[] = []
  for (const line of lines.slice(1)) {
    const value: unknown = JSON.parse(line)
    if (Array.isArray(value)) (rows[table] ??= []).push(value)
    else if (typeof value === 'string') pieces.push(Buffer.from(value, 'base64'))
    else {
      const control = z.object({ table: z.string().optional(), file: z.string().optional(), endFile: z.string().optional() }).passthrough().parse(value)
      if (control.table !== undefined) [table, rows[control.table]] = [control.table, []]
      if (control.file !== undefined) [name, pieces] = [control.file, []]
      if (control.endFile !== undefined) files[name] = Buffer.concat(pieces)
    }
  }
  return { header, rows, files }
}

describe.skipIf(testEngine() !== 'pglite')('npm run backup against a running server on the embedded database', () => {
  let work: string
  let dataDir: string
  let backups: string
  let server: Child | undefined
  let base = ''
  let env: Record<string, string> = {}

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'bo-backup-run-'))
    dataDir = join(work, 'data')
    backups = join(work, 'scheduled')
    // The tests' migrated cluster, so the server skips PGlite's initdb (seconds); it migrates as at any start.
    const image = process.env[PGLITE_IMAGE_ENV]
    if (image !== undefined) await (await createPglite({ kind: 'pglite', dir: join(dataDir, 'db'), image: new Blob([new Uint8Array(await readFile(image))]) })).close()
    const port = await freePort()
    env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_EMAIL: SUPERADMIN_EMAIL, ADMIN_PASSWORD: TEST_PASSWORD, LOG_LEVEL: 'info', BACKUP_DIR: backups, BACKUP_EVERY_HOURS: '0.0003', BACKUP_KEEP: '2' }
    server = run(['server/main.ts'], env)
    base = `http://127.0.0.1:${port}`
    const started = server
    await until('the server answering', async () => {
      if (started.process.exitCode !== null) throw new Error(`the server exited:\n${started.output()}`)
      return (await fetch(`${base}/healthz`).catch(() => null))?.ok === true
    }, 120_000)
  }, SLOW)

  afterAll(async () => {
    if (server !== undefined && server.process.exitCode === null) {
      server.process.kill('SIGKILL')
      await server.exited
    }
    await rm(work, { recursive: true, force: true })
  })

  it('asks the server for a snapshot, which keeps serving; a second server on the same DATA_DIR is refused; after a kill -9 the backup opens DATA_DIR itself', async () => {
    const signedIn = await fetch(`${base}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: SUPERADMIN_EMAIL, password: TEST_PASSWORD, twoFACode: '' }) })
    const { token } = Token.parse(await signedIn.json())
    const form = new FormData()
    form.append('categoryName', 'Puzzles')
    form.append('image', new Blob([new Uint8Array(encodePng(32, 32, (x) => [x * 8, 120, 200]))], { type: 'image/png' }), 'puzzles.png')
    expect((await fetch(`${base}/api/admin/addcategory`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })).ok).toBe(true)
    const listed = z.object({ result: z.array(z.object({ image: z.string() })) }).parse(await (await fetch(`${base}/api/admin/listCategory?page=1&limit=10`, { headers: { authorization: `Bearer ${token}` } })).json())
    const stored = listed.result[0]?.image.split('/').pop() ?? ''
    const bytes = Buffer.from(await (await fetch(`${base}/uploads/${stored}`)).arrayBuffer())

    // The server answers throughout the backup.
    const answers: number[] = []
    let polling = true
    const poller = (async () => {
      while (polling) {
        answers.push((await fetch(`${base}/readyz`)).status)
        await new Promise((done) => setTimeout(done, 100))
      }
    })()
    const live = join(work, 'live.backup')
    const backup = run(['scripts/backup.ts', live, '--with-secrets'], { DATA_DIR: dataDir })
    expect(await backup.exited, backup.output()).toBe(0)
    polling = false
    await poller
    expect(backup.output()).toMatch(new RegExp(`Backup written to .*live\\.backup: \\d+ rows in \\d+ tables, 2 uploads .*, from the running server \\(process ${server?.process.pid}\\)`))
    expect(answers.length).toBeGreaterThan(0)
    expect(answers.every((status) => status === 200)).toBe(true)
    const written = await readBackup(live)
    expect(written.rows['categories']?.map((row) => row[2])).toEqual(['Puzzles'])
    expect(written.files[stored]).toEqual(bytes)
    // The key was generated in DATA_DIR (no JWT_SECRET): asked for, it travels with the data sealed under it.
    const key = (await readFile(join(dataDir, 'jwt-secret'), 'utf8')).trim()
    expect(written.header['key']).toEqual({ fingerprint: keyFingerprint(new TextEncoder().encode(key)), secret: key })
    // The backup's snapshot is gone once it is written. The schedule (every ~1 s here) makes its
    // own for a moment each time, so the folder is empty between two of them, not at every instant.
    await expect.poll(() => readdir(join(dataDir, 'snapshots')), { timeout: 30_000, interval: 20 }).toEqual([])

    // Scheduled backups every ~1 s, the newest two kept.
    await expect.poll(() => (server?.output().match(/scheduled backup written/g) ?? []).length, { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(3)
    const kept = (await readdir(backups)).filter((name) => name.endsWith('.backup'))
    expect(kept).toHaveLength(2)
    expect((await readBackup(join(backups, kept.at(-1) ?? ''))).files[stored]).toEqual(bytes)

    const second = run(['server/main.ts'], { ...env, PORT: String(await freePort()) })
    expect(await second.exited).toBe(1)
    expect(second.output()).toMatch(new RegExp(`${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by a running server, process ${server?.process.pid}`))

    server?.process.kill('SIGKILL')
    await server?.exited
    // The killed server's socket is still there; nothing accepts on it.
    expect(existsSync(join(dataDir, 'control', 'holder.sock'))).toBe(true)
    const offline = join(work, 'offline.backup')
    const after = run(['scripts/backup.ts', offline], { DATA_DIR: dataDir })
    expect(await after.exited, after.output()).toBe(0)
    expect(after.output()).toContain(`from ${join(dataDir, 'db')} (no server running)`)
    const read = await readBackup(offline)
    // Not asked for, the key stays out, and the operator is told to keep it apart.
    expect(read.header['key']).toEqual({ fingerprint: keyFingerprint(new TextEncoder().encode(key)) })
    expect(after.output()).toContain(`This backup holds no token key (left out without --with-secrets): keep ${join(dataDir, 'jwt-secret')} safely apart from it`)
    expect(read.rows['categories']).toEqual(written.rows['categories'])
    expect(read.files[stored]).toEqual(bytes)
    expect(existsSync(join(dataDir, 'control', 'holder.sock'))).toBe(false)
  }, SLOW)
})
