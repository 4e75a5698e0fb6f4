/**
 * Four eyes on mass sends (server/kit/rules/four-eyes.ts), on PGlite or PostgreSQL
 * (DATABASE_URL), with a threshold of 3 recipients: below it Submit and Send go at once as
 * before; above it the promotion or newsletter waits, its requester cannot approve it, a
 * restricted sub-admin or View Only staff cannot either, another administrator's approval sends it
 * exactly once (also when approved twice at the same moment), a rejection sends nothing, and the
 * audit rows name both admins. Newsletter mail is read from a real SMTP receiver.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ALREADY_APPROVED, ALREADY_REJECTED, NOT_AWAITING, OWN_REQUEST } from '#contract/four-eyes'
import { FORBIDDEN } from '../kit/ground/access/auth.ts'
import { ConfigError, loadConfig } from '../config.ts'
import { auditLog, emailTemplates, jobs, leadNotifications, leads, newsletterRecipients, newsletterSends, promotionDeliveries, promotions, sendRequests } from '../db/schema.ts'
import { DELIVER_JOB, LANES } from '../areas/promotions/delivery.ts'
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.ts'
import { bodyOf, listOf, makeTestApp, multipart, testEngine, type TestApp } from './test-app.ts'
import { NEWSLETTER_JOB } from '../areas/newsletter/feeder.ts'
import { PROMOTION_ADDED } from '../areas/promotions/routes.ts'

const THRESHOLD = 3
let smtp: SmtpReceiver
let t: TestApp
/** The requester, the second administrator, and staff who may never approve. */
let ann: { authorization: string }
let bob: { authorization: string }
let restricted: { authorization: string }
let viewer: { authorization: string }
let annId: string
let bobId: string

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  t = await makeTestApp({ env: { SMTP_URL: smtp.url, FOUR_EYES_THRESHOLD: String(THRESHOLD), JOB_POLL_MS: '20', MAIL_RATE_PER_SECOND: '0', PROMOTION_BATCH_SIZE: '2' } })
  const annRow = await t.createAdmin({ name: 'Ann Asker', email: 'ann@example.com', accessLevel: 'Admin', restrictions: [] })
  const bobRow = await t.createAdmin({ name: 'Bob Approver', email: 'bob@example.com', accessLevel: 'Admin', restrictions: [] })
  annId = annRow.id
  bobId = bobRow.id
  ann = await t.auth(annRow)
  bob = await t.auth(bobRow)
  restricted = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/notificationlist', '/addnotification', '/newsletter'] }))
  viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: [] }))
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
  // Each test starts a fresh day of requests (the window is covered by a test of its own).
  await t.handle.db.delete(sendRequests)
  smtp.received.length = 0
})

const post = (path: string, payload: Record<string, unknown>, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })

async function addLeads(n: number): Promise<string[]> {
  const tag = Math.random().toString(36).slice(2, 8)
  const rows = await t.handle.db
    .insert(leads)
    .values(Array.from({ length: n }, (_, i) => ({ name: `Reader ${i}`, email: `reader${i}-${tag}@example.com`, subscribed: true, subscribedAt: new Date() })))
    .returning({ id: leads.id })
  return rows.map((r) => r.id)
}

async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function submit(ids: readonly string[], headers = ann): Promise<Record<string, unknown>> {
  const form = await multipart({ title: 'Big drop', content: 'For everyone', id: JSON.stringify(ids) }, [])
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/addNotification', headers: { ...headers, ...form.headers }, payload: form.payload })
  expect(res.statusCode, res.body).toBe(200)
  return bodyOf(res)
}

const promotion = async (id: string) => {
  const [row] = await t.handle.db.select().from(promotions).where(eq(promotions.id, id))
  if (row === undefined) throw new Error(`no promotion ${id}`)
  return row
}
const notified = (id: string) => t.handle.db.$count(leadNotifications, eq(leadNotifications.promotionId, id))
const deliveryJobs = (id: string) => t.handle.db.$count(jobs, and(eq(jobs.kind, DELIVER_JOB), like(jobs.key, `promotion:${id}:%`)))
const listed = async (headers: Record<string, string>, id: string) =>
  listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listNotification', query: { page: '1', limit: '10', search: '' }, headers })), 'result').find((p) => p['_id'] === id)
