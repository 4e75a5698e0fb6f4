/**
 * "Send later" (contract/send-later.ts, server/kit/rules/send-later.ts) for promotions and newsletters:
 * a scheduled send is listed as scheduled with its time, starts at that time (within the queue's
 * poll) exactly as a send made then, four eyes included; a time that has passed or is no time is
 * refused under its field; a scheduled send can be cancelled or moved before it starts, not after.
 * Two app instances with their own job queues over one database start each send once.
 */
import { and, eq, like, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ALREADY_STARTED, SEND_AT_INVALID, SEND_AT_PAST } from '#contract/send-later'
import { buildApp } from '../app.ts'
import { openDb } from '../db/index.ts'
import { auditLog, jobs, leads, mailOutbox, newsletterRecipients, newsletterSends, promotionDeliveries, promotions, sendRequests } from '../db/schema.ts'
import { NOT_STARTED_YET, SCHEDULED_CANCELLED } from '../areas/promotions/routes.ts'
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.ts'
import { bodyOf, listOf, makeTestApp, multipart, testEngine, type TestApp } from './test-app.ts'

/** Over this many recipients a send waits for a second Admin (the window is off: each send alone). */
const THRESHOLD = 5

let smtp: SmtpReceiver
let t: TestApp
let admin: { authorization: string }

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  t = await makeTestApp({ env: { SMTP_URL: smtp.url, JOB_POLL_MS: '50', MAIL_RATE_PER_SECOND: '0', FOUR_EYES_THRESHOLD: String(THRESHOLD), FOUR_EYES_WINDOW_HOURS: '0' } })
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})
beforeEach(async () => {
  t.app.services.jobs.start()
  await t.handle.db.delete(promotions)
  await t.handle.db.delete(newsletterSends)
  await t.handle.db.delete(jobs)
  await t.handle.db.delete(leads)
  await t.handle.db.delete(sendRequests)
})

const post = (path: string, payload: Record<string, unknown>, app: FastifyInstance = t.app) =>
  app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...admin, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })

async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** `n` subscribed leads with good addresses; answers their ids. */
async function seed(n: number): Promise<string[]> {
  const rows = await t.handle.db
    .insert(leads)
    .values(Array.from({ length: n }, (_, i) => ({ name: `Lead ${i}`, email: `lead${i}-${Math.random().toString(36).slice(2, 8)}@example.com`, country: 'DE', subscribed: true })))
    .returning({ id: leads.id })
  return rows.map((r) => r.id)
}

const inMs = (ms: number): string => new Date(Date.now() + ms).toISOString()

async function schedulePromotion(sendAt: string, title = 'Later drop', app: FastifyInstance = t.app) {
  const form = await multipart({ title, content: 'Fresh games', selectall: 'true', email: '', provider: '', country: '', sendAt }, [])
  return app.inject({ method: 'POST', url: '/api/admin/addNotification', headers: { ...admin, ...form.headers }, payload: form.payload })
}

const promotionRow = async (id: string) => (await t.handle.db.select().from(promotions).where(eq(promotions.id, id)))[0]
const sendRow = async (id: string) => (await t.handle.db.select().from(newsletterSends).where(eq(newsletterSends.id, id)))[0]

/** The start's audit rows of a send (written by the server in the scheduling admin's name). */
const startAudits = (recordId: string) => t.handle.db.select().from(auditLog).where(and(eq(auditLog.recordId, recordId), like(auditLog.detail, 'Scheduled send started%')))

const schedule = (sendAt: string, app: FastifyInstance = t.app) => post('/sendNewsletter', { all: true, subject: 'Later news', content: '<p>This month.</p>', sendAt }, app)
const idOf = (answer: Awaited<ReturnType<typeof schedule>>): string => String((bodyOf(answer)['data'] as Record<string, unknown>)['_id'])

