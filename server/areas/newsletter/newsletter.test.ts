/**
 * The Newsletter (contract/newsletter.ts) on PGlite or PostgreSQL (DATABASE_URL), with mail read
 * from the real SMTP receiver: the subscriber list, sends to all and to the chosen, unsubscribed
 * leads left out (also when they leave mid-send), pause, resume and cancel, the progress counts,
 * the unsubscribe token and the RFC 8058 one-click POST.
 */
import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { emailTemplates, jobs, leads, mailOutbox, newsletterRecipients, newsletterSends } from '../../db/schema.ts'
import { startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../../testing/smtp-receiver.ts'
import { bodyOf, listOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { feedNewsletter } from './feeder.ts'
import {
  ALREADY_UNSUBSCRIBED,
  EXPIRED_LINK,
  INVALID_LINK,
  UNSUBSCRIBED,
  UNSUBSCRIBE_TOKEN_DAYS,
  checkUnsubscribeToken,
  maskEmail,
  unsubscribeToken,
} from './unsubscribe.ts'

const PUBLIC_URL = 'https://wallet.example'
/** Mails per second: slow enough that a send of 40 is still running when it is paused or cancelled. */
const RATE = 40

let smtp: SmtpReceiver
let t: TestApp
let admin: { authorization: string }

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  t = await makeTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL, JOB_POLL_MS: '20', MAIL_RATE_PER_SECOND: String(RATE) } })
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})
beforeEach(async () => {
  t.app.services.jobs.start()
  await t.handle.db.delete(newsletterSends)
  await t.handle.db.delete(leads)
  smtp.received.length = 0
})

const post = (app: TestApp, path: string, payload: Record<string, unknown>, headers: Record<string, string> = admin) =>
  app.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
const get = (app: TestApp, path: string, query: Record<string, string>, headers: Record<string, string> = admin) =>
  app.app.inject({ method: 'GET', url: `/api/admin${path}`, query, headers })

/** Leads numbered from `from`, newest first by number; `subscribed` decides per number. */
async function addLeads(count: number, subscribed: (n: number) => boolean, from = 1): Promise<{ id: string; email: string; name: string }[]> {
  const start = Date.now() - 3_600_000
  const rows = Array.from({ length: count }, (_, i) => {
    const n = from + i
    return { name: `Reader ${n}`, email: `reader${n}@example.com`, createdAt: new Date(start + n * 1000), subscribed: subscribed(n), subscribedAt: subscribed(n) ? new Date(start) : null }
  })
  return t.handle.db.insert(leads).values(rows).returning({ id: leads.id, email: leads.email, name: leads.name })
}

