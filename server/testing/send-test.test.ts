/**
 * "Send a test to me" of a promotion and of a newsletter: the mail reaches the signed-in admin and
 * nobody else, rendered as a recipient reads it (a newsletter filled in for the first lead of the
 * choice, or a sample reader), is counted nowhere (no send, no ledger row, no frequency cap), needs
 * no second Admin, and is audited. Who may call them is the authorization matrix's (the contract).
 */
import { eq, isNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AdminRow } from '../db/schema.ts'
import { auditLog, leads, mailOutbox, newsletterRecipients, newsletterSends, promotionDeliveries, promotions } from '../db/schema.ts'
import { testMailSent } from '../kit/rules/mail/test-mail.ts'
import { PROMOTION_TEST_NOTE } from '../areas/promotions/test-mail.ts'
import { header, readable, startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.ts'
import { bodyOf, listOf, makeTestApp, type TestApp } from './test-app.ts'

let smtp: SmtpReceiver
let t: TestApp
let editor: AdminRow
let viewOnly: AdminRow

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  // A threshold of one recipient: a real send of two would wait for a second Admin; a test never does.
  t = await makeTestApp({ env: { SMTP_URL: smtp.url, JOB_POLL_MS: '20', MAIL_RATE_PER_SECOND: '0', FOUR_EYES_THRESHOLD: '1' } })
  editor = await t.createAdmin({ name: 'Nora Newsletter', accessLevel: 'Admin', restrictions: ['/newsletter', '/notificationlist'] })
  viewOnly = await t.createAdmin({ name: 'Vic Viewer', accessLevel: 'View Only', restrictions: ['/newsletter', '/notificationlist'] })
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})
beforeEach(async () => {
  await t.handle.db.delete(leads)
  smtp.received.length = 0
})

const post = async (path: string, payload: Record<string, unknown>, admin: AdminRow = editor) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...(await t.auth(admin)), 'content-type': 'application/json' }, payload: JSON.stringify(payload) })

/** Nothing of a send exists: no promotion, no newsletter send, no ledger row, no mail in a send's group. */
async function nothingCounted(): Promise<void> {
  const { db } = t.handle
  expect(await db.$count(promotions)).toBe(0)
  expect(await db.$count(promotionDeliveries)).toBe(0)
  expect(await db.$count(newsletterSends)).toBe(0)
  expect(await db.$count(newsletterRecipients)).toBe(0)
  const grouped = await db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox).where(sql`${mailOutbox.group} is not null`)
  expect(grouped[0]?.n).toBe(0)
}