describe('a promotion sent later', () => {
  it('is listed as scheduled with its time, then starts at that time as a Submit would and is delivered', async () => {
    const ids = await seed(3)
    const at = inMs(1500)
    const answer = await schedulePromotion(at)
    expect(answer.statusCode, answer.body).toBe(200)
    const body = bodyOf(answer)
    expect(body).toMatchObject({ status: 'success', total: 0, awaitingApproval: false, scheduledAt: at })
    expect(String(body['message'])).toMatch(/^Promotion scheduled for \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/)
    const id = String(body['_id'])

    // Nothing is frozen before its time: a lead added meanwhile is among its recipients.
    const listed = listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listNotification?page=1&limit=10&search=&status=scheduled', headers: admin })), 'result')
    expect(listed).toEqual([expect.objectContaining({ _id: id, status: 'scheduled', scheduledAt: at, total: 0 })])
    expect(await t.handle.db.$count(promotionDeliveries, eq(promotionDeliveries.promotionId, id))).toBe(0)
    await seed(1)

    await until(async () => (await promotionRow(id))?.status === 'done')
    const row = await promotionRow(id)
    expect(row).toMatchObject({ total: ids.length + 1, recipientCount: ids.length + 1, sent: ids.length + 1, round: 1 })
    const [started] = await startAudits(id)
    expect(started).toMatchObject({ adminId: t.superadmin.id, action: '/addNotification', detail: `Scheduled send started by the server: on its way to ${ids.length + 1} recipients` })
    // At its time, within the minute the work order allows (the queue polls every 50 ms here).
    const delay = (started?.at.getTime() ?? 0) - Date.parse(at)
    expect(delay).toBeGreaterThanOrEqual(0)
    expect(delay).toBeLessThan(60_000)
  })

  it('refuses a time that has passed, or no time, under the field, and stores nothing', async () => {
    await seed(2)
    const past = await schedulePromotion(inMs(-60_000))
    expect(past.statusCode).toBe(400)
    expect(bodyOf(past)).toMatchObject({ status: 'failed', message: SEND_AT_PAST, errors: { sendAt: SEND_AT_PAST } })
    const garbage = await schedulePromotion('tomorrow at nine')
    expect(garbage.statusCode).toBe(400)
    expect(bodyOf(garbage)['errors']).toEqual({ sendAt: SEND_AT_INVALID })
    // A local time without its offset is ambiguous: the browser sends the instant.
    expect(bodyOf(await schedulePromotion('2030-01-01T09:00'))['errors']).toEqual({ sendAt: SEND_AT_INVALID })
    expect(await t.handle.db.$count(promotions)).toBe(0)
  })

  it('is cancelled before its time and then never starts', async () => {
    await seed(2)
    const id = String(bodyOf(await schedulePromotion(inMs(3_600_000)))['_id'])
    const cancelled = await post('/cancelPromotion', { id })
    expect(bodyOf(cancelled)).toMatchObject({ status: 'success', message: SCHEDULED_CANCELLED })
    // Its start job made due now: it finds the promotion no longer scheduled.
    await t.handle.db.update(jobs).set({ runAt: sql`now()` })
    t.app.services.jobs.wake()
    await until(async () => (await t.handle.db.$count(jobs)) === 0)
    expect(await promotionRow(id)).toMatchObject({ status: 'cancelled', total: 0 })
    expect(await t.handle.db.$count(promotionDeliveries, eq(promotionDeliveries.promotionId, id))).toBe(0)
    expect(await startAudits(id)).toEqual([])
  })

  it('is moved to another time before it starts; once started it can no longer be', async () => {
    await seed(2)
    const id = String(bodyOf(await schedulePromotion(inMs(3_600_000)))['_id'])
    expect(bodyOf(await post('/reschedulePromotion', { id, sendAt: inMs(-1000) }))['errors']).toEqual({ sendAt: SEND_AT_PAST })
    const at = inMs(1000)
    const moved = await post('/reschedulePromotion', { id, sendAt: at })
    expect(bodyOf(moved)).toMatchObject({ status: 'success', scheduledAt: at })
    expect(String(bodyOf(moved)['message'])).toMatch(/^The promotion is now scheduled for .* UTC$/)
    await until(async () => (await promotionRow(id))?.status === 'done')
    // The first job, due in an hour, finds it started when made due: it starts nothing more.
    await t.handle.db.update(jobs).set({ runAt: sql`now()` })
    t.app.services.jobs.wake()
    await until(async () => (await t.handle.db.$count(jobs)) === 0)
    expect(await startAudits(id)).toHaveLength(1)
    const late = await post('/reschedulePromotion', { id, sendAt: inMs(60_000) })
    expect(late.statusCode).toBe(409)
    expect(bodyOf(late)['message']).toBe(ALREADY_STARTED)
    // Resend is for a promotion that started; a scheduled one is refused.
    const other = String(bodyOf(await schedulePromotion(inMs(3_600_000)))['_id'])
    expect(bodyOf(await post('/ResendData', { id: other, round: 1, only: 'all' }))).toMatchObject({ status: 'failed', message: NOT_STARTED_YET })
  })

  it('over the four-eyes threshold at its time waits for another Admin, in the name of the admin who scheduled it', async () => {
    await seed(THRESHOLD + 1)
    const id = String(bodyOf(await schedulePromotion(inMs(800)))['_id'])
    await until(async () => (await promotionRow(id))?.status === 'awaiting')
    expect(await promotionRow(id)).toMatchObject({ total: THRESHOLD + 1, approvalRequestedBy: t.superadmin.id, sent: 0 })
    expect(await t.handle.db.select({ ref: sendRequests.ref, recipients: sendRequests.recipients }).from(sendRequests)).toEqual([{ ref: `promotion:${id}:1`, recipients: THRESHOLD + 1 }])
    expect((await startAudits(id))[0]?.detail).toBe(`Scheduled send started by the server: Awaiting approval: ${THRESHOLD + 1} recipients, more than ${THRESHOLD}`)
    expect(await t.handle.db.$count(jobs, eq(jobs.kind, 'promotion.deliver'))).toBe(0)
  })
})

