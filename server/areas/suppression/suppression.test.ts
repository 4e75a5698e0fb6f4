import { randomBytes } from 'node:crypto'
import { and, count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { z } from 'zod'
import * as suppression from '#contract/suppression'
import { describeRequest, requestsFor, type FuzzRequest } from '../../testing/fuzz-inputs.ts'
import { auditLog, mailEventsSeen, mailOutbox, suppressedAddresses } from '../../db/schema.ts'
import { startSmtpReceiver, type SmtpReceiver } from '../../testing/smtp-receiver.ts'
import { bodyOf, listOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { ALREADY_SUPPRESSED, BAD_SIGNATURE, mailEventSignature } from './routes.ts'

const SECRET = 'mail-events-test-secret-0123456789'

let t: TestApp
let admin: { authorization: string }

beforeAll(async () => {
  t = await makeTestApp({ env: { MAIL_EVENTS_SECRET: SECRET } })
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
})
beforeEach(async () => {
  await t.handle.db.delete(mailEventsSeen)
  await t.handle.db.delete(suppressedAddresses)
})

const post = (path: string, payload: Record<string, unknown>, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
const list = (query: Record<string, string> = {}, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'GET', url: '/api/admin/listSuppressedAddresses', query: { page: '1', limit: '10', search: '', ...query }, headers })

const entries = () => t.handle.db.select().from(suppressedAddresses).orderBy(suppressedAddresses.address)
/** Everything the webhook may write, as one comparable value. */
const state = async () => ({ suppressed: await entries(), seen: await t.handle.db.select().from(mailEventsSeen).orderBy(mailEventsSeen.eventId) })

/** Sends `body` (bytes as given) to the webhook with a signature header, made with `secret` unless given whole. */
function sendEvent(body: string, signature: string | null = mailEventSignature(SECRET, body), app: TestApp = t) {
  return app.app.inject({
    method: 'POST',
    url: '/api/admin/mail-events',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-mail-events-signature': signature }) },
    payload: body,
  })
}
const event = (id: string, email: string, type: 'bounce' | 'complaint' = 'bounce') => JSON.stringify({ id, type, email, occurredAt: '2026-11-29T10:00:00Z' })

describe('Suppressed addresses: the list, add and remove', () => {
  it('adds an address by hand, lower-cased and trimmed, as manual from the admin, with an audit row', async () => {
    const res = await post('/addSuppressedAddress', { address: '  Someone@Example.COM ' })
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'someone@example.com suppressed: mass sends leave it out' })
    expect(await entries()).toMatchObject([{ address: 'someone@example.com', reason: 'manual', source: t.superadmin.email, createdBy: t.superadmin.id }])
    const audit = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/addSuppressedAddress'), eq(auditLog.recordId, 'someone@example.com')))
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({ adminId: t.superadmin.id })
  })

  it('refuses an address suppressed already (whatever its case) and one that is not an address, adding nothing', async () => {
    await post('/addSuppressedAddress', { address: 'twice@example.com' })
    const again = await post('/addSuppressedAddress', { address: 'TWICE@example.com' })
    expect(again.statusCode).toBe(400)
    expect(bodyOf(again)).toEqual({ status: 'failed', message: ALREADY_SUPPRESSED, errors: { address: ALREADY_SUPPRESSED } })
    for (const address of ['', 'not-an-address', 'a@b', 'x'.repeat(250) + '@example.com']) {
      const res = await post('/addSuppressedAddress', { address })
      expect(res.statusCode, address).toBe(400)
      expect(bodyOf(res)['status']).toBe('failed')
    }
    expect(bodyOf(await post('/addSuppressedAddress', {}))).toMatchObject({ errors: { address: 'Email is required' } })
    expect((await entries()).map((e) => e.address)).toEqual(['twice@example.com'])
  })

  it('lists newest first as { _id, address, reason, source, createdAt }, searches, sorts and pages', async () => {
    const start = Date.now() - 60_000
    await t.handle.db.insert(suppressedAddresses).values([
      { address: 'carol@example.com', reason: 'bounce', source: 'evt-1', createdAt: new Date(start) },
      { address: 'alice@example.org', reason: 'complaint', source: 'evt-2', createdAt: new Date(start + 1000) },
      { address: 'bob@example.com', reason: 'manual', source: 'staff@example.com', createdAt: new Date(start + 2000) },
    ])
    const body = bodyOf(await list())
    expect(body).toMatchObject({ status: 'success', count: 3 })
    expect(listOf(body, 'result')).toEqual([
      { _id: 'bob@example.com', address: 'bob@example.com', reason: 'manual', source: 'staff@example.com', createdAt: new Date(start + 2000).toISOString() },
      { _id: 'alice@example.org', address: 'alice@example.org', reason: 'complaint', source: 'evt-2', createdAt: new Date(start + 1000).toISOString() },
      { _id: 'carol@example.com', address: 'carol@example.com', reason: 'bounce', source: 'evt-1', createdAt: new Date(start).toISOString() },
    ])
    const addresses = async (query: Record<string, string>) => listOf(bodyOf(await list(query)), 'result').map((r) => r['address'])
    expect(await addresses({ search: 'EXAMPLE.ORG' })).toEqual(['alice@example.org'])
    // The source is searched too (an event id, or the admin who added it).
    expect(await addresses({ search: 'evt-1' })).toEqual(['carol@example.com'])
    expect(await addresses({ search: '%' })).toEqual([])
    expect(await addresses({ sortBy: 'address', sortOrder: 'asc' })).toEqual(['alice@example.org', 'bob@example.com', 'carol@example.com'])
    expect(await addresses({ sortBy: 'reason', sortOrder: 'desc' })).toEqual(['bob@example.com', 'alice@example.org', 'carol@example.com'])
    expect(await addresses({ sortBy: 'createdAt', sortOrder: 'asc' })).toEqual(['carol@example.com', 'alice@example.org', 'bob@example.com'])
    expect(await addresses({ limit: '2', page: '2' })).toEqual(['carol@example.com'])
    expect(bodyOf(await list({ limit: '2', page: '2' }))['count']).toBe(3)
    const badSort = await list({ sortBy: 'password' })
    expect(badSort.statusCode).toBe(400)
  })

  it('removes an address (any case) with an audit row; an address not on the list is Record not found', async () => {
    await post('/addSuppressedAddress', { address: 'gone@example.com' })
    expect(bodyOf(await post('/removeSuppressedAddress', { address: 'Gone@Example.com' }))).toEqual({ status: 'success', message: 'gone@example.com is no longer suppressed' })
    expect(await entries()).toEqual([])
    expect(await t.handle.db.$count(auditLog, and(eq(auditLog.action, '/removeSuppressedAddress'), eq(auditLog.recordId, 'gone@example.com')))).toBe(1)
    const missing = await post('/removeSuppressedAddress', { address: 'gone@example.com' })
    expect(missing.statusCode).toBe(404)
    expect(bodyOf(missing)).toMatchObject({ status: 'failed', errors: { address: 'Record not found' } })
  })

  it('lets View Only staff read the list but not change it; a sub-admin without the screen gets nothing; Admin with it may write', async () => {
    await post('/addSuppressedAddress', { address: 'kept@example.com' })
    const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/suppressed-addresses'] }))
    expect((await list({}, viewer)).statusCode).toBe(200)
    expect((await post('/addSuppressedAddress', { address: 'sneaky@example.com' }, viewer)).statusCode).toBe(403)
    expect((await post('/removeSuppressedAddress', { address: 'kept@example.com' }, viewer)).statusCode).toBe(403)

    const outsider = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/notificationlist'] }))
    expect((await list({}, outsider)).statusCode).toBe(403)
    expect((await post('/removeSuppressedAddress', { address: 'kept@example.com' }, outsider)).statusCode).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/listSuppressedAddresses' })).statusCode).toBe(401)
    expect((await entries()).map((e) => e.address)).toEqual(['kept@example.com'])

    const holder = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/suppressed-addresses'] }))
    expect((await post('/removeSuppressedAddress', { address: 'kept@example.com' }, holder)).statusCode).toBe(200)
    expect(await entries()).toEqual([])
  })
})

