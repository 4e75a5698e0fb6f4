/**
 * The mail queue (server/kit/ground/mail/mail.ts) against the real SMTP receiver, on PGlite or PostgreSQL
 * (DATABASE_URL): OTP mail arrives, bodies are sealed while pending and purged once sent, failures
 * retry with backoff, pending mail survives a restart, the log never holds a body unless the demo
 * switch says so, groups are counted, paused and cancelled, and the rate holds across instances.
 *
 * Apps are built here rather than with makeTestApp: a test needs an app that runs no jobs (to
 * stop mail before it is sent, then start another app on the same database) and the app's log.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildApp } from '../../../app.ts'
import { loadConfig, type Config } from '../../../config.ts'
import { openDb, type DbHandle } from '../../../db/index.ts'
import { admins, jobs, mailOutbox, mailPace } from '../../../db/schema.ts'
import { otpFrom, startSmtpReceiver, type SmtpReceiver } from '../../../testing/smtp-receiver.ts'
import { scratchDatabase, testEngine } from '../../../testing/test-app.ts'
import { cancelMailGroup, mailGroupCounts, openMailBody, pauseMailGroup, type MailMessage } from './mail.ts'

const ADMIN = 'root@example.com'
let handle: DbHandle
let database: Config['database']
let drop: () => Promise<void>
let dataDir: string
const jwtSecret = randomBytes(32).toString('hex')
const apps: FastifyInstance[] = []
const receivers: SmtpReceiver[] = []

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bo-mail-'))
  const scratch = await scratchDatabase()
  drop = scratch.drop
  database = scratch.database
  handle = await openDb(database)
})
afterAll(async () => {
  await handle.close()
  await drop()
  await rm(dataDir, { recursive: true, force: true })
})
beforeEach(async () => {
  await handle.db.delete(jobs)
  await handle.db.delete(mailOutbox)
  await handle.db.delete(mailPace)
})
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()))
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})

interface Running {
  app: FastifyInstance
  config: Config
  /** Every log line the app wrote, as written. */
  lines: string[]
}

/** The real app on the shared database, its log captured; `jobs: false` builds one that sends nothing. */
async function start(options: { smtp?: string; env?: Record<string, string>; jobs?: boolean; mail?: Partial<Config['mail']> } = {}): Promise<Running> {
  const loaded = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: jwtSecret,
    ADMIN_EMAIL: ADMIN,
    ADMIN_PASSWORD: 'Test@1234',
    LOG_LEVEL: 'info',
    JOB_POLL_MS: '20',
    MAIL_RATE_PER_SECOND: '0',
    ...(options.smtp === undefined ? {} : { SMTP_URL: options.smtp }),
    ...options.env,
  })
  const config: Config = {
    ...loaded,
    database,
    hashCost: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
    mail: { ...loaded.mail, retryBaseMs: 100, retryMaxMs: 1000, ...options.mail },
  }
  const lines: string[] = []
  const app = await buildApp(config, { handle, jobs: options.jobs !== false, logStream: { write: (line) => void lines.push(line) } })
  await app.ready()
  apps.push(app)
  return { app, config, lines }
}

/** Closes an app before the test ends (a "crash" or a stop), so another can take over. */
async function stop(running: Running): Promise<void> {
  apps.splice(apps.indexOf(running.app), 1)
  await running.app.close()
}

async function receiver(port?: number): Promise<SmtpReceiver> {
  const r = await startSmtpReceiver(port === undefined ? {} : { port })
  receivers.push(r)
  return r
}

async function until(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

const mailTo = async (to: string) => (await handle.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)))[0]

/** Every row of every table as text: what a copy of the database would show. */
async function wholeDatabase(): Promise<string> {
  const Rows = z.object({ rows: z.array(z.record(z.string(), z.unknown())) })
  const tables = Rows.parse(await handle.db.execute(sql`select tablename from pg_tables where schemaname = 'public'`)).rows.map((r) => String(r['tablename']))
  const parts: string[] = []
  for (const name of tables) parts.push(...Rows.parse(await handle.db.execute(sql.raw(`select x::text as t from "${name}" x`))).rows.map((r) => String(r['t'])))
  return parts.join('\n')
}

/** Asks for a password-reset OTP through the API, as the Forgot screen does. */
async function forgot(app: FastifyInstance, email: string): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/api/admin/ForgotSend-mail', payload: { email }, remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` })
  expect(res.statusCode).toBe(200)
}

async function addAdmin(running: Running): Promise<string> {
  const email = `staff-${randomBytes(4).toString('hex')}@example.com`
  await handle.db.insert(admins).values({ name: 'Staff', email, role: 'subadmin', accessLevel: 'Admin', restrictions: [], passwordHash: await running.app.services.passwords.hash('Test@1234') })
  return email
}