describe('a newsletter sent later', () => {
  it('is listed as scheduled, then freezes its subscribers and mails them at its time', async () => {
    const ids = await seed(2)
    const at = inMs(1500)
    const answer = await schedule(at)
    expect(answer.statusCode, answer.body).toBe(200)
    expect(bodyOf(answer)).toMatchObject({ status: 'success', data: { total: 0, awaitingApproval: false, scheduledAt: at } })
    expect(String(bodyOf(answer)['message'])).toMatch(/^The newsletter is scheduled for .* UTC$/)
    const id = idOf(answer)
    const listed = listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listNewsletterSends?page=1&limit=10&search=&status=scheduled', headers: admin })), 'result')
    expect(listed).toEqual([expect.objectContaining({ _id: id, status: 'scheduled', scheduledAt: at, total: 0 })])
    expect(await t.handle.db.$count(newsletterRecipients, eq(newsletterRecipients.sendId, id))).toBe(0)
    const received = smtp.received.length
    await until(async () => smtp.received.length - received === ids.length)
    expect(await sendRow(id)).toMatchObject({ total: ids.length, approvalRequestedBy: null })
    expect(await startAudits(id)).toHaveLength(1)
  })

  it('refuses a time that has passed', async () => {
    await seed(1)
    const past = await schedule(inMs(-5000))
    expect(past.statusCode).toBe(400)
    expect(bodyOf(past)).toMatchObject({ message: SEND_AT_PAST, errors: { sendAt: SEND_AT_PAST } })
    expect(await t.handle.db.$count(newsletterSends)).toBe(0)
  })

  it('is cancelled or moved before its time; pause is refused while it waits', async () => {
    await seed(1)
    const id = idOf(await schedule(inMs(3_600_000)))
    const pause = await post('/pauseNewsletter', { id })
    expect(pause.statusCode).toBe(409)
    expect(bodyOf(pause)['message']).toBe('This newsletter is scheduled: nothing is being sent yet')
    const at = inMs(7_200_000)
    expect(bodyOf(await post('/rescheduleNewsletter', { id, sendAt: at }))).toMatchObject({ status: 'success', scheduledAt: at })
    expect((await sendRow(id))?.scheduledAt?.toISOString()).toBe(at)
    expect(bodyOf(await post('/cancelNewsletter', { id }))).toMatchObject({ status: 'success' })
    await t.handle.db.update(jobs).set({ runAt: sql`now()` })
    t.app.services.jobs.wake()
    await until(async () => (await t.handle.db.$count(jobs)) === 0)
    expect(await sendRow(id)).toMatchObject({ status: 'cancelled', total: 0 })
    expect(await t.handle.db.$count(newsletterRecipients, eq(newsletterRecipients.sendId, id))).toBe(0)
    expect((await post('/rescheduleNewsletter', { id, sendAt: inMs(60_000) })).statusCode).toBe(409)
  })

  it('over the four-eyes threshold at its time waits for another Admin', async () => {
    await seed(THRESHOLD + 1)
    const id = idOf(await schedule(inMs(800)))
    await until(async () => (await sendRow(id))?.status === 'awaiting')
    expect(await sendRow(id)).toMatchObject({ total: THRESHOLD + 1, approvalRequestedBy: t.superadmin.id })
    expect(await t.handle.db.$count(jobs, eq(jobs.kind, 'newsletter.send'))).toBe(0)
  })
})