const auditOf = (action: string, recordId: string) =>
  t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.recordId, recordId)))

describe(`four eyes on promotions (threshold ${THRESHOLD}, ${testEngine()})`, () => {
  it('below the threshold changes nothing: Submit sends at once, no approval is recorded', async () => {
    const ids = await addLeads(THRESHOLD)
    expect(bodyOf(await post('/countRecipients', { id: ids }, ann))).toMatchObject({ count: THRESHOLD, needsApproval: false, approvalThreshold: THRESHOLD })
    const body = await submit(ids)
    expect(body).toMatchObject({ status: 'success', message: PROMOTION_ADDED, total: THRESHOLD, awaitingApproval: false })
    const id = String(body['_id'])
    await until(async () => (await promotion(id)).status === 'done')
    expect(await notified(id)).toBe(THRESHOLD)
    expect(await listed(ann, id)).toMatchObject({ status: 'done', approval: null })
    const [row] = await auditOf('/addNotification', id)
    expect(row).toMatchObject({ adminId: annId, detail: '' })
  })

  it('above it the promotion waits, unsent, and only another administrator may approve it; approving twice sends it once', async () => {
    const ids = await addLeads(THRESHOLD + 2)
    expect(bodyOf(await post('/countRecipients', { id: ids }, ann))).toMatchObject({ count: THRESHOLD + 2, needsApproval: true })
    const body = await submit(ids)
    expect(body).toMatchObject({ status: 'success', total: THRESHOLD + 2, awaitingApproval: true })
    expect(String(body['message'])).toContain('once another Admin approves it')
    const id = String(body['_id'])
    expect(await promotion(id)).toMatchObject({ status: 'awaiting', approvalRequestedBy: annId, approvalDecidedBy: null })
    expect(await deliveryJobs(id)).toBe(0)
    expect(await t.handle.db.$count(promotionDeliveries, and(eq(promotionDeliveries.promotionId, id), eq(promotionDeliveries.status, 'pending')))).toBe(THRESHOLD + 2)
    expect(await listed(bob, id)).toMatchObject({ status: 'awaiting', pending: THRESHOLD + 2, approval: { requestedBy: 'Ann Asker', requestedById: annId, decidedBy: '' } })

    // The requester, a sub-admin restricted to the screen, View Only staff: refused, nothing changes.
    const own = await post('/approvePromotion', { id, round: 1 }, ann)
    expect(own.statusCode).toBe(403)
    expect(bodyOf(own)).toMatchObject({ status: 'failed', message: OWN_REQUEST })
    expect(bodyOf(await post('/rejectPromotion', { id, round: 1 }, ann))).toMatchObject({ message: OWN_REQUEST })
    for (const who of [restricted, viewer]) {
      const refused = await post('/approvePromotion', { id, round: 1 }, who)
      expect(refused.statusCode).toBe(403)
      expect(bodyOf(refused)).toMatchObject({ status: 'failed', message: FORBIDDEN })
    }
    expect(await promotion(id)).toMatchObject({ status: 'awaiting', approvalDecidedBy: null })
    expect(await notified(id)).toBe(0)

    // Two approvals at the same moment (a double click, or two admins): one starts the send.
    await t.app.services.jobs.stop()
    const superadmin = await t.auth(t.superadmin)
    const answers = await Promise.all([post('/approvePromotion', { id, round: 1 }, bob), post('/approvePromotion', { id, round: 1 }, superadmin)])
    const bodies = answers.map((a) => bodyOf(a))
    expect(bodies.map((b) => b['status'])).toEqual(['success', 'success'])
    expect(bodies.map((b) => b['started']).sort()).toEqual([false, true])
    expect(bodies.find((b) => b['started'] === false)?.['message']).toBe(ALREADY_APPROVED)
    expect(await deliveryJobs(id)).toBe(LANES)
    t.app.services.jobs.start()
    await until(async () => (await promotion(id)).status === 'done')
    expect(await notified(id)).toBe(THRESHOLD + 2)
    const approver = (await promotion(id)).approvalDecidedBy
    expect([bobId, t.superadmin.id]).toContain(approver)
    // A later approval starts nothing more; a reject of an approved send is refused.
    expect(bodyOf(await post('/approvePromotion', { id, round: 1 }, bob))).toMatchObject({ status: 'success', started: false })
    const late = await post('/rejectPromotion', { id, round: 1 }, bob)
    expect(late.statusCode).toBe(409)
    expect(bodyOf(late)).toMatchObject({ message: ALREADY_APPROVED })
    expect(await notified(id)).toBe(THRESHOLD + 2)

    // The audit log names both: the request by Ann, the approval by the approver naming Ann.
    const [request] = await auditOf('/addNotification', id)
    expect(request).toMatchObject({ adminId: annId, detail: `Awaiting approval: ${THRESHOLD + 2} recipients, more than ${THRESHOLD}` })
    const approvals = (await auditOf('/approvePromotion', id)).filter((r) => r.detail !== '')
    expect(approvals).toHaveLength(1)
    expect(approvals[0]).toMatchObject({ adminId: approver, detail: `Approved the send to ${THRESHOLD + 2} recipients requested by Ann Asker (ann@example.com)` })
    expect(await listed(ann, id)).toMatchObject({ status: 'done', approval: { requestedBy: 'Ann Asker', decidedBy: approver === bobId ? 'Bob Approver' : t.superadmin.name } })
  })

  it('a rejected promotion sends nothing and says so; it cannot be approved afterwards', async () => {
    const ids = await addLeads(THRESHOLD + 1)
    const id = String((await submit(ids))['_id'])
    const rejected = await post('/rejectPromotion', { id, round: 1 }, bob)
    expect(bodyOf(rejected)).toMatchObject({ status: 'success' })
    expect(await promotion(id)).toMatchObject({ status: 'rejected', approvalDecidedBy: bobId })
    expect(await t.handle.db.$count(promotionDeliveries, and(eq(promotionDeliveries.promotionId, id), eq(promotionDeliveries.status, 'cancelled')))).toBe(THRESHOLD + 1)
    expect(await listed(ann, id)).toMatchObject({ status: 'rejected', pending: 0, sent: 0, approval: { requestedBy: 'Ann Asker', decidedBy: 'Bob Approver' } })
    expect(bodyOf(await post('/rejectPromotion', { id, round: 1 }, bob))).toMatchObject({ status: 'success', message: ALREADY_REJECTED })
    const approve = await post('/approvePromotion', { id, round: 1 }, bob)
    expect(approve.statusCode).toBe(409)
    expect(bodyOf(approve)).toMatchObject({ message: ALREADY_REJECTED })
    expect(await deliveryJobs(id)).toBe(0)
    expect(await notified(id)).toBe(0)
    const [row] = await auditOf('/rejectPromotion', id)
    expect(row).toMatchObject({ adminId: bobId, detail: `Rejected the send to ${THRESHOLD + 1} recipients requested by Ann Asker (ann@example.com)` })
  })

  it('a Resend round over the threshold waits for approval as Submit does; one below it goes at once', async () => {
    const ids = await addLeads(THRESHOLD + 1)
    const id = String((await submit(ids))['_id'])
    await post('/approvePromotion', { id, round: 1 }, bob)
    await until(async () => (await promotion(id)).status === 'done')
    const resend = bodyOf(await post('/ResendData', { id, round: 1, only: 'all' }, bob))
    expect(resend).toMatchObject({ status: 'success', started: true, round: 2, awaitingApproval: true })
    expect(await promotion(id)).toMatchObject({ status: 'awaiting', round: 2, approvalRequestedBy: bobId, approvalDecidedBy: null })
    // Bob asked this time: Bob cannot approve it, Ann can.
    expect(bodyOf(await post('/approvePromotion', { id, round: 2 }, bob))).toMatchObject({ message: OWN_REQUEST })
    expect(bodyOf(await post('/approvePromotion', { id, round: 2 }, ann))).toMatchObject({ status: 'success', started: true })
    await until(async () => (await promotion(id)).status === 'done')
    expect(await notified(id)).toBe(2 * (THRESHOLD + 1))
    // Round 1 of an approval cannot act on round 2.
    expect((await post('/rejectPromotion', { id, round: 1 }, ann)).statusCode).toBe(400)

    // Below the threshold a Resend starts at once and the promotion carries no approval (a day later:
    // the rounds above count against Ann's and Bob's window).
    await t.handle.db.delete(sendRequests)
    const small = await addLeads(2)
    const smallId = String((await submit(small))['_id'])
    await until(async () => (await promotion(smallId)).status === 'done')
    // Bob's Resend: Ann's own would be her second send of 2 in the window, over the threshold.
    expect(bodyOf(await post('/ResendData', { id: smallId, round: 1, only: 'all' }, bob))).toMatchObject({ started: true, awaitingApproval: false })
    await until(async () => (await promotion(smallId)).status === 'done')
    expect(await notified(smallId)).toBe(4)
  })

  it('the requester can withdraw a waiting promotion with Cancel', async () => {
    const id = String((await submit(await addLeads(THRESHOLD + 1)))['_id'])
    expect(bodyOf(await post('/cancelPromotion', { id }, ann))).toMatchObject({ status: 'success' })
    expect(await promotion(id)).toMatchObject({ status: 'cancelled' })
    expect((await post('/approvePromotion', { id, round: 1 }, bob)).statusCode).toBe(409)
    expect(bodyOf(await post('/approvePromotion', { id, round: 1 }, bob))).toMatchObject({ message: NOT_AWAITING })
    expect(await notified(id)).toBe(0)
  })
})