describe('The mail provider webhook (mail-events)', () => {
  it('suppresses the address of a signed bounce at once, as its answer comes, with the event id as source', async () => {
    const started = Date.now()
    const res = await sendEvent(event('evt-100', 'Bounced@Example.com'))
    expect(res.statusCode).toBe(200)
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'bounced@example.com suppressed', duplicate: false })
    expect(await entries()).toMatchObject([{ address: 'bounced@example.com', reason: 'bounce', source: 'evt-100', createdBy: null }])
    expect(Date.now() - started).toBeLessThan(5000)
    await sendEvent(event('evt-101', 'angry@example.com', 'complaint'))
    expect(await entries()).toMatchObject([{ address: 'angry@example.com', reason: 'complaint' }, { address: 'bounced@example.com' }])
    // The list shows it as staff see it.
    expect(listOf(bodyOf(await list({ search: 'angry' })), 'result')).toMatchObject([{ address: 'angry@example.com', reason: 'complaint', source: 'evt-101' }])
  })

  it('answers 401 and changes nothing for a wrong, missing or malformed signature, or one of another key or body', async () => {
    await sendEvent(event('evt-1', 'before@example.com'))
    const before = await state()
    const body = event('evt-2', 'victim@example.com')
    const right = mailEventSignature(SECRET, body)
    const wrong = [
      null,
      '',
      'sha256=',
      right.replace('sha256=', ''),
      right.replace('sha256=', 'sha1='),
      right.toUpperCase(),
      `${right.slice(0, -1)}${right.endsWith('0') ? '1' : '0'}`,
      mailEventSignature('another-secret-another-secret', body),
      mailEventSignature(SECRET, event('evt-2', 'someone-else@example.com')),
      `${right}${right}`,
    ]
    for (const signature of wrong) {
      const res = await sendEvent(body, signature)
      expect(res.statusCode, String(signature)).toBe(401)
      expect(bodyOf(res)).toEqual({ status: 'failed', message: BAD_SIGNATURE })
    }
    // A body changed after signing (one space more) no longer matches.
    expect((await sendEvent(` ${body}`, right)).statusCode).toBe(401)
    // A bad signature is refused before the body is read: a malformed body answers 401 too.
    expect((await sendEvent('{not json', 'sha256=00')).statusCode).toBe(401)
    expect(await state()).toEqual(before)
  })

  it('answers 400 and changes nothing for a signed but malformed event', async () => {
    const before = await state()
    const malformed = [
      '{not json',
      '',
      'null',
      '[]',
      JSON.stringify({ type: 'bounce', email: 'a@example.com' }),
      JSON.stringify({ id: 'evt-3', type: 'delivered', email: 'a@example.com' }),
      JSON.stringify({ id: 'evt-3', type: 'bounce', email: 'not-an-address' }),
      JSON.stringify({ id: 'evt-3', type: 'bounce' }),
      JSON.stringify({ id: 'x'.repeat(201), type: 'bounce', email: 'a@example.com' }),
      JSON.stringify({ id: 'evt-3', type: 'bounce', email: 'a\u0000@example.com' }),
    ]
    for (const body of malformed) {
      const res = await sendEvent(body)
      expect(res.statusCode, body).toBe(400)
      expect(bodyOf(res)['status'], body).toBe('failed')
    }
    const wrongType = bodyOf(await sendEvent(JSON.stringify({ id: 'evt-3', type: 'delivered', email: 'a@example.com' })))
    expect(wrongType['errors']).toEqual({ type: 'type must be bounce or complaint' })
    expect(await state()).toEqual(before)
  })

  it('takes a replayed event id once: the replay answers duplicate and adds nothing, even with another address', async () => {
    const body = event('evt-replayed', 'once@example.com')
    expect(bodyOf(await sendEvent(body))['duplicate']).toBe(false)
    const after = await state()
    const replays = await Promise.all([sendEvent(body), sendEvent(body), sendEvent(event('evt-replayed', 'other@example.com'))])
    for (const res of replays) expect(bodyOf(res)).toMatchObject({ status: 'success', duplicate: true })
    expect(await state()).toEqual(after)
    expect(after.suppressed.map((e) => e.address)).toEqual(['once@example.com'])
  })

  it('keeps the first entry of an address suppressed already (a manual one stays manual)', async () => {
    await post('/addSuppressedAddress', { address: 'known@example.com' })
    const res = await sendEvent(event('evt-known', 'known@example.com'))
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'known@example.com was suppressed already', duplicate: false })
    expect(await entries()).toMatchObject([{ address: 'known@example.com', reason: 'manual' }])
    expect(await t.handle.db.$count(mailEventsSeen)).toBe(1)
  })

  it('1,000 signed events, 10 % of them replays, some at the same moment: every address once, no event twice', async () => {
    const originals = Array.from({ length: 900 }, (_, i) => ({ id: `evt-bulk-${i}-${randomBytes(3).toString('hex')}`, email: `bulk-${i}@example.com` }))
    const replays = Array.from({ length: 100 }, (_, i) => originals[(i * 9) % originals.length]!)
    const events = [...originals, ...replays].map((e, i) => event(e.id, e.email, i % 5 === 0 ? 'complaint' : 'bounce'))
    // Replays are interleaved with the originals, and sent 20 at a time, so some race their original.
    const order = events.map((body, i) => ({ body, key: (i * 7919) % events.length })).sort((a, b) => a.key - b.key)
    const answers: boolean[] = []
    for (let i = 0; i < order.length; i += 20) {
      const batch = await Promise.all(order.slice(i, i + 20).map(({ body }) => sendEvent(body)))
      for (const res of batch) {
        expect(res.statusCode).toBe(200)
        answers.push(bodyOf(res)['duplicate'] === true)
      }
    }
    expect(answers.filter(Boolean)).toHaveLength(100)
    expect(await t.handle.db.$count(suppressedAddresses)).toBe(900)
    expect(await t.handle.db.$count(mailEventsSeen)).toBe(900)
    const [doubled] = await t.handle.db
      .select({ n: count() })
      .from(suppressedAddresses)
      .where(eq(suppressedAddresses.reason, 'manual'))
    expect(doubled?.n).toBe(0)
  }, 120_000)

  it('answers any signed body, fuzzed from the contract, with 200, 400 or 413 in the failed shape; only a 200 writes', async () => {
    const requests = fc
      .sample(requestsFor(suppression.mailEvents, { json: { id: 'evt-fuzz', type: 'bounce', email: 'fuzz@example.com' } }), { seed: 20_261_129, numRuns: 300 })
      .filter((r): r is FuzzRequest & { body: string } => r.body !== undefined)
    expect(requests.length).toBeGreaterThan(150)
    const problems: string[] = []
    const statuses = new Set<number>()
    for (const request of requests) {
      const before = await state()
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/mail-events',
        headers: { ...(request.contentType === undefined ? {} : { 'content-type': request.contentType }), 'x-mail-events-signature': mailEventSignature(SECRET, request.body) },
        payload: request.body,
      })
      const where = describeRequest(request)
      statuses.add(res.statusCode)
      if (![200, 400, 413].includes(res.statusCode)) problems.push(`${res.statusCode}: ${where}`)
      const status = z.object({ status: z.enum(['success', 'failed']) }).safeParse(res.json())
      if (!status.success || (status.data.status === 'success') !== (res.statusCode === 200)) problems.push(`shape ${res.body.slice(0, 100)}: ${where}`)
      if (res.statusCode !== 200 && JSON.stringify(await state()) !== JSON.stringify(before)) problems.push(`refused yet wrote: ${where}`)
    }
    expect(problems).toEqual([])
    // Not vacuous: some events were taken, some refused.
    expect(statuses).toContain(200)
    expect(statuses).toContain(400)
  }, 120_000)

  it('is in the OpenAPI document: public, its event body, the signature header required, 401 and 404 named', async () => {
    const Operation = z.object({ security: z.array(z.unknown()), parameters: z.array(z.record(z.string(), z.unknown())), requestBody: z.record(z.string(), z.unknown()), responses: z.record(z.string(), z.unknown()) })
    const doc = z.object({ paths: z.object({ '/api/admin/mail-events': z.object({ post: Operation }) }) }).parse((await t.app.inject({ method: 'GET', url: '/api/admin/openapi.json' })).json())
    const op = doc.paths['/api/admin/mail-events'].post
    expect(op?.security).toEqual([])
    expect(op?.parameters).toEqual([expect.objectContaining({ name: 'X-Mail-Events-Signature', in: 'header', required: true })])
    expect(JSON.stringify(op?.requestBody)).toContain('"complaint"')
    expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '404']))
  })

  it('is off, 404, while MAIL_EVENTS_SECRET is unset, whatever the body or signature', async () => {
    const off = await makeTestApp()
    try {
      const body = event('evt-off', 'off@example.com')
      for (const signature of [mailEventSignature(SECRET, body), null]) {
        const res = await sendEvent(body, signature, off)
        expect(res.statusCode).toBe(404)
        expect(bodyOf(res)['status']).toBe('failed')
      }
      expect(await off.handle.db.$count(suppressedAddresses)).toBe(0)
      expect(await off.handle.db.$count(mailEventsSeen)).toBe(0)
    } finally {
      await off.close()
    }
  })
})