/** The send's row in the list, once `done` says it is finished. */
async function until(app: TestApp, sendId: string, done: (send: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs
  const headers = await app.auth(app.superadmin)
  for (;;) {
    const send = listOf(bodyOf(await get(app, '/listNewsletterSends', { page: '1', limit: '10', search: '' }, headers)), 'result').find((s) => s['_id'] === sendId)
    if (send !== undefined && done(send)) return send
    if (Date.now() > deadline) throw new Error(`send ${sendId} did not get there: ${JSON.stringify(send)}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function send(app: TestApp, payload: Record<string, unknown>, headers: Record<string, string> = admin): Promise<{ id: string; total: number }> {
  const res = await post(app, '/sendNewsletter', { subject: 'Wallet news', content: '<p>Fresh games this week.</p>', ...payload }, headers)
  expect(res.statusCode, res.body).toBe(200)
  const body = bodyOf(res)
  const data = body['data']
  if (typeof data !== 'object' || data === null || !('_id' in data) || !('total' in data)) throw new Error(res.body)
  return { id: String(data._id), total: Number(data.total) }
}

/** A header of a received mail, unfolded. */
function header(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0] ?? ''
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ')
  return new RegExp(`^${name}: (.*)$`, 'im').exec(unfolded)?.[1]?.trim()
}

/** The mail's text as a reader sees it: quoted-printable soft breaks and escapes undone. */
const decoded = (mail: ReceivedMail): string =>
  mail.raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))

const recipientsOf = (): string[] => smtp.received.flatMap((m) => m.to).sort()

describe('subscribers (/allUser)', () => {
  it('lists only subscribed leads, newest first, searched and paged by the server, with count and total', async () => {
    await addLeads(30, (n) => n % 3 !== 0)
    const first = bodyOf(await get(t, '/allUser', { page: '1', limit: '5', search: '' }))
    expect(first).toMatchObject({ status: 'success', count: 20, total: 20 })
    expect(listOf(first, 'result').map((r) => r['name'])).toEqual(['Reader 29', 'Reader 28', 'Reader 26', 'Reader 25', 'Reader 23'])
    expect(listOf(first, 'result')[0]).toEqual({ _id: expect.any(String), name: 'Reader 29', email: 'reader29@example.com' })
    const second = bodyOf(await get(t, '/allUser', { page: '2', limit: '5', search: '' }))
    expect(listOf(second, 'result').map((r) => r['name'])).toEqual(['Reader 22', 'Reader 20', 'Reader 19', 'Reader 17', 'Reader 16'])

    const searched = bodyOf(await get(t, '/allUser', { page: '1', limit: '50', search: 'READER1' }))
    // Reader 1, 2 and 10-19 match "reader1"; 12, 15 and 18 are not subscribed.
    expect(searched).toMatchObject({ count: 8, total: 20 })
    expect(listOf(searched, 'result').every((r) => String(r['email']).startsWith('reader1'))).toBe(true)
  })

  it('counts the subscribed leads a choice reaches, and asks for a choice', async () => {
    const rows = await addLeads(6, (n) => n !== 2)
    const ids = rows.map((r) => r.id)
    expect(bodyOf(await post(t, '/countNewsletterRecipients', { all: true }))).toMatchObject({ count: 5, mailRate: RATE })
    expect(bodyOf(await post(t, '/countNewsletterRecipients', { all: false, id: ids.slice(0, 3) }))).toMatchObject({ count: 2 })
    const none = await post(t, '/countNewsletterRecipients', { all: false, id: [] })
    expect(none.statusCode).toBe(400)
    expect(bodyOf(none)).toMatchObject({ errors: { id: 'Please select at least one subscriber' } })
  })
})

describe('sending', () => {
  it('sends to all subscribers once each, with the unsubscribe headers and link, and reports it done', async () => {
    const rows = await addLeads(7, (n) => n !== 4)
    const sent = await send(t, { all: true, subject: 'Hello {{name}}', content: '<p>Fresh <strong>games</strong></p><script>alert(1)</script><img src="x" onerror="alert(2)">' })
    expect(sent.total).toBe(6)
    const done = await until(t, sent.id, (s) => s['status'] === 'done')
    expect(done).toMatchObject({ subject: 'Hello {{name}}', total: 6, sent: 6, failed: 0, held: 0, skipped: 0, cancelled: 0, pending: 0, createdBy: t.superadmin.name })
    expect(recipientsOf()).toEqual(rows.filter((r) => r.email !== 'reader4@example.com').map((r) => r.email).sort())

    const mail = smtp.received.find((m) => m.to.includes('reader1@example.com'))
    if (mail === undefined) throw new Error('no mail to reader1')
    expect(header(mail, 'Subject')).toBe('Hello Reader 1')
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
    const list = header(mail, 'List-Unsubscribe') ?? ''
    const link = /^<(https:\/\/wallet\.example\/admin\/unsubscribe\?token=[^>]+)>, <mailto:[^>]+>$/.exec(list)?.[1]
    expect(link, list).toBeDefined()
    const text = decoded(mail)
    expect(text).toContain('Hello Reader 1')
    expect(text).toContain('<strong>games</strong>')
    expect(text).toContain(`href="${link ?? ''}"`)
    expect(text).not.toMatch(/<script|onerror|alert\(/)
    const token = new URL(link ?? '').searchParams.get('token') ?? ''
    const lead = rows.find((r) => r.email === 'reader1@example.com')
    expect(checkUnsubscribeToken(t.config, token)).toEqual({ ok: true, leadId: lead?.id })

    // The stored body is the sanitised one.
    const [stored] = await t.handle.db.select({ content: newsletterSends.content }).from(newsletterSends).where(eq(newsletterSends.id, sent.id))
    expect(stored?.content).toBe('<p>Fresh <strong>games</strong></p>')
  })

  it('sends to the chosen subscribers only, leaving out a chosen lead who is not subscribed', async () => {
    const rows = await addLeads(5, (n) => n !== 2)
    const chosen = rows.filter((r) => ['reader1@example.com', 'reader2@example.com', 'reader3@example.com'].includes(r.email)).map((r) => r.id)
    const sent = await send(t, { all: false, id: chosen })
    // Every lead chosen is selected; the one not subscribed is left out, with its reason.
    expect(sent.total).toBe(3)
    const done = await until(t, sent.id, (s) => s['status'] === 'done')
    expect(done).toMatchObject({ total: 3, sent: 2, excluded: 1, excludedBy: [{ reason: 'unsubscribed', count: 1 }], pending: 0 })
    expect(recipientsOf()).toEqual(['reader1@example.com', 'reader3@example.com'])
    for (const path of ['/pauseNewsletter', '/cancelNewsletter']) {
      const late = await post(t, path, { id: sent.id })
      expect(late.statusCode).toBe(409)
      expect(bodyOf(late)['message']).toMatch(/^This newsletter has been sent; it can no longer be (paused|cancelled)$/)
    }
  })

  it('freezes the recipients at Send: a lead who subscribes later is not mailed', async () => {
    await addLeads(2, () => true)
    await t.app.services.jobs.stop()
    const sent = await send(t, { all: true })
    await addLeads(1, () => true, 50)
    t.app.services.jobs.start()
    await until(t, sent.id, (s) => s['status'] === 'done')
    expect(recipientsOf()).toEqual(['reader1@example.com', 'reader2@example.com'])
  })

  it('never mails a lead who unsubscribed mid-send, whatever was selected', async () => {
    const rows = await addLeads(4, () => true)
    const leaver = rows.find((r) => r.email === 'reader2@example.com')
    if (leaver === undefined) throw new Error('no reader2')
    // The job waits while the lead leaves: its recipients are frozen, its mails not made yet.
    await t.app.services.jobs.stop()
    const sent = await send(t, { all: false, id: rows.map((r) => r.id) })
    expect(sent.total).toBe(4)
    const left = await t.app.inject({ method: 'POST', url: `/admin/unsubscribe?token=${unsubscribeToken(t.config, leaver.id)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' })
    expect(left.statusCode, left.body).toBe(200)
    t.app.services.jobs.start()
    const done = await until(t, sent.id, (s) => s['status'] === 'done')
    expect(done).toMatchObject({ total: 4, sent: 3, excluded: 1, excludedBy: [{ reason: 'unsubscribed', count: 1 }], pending: 0 })
    expect(recipientsOf()).toEqual(['reader1@example.com', 'reader3@example.com', 'reader4@example.com'])
    const [row] = await t.handle.db.select().from(newsletterRecipients).where(and(eq(newsletterRecipients.sendId, sent.id), eq(newsletterRecipients.leadId, leaver.id)))
    expect(row).toMatchObject({ state: 'excluded', reason: 'unsubscribed', mailId: null })
  })

  it('takes back the queued mail of a lead who unsubscribes while the send runs', async () => {
    const rows = await addLeads(3, () => true)
    const leaver = rows.find((r) => r.email === 'reader2@example.com')
    if (leaver === undefined) throw new Error('no reader2')
    await t.app.services.jobs.stop()
    const sent = await send(t, { all: true })
    // One run of the send's job by hand: every mail is queued, none sent (the mail queue waits too).
    expect(await feedNewsletter({ sendId: sent.id }, t.app.services)).toBe('again')
    expect(await t.handle.db.$count(mailOutbox, and(eq(mailOutbox.group, `newsletter:${sent.id}`), eq(mailOutbox.status, 'pending')))).toBe(3)
    const left = await post(t, '/unsubscribe', { token: unsubscribeToken(t.config, leaver.id) }, {})
    expect(bodyOf(left)).toEqual({ status: 'success', message: UNSUBSCRIBED })
    t.app.services.jobs.start()
    const done = await until(t, sent.id, (s) => s['status'] === 'done')
    expect(done).toMatchObject({ total: 3, sent: 2, excluded: 1, cancelled: 0, pending: 0 })
    expect(recipientsOf()).toEqual(['reader1@example.com', 'reader3@example.com'])
  })

  it('refuses a send with nobody subscribed, an empty or script-only body, or no newsletter template, and stores nothing', async () => {
    const rows = await addLeads(2, () => false)
    const nobody = await post(t, '/sendNewsletter', { all: false, id: rows.map((r) => r.id), subject: 'News', content: '<p>Hi</p>' })
    expect(nobody.statusCode).toBe(400)
    expect(bodyOf(nobody)).toMatchObject({ status: 'failed', errors: { id: 'None of the selected leads is subscribed to the newsletter' } })

    await addLeads(1, () => true, 10)
    const stranger = await post(t, '/sendNewsletter', { all: true, subject: 'News for {{email}}', content: '<p>Hi</p>' })
    expect(bodyOf(stranger)).toMatchObject({ errors: { subject: 'The subject can only use {{name}}' } })
    const empty = await post(t, '/sendNewsletter', { all: true, subject: ' ', content: '' })
    expect(bodyOf(empty)).toMatchObject({ errors: { subject: 'Subject is required', content: 'Content is required' } })
    const scriptOnly = await post(t, '/sendNewsletter', { all: true, subject: 'News', content: '<script>alert(1)</script>' })
    expect(bodyOf(scriptOnly)).toMatchObject({ errors: { content: 'Content is required' } })
    const none = await post(t, '/sendNewsletter', { all: false, subject: 'News', content: '<p>Hi</p>' })
    expect(bodyOf(none)).toMatchObject({ errors: { id: 'Please select at least one subscriber' } })

    await t.handle.db.update(emailTemplates).set({ status: 'inactive' }).where(eq(emailTemplates.identifier, 'newsletter'))
    try {
      const off = await post(t, '/sendNewsletter', { all: true, subject: 'News', content: '<p>Hi</p>' })
      expect(off.statusCode).toBe(409)
      expect(bodyOf(off)['message']).toMatch(/'newsletter' email template is missing or inactive/)
    } finally {
      await t.handle.db.update(emailTemplates).set({ status: 'active' }).where(eq(emailTemplates.identifier, 'newsletter'))
    }
    expect(await t.handle.db.$count(newsletterSends)).toBe(0)
    expect(await t.handle.db.$count(newsletterRecipients)).toBe(0)
  })

  it('lets View Only read the subscribers and the sends but not send', async () => {
    await addLeads(1, () => true)
    const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/newsletter'] }))
    expect((await get(t, '/allUser', { page: '1', limit: '10', search: '' }, viewer)).statusCode).toBe(200)
    expect((await get(t, '/listNewsletterSends', { page: '1', limit: '10', search: '' }, viewer)).statusCode).toBe(200)
    expect((await post(t, '/sendNewsletter', { all: true, subject: 'News', content: '<p>Hi</p>' }, viewer)).statusCode).toBe(403)
  })
})

describe('pause, resume and cancel', () => {
  /** Resolves once no mail has arrived for `quietMs`: those in the SMTP server's hands have landed. */
  async function settled(quietMs = 800): Promise<number> {
    let seen = smtp.received.length
    let since = Date.now()
    while (Date.now() - since < quietMs) {
      await new Promise((r) => setTimeout(r, 50))
      if (smtp.received.length !== seen) {
        seen = smtp.received.length
        since = Date.now()
      }
    }
    return seen
  }

  it('holds a paused send (its queued mails wait), then resumes it, each subscriber mailed once, with progress on the way', async () => {
    const rows = await addLeads(40, () => true)
    const sent = await send(t, { all: false, id: rows.map((r) => r.id) })
    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
    const paused = await post(t, '/pauseNewsletter', { id: sent.id })
    const before = smtp.received.length
    expect(bodyOf(paused)).toEqual({ status: 'success', message: 'The newsletter is paused' })
    // Only mails already in the SMTP server's hands (one per mail worker at most) still land.
    const atPause = await settled()
    expect(atPause).toBeLessThanOrEqual(before + Number(t.config.jobs.concurrency))
    expect(atPause).toBeLessThan(40)
    const held = await until(t, sent.id, (s) => s['status'] === 'paused' && s['sent'] === atPause)
    expect(held).toMatchObject({ total: 40, sent: atPause, pending: 40 - atPause })
    expect(await t.handle.db.$count(mailOutbox, and(eq(mailOutbox.group, `newsletter:${sent.id}`), eq(mailOutbox.status, 'paused')))).toBeGreaterThan(0)
    expect(await settled(500)).toBe(atPause)
    expect(bodyOf(await post(t, '/pauseNewsletter', { id: sent.id }))).toMatchObject({ status: 'failed' })

    expect(bodyOf(await post(t, '/resumeNewsletter', { id: sent.id }))).toEqual({ status: 'success', message: 'The newsletter is being sent again' })
    const done = await until(t, sent.id, (s) => s['status'] === 'done', 30_000)
    expect(done).toMatchObject({ total: 40, sent: 40, pending: 0 })
    const to = smtp.received.flatMap((m) => m.to)
    expect(to).toHaveLength(40)
    expect(new Set(to).size).toBe(40)
  })

  it('resumes a send whose job failed for good: Pause then Resume starts a new job and the send completes', async () => {
    const rows = await addLeads(6, () => true)
    await t.app.services.jobs.stop()
    const sent = await send(t, { all: false, id: rows.map((r) => r.id) })
    // The send's job given up (its attempts used up, e.g. while the template was switched off).
    const given = await t.handle.db
      .update(jobs)
      .set({ failedAt: new Date(), lastError: 'gave up', lockedBy: null, lockedUntil: null })
      .where(and(eq(jobs.kind, 'newsletter.send'), eq(jobs.key, `newsletter:${sent.id}`)))
      .returning({ id: jobs.id })
    expect(given).toHaveLength(1)
    t.app.services.jobs.start()
    await settled(300)
    expect(smtp.received).toHaveLength(0)
    expect(await until(t, sent.id, () => true)).toMatchObject({ status: 'sending', sent: 0, pending: 6 })

    expect(bodyOf(await post(t, '/pauseNewsletter', { id: sent.id }))).toMatchObject({ status: 'success' })
    expect(bodyOf(await post(t, '/resumeNewsletter', { id: sent.id }))).toMatchObject({ status: 'success' })
    expect(await until(t, sent.id, (s) => s['status'] === 'done', 15_000)).toMatchObject({ total: 6, sent: 6, pending: 0 })
    expect(recipientsOf()).toEqual(rows.map((r) => r.email).sort())
    // The given-up job stays for an operator, without the key the new one took.
    expect(await t.handle.db.select({ key: jobs.key, lastError: jobs.lastError }).from(jobs).where(eq(jobs.id, given[0]?.id ?? ''))).toEqual([{ key: null, lastError: 'gave up' }])
    await t.handle.db.delete(jobs).where(eq(jobs.id, given[0]?.id ?? ''))
  })

  it('cancels a send: what went out is counted, the rest is never sent, and the answer says how many went', async () => {
    const rows = await addLeads(40, () => true)
    const sent = await send(t, { all: false, id: rows.map((r) => r.id) })
    await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3)
    const cancelled = bodyOf(await post(t, '/cancelNewsletter', { id: sent.id }))
    expect(cancelled['message']).toMatch(/^The newsletter is cancelled; \d+ mails? had gone out$/)
    const gone = await settled()
    expect(gone).toBeLessThan(40)
    const row = await until(t, sent.id, (s) => s['status'] === 'cancelled' && s['sent'] === gone)
    expect(row).toMatchObject({ total: 40, sent: gone, pending: 0, cancelled: 40 - gone })
    // Its job and its mails' jobs end: nothing is left to send.
    await expect.poll(() => t.handle.db.$count(jobs), { timeout: 10_000 }).toBe(0)
    expect(await settled(300)).toBe(gone)
    expect(bodyOf(await post(t, '/resumeNewsletter', { id: sent.id }))).toMatchObject({ status: 'failed' })
  })
})