describe(`four eyes on the newsletter (threshold ${THRESHOLD}, ${testEngine()})`, () => {
  const sendTo = async (headers: Record<string, string>) => {
    const res = await post('/sendNewsletter', { all: true, subject: 'Wallet news', content: '<p>Fresh games.</p>' }, headers)
    expect(res.statusCode, res.body).toBe(200)
    const data = bodyOf(res)['data'] as Record<string, unknown>
    return { id: String(data['_id']), awaitingApproval: data['awaitingApproval'], message: String(bodyOf(res)['message']) }
  }
  const send = async (id: string) => {
    const [row] = await t.handle.db.select().from(newsletterSends).where(eq(newsletterSends.id, id))
    if (row === undefined) throw new Error(`no send ${id}`)
    return row
  }
  const listedSend = async (id: string) =>
    listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listNewsletterSends', query: { page: '1', limit: '10', search: '' }, headers: ann })), 'result').find((s) => s['_id'] === id)

  it('below the threshold a send goes at once', async () => {
    await addLeads(THRESHOLD)
    expect(bodyOf(await post('/countNewsletterRecipients', { all: true }, ann))).toMatchObject({ count: THRESHOLD, needsApproval: false })
    const sent = await sendTo(ann)
    expect(sent.awaitingApproval).toBe(false)
    await expect.poll(() => smtp.received.length, { timeout: 20_000 }).toBe(THRESHOLD)
    expect(await listedSend(sent.id)).toMatchObject({ approval: null })
  })

  it('above it the send waits; the requester and restricted staff cannot approve; two approvals mail each subscriber once', async () => {
    await addLeads(THRESHOLD + 2)
    expect(bodyOf(await post('/countNewsletterRecipients', { all: true }, ann))).toMatchObject({ count: THRESHOLD + 2, needsApproval: true, approvalThreshold: THRESHOLD })
    const sent = await sendTo(ann)
    expect(sent.awaitingApproval).toBe(true)
    expect(sent.message).toBe(`The newsletter to ${THRESHOLD + 2} subscribers waits for another Admin's approval`)
    expect(await send(sent.id)).toMatchObject({ status: 'awaiting', approvalRequestedBy: annId })
    expect(await t.handle.db.$count(jobs, eq(jobs.kind, NEWSLETTER_JOB))).toBe(0)
    expect(await listedSend(sent.id)).toMatchObject({ status: 'awaiting', pending: THRESHOLD + 2, approval: { requestedBy: 'Ann Asker', decidedBy: '' } })
    // Pausing a send that is not running yet says why.
    expect(bodyOf(await post('/pauseNewsletter', { id: sent.id }, bob))).toMatchObject({ message: 'This newsletter is awaiting approval: nothing is being sent yet' })

    expect(bodyOf(await post('/approveNewsletter', { id: sent.id }, ann))).toMatchObject({ status: 'failed', message: OWN_REQUEST })
    for (const who of [restricted, viewer]) expect((await post('/approveNewsletter', { id: sent.id }, who)).statusCode).toBe(403)
    expect(await send(sent.id)).toMatchObject({ status: 'awaiting' })

    const answers = await Promise.all([post('/approveNewsletter', { id: sent.id }, bob), post('/approveNewsletter', { id: sent.id }, bob)])
    expect(answers.map((a) => bodyOf(a)['started']).sort()).toEqual([false, true])
    await until(async () => (await listedSend(sent.id))?.['status'] === 'done')
    expect(smtp.received.flatMap((m) => m.to)).toHaveLength(THRESHOLD + 2)
    expect(new Set(smtp.received.flatMap((m) => m.to)).size).toBe(THRESHOLD + 2)
    const [approval] = (await auditOf('/approveNewsletter', sent.id)).filter((r) => r.detail !== '')
    expect(approval).toMatchObject({ adminId: bobId, detail: `Approved the send to ${THRESHOLD + 2} recipients requested by Ann Asker (ann@example.com)` })
    expect(await auditOf('/sendNewsletter', sent.id)).toMatchObject([{ adminId: annId, detail: `Awaiting approval: ${THRESHOLD + 2} recipients, more than ${THRESHOLD}` }])
  })

  it('a rejected send mails nobody', async () => {
    await addLeads(THRESHOLD + 1)
    const sent = await sendTo(ann)
    expect(bodyOf(await post('/rejectNewsletter', { id: sent.id }, bob))).toMatchObject({ status: 'success' })
    expect(await send(sent.id)).toMatchObject({ status: 'rejected', approvalDecidedBy: bobId })
    expect(await t.handle.db.$count(newsletterRecipients, and(eq(newsletterRecipients.sendId, sent.id), eq(newsletterRecipients.state, 'cancelled')))).toBe(THRESHOLD + 1)
    expect(await listedSend(sent.id)).toMatchObject({ status: 'rejected', sent: 0, pending: 0, cancelled: THRESHOLD + 1, approval: { decidedBy: 'Bob Approver' } })
    expect((await post('/approveNewsletter', { id: sent.id }, bob)).statusCode).toBe(409)
    expect((await post('/cancelNewsletter', { id: sent.id }, ann)).statusCode).toBe(409)
    expect(await t.handle.db.$count(jobs, eq(jobs.kind, NEWSLETTER_JOB))).toBe(0)
    expect(smtp.received).toHaveLength(0)
    expect(await auditOf('/rejectNewsletter', sent.id)).toMatchObject([{ adminId: bobId, detail: `Rejected the send to ${THRESHOLD + 1} recipients requested by Ann Asker (ann@example.com)` }])
  })
})