const message = (to: string, extra: Partial<MailMessage> = {}): MailMessage => ({ to, subject: 'Hello', text: 'Body 424242', html: '<p>Body 424242</p>', template: 'test-mail', ...extra })

/** Queues mail the way a handler does: in a transaction, then wakes the queue after commit. */
async function enqueue(running: Running, messages: MailMessage[]): Promise<string[]> {
  const { mailer } = running.app.services
  const ids = await handle.db.transaction((tx) => mailer.enqueueMany(tx, messages))
  mailer.wake()
  return ids
}

const Line = z.object({ msg: z.string(), retryInMs: z.number().optional() }).loose()
const parsedLines = (lines: string[]) => lines.map((l) => Line.parse(JSON.parse(l)))

describe(`mail queue (${testEngine()})`, () => {
  it('mails the OTP over SMTP, then keeps no body and no code, and logs only the recipient and template', async () => {
    const smtp = await receiver()
    const running = await start({ smtp: smtp.url })
    const email = await addAdmin(running)
    await forgot(running.app, email)
    const code = otpFrom(await smtp.next(email))
    await until(async () => (await mailTo(email))?.status === 'sent')
    const row = await mailTo(email)
    expect(row).toMatchObject({ status: 'sent', template: 'forgot-password-otp', body: null, error: null, attempts: 1 })
    expect(row?.sentAt).toBeInstanceOf(Date)
    expect(await wholeDatabase()).not.toContain(code)
    const log = running.lines.join('\n')
    expect(log).not.toContain(code)
    const sent = parsedLines(running.lines).find((l) => l.msg === 'mail sent')
    expect(sent).toMatchObject({ mailTo: email, template: 'forgot-password-otp' })
    // The finished job is gone: nothing is left to run.
    await until(async () => (await handle.db.select().from(jobs)).length === 0)
  })

  it('keeps pending mail sealed, and sends it after a restart from another app on the same database', async () => {
    const smtp = await receiver()
    const first = await start({ smtp: smtp.url, jobs: false })
    const email = await addAdmin(first)
    await forgot(first.app, email)
    const pending = await mailTo(email)
    expect(pending).toMatchObject({ status: 'pending', attempts: 0, sentAt: null })
    expect(pending?.body).toMatch(/^mb1:/)
    // The job that sends it was added with the row, in the same transaction.
    expect((await handle.db.select().from(jobs)).map((j) => j.kind)).toEqual(['mail.send'])
    const atRest = await wholeDatabase()
    // The sealed body holds the code; nothing at rest shows it in clear.
    const opened = openMailBody(first.config, pending?.id ?? '', pending?.body ?? null)
    const code = /one-time code is: (\d{6})/.exec(opened?.text ?? '')?.[1]
    expect(code).toMatch(/^\d{6}$/)
    expect(atRest).not.toContain(code)
    await stop(first)
    expect(smtp.received).toHaveLength(0)

    const second = await start({ smtp: smtp.url })
    expect(otpFrom(await smtp.next(email))).toBe(code)
    await until(async () => (await mailTo(email))?.status === 'sent')
    expect((await mailTo(email))?.body).toBeNull()
    expect([...first.lines, ...second.lines].join('\n')).not.toContain(code ?? 'no code')
  })

  it('retries a refused mail with growing backoff, then sends it once the server takes it', async () => {
    const smtp = await receiver()
    const running = await start({ smtp: smtp.url })
    smtp.refuse(2)
    await enqueue(running, [message('retry@example.com')])
    const mail = await smtp.next('retry@example.com')
    expect(mail.raw).toContain('Body 424242')
    await until(async () => (await mailTo('retry@example.com'))?.status === 'sent')
    expect(await mailTo('retry@example.com')).toMatchObject({ status: 'sent', attempts: 3, body: null, error: null })
    const retries = parsedLines(running.lines).filter((l) => l.msg === 'mail not sent; retrying')
    expect(retries).toHaveLength(2)
    // Backoff: base * 2^(n-1) with 75-100% jitter, so the second wait is always the longer.
    expect(retries[1]?.retryInMs ?? 0).toBeGreaterThan(retries[0]?.retryInMs ?? Infinity)
    expect(smtp.received.filter((m) => m.to.includes('retry@example.com'))).toHaveLength(1)
    expect(running.lines.join('\n')).not.toContain('424242')
  })

  it('keeps retrying while the SMTP server is down, and delivers when it comes back', async () => {
    const gone = await receiver()
    const port = Number(new URL(gone.url).port)
    await gone.close()
    receivers.splice(receivers.indexOf(gone), 1)
    const running = await start({ smtp: gone.url })
    await enqueue(running, [message('down@example.com')])
    await until(async () => ((await mailTo('down@example.com'))?.attempts ?? 0) >= 2)
    const failing = await mailTo('down@example.com')
    expect(failing).toMatchObject({ status: 'pending' })
    expect(failing?.error).toMatch(/ECONNREFUSED|connect/i)
    expect(failing?.body).toMatch(/^mb1:/)
    const back = await receiver(port)
    await back.next('down@example.com')
    await until(async () => (await mailTo('down@example.com'))?.status === 'sent')
  })

  it('gives a mail up after MAIL_MAX_ATTEMPTS tries and purges its body', async () => {
    const smtp = await receiver()
    const running = await start({ smtp: smtp.url, mail: { maxAttempts: 2 } })
    smtp.refuse(5)
    await enqueue(running, [message('never@example.com')])
    await until(async () => (await mailTo('never@example.com'))?.status === 'failed')
    const row = await mailTo('never@example.com')
    expect(row).toMatchObject({ attempts: 2, body: null })
    expect(row?.error).toMatch(/451/)
    expect(parsedLines(running.lines).some((l) => l.msg === 'mail given up after its last try')).toBe(true)
    await until(async () => (await handle.db.select().from(jobs)).length === 0)
  })

  it('without SMTP_URL holds the mail sealed and logs that it was not sent, without the code', async () => {
    const running = await start()
    const email = await addAdmin(running)
    await forgot(running.app, email)
    await until(async () => (await mailTo(email))?.status === 'held')
    const row = await mailTo(email)
    expect(row).toMatchObject({ status: 'held', error: 'not sent: no SMTP_URL', sentAt: null })
    // Kept sealed: readable with the server's key only (a test reader, as support tooling would).
    const code = /one-time code is: (\d{6})/.exec(openMailBody(running.config, row?.id ?? '', row?.body ?? null)?.text ?? '')?.[1]
    expect(code).toMatch(/^\d{6}$/)
    expect(await wholeDatabase()).not.toContain(code)
    expect(running.lines.join('\n')).not.toContain(code ?? 'no code')
    expect(parsedLines(running.lines).find((l) => l.msg.startsWith('mail not sent: no SMTP_URL'))).toMatchObject({ mailTo: email, template: 'forgot-password-otp' })
  })

  it('prints the mail to the log without SMTP_URL only when the demo switch MAIL_LOG_BODIES is on', async () => {
    const running = await start({ env: { MAIL_LOG_BODIES: '1' } })
    expect(running.config.mail.logBodies).toBe(true)
    expect(loadConfig({ DATA_DIR: dataDir }).mail.logBodies).toBe(false)
    const email = await addAdmin(running)
    await forgot(running.app, email)
    await until(async () => (await mailTo(email))?.status === 'logged')
    expect((await mailTo(email))?.body).toBeNull()
    const printed = parsedLines(running.lines).find((l) => l.msg.startsWith('Mail printed, not sent'))
    expect(printed?.msg).toMatch(/one-time code is: \d{6}/)
  })

  it('sends headers, and counts, pauses, resumes and cancels a group', async () => {
    const smtp = await receiver()
    const paused = await start({ smtp: smtp.url, jobs: false })
    const headers = { 'List-Unsubscribe': '<https://example.com/unsubscribe?token=abc>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    const to = ['g1@example.com', 'g2@example.com', 'g3@example.com']
    await enqueue(
      paused,
      to.map((t) => message(t, { group: 'newsletter:1', headers })),
    )
    await enqueue(paused, [message('other@example.com', { group: 'newsletter:2' })])
    expect(await mailGroupCounts(handle.db, 'newsletter:1')).toMatchObject({ pending: 3, sent: 0 })
    expect(await pauseMailGroup(handle.db, 'newsletter:1')).toBe(3)
    await stop(paused)

    const running = await start({ smtp: smtp.url })
    await smtp.next('other@example.com')
    await new Promise((r) => setTimeout(r, 200))
    expect(smtp.received.filter((m) => m.to.some((t) => to.includes(t)))).toHaveLength(0)
    expect(await mailGroupCounts(handle.db, 'newsletter:1')).toMatchObject({ paused: 3, pending: 0, sent: 0 })

    expect(await running.app.services.mailer.resumeGroup(handle.db, 'newsletter:1')).toBe(3)
    running.app.services.mailer.wake()
    const first = await smtp.next('g1@example.com')
    expect(first.raw).toMatch(/^List-Unsubscribe: <https:\/\/example\.com\/unsubscribe\?token=abc>\r?$/m)
    expect(first.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m)
    await until(async () => (await mailGroupCounts(handle.db, 'newsletter:1')).sent === 3)
    expect(await cancelMailGroup(handle.db, 'newsletter:1')).toBe(0)

    // Cancelling a group before its mails go: none is sent, and the bodies are purged.
    const queued = await start({ smtp: smtp.url, jobs: false })
    await enqueue(queued, [message('c1@example.com', { group: 'newsletter:3' }), message('c2@example.com', { group: 'newsletter:3' })])
    expect(await cancelMailGroup(handle.db, 'newsletter:3')).toBe(2)
    expect(await mailGroupCounts(handle.db, 'newsletter:3')).toMatchObject({ cancelled: 2, pending: 0 })
    expect((await handle.db.select().from(mailOutbox).where(eq(mailOutbox.group, 'newsletter:3'))).map((m) => m.body)).toEqual([null, null])
  })

  it('sends a mail once when its group is paused and resumed while the SMTP server holds it mid-send', async () => {
    const smtp = await receiver()
    const running = await start({ smtp: smtp.url })
    const held = smtp.hold()
    await enqueue(running, [message('held@example.com', { group: 'newsletter:held' })])
    await held.arrived
    // The mail is in the SMTP server's hands; its worker waits for the answer.
    expect(await pauseMailGroup(handle.db, 'newsletter:held')).toBe(1)
    expect(await running.app.services.mailer.resumeGroup(handle.db, 'newsletter:held')).toBe(1)
    running.app.services.mailer.wake()
    // Time for any worker to take the mail again, were it due (the queue polls every 20 ms).
    await new Promise((r) => setTimeout(r, 500))
    expect(smtp.received).toHaveLength(0)
    held.release()
    await until(async () => (await mailTo('held@example.com'))?.status === 'sent')
    await new Promise((r) => setTimeout(r, 300))
    expect(smtp.received.filter((m) => m.to.includes('held@example.com'))).toHaveLength(1)
    expect(await mailTo('held@example.com')).toMatchObject({ status: 'sent', attempts: 1, body: null })
  })

  it('keeps a mail whose try failed while its group was paused held until the group resumes', async () => {
    const smtp = await receiver()
    const running = await start({ smtp: smtp.url })
    const held = smtp.hold()
    smtp.refuse(1)
    await enqueue(running, [message('refused@example.com', { group: 'newsletter:refused' })])
    await held.arrived
    expect(await pauseMailGroup(handle.db, 'newsletter:refused')).toBe(1)
    held.release()
    // The try's failure is recorded (with its backoff of 100 ms or less), and the mail stays paused.
    await until(async () => (await mailTo('refused@example.com'))?.error !== null)
    await new Promise((r) => setTimeout(r, 500))
    expect(await mailTo('refused@example.com')).toMatchObject({ status: 'paused', attempts: 1 })
    expect(smtp.received).toHaveLength(0)
    expect(await running.app.services.mailer.resumeGroup(handle.db, 'newsletter:refused')).toBe(1)
    running.app.services.mailer.wake()
    await smtp.next('refused@example.com')
    await until(async () => (await mailTo('refused@example.com'))?.status === 'sent')
    expect(smtp.received).toHaveLength(1)
  })

  it('refuses a header that could break the message', async () => {
    const running = await start({ jobs: false })
    await expect(enqueue(running, [message('h@example.com', { headers: { 'X-Evil': 'a\r\nBcc: victim@example.com' } })])).rejects.toThrow(/spans lines/)
    await expect(enqueue(running, [message('h@example.com', { headers: { Bcc: 'victim@example.com' } })])).rejects.toThrow(/not allowed/)
    expect(await mailTo('h@example.com')).toBeUndefined()
  })

  it('keeps MAIL_RATE_PER_SECOND across two instances sending at once', async () => {
    const smtp = await receiver()
    const rate = 20
    const env = { MAIL_RATE_PER_SECOND: String(rate) }
    const one = await start({ smtp: smtp.url, env })
    const two = await start({ smtp: smtp.url, env })
    // One mail each first: opening an SMTP connection takes longer than reusing one, and a late
    // first mail would make the measured span look shorter than the pacing made it.
    await Promise.all([enqueue(one, [message('warm1@example.com')]), enqueue(two, [message('warm2@example.com')])])
    await Promise.all([smtp.next('warm1@example.com'), smtp.next('warm2@example.com')])
    const arrivals: number[] = []
    const count = 12
    const waiting = Array.from({ length: count }, (_, i) => smtp.next(`rate${i}@example.com`, 15_000).then(() => void arrivals.push(Date.now())))
    await Promise.all([
      enqueue(one, Array.from({ length: count / 2 }, (_, i) => message(`rate${i}@example.com`))),
      enqueue(two, Array.from({ length: count / 2 }, (_, i) => message(`rate${i + count / 2}@example.com`))),
    ])
    await Promise.all(waiting)
    arrivals.sort((a, b) => a - b)
    // Twelve slots at 20 per second span 11 steps of 50 ms (550 ms), however the two instances
    // interleave; each pacing only itself, they would take about half that. The margin is for
    // the jitter of a loaded machine.
    const span = (arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)
    expect(span).toBeGreaterThanOrEqual(((count - 1) * 1000) / rate - 100)
  })
})