describe('unsubscribing', () => {
  it('reads a valid token without changing anything, then unsubscribes with the page\'s button, once', async () => {
    const [lead] = await addLeads(1, () => true)
    if (lead === undefined) throw new Error('no lead')
    const token = unsubscribeToken(t.config, lead.id)
    const status = bodyOf(await get(t, '/unsubscribe-status', { token }, {}))
    expect(status).toEqual({ status: 'success', message: 'Subscribed', data: { email: 're***@example.com', subscribed: true } })
    const [still] = await t.handle.db.select({ subscribed: leads.subscribed }).from(leads).where(eq(leads.id, lead.id))
    expect(still?.subscribed).toBe(true)

    expect(bodyOf(await post(t, '/unsubscribe', { token }, {}))).toEqual({ status: 'success', message: UNSUBSCRIBED })
    const [row] = await t.handle.db.select().from(leads).where(eq(leads.id, lead.id))
    expect(row?.subscribed).toBe(false)
    expect(row?.unsubscribedAt).toBeInstanceOf(Date)
    expect(bodyOf(await post(t, '/unsubscribe', { token }, {}))).toEqual({ status: 'success', message: ALREADY_UNSUBSCRIBED })
    expect(bodyOf(await get(t, '/unsubscribe-status', { token }, {}))).toMatchObject({ data: { subscribed: false } })
  })

  it('refuses a tampered token, one naming another lead, an expired one and garbage, with a clear message', async () => {
    const [a, b] = await addLeads(2, () => true)
    if (a === undefined || b === undefined) throw new Error('no leads')
    const token = unsubscribeToken(t.config, a.id)
    const [, expires, sig] = token.split('.')
    const flipped = `${sig?.[0] === 'A' ? 'B' : 'A'}${sig?.slice(1) ?? ''}`
    // The same signature spelled otherwise: its last character with an unused bit flipped decodes
    // to the same bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const last = alphabet.indexOf(sig?.slice(-1) ?? '')
    const respelled = `${sig?.slice(0, -1) ?? ''}${alphabet[last ^ 1] ?? ''}`
    expect(Buffer.from(respelled, 'base64url').equals(Buffer.from(sig ?? '', 'base64url'))).toBe(true)
    const yearAgo = Date.now() - (UNSUBSCRIBE_TOKEN_DAYS + 1) * 24 * 3600 * 1000
    const cases: [string, string][] = [
      [`${a.id}.${expires ?? ''}.${flipped}`, INVALID_LINK],
      [`${a.id}.${expires ?? ''}.${respelled}`, INVALID_LINK],
      [`${b.id}.${expires ?? ''}.${sig ?? ''}`, INVALID_LINK],
      [`${a.id}.${Number(expires) + 1}.${sig ?? ''}`, INVALID_LINK],
      [unsubscribeToken(t.config, a.id, yearAgo), EXPIRED_LINK],
      ['not-a-token', INVALID_LINK],
    ]
    for (const [bad, message] of cases) {
      const res = await post(t, '/unsubscribe', { token: bad }, {})
      expect(res.statusCode, bad).toBe(400)
      expect(bodyOf(res)).toMatchObject({ status: 'failed', message })
      expect(bodyOf(await get(t, '/unsubscribe-status', { token: bad }, {}))).toMatchObject({ status: 'failed', message })
      const oneClick = await t.app.inject({ method: 'POST', url: `/admin/unsubscribe?token=${encodeURIComponent(bad)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' })
      expect(oneClick.statusCode, bad).toBe(400)
    }
    const still = await t.handle.db.select({ subscribed: leads.subscribed }).from(leads).where(inArray(leads.id, [a.id, b.id]))
    expect(still.map((r) => r.subscribed)).toEqual([true, true])
  })

  it('takes the RFC 8058 one-click POST to the List-Unsubscribe address, form-encoded or multipart; a GET changes nothing', async () => {
    const [a, b] = await addLeads(2, () => true)
    if (a === undefined || b === undefined) throw new Error('no leads')
    const url = (id: string) => `/admin/unsubscribe?token=${encodeURIComponent(unsubscribeToken(t.config, id))}`
    await t.app.inject({ method: 'GET', url: url(a.id) })
    expect((await t.handle.db.select({ s: leads.subscribed }).from(leads).where(eq(leads.id, a.id)))[0]?.s).toBe(true)

    const form = await t.app.inject({ method: 'POST', url: url(a.id), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' })
    expect(form.statusCode).toBe(200)
    expect(form.json()).toEqual({ status: 'success', message: UNSUBSCRIBED })
    const boundary = 'xYzBoundary'
    const multipart = await t.app.inject({
      method: 'POST',
      url: url(b.id),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    })
    expect(multipart.statusCode).toBe(200)
    const rows = await t.handle.db.select({ subscribed: leads.subscribed }).from(leads).where(inArray(leads.id, [a.id, b.id]))
    expect(rows.map((r) => r.subscribed)).toEqual([false, false])
  })

  it('unsubscribes through the address in a received mail\'s List-Unsubscribe header', async () => {
    const [lead] = await addLeads(1, () => true)
    const sent = await send(t, { all: true })
    await until(t, sent.id, (s) => s['status'] === 'done')
    const mail = await smtp.next('reader1@example.com')
    const address = /^<([^>]+)>/.exec(header(mail, 'List-Unsubscribe') ?? '')?.[1] ?? ''
    const { pathname, search } = new URL(address)
    const res = await t.app.inject({ method: 'POST', url: pathname + search, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' })
    expect(res.statusCode, res.body).toBe(200)
    const [row] = await t.handle.db.select({ subscribed: leads.subscribed }).from(leads).where(eq(leads.id, lead?.id ?? ''))
    expect(row?.subscribed).toBe(false)
    expect(maskEmail('ab@example.com')).toBe('a***@example.com')
  })
})