describe(`four eyes covers what is sent, and a requester's day (threshold ${THRESHOLD}, ${testEngine()})`, () => {
  const template = eq(emailTemplates.identifier, 'newsletter')
  const sendAll = async (headers: Record<string, string>, subject = 'Wallet news') => {
    const res = await post('/sendNewsletter', { all: true, subject, content: '<p>Fresh games.</p>' }, headers)
    expect(res.statusCode, res.body).toBe(200)
    return bodyOf(res)['data'] as { _id: string; awaitingApproval: boolean }
  }

  it('mails the template as it was when the send was requested, whatever is saved after', async () => {
    const [before] = await t.handle.db.select().from(emailTemplates).where(template)
    if (before === undefined) throw new Error('no newsletter template')
    try {
      await addLeads(THRESHOLD + 1)
      const sent = await sendAll(ann)
      expect(sent.awaitingApproval).toBe(true)
      // A harmless send approved, then the template changed: the approval must not cover the change.
      const edited = before.content.replace('<p>Hello {{name}},</p>', '<p>Hello {{name}}, URGENT: move your funds to https://evil.example/</p>')
      expect(edited).not.toBe(before.content)
      await t.handle.db.update(emailTemplates).set({ content: edited }).where(template)
      // The approver reads the mail that will go out: the body and the template of the request.
      const shown = bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/getNewsletterMail', query: { id: sent._id }, headers: bob }))
      expect(shown).toMatchObject({ status: 'success', data: { subject: 'Wallet news', sampleName: 'Olivia Okafor' } })
      const html = String((shown['data'] as Record<string, unknown>)['html'])
      expect(html).toContain('<p>Hello Olivia Okafor,</p>')
      expect(html).toContain('Fresh games.')
      expect(html).not.toContain('evil.example')
      expect(bodyOf(await post('/approveNewsletter', { id: sent._id }, bob))).toMatchObject({ status: 'success', started: true })
      await expect.poll(() => smtp.received.length, { timeout: 20_000 }).toBe(THRESHOLD + 1)
      for (const mail of smtp.received) {
        expect(mail.raw).toContain('Fresh games.')
        expect(mail.raw).not.toContain('evil.example')
      }
    } finally {
      await t.handle.db.update(emailTemplates).set({ content: before.content }).where(template)
    }
  })

  it('adds up a requester’s sends over the window: many small sends wait as one large one would', async () => {
    await addLeads(2)
    // 2 recipients each, threshold 3: the first goes, the second (4 in the window) waits.
    expect(await sendAll(ann, 'First')).toMatchObject({ awaitingApproval: false })
    expect(bodyOf(await post('/countNewsletterRecipients', { all: true }, ann))).toMatchObject({ count: 2, needsApproval: true })
    const second = await sendAll(ann, 'Second')
    expect(second.awaitingApproval).toBe(true)
    expect(await auditOf('/sendNewsletter', second._id)).toMatchObject([
      { adminId: annId, detail: `Awaiting approval: 2 recipients, 4 with the requester's other sends of the last 24 h, more than ${THRESHOLD}` },
    ])
    // The window is the requester's: Bob's own first send goes at once.
    expect(bodyOf(await post('/countNewsletterRecipients', { all: true }, bob))).toMatchObject({ needsApproval: false })
    // A rejected send reached nobody and no longer counts.
    expect(bodyOf(await post('/rejectNewsletter', { id: second._id }, bob))).toMatchObject({ status: 'success' })
    expect(bodyOf(await post('/countNewsletterRecipients', { all: true }, ann))).toMatchObject({ needsApproval: true })
    // Promotions count in the same window.
    const promotion = await t.app.inject({ method: 'POST', url: '/api/admin/countRecipients', headers: { ...ann, 'content-type': 'application/json' }, payload: JSON.stringify({ selectall: true }) })
    expect(bodyOf(promotion)).toMatchObject({ count: 2, needsApproval: true })
    // Past the window, the earlier sends no longer count.
    await t.handle.db.update(sendRequests).set({ at: new Date(Date.now() - 25 * 3600 * 1000) })
    expect(bodyOf(await post('/countNewsletterRecipients', { all: true }, ann))).toMatchObject({ needsApproval: false })
  })
})

