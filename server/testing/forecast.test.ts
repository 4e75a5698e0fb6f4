/**
 * The send forecast against the sends themselves (requirements R2.37): a seeded audience with every
 * reason represented; the forecast's counts per reason equal what the delivery records as left
 * out, and sent + failed + left out = selected, for a promotion and for a newsletter.
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { auditLog, jobs, leads, newsletterRecipients, newsletterSends, promotionDeliveries, promotions, restrictedCountries, suppressedAddresses } from '../db/schema.ts'
import { startSmtpReceiver, type SmtpReceiver } from './smtp-receiver.ts'
import { bodyOf, listOf, makeTestApp, multipart, type TestApp } from './test-app.ts'

let smtp: SmtpReceiver
let t: TestApp
let admin: { authorization: string }

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  t = await makeTestApp({ env: { SMTP_URL: smtp.url, JOB_POLL_MS: '20', MAIL_RATE_PER_SECOND: '0', PROMOTION_BATCH_SIZE: '13', FOUR_EYES_THRESHOLD: '' } })
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
  await t.handle.db.delete(restrictedCountries)
  await t.handle.db.delete(suppressedAddresses)
  await post('/setRestrictedCountryRule', { on: true })
})

const post = (path: string, payload: Record<string, unknown>, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })

/** Submit with select all and no filter: every lead. */
async function submitAll(title: string) {
  const form = await multipart({ title, content: 'Fresh games', selectall: 'true', email: '', provider: '', country: '' }, [])
  return t.app.inject({ method: 'POST', url: '/api/admin/addNotification', headers: { ...admin, ...form.headers }, payload: form.payload })
}

async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 25))
  }
}

/**
 * The audience: `n` good leads and, for every reason, leads that only it leaves out, plus leads
 * that two rules catch (counted under the first): an invalid address in a restricted country, a
 * restricted lead who is unsubscribed and suppressed, the twin of a restricted lead (it is no
 * duplicate: the first of its address is left out for another reason).
 */
async function seed(n: number): Promise<{ ids: string[]; expected: Record<string, number> }> {
  await t.handle.db.insert(restrictedCountries).values([
    { code: 'KP', country: 'North Korea', hide: false },
    // A hidden restriction leaves nobody out.
    { code: 'FR', country: 'France', hide: true },
  ])
  await t.handle.db.insert(suppressedAddresses).values([
    { address: 'bounced@example.com', reason: 'bounce' },
    { address: 'complained@example.com', reason: 'complaint' },
    { address: 'both@example.com', reason: 'manual' },
  ])
  const start = Date.now() - 3_600_000
  const rows: { email: string; country: string; subscribed: boolean }[] = []
  for (let i = 0; i < n; i++) rows.push({ email: `good${i}@example.com`, country: i % 3 === 0 ? 'FR' : 'DE', subscribed: true })
  rows.push(
    { email: '', country: 'DE', subscribed: true },
    { email: 'not-an-address', country: 'KP', subscribed: false },
    { email: 'spaced out@example.com', country: 'DE', subscribed: true },
    { email: 'north1@example.com', country: 'KP', subscribed: true },
    { email: 'both@example.com', country: 'KP', subscribed: false },
    { email: 'away1@example.com', country: 'DE', subscribed: false },
    { email: 'away2@example.com', country: 'FR', subscribed: false },
    { email: 'Bounced@Example.com', country: 'DE', subscribed: true },
    { email: 'complained@example.com', country: 'DE', subscribed: true },
    { email: 'twin@example.com', country: 'DE', subscribed: true },
    { email: 'TWIN@example.com', country: 'DE', subscribed: true },
    { email: 'twin@example.com', country: 'FR', subscribed: true },
    { email: 'north1@example.com', country: 'DE', subscribed: true },
  )
  const inserted = await t.handle.db
    .insert(leads)
    .values(rows.map((r, i) => ({ name: r.email.split('@')[0] ?? 'lead', email: r.email, country: r.country, subscribed: r.subscribed, createdAt: new Date(start + i * 1000) })))
    .returning({ id: leads.id })
  return {
    ids: inserted.map((r) => r.id),
    expected: { 'invalid-address': 3, 'restricted-country': 2, unsubscribed: 2, suppressed: 2, duplicate: 2 },
  }
}