describe('A permanent SMTP refusal at send time', () => {
  let smtp: SmtpReceiver
  let own: TestApp
  beforeAll(async () => {
    smtp = await startSmtpReceiver()
    own = await makeTestApp({ env: { SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' } })
  })
  afterAll(async () => {
    await own.close()
    await smtp.close()
  })

  const queue = async (to: string): Promise<string> => {
    const { mailer } = own.app.services
    const id = await mailer.enqueue(own.handle.db, { to, subject: 'News', text: 'This month in the wallet.', group: 'newsletter:test' })
    mailer.wake()
    return id
  }
  const outbox = async (id: string) => (await own.handle.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]

  it('suppresses a recipient the server refuses with a 5xx, and gives the mail up without another try', async () => {
    smtp.refuseRecipient('nobody@example.net')
    const id = await queue('Nobody@Example.net')
    await expect.poll(async () => (await outbox(id))?.status, { timeout: 5000, interval: 50 }).toBe('failed')
    const row = await outbox(id)
    expect(row).toMatchObject({ attempts: 1, body: null })
    expect(row?.error).toMatch(/550/)
    const suppressed = await own.handle.db.select().from(suppressedAddresses)
    expect(suppressed).toMatchObject([{ address: 'nobody@example.net', reason: 'bounce', source: 'smtp', createdBy: null }])
  })

  it('does not suppress on a temporary refusal (4xx): the mail is tried again and goes', async () => {
    await own.handle.db.delete(suppressedAddresses)
    smtp.refuse(1)
    const id = await queue('busy@example.net')
    await expect.poll(async () => (await outbox(id))?.error ?? '', { timeout: 5000, interval: 50 }).toMatch(/451/)
    // The 451 left it pending for its retry after a backoff; nothing was suppressed.
    expect(await outbox(id)).toMatchObject({ status: 'pending', attempts: 1 })
    expect(await own.handle.db.$count(suppressedAddresses)).toBe(0)
  })

  it('sends to other recipients as before', async () => {
    await queue('reader@example.net')
    const mail = await smtp.next('reader@example.net')
    expect(mail.to).toEqual(['reader@example.net'])
    expect(await own.handle.db.$count(suppressedAddresses, eq(suppressedAddresses.address, 'reader@example.net'))).toBe(0)
  })
})