describe('FOUR_EYES_WINDOW_HOURS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bo-four-eyes-window-'))
  const hours = (value?: string) => loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(32), ...(value === undefined ? {} : { FOUR_EYES_WINDOW_HOURS: value }) }).fourEyesWindowHours
  it('is 24 hours unless set; 0 counts each send alone; a negative or fractional value is refused', () => {
    expect(hours()).toBe(24)
    expect(hours('72')).toBe(72)
    expect(hours('0')).toBe(0)
    expect(() => hours('-1')).toThrow(ConfigError)
    expect(() => hours('1.5')).toThrow(/FOUR_EYES_WINDOW_HOURS/)
  })
})

describe('FOUR_EYES_THRESHOLD', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bo-four-eyes-'))
  const threshold = (value?: string) => loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(32), ...(value === undefined ? {} : { FOUR_EYES_THRESHOLD: value }) }).fourEyesThreshold
  it('is 1000 recipients unless set; 0 or empty turns four eyes off; anything but a whole number is refused', () => {
    expect(threshold()).toBe(1000)
    expect(threshold('250')).toBe(250)
    expect(threshold('0')).toBe(0)
    expect(threshold('')).toBe(0)
    expect(() => threshold('ten')).toThrow(ConfigError)
    expect(() => threshold('-5')).toThrow(/FOUR_EYES_THRESHOLD/)
  })
})