const reasonsOf = (body: Record<string, unknown>): Record<string, number> =>
  Object.fromEntries(listOf(body, 'excluded').map((e) => [String(e['reason']), Number(e['count'])]))

describe('the promotion forecast', () => {
  it('counts each reason once, in precedence order, and the delivery leaves out exactly those', async () => {
    const n = 120
    const { ids, expected } = await seed(n)
    const audience = { selectall: true, email: '', provider: '', country: '' }
    const body = bodyOf(await post('/forecastPromotion', audience))
    // A promotion has no unsubscribed rule: those leads are recipients.
    const { unsubscribed: _, ...promotionExpected } = expected
    expect(reasonsOf(body)).toEqual(promotionExpected)
    const left = Object.values(promotionExpected).reduce((a, b) => a + b, 0)
    expect(body).toMatchObject({ status: 'success', selected: ids.length, recipients: ids.length - left, restrictedCountryRule: true })
    expect(listOf(body, 'excluded').map((e) => e['reason'])).toEqual(['invalid-address', 'restricted-country', 'suppressed', 'duplicate'])

    // The checked ids give the same forecast as select all over the same leads.
    expect(reasonsOf(bodyOf(await post('/forecastPromotion', { id: ids })))).toEqual(promotionExpected)

    // One reason's leads, paged, and as CSV.
    const dupes = bodyOf(await post('/forecastPromotionLeads', { ...audience, reason: 'duplicate', page: 1, limit: 1 }))
    expect(dupes['count']).toBe(2)
    expect(listOf(dupes, 'result')).toHaveLength(1)
    const csv = await post('/forecastPromotionCsv', { ...audience, reason: 'restricted-country' })
    expect(csv.statusCode, csv.body).toBe(200)
    expect(csv.headers['content-type']).toMatch(/^text\/csv/)
    const lines = csv.body.trim().split('\n')
    expect(lines[0]).toBe('id,name,email,country,reason')
    expect(lines.filter((l) => l.includes(',north1@example.com,') && l.endsWith(',restricted-country'))).toHaveLength(1)
    expect(lines).toHaveLength(3)

    // Submit, deliver, and compare.
    const submitted = await submitAll('Spring drop')
    expect(submitted.statusCode, submitted.body).toBe(200)
    const id = String(bodyOf(submitted)['_id'])
    await until(async () => (await t.handle.db.select({ status: promotions.status }).from(promotions).where(eq(promotions.id, id)))[0]?.status === 'done')
    const recorded = await t.handle.db
      .select({ reason: promotionDeliveries.reason, n: sql<number>`count(*)::int` })
      .from(promotionDeliveries)
      .where(and(eq(promotionDeliveries.promotionId, id), eq(promotionDeliveries.status, 'excluded')))
      .groupBy(promotionDeliveries.reason)
    expect(Object.fromEntries(recorded.map((r) => [r.reason, r.n]))).toEqual(promotionExpected)
    const [row] = await t.handle.db.select().from(promotions).where(eq(promotions.id, id))
    expect(row).toMatchObject({ total: ids.length, excluded: left, sent: ids.length - left, failed: 0 })
    expect((row?.sent ?? 0) + (row?.failed ?? 0) + (row?.excluded ?? 0)).toBe(ids.length)

    // The list, the recipients and the lead's page show who was left out and why.
    const listed = listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listNotification?page=1&limit=10&search=', headers: admin })), 'result')
    expect(listed.find((p) => p['_id'] === id)).toMatchObject({ total: ids.length, excluded: left, sent: ids.length - left, pending: 0 })
    const north1Id = ids[ids.length - 1] ?? ''
    const page = bodyOf(await t.app.inject({ method: 'GET', url: `/api/admin/getLead?id=${north1Id}`, headers: admin }))
    expect(listOf(page, 'deliveries')).toEqual([expect.objectContaining({ promotionId: id, status: 'sent', reason: '' })])
    const invalidId = ids[n] ?? ''
    const invalid = bodyOf(await t.app.inject({ method: 'GET', url: `/api/admin/getLead?id=${invalidId}`, headers: admin }))
    expect(listOf(invalid, 'deliveries')).toEqual([expect.objectContaining({ promotionId: id, status: 'excluded', reason: 'invalid-address' })])

    // The approver's forecast of the stored promotion reads the same.
    expect(reasonsOf(bodyOf(await post('/forecastPromotionRound', { id })))).toEqual(promotionExpected)
  })

  it('runs the rules again at delivery: a lead suppressed after the forecast is left out as suppressed', async () => {
    const { ids } = await seed(10)
    await t.app.services.jobs.stop()
    const submitted = await submitAll('Later')
    const id = String(bodyOf(submitted)['_id'])
    await t.handle.db.insert(suppressedAddresses).values({ address: 'good1@example.com', reason: 'manual' })
    t.app.services.jobs.start()
    await until(async () => (await t.handle.db.select({ status: promotions.status }).from(promotions).where(eq(promotions.id, id)))[0]?.status === 'done')
    const [row] = await t.handle.db.select().from(promotions).where(eq(promotions.id, id))
    expect(row).toMatchObject({ total: ids.length, excluded: 10 })
    const [good1] = await t.handle.db.select({ status: promotionDeliveries.status, reason: promotionDeliveries.reason }).from(promotionDeliveries).where(and(eq(promotionDeliveries.promotionId, id), eq(promotionDeliveries.leadId, ids[1] ?? '')))
    expect(good1).toEqual({ status: 'excluded', reason: 'suppressed' })
  })

  it("counts a stored promotion's duplicates from the addresses frozen at Submit, as its delivery records them", async () => {
    await t.handle.db.insert(leads).values([
      { id: 'frozen-1', name: 'First', email: 'same@example.com', country: 'DE' },
      { id: 'frozen-2', name: 'Second', email: 'SAME@example.com', country: 'DE' },
      { id: 'frozen-3', name: 'Third', email: 'other@example.com', country: 'DE' },
      { id: 'frozen-4', name: 'Fourth', email: 'fourth@example.com', country: 'DE' },
    ])
    await t.app.services.jobs.stop()
    const submitted = await submitAll('Frozen')
    expect(submitted.statusCode, submitted.body).toBe(200)
    const id = String(bodyOf(submitted)['_id'])
    // After Submit the leads table no longer holds the frozen twins, and holds a pair the promotion does not.
    await t.handle.db.update(leads).set({ email: 'moved@example.com' }).where(eq(leads.id, 'frozen-2'))
    await t.handle.db.update(leads).set({ email: 'other@example.com' }).where(eq(leads.id, 'frozen-4'))

    expect(bodyOf(await post('/forecastPromotionRound', { id }))).toMatchObject({ selected: 4, recipients: 3, excluded: [{ reason: 'duplicate', count: 1 }] })
    const stored = { promotion: id, selectall: true, email: '', provider: '', country: '' }
    const dupes = bodyOf(await post('/forecastPromotionLeads', { ...stored, reason: 'duplicate', page: 1, limit: 10 }))
    expect(dupes['count']).toBe(1)
    expect(listOf(dupes, 'result')).toEqual([{ _id: 'frozen-2', name: 'Second', email: 'SAME@example.com', country: 'Germany' }])
    const csv = await post('/forecastPromotionCsv', { ...stored, reason: 'duplicate' })
    expect(csv.body.trim().split('\n').slice(1)).toEqual(['frozen-2,Second,SAME@example.com,Germany,duplicate'])
    // A new Submit's forecast reads the leads as they stand: the other pair.
    const live = bodyOf(await post('/forecastPromotionLeads', { selectall: true, email: '', provider: '', country: '', reason: 'duplicate', page: 1, limit: 10 }))
    expect(listOf(live, 'result').map((l) => l['_id'])).toEqual(['frozen-4'])

    t.app.services.jobs.start()
    await until(async () => (await t.handle.db.select({ status: promotions.status }).from(promotions).where(eq(promotions.id, id)))[0]?.status === 'done')
    const deliveries = await t.handle.db.select({ leadId: promotionDeliveries.leadId, status: promotionDeliveries.status, reason: promotionDeliveries.reason }).from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, id))
    expect(deliveries.sort((a, b) => a.leadId.localeCompare(b.leadId))).toEqual([
      { leadId: 'frozen-1', status: 'sent', reason: null },
      { leadId: 'frozen-2', status: 'excluded', reason: 'duplicate' },
      { leadId: 'frozen-3', status: 'sent', reason: null },
      { leadId: 'frozen-4', status: 'sent', reason: null },
    ])
  })
})