describe('two app instances over one database', () => {
  let b: FastifyInstance
  beforeAll(async () => {
    // B: its own job queue (its own worker id); on PostgreSQL its own connection pool too.
    b = await buildApp(t.config, { handle: testEngine() === 'pg' ? await openDb(t.config.database) : t.handle })
  })
  afterAll(async () => {
    await b.services.jobs.stop()
    await b.close()
    if (testEngine() === 'pg') await b.services.handle.close()
  })

  it('start each scheduled send exactly once, within a minute of its time, even with its start job run twice', { timeout: 90_000 }, async () => {
    const ids = await seed(2)
    b.services.jobs.start()
    // Far enough ahead that the eight calls below are all made before it, on a busy machine too
    // (a time already past is refused).
    const at = inMs(8000)
    const promotionIds: string[] = []
    const sendIds: string[] = []
    for (let i = 0; i < 4; i++) {
      promotionIds.push(String(bodyOf(await schedulePromotion(at, `Drop ${i}`, i % 2 === 0 ? t.app : b))['_id']))
      sendIds.push(idOf(await schedule(at, i % 2 === 0 ? b : t.app)))
    }
    // Each start job twice (as after a lease that ran out while the first run went on): four
    // claims per send between the two instances' workers.
    await t.handle.db.execute(sql`insert into ${jobs} (kind, payload, run_at) select kind, payload, run_at from ${jobs} where kind in ('promotion.start', 'newsletter.start')`)
    const received = smtp.received.length
    await until(async () => {
      const running = await t.handle.db.$count(promotions, eq(promotions.status, 'done'))
      return running === promotionIds.length && smtp.received.length - received === sendIds.length * ids.length
    }, 45_000)
    for (const id of [...promotionIds, ...sendIds]) {
      const audits = await startAudits(id)
      expect(audits).toHaveLength(1)
      expect((audits[0]?.at.getTime() ?? 0) - Date.parse(at)).toBeLessThan(60_000)
    }
    for (const id of promotionIds) {
      expect(await promotionRow(id)).toMatchObject({ round: 1, total: ids.length, sent: ids.length })
      expect(await t.handle.db.$count(promotionDeliveries, eq(promotionDeliveries.promotionId, id))).toBe(ids.length)
      expect(await t.handle.db.$count(sendRequests, eq(sendRequests.ref, `promotion:${id}:1`))).toBe(1)
    }
    for (const id of sendIds) {
      expect(await t.handle.db.$count(mailOutbox, eq(mailOutbox.group, `newsletter:${id}`))).toBe(ids.length)
      expect(await t.handle.db.$count(sendRequests, eq(sendRequests.ref, `newsletter:${id}`))).toBe(1)
    }
    // No mail beyond one per lead and send.
    await new Promise((r) => setTimeout(r, 300))
    expect(smtp.received.length - received).toBe(sendIds.length * ids.length)
  })
})