/** Waits until the mail queue has sent every mail it holds (the test mail included). */
async function sent(): Promise<void> {
  const end = Date.now() + 20_000
  while ((await t.handle.db.$count(mailOutbox, eq(mailOutbox.status, 'pending'))) > 0) {
    if (Date.now() > end) throw new Error('the mail queue did not empty')
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('Send a test to me', () => {
  it('mails a promotion as written to the admin only, counted nowhere, and audits it', async () => {
    await t.handle.db.insert(leads).values({ name: 'Lena Lead', email: 'lena@example.com', subscribed: true })
    const res = await post('/sendTestPromotion', { title: 'Spring drop', content: 'Three new games.\n\nLower fees & <b>more</b>.' })
    expect(bodyOf(res)).toEqual({ status: 'success', message: testMailSent(editor.email) })
    const mail = await smtp.next(editor.email)
    expect(header(mail, 'Subject')).toBe('[Test] Spring drop')
    const text = readable(mail)
    expect(text).toContain(PROMOTION_TEST_NOTE)
    expect(text).toContain('Three new games.')
    // The content is text, as the app shows it: markup in it is not markup in the mail's HTML.
    expect(mail.raw.split('text/html')[1]).not.toContain('<b>')
    await sent()
    expect(smtp.received.map((m) => m.to)).toEqual([[editor.email]])
    await nothingCounted()
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/sendTestPromotion'))
    expect(audit).toMatchObject({ adminId: editor.id })
    expect(audit?.detail).toContain(`To ${editor.email}: Spring drop`)
  })

  it('mails a newsletter filled in for the first chosen lead, with the sample unsubscribe link, and no second Admin', async () => {
    const [first, second] = await t.handle.db
      .insert(leads)
      .values([
        { id: 'lead-a', name: 'Ada First', email: 'ada@example.com', subscribed: true },
        { id: 'lead-b', name: 'Bo Second', email: 'bo@example.com', subscribed: true },
      ])
      .returning({ id: leads.id })
    const res = await post('/sendTestNewsletter', { all: false, id: [second?.id, first?.id], subject: 'News for {{name}}', content: '<p>This month.</p><script>x()</script>' })
    expect(bodyOf(res)).toEqual({ status: 'success', message: `${testMailSent(editor.email)}, as Ada First would receive it` })
    const mail = await smtp.next(editor.email)
    expect(header(mail, 'Subject')).toBe('[Test] News for Ada First')
    const text = readable(mail)
    expect(text).toContain('Hello Ada First')
    expect(text).toContain('This month.')
    expect(text).toContain('https://wallet.example/unsubscribe/sample')
    expect(mail.raw).not.toContain('<script>')
    // No List-Unsubscribe header: the test unsubscribes nobody.
    expect(header(mail, 'List-Unsubscribe')).toBe('')
    await sent()
    expect(smtp.received.map((m) => m.to)).toEqual([[editor.email]])
    await nothingCounted()
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/sendTestNewsletter'))
    expect(audit?.detail).toBe(`To ${editor.email}, as Ada First would receive it`)
  })

  it('uses the sample reader when nobody is chosen, and the frequency cap never counts a test', async () => {
    const [lead] = await t.handle.db.insert(leads).values({ name: 'Capped Maybe', email: 'maybe@example.com', subscribed: true }).returning({ id: leads.id })
    const res = await post('/sendTestNewsletter', { subject: 'Hello {{name}}', content: '<p>Body.</p>' })
    expect(bodyOf(res)['message']).toBe(`${testMailSent(editor.email)}, as Olivia Okafor (a sample reader) would receive it`)
    expect(header(await smtp.next(editor.email), 'Subject')).toBe('[Test] Hello Olivia Okafor')
    // "All subscribers": the first subscriber.
    expect(bodyOf(await post('/sendTestNewsletter', { all: true, subject: 'Hi', content: '<p>Body.</p>' }))['message']).toBe(`${testMailSent(editor.email)}, as Capped Maybe would receive it`)
    await post('/sendTestPromotion', { title: 'Try', content: 'Try' })
    await sent()
    expect(await t.handle.db.$count(mailOutbox, isNull(mailOutbox.group))).toBeGreaterThanOrEqual(3)

    const on = await post('/setFrequencyCap', { on: true, messages: 1, days: 30 }, t.superadmin)
    expect(bodyOf(on)).toMatchObject({ status: 'success' })
    try {
      const forecast = bodyOf(await post('/forecastNewsletter', { all: false, id: [lead?.id] }))
      expect(forecast).toMatchObject({ selected: 1, recipients: 1 })
      expect(listOf(forecast, 'excluded')).toEqual([])
    } finally {
      await post('/setFrequencyCap', { on: false, messages: 1, days: 30 }, t.superadmin)
    }
  })

  it('checks the inputs as a send does, and View Only may not send a test', async () => {
    expect(bodyOf(await post('/sendTestPromotion', { title: '', content: '' }))['errors']).toEqual({ title: 'Title is required', content: 'content is required' })
    expect(bodyOf(await post('/sendTestNewsletter', { subject: 'Hi {{otp}}', content: '<p>x</p>' }))['errors']).toEqual({ subject: 'The subject can only use {{name}}' })
    expect((await post('/sendTestPromotion', { title: 'x', content: 'x' }, viewOnly)).statusCode).toBe(403)
    expect((await post('/sendTestNewsletter', { subject: 'x', content: 'x' }, viewOnly)).statusCode).toBe(403)
  })
})