describe('the newsletter forecast', () => {
  it('equals what the send leaves out, and sent + failed + left out = selected', async () => {
    const { ids, expected } = await seed(60)
    const body = bodyOf(await post('/forecastNewsletter', { all: false, id: ids }))
    expect(reasonsOf(body)).toEqual(expected)
    const left = Object.values(expected).reduce((a, b) => a + b, 0)
    expect(body).toMatchObject({ selected: ids.length, recipients: ids.length - left })
    const away = bodyOf(await post('/forecastNewsletterLeads', { all: false, id: ids, reason: 'unsubscribed' }))
    expect(listOf(away, 'result').map((r) => r['email']).sort()).toEqual(['away1@example.com', 'away2@example.com'])

    const sent = await post('/sendNewsletter', { all: false, id: ids, subject: 'News', content: '<p>This month.</p>' })
    expect(sent.statusCode, sent.body).toBe(200)
    const sendId = String((bodyOf(sent)['data'] as Record<string, unknown>)['_id'])
    let row: Record<string, unknown> | undefined
    await until(async () => {
      const list = listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listNewsletterSends?page=1&limit=10&search=', headers: admin })), 'result')
      row = list.find((s) => s['_id'] === sendId)
      return row?.['status'] === 'done'
    })
    expect(row).toMatchObject({ total: ids.length, excluded: left, sent: ids.length - left, failed: 0, pending: 0, cancelled: 0 })
    expect(Object.fromEntries((row?.['excludedBy'] as { reason: string; count: number }[]).map((e) => [e.reason, e.count]))).toEqual(expected)
    expect(smtp.received.length).toBe(ids.length - left)
    const stored = await t.handle.db.select({ state: newsletterRecipients.state, reason: newsletterRecipients.reason }).from(newsletterRecipients).where(eq(newsletterRecipients.sendId, sendId))
    expect(stored.filter((s) => s.state === 'excluded')).toHaveLength(left)
    expect(reasonsOf(bodyOf(await post('/forecastNewsletterSend', { id: sendId })))).toEqual(expected)
  })
})

describe('the restricted-country rule', () => {
  it('is on by default; a superadmin turns it off (audited) and the forecast says so', async () => {
    const { ids } = await seed(5)
    expect(reasonsOf(bodyOf(await post('/forecastNewsletter', { all: false, id: ids })))['restricted-country']).toBe(2)
    const off = await post('/setRestrictedCountryRule', { on: false })
    expect(bodyOf(off)).toMatchObject({ status: 'success' })
    const body = bodyOf(await post('/forecastNewsletter', { all: false, id: ids }))
    expect(body['restrictedCountryRule']).toBe(false)
    expect(String(body['message'])).toContain('the restricted-country rule is off')
    // North1 (KP, subscribed) now gets it; both@ (KP, unsubscribed) moves to unsubscribed.
    expect(reasonsOf(body)).toEqual({ 'invalid-address': 3, unsubscribed: 3, suppressed: 2, duplicate: 3 })
    const settings = bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/settings-get', headers: admin }))
    expect(listOf(settings, 'result')[0]).toMatchObject({ restricted_country_rule: false })
    const audited = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/setRestrictedCountryRule'))
    expect(audited.length).toBeGreaterThanOrEqual(2)
  })
})

describe('the frequency cap', () => {
  /** Submits a promotion to these leads and waits until its round is done; answers its id. */
  async function promote(title: string, ids: readonly string[]): Promise<string> {
    const form = await multipart({ title, content: 'Fresh games', selectall: 'false', email: '', provider: '', country: '', id: [...ids] }, [])
    const submitted = await t.app.inject({ method: 'POST', url: '/api/admin/addNotification', headers: { ...admin, ...form.headers }, payload: form.payload })
    expect(submitted.statusCode, submitted.body).toBe(200)
    const id = String(bodyOf(submitted)['_id'])
    await until(async () => (await t.handle.db.select({ status: promotions.status }).from(promotions).where(eq(promotions.id, id)))[0]?.status === 'done')
    return id
  }
  /** Sends a newsletter to these leads and waits until its mails have gone; answers the send's id. */
  async function mailNewsletter(subject: string, ids: readonly string[]): Promise<string> {
    const sent = await post('/sendNewsletter', { all: false, id: ids, subject, content: '<p>This month.</p>' })
    expect(sent.statusCode, sent.body).toBe(200)
    const sendId = String((bodyOf(sent)['data'] as Record<string, unknown>)['_id'])
    await until(async () => {
      const list = listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listNewsletterSends?page=1&limit=10&search=', headers: admin })), 'result')
      return list.find((s) => s['_id'] === sendId)?.['status'] === 'done'
    })
    return sendId
  }

  it('is off by default; on, a lead at the cap is counted under frequency-cap in the forecast and left out at delivery', async () => {
    const before = listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/settings-get', headers: admin })), 'result')[0]
    expect(before).toMatchObject({ frequency_cap: { on: false } })

    const [capped, fresh] = await t.handle.db
      .insert(leads)
      .values([
        { name: 'Often', email: 'often@example.com', country: 'DE', subscribed: true },
        { name: 'Fresh', email: 'fresh@example.com', country: 'DE', subscribed: true },
      ])
      .returning({ id: leads.id })
    if (capped === undefined || fresh === undefined) throw new Error('no leads')
    const both = [capped.id, fresh.id]
    // Two messages reach `often`: a promotion and a newsletter.
    await promote('First', [capped.id])
    await mailNewsletter('First news', [capped.id])

    // Off: nobody is left out for it.
    expect(reasonsOf(bodyOf(await post('/forecastPromotion', { id: both })))).toEqual({})

    expect(bodyOf(await post('/setFrequencyCap', { on: true, messages: 0, days: 7 }))['errors']).toEqual({ messages: 'Messages must be a whole number from 1 to 100' })
    const on = await post('/setFrequencyCap', { on: true, messages: 2, days: 7 })
    expect(bodyOf(on)).toMatchObject({ status: 'success', message: 'At most 2 messages per lead in 7 days, promotions and newsletters together' })
    const after = listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/settings-get', headers: admin })), 'result')[0]
    expect(after).toMatchObject({ frequency_cap: { on: true, messages: 2, days: 7 } })
    const audited = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/setFrequencyCap'))
    expect(audited.length).toBe(1)

    // The forecast of either kind counts `often` under frequency-cap; its leads and CSV name it.
    expect(bodyOf(await post('/forecastPromotion', { id: both }))).toMatchObject({ selected: 2, recipients: 1, excluded: [{ reason: 'frequency-cap', count: 1 }] })
    expect(reasonsOf(bodyOf(await post('/forecastNewsletter', { all: false, id: both })))).toEqual({ 'frequency-cap': 1 })
    const leadsPage = bodyOf(await post('/forecastPromotionLeads', { id: both, reason: 'frequency-cap', page: 1, limit: 10 }))
    expect(listOf(leadsPage, 'result').map((l) => l['email'])).toEqual(['often@example.com'])
    const csv = await post('/forecastNewsletterCsv', { all: false, id: both, reason: 'frequency-cap' })
    expect(csv.body.trim().split('\n').slice(1)).toEqual([`${capped.id},Often,often@example.com,Germany,frequency-cap`])

    // At delivery, each kind leaves `often` out with the reason, and `fresh` gets it.
    const promotionId = await promote('Second', both)
    const deliveries = await t.handle.db.select({ leadId: promotionDeliveries.leadId, status: promotionDeliveries.status, reason: promotionDeliveries.reason }).from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, promotionId))
    expect(deliveries.sort((a, b) => (a.leadId === capped.id ? -1 : b.leadId === capped.id ? 1 : 0))).toEqual([
      { leadId: capped.id, status: 'excluded', reason: 'frequency-cap' },
      { leadId: fresh.id, status: 'sent', reason: null },
    ])
    const sendId = await mailNewsletter('Second news', both)
    const recipients = await t.handle.db.select({ leadId: newsletterRecipients.leadId, state: newsletterRecipients.state, reason: newsletterRecipients.reason }).from(newsletterRecipients).where(eq(newsletterRecipients.sendId, sendId))
    expect(recipients.find((r) => r.leadId === capped.id)).toEqual({ leadId: capped.id, state: 'excluded', reason: 'frequency-cap' })
    expect(recipients.find((r) => r.leadId === fresh.id)).toMatchObject({ state: 'queued' })

    // `fresh` has two messages now too: a third send leaves both out; turned off, it leaves nobody out.
    expect(reasonsOf(bodyOf(await post('/forecastPromotion', { id: both })))).toEqual({ 'frequency-cap': 2 })
    await post('/setFrequencyCap', { on: false, messages: 2, days: 7 })
    expect(reasonsOf(bodyOf(await post('/forecastPromotion', { id: both })))).toEqual({})
  })
})
