import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { and, count, eq, sql } from 'drizzle-orm'
import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SocketEvents } from '#contract/socket'
import { PromotionProgress } from '#contract/promotions'
import { encodePng } from '../../db/png.ts'
import { auditLog, jobs, leadNotifications, leads, promotionDeliveries, promotionRecipients, promotions } from '../../db/schema.ts'
import { DELIVER_JOB, DeliverPayload, databaseTransport, deliverBatch, LEAD_GONE, type DeliveryDeps } from './delivery.ts'
import { bodyOf, listOf, makeTestApp, multipart, testEngine, type TestApp } from '../../testing/test-app.ts'
import { purgeTrashNow } from '../../testing/purge.ts'
import { NO_FAILED_DELIVERY, NO_MATCHING_USER, PROMOTION_ADDED, RESEND_REPEATED, STILL_SENDING } from './routes.ts'

const BATCH = 7
let t: TestApp
let url: string
let admin: { authorization: string }
const sockets: Socket[] = []

beforeAll(async () => {
  t = await makeTestApp({
    realtime: true,
    env: { JOB_POLL_MS: '20', JOB_LEASE_SECONDS: '2', PROMOTION_BATCH_SIZE: String(BATCH), PROMOTION_RETRY_BASE_MS: '20' },
  })
  url = await t.app.listen({ port: 0, host: '127.0.0.1' })
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  for (const s of sockets) s.close()
  await t.close()
})
beforeEach(async () => {
  // Each test starts with the queue running and nothing queued.
  t.app.services.jobs.start()
  await t.handle.db.delete(promotions)
  await t.handle.db.delete(jobs)
  await t.handle.db.delete(leads)
})

const post = (path: string, payload: Record<string, unknown>, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })

async function submit(fields: Record<string, string | string[]>, withImage = false, headers: Record<string, string> = admin) {
  const png = { field: 'image', name: 'promo.png', type: 'image/png', content: encodePng(4, 4, () => [10, 120, 200]) }
  const form = await multipart({ title: 'Spring drop', content: 'Fresh games this week', ...fields }, withImage ? [png] : [])
  return t.app.inject({ method: 'POST', url: '/api/admin/addNotification', headers: { ...headers, ...form.headers }, payload: form.payload })
}

/** Leads inserted directly, newest last (one second apart); answers their ids in that order. */
async function addLeads(rows: readonly { email: string; provider?: string; country?: string }[]): Promise<string[]> {
  const start = Date.now() - 3_600_000
  const inserted = await t.handle.db
    .insert(leads)
    .values(rows.map((r, i) => ({ name: r.email.split('@')[0] ?? '', email: r.email, provider: r.provider ?? 'ipfs', country: r.country ?? '', createdAt: new Date(start + i * 1000) })))
    .returning({ id: leads.id })
  return inserted.map((r) => r.id)
}

async function manyLeads(n: number, provider = 'web3auth', country = 'DE'): Promise<string[]> {
  const tag = randomBytes(3).toString('hex')
  return addLeads(Array.from({ length: n }, (_, i) => ({ email: `bulk${i}-${tag}@example.com`, provider, country })))
}

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

const promotionRow = async (id: string) => {
  const [row] = await t.handle.db.select().from(promotions).where(eq(promotions.id, id))
  if (row === undefined) throw new Error(`no promotion ${id}`)
  return row
}
const finished = (id: string) => until(async () => (await promotionRow(id)).status === 'done')
const notificationsOf = async (id: string) => t.handle.db.select().from(leadNotifications).where(eq(leadNotifications.promotionId, id))

/** Submits to these leads and answers the new promotion's id. */
async function promote(ids: readonly string[], extra: Record<string, string | string[]> = {}): Promise<string> {
  const response = await submit({ id: JSON.stringify(ids), ...extra })
  const body = bodyOf(response)
  expect(body).toMatchObject({ status: 'success', message: PROMOTION_ADDED })
  return String(body['_id'])
}

/** Runs delivery batches in the test itself (the queue stopped), as a worker would. */
function worker(): DeliveryDeps {
  return {
    db: t.handle.db,
    settings: t.config.promotions,
    transport: databaseTransport,
    leaseMs: 2000,
    progress: () => {},
  }
}

describe(`the filter step (${testEngine()})`, () => {
  it('filters by a part of the email (any case), provider and country name, newest first, 100 per page with the count', async () => {
    const [a, b, c, d] = await addLeads([
      { email: 'Alice.Smith@Mail.example', provider: 'ipfs', country: 'PT' },
      { email: 'bob@mail.example', provider: 'web3auth', country: 'PT' },
      { email: 'carol@other.example', provider: 'web3auth', country: 'FR' },
      { email: 'dan.smith@mail.example', provider: 'ipfs', country: '' },
    ])
    const filter = async (data: Record<string, string>, page = 1) => {
      const body = bodyOf(await post('/FilterOption', { page, limit: 100, data }))
      expect(body['status']).toBe('success')
      return { ids: listOf(body, 'data').map((u) => u['_id']), count: body['count'] }
    }
    expect(await filter({})).toEqual({ ids: [d, c, b, a], count: 4 })
    expect(await filter({ email: 'SMITH' })).toEqual({ ids: [d, a], count: 2 })
    expect(await filter({ email: 'mail.ex' })).toEqual({ ids: [d, b, a], count: 3 })
    expect(await filter({ provider: 'web3auth' })).toEqual({ ids: [c, b], count: 2 })
    expect(await filter({ country: 'Portugal' })).toEqual({ ids: [b, a], count: 2 })
    expect(await filter({ country: 'portugal', provider: 'ipfs' })).toEqual({ ids: [a], count: 1 })
    expect(await filter({ email: 'smith', provider: 'ipfs', country: 'Portugal' })).toEqual({ ids: [a], count: 1 })
    // A LIKE wildcard in the term is a plain character.
    expect(await filter({ email: '%' })).toEqual({ ids: [], count: 0 })

    const body = bodyOf(await post('/FilterOption', { page: 1, limit: 100, data: { country: 'France' } }))
    expect(listOf(body, 'data')).toEqual([{ _id: c, name: 'carol', email: 'carol@other.example', provider: 'web3auth', country: 'France' }])
  })

  it('refuses a country listCountry does not offer, and a provider that is not ipfs or web3auth', async () => {
    const unknown = await post('/FilterOption', { page: 1, limit: 100, data: { country: 'Atlantis' } })
    expect(unknown.statusCode).toBe(400)
    expect(bodyOf(unknown)).toMatchObject({ status: 'failed', message: 'Incorrect format', errors: { country: 'Incorrect format' } })
    const provider = await post('/FilterOption', { page: 1, limit: 100, data: { provider: 'google' } })
    expect(provider.statusCode).toBe(400)
    // More than 100 per page is not a page size the screen has.
    expect((await post('/FilterOption', { page: 1, limit: 101 })).statusCode).toBe(400)
  })

  it('pages 100 at a time (View More) and counts every match', async () => {
    await manyLeads(230)
    const pageOf = async (page: number) => bodyOf(await post('/FilterOption', { page, limit: 100, data: { provider: 'web3auth' } }))
    const [one, two, three] = [await pageOf(1), await pageOf(2), await pageOf(3)]
    expect([listOf(one, 'data').length, listOf(two, 'data').length, listOf(three, 'data').length]).toEqual([100, 100, 30])
    expect(one['count']).toBe(230)
    const all = [...listOf(one, 'data'), ...listOf(two, 'data'), ...listOf(three, 'data')].map((u) => u['_id'])
    expect(new Set(all).size).toBe(230)
  })

  it('counts the recipients a Submit would reach: the checked leads that exist, or every lead the filter matches', async () => {
    const [a, b] = await addLeads([
      { email: 'a@x.example', provider: 'ipfs', country: 'PT' },
      { email: 'b@x.example', provider: 'web3auth', country: 'PT' },
      { email: 'c@x.example', provider: 'web3auth', country: 'ES' },
    ])
    const countOf = async (payload: Record<string, unknown>) => bodyOf(await post('/countRecipients', payload))['count']
    expect(await countOf({ id: [a, b, a, 'no-such-lead'] })).toBe(2)
    expect(await countOf({ selectall: true })).toBe(3)
    expect(await countOf({ selectall: true, provider: 'web3auth' })).toBe(2)
    expect(await countOf({ selectall: true, provider: 'web3auth', country: 'Spain' })).toBe(1)
    expect(await countOf({ selectall: true, email: 'zzz' })).toBe(0)
  })
})

describe(`Submit and delivery (${testEngine()})`, () => {
  it('stores the promotion, its recipients frozen at Submit and delivers each exactly once', async () => {
    const ids = await manyLeads(30, 'ipfs', 'PT')
    await manyLeads(5, 'web3auth', 'PT')
    const response = await submit({ selectall: 'true', provider: 'ipfs', country: 'Portugal' }, true)
    const body = bodyOf(response)
    expect(body).toMatchObject({ status: 'success', message: PROMOTION_ADDED, total: 30 })
    const id = String(body['_id'])
    // Leads added after Submit are not recipients, whatever they match.
    await manyLeads(4, 'ipfs', 'PT')
    await finished(id)

    const notes = await notificationsOf(id)
    expect(notes.map((n) => n.leadId).sort()).toEqual([...ids].sort())
    expect(notes.every((n) => n.title === 'Spring drop' && n.content === 'Fresh games this week' && n.round === 1 && n.image !== '')).toBe(true)
    const deliveries = await t.handle.db.select().from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, id))
    expect(deliveries).toHaveLength(30)
    expect(deliveries.every((d) => d.status === 'sent' && d.sentAt !== null && d.attempts === 1)).toBe(true)
    // Batches of BATCH, each with its own id.
    expect(new Set(deliveries.map((d) => d.batchId)).size).toBe(Math.ceil(30 / BATCH))

    const list = bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listNotification', query: { page: '1', limit: '10', search: '' }, headers: admin }))
    expect(list['count']).toBe(1)
    const [row] = listOf(list, 'result')
    expect(row).toMatchObject({ _id: id, title: 'Spring drop', selectall: true, recipientCount: 30, round: 1, total: 30, sent: 30, failed: 0, pending: 0, status: 'done', createdBy: t.superadmin.name })
    expect(String(row?.['image'])).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/)
    expect(typeof row?.['lastSentAt']).toBe('string')
    const [audit] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.recordId, id), eq(auditLog.action, '/addNotification')))
    expect(audit?.adminId).toBe(t.superadmin.id)
  })

  it('shows no image as an empty image, checks the required messages, and stores nothing when no lead matches', async () => {
    const [a] = await addLeads([{ email: 'solo@x.example' }])
    const id = await promote([a ?? ''])
    expect((await promotionRow(id)).image).toBe('')
    await finished(id)
    await until(async () => (await t.handle.db.$count(jobs)) === 0)

    const missing = bodyOf(await submit({ title: '', content: '', id: a ?? '' }))
    expect(missing).toMatchObject({ status: 'failed', errors: { title: 'Title is required', content: 'content is required' } })
    const none = bodyOf(await submit({}))
    expect(none).toMatchObject({ status: 'failed', errors: { id: 'Please select at least one user' } })
    const form = await multipart({ title: 'T', content: 'C', id: a ?? '' }, [{ field: 'image', name: 'x.gif', type: 'image/gif', content: Buffer.from('GIF89a') }])
    const gif = await t.app.inject({ method: 'POST', url: '/api/admin/addNotification', headers: { ...admin, ...form.headers }, payload: form.payload })
    expect(bodyOf(gif)).toMatchObject({ status: 'failed', errors: { image: 'Please upload file having extensions  .png,.jpeg,.jpg only.' } })

    const before = await t.handle.db.$count(promotions)
    const nobody = await submit({ selectall: 'true', email: 'no-such-address' }, true)
    expect(nobody.statusCode).toBe(400)
    expect(bodyOf(nobody)).toMatchObject({ status: 'failed', message: NO_MATCHING_USER })
    const unknownIds = await submit({ id: JSON.stringify(['no-such-lead']) })
    expect(bodyOf(unknownIds)).toMatchObject({ status: 'failed', message: 'Please select at least one user' })
    expect(await t.handle.db.$count(promotions)).toBe(before)
    expect(await t.handle.db.$count(jobs)).toBe(0)
  })

  it('pages the recipients 100 at a time by email with their count and delivery status', async () => {
    const ids = await manyLeads(150)
    const id = await promote(ids)
    await finished(id)
    const pageOf = async (page: number) => bodyOf(await post('/listnotfiyuser', { id, page, limit: 100 }))
    const [one, two] = [await pageOf(1), await pageOf(2)]
    expect(one['count']).toBe(150)
    const rows = [...listOf(one, 'result'), ...listOf(two, 'result')]
    expect(listOf(one, 'result')).toHaveLength(100)
    expect(rows.map((r) => r['_id']).sort()).toEqual([...ids].sort())
    const emails = rows.map((r) => String(r['email']))
    expect(emails).toEqual([...emails].sort())
    expect(rows.every((r) => r['status'] === 'sent')).toBe(true)
    expect((await post('/listnotfiyuser', { id: 'no-such-promotion', page: 1, limit: 100 })).statusCode).toBe(404)
  })

  it('tells admins who may read /notificationlist the progress on the socket, and no one else', async () => {
    const reader = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/notificationlist'] })
    const outsider = await t.createAdmin({ restrictions: ['/users'] })
    const connect = async (token: string) => {
      const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false })
      sockets.push(socket)
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve())
        socket.once('connect_error', reject)
      })
      return socket
    }
    const readerSocket = await connect(`Bearer ${await t.tokenFor(reader)}`)
    const outsiderSocket = await connect(`Bearer ${await t.tokenFor(outsider)}`)
    const seen: PromotionProgress[] = []
    const outsiderSeen: unknown[] = []
    readerSocket.on(SocketEvents.promotionProgress, (p: unknown) => seen.push(PromotionProgress.parse(p)))
    outsiderSocket.on(SocketEvents.promotionProgress, (p: unknown) => outsiderSeen.push(p))
    await new Promise((r) => setTimeout(r, 50))

    const id = await promote(await manyLeads(40))
    await finished(id)
    await until(async () => seen.some((p) => p.id === id && p.status === 'done'))
    const mine = seen.filter((p) => p.id === id)
    expect(mine.at(-1)).toMatchObject({ id, round: 1, total: 40, sent: 40, failed: 0, pending: 0, status: 'done' })
    // Throttled: far fewer events than batches would be without it, and counts only grow.
    expect(mine.map((p) => p.sent)).toEqual([...mine.map((p) => p.sent)].sort((x, y) => x - y))
    expect(outsiderSeen).toEqual([])
  })
})

describe(`Resend (${testEngine()})`, () => {
  it('starts one new round for a double submission, and refuses while a round is still being sent', async () => {
    const ids = await manyLeads(20)
    await t.app.services.jobs.stop()
    const id = await promote(ids)
    const running = await post('/ResendData', { id, round: 1 })
    expect(running.statusCode).toBe(400)
    expect(bodyOf(running)).toMatchObject({ status: 'failed', message: STILL_SENDING })
    t.app.services.jobs.start()
    await finished(id)

    // Two clicks, or a retried request: both name round 1.
    const answers = await Promise.all([post('/ResendData', { id, round: 1 }), post('/ResendData', { id, round: 1, only: 'all' })])
    const bodies = answers.map(bodyOf)
    expect(bodies.filter((b) => b['started'] === true)).toHaveLength(1)
    expect(bodies.find((b) => b['started'] === false)).toMatchObject({ status: 'success', message: RESEND_REPEATED, round: 2 })
    await finished(id)
    expect((await promotionRow(id)).round).toBe(2)
    // A third try of the same request, after round 2 is done, is still a repeat.
    expect(bodyOf(await post('/ResendData', { id, round: 1 }))).toMatchObject({ started: false, round: 2 })
    // A round the admin cannot have seen is refused.
    expect((await post('/ResendData', { id, round: 9 })).statusCode).toBe(400)

    const notes = await notificationsOf(id)
    expect(notes).toHaveLength(40)
    const rounds = await t.handle.db
      .select({ round: promotionDeliveries.round, n: count() })
      .from(promotionDeliveries)
      .where(eq(promotionDeliveries.promotionId, id))
      .groupBy(promotionDeliveries.round)
      .orderBy(promotionDeliveries.round)
    expect(rounds).toEqual([
      { round: 1, n: 20 },
      { round: 2, n: 20 },
    ])
    expect(await t.handle.db.$count(auditLog, and(eq(auditLog.recordId, id), eq(auditLog.action, '/ResendData')))).toBe(3)
  })

  it('resends only to the recipients whose delivery failed when asked', async () => {
    const ids = await manyLeads(10)
    const gone = ids.slice(0, 3)
    // Three leads leave before the send: their deliveries fail for good (nothing to deliver to).
    await t.app.services.jobs.stop()
    const id = await promote(ids)
    await t.handle.db.delete(leads).where(sql`${leads.id} = any(${sql.param(gone)}::text[])`)
    t.app.services.jobs.start()
    await finished(id)
    expect(await promotionRow(id)).toMatchObject({ total: 10, sent: 7, failed: 3, status: 'done' })
    const failed = await t.handle.db.select().from(promotionDeliveries).where(and(eq(promotionDeliveries.promotionId, id), eq(promotionDeliveries.status, 'failed')))
    expect(failed.map((d) => d.leadId).sort()).toEqual([...gone].sort())
    expect(failed.every((d) => d.lastError === LEAD_GONE)).toBe(true)

    const body = bodyOf(await post('/ResendData', { id, round: 1, only: 'failed' }))
    expect(body).toMatchObject({ status: 'success', started: true, round: 2, total: 3 })
    await finished(id)
    expect(await promotionRow(id)).toMatchObject({ round: 2, total: 3, sent: 0, failed: 3 })
    const round2 = await t.handle.db.select().from(promotionDeliveries).where(and(eq(promotionDeliveries.promotionId, id), eq(promotionDeliveries.round, 2)))
    expect(round2.map((d) => d.leadId).sort()).toEqual([...gone].sort())

    // A round without failures has nothing to resend "only failed" to.
    const clean = await promote(await manyLeads(2))
    await finished(clean)
    const nothing = await post('/ResendData', { id: clean, round: 1, only: 'failed' })
    expect(bodyOf(nothing)).toMatchObject({ status: 'failed', message: NO_FAILED_DELIVERY })
    expect((await promotionRow(clean)).round).toBe(1)
  })
})

describe(`cancel and delete (${testEngine()})`, () => {
  it('cancels a running send: the rest is not sent and the answer says how many were', async () => {
    await t.app.services.jobs.stop()
    const id = await promote(await manyLeads(30))
    // One batch goes out, then the admin cancels.
    const payload = DeliverPayload.parse({ promotionId: id, round: 1, lane: 0 })
    expect(await deliverBatch(worker(), payload)).toBe('again')
    const body = bodyOf(await post('/cancelPromotion', { id }))
    expect(body).toEqual({ status: 'success', message: `Promotion cancelled: ${BATCH} of 30 already sent`, sent: BATCH, failed: 0, total: 30 })
    t.app.services.jobs.start()
    await until(async () => (await t.handle.db.$count(jobs)) === 0)
    expect(await notificationsOf(id)).toHaveLength(BATCH)
    expect(await promotionRow(id)).toMatchObject({ status: 'cancelled', sent: BATCH })
    const statuses = await t.handle.db
      .select({ status: promotionDeliveries.status, n: count() })
      .from(promotionDeliveries)
      .where(eq(promotionDeliveries.promotionId, id))
      .groupBy(promotionDeliveries.status)
      .orderBy(promotionDeliveries.status)
    expect(statuses).toEqual([
      { status: 'cancelled', n: 30 - BATCH },
      { status: 'sent', n: BATCH },
    ])
    const list = listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listNotification', headers: admin })), 'result')
    expect(list[0]).toMatchObject({ status: 'cancelled', sent: BATCH, pending: 0, total: 30 })
    // Cancelling again changes nothing and says so; a cancelled round may be resent.
    expect(bodyOf(await post('/cancelPromotion', { id }))).toMatchObject({ message: `Nothing left to cancel: ${BATCH} of 30 sent` })
    expect(bodyOf(await post('/ResendData', { id, round: 1 }))).toMatchObject({ started: true, round: 2, total: 30 })
    await finished(id)
    expect((await notificationsOf(id)).filter((n) => n.round === 2)).toHaveLength(30)
  })

  it('a batch recorded after the cancel is rolled back: nothing more is delivered', async () => {
    await t.app.services.jobs.stop()
    const id = await promote(await manyLeads(10))
    const deps = worker()
    // The worker claims and delivers, but the cancel lands between its claim and its record.
    const racing: DeliveryDeps = {
      ...deps,
      transport: {
        name: 'database',
        deliveredBeforeRecord: false,
        deliver: async (db, batch, record) => {
          await post('/cancelPromotion', { id })
          await deps.transport.deliver(db, batch, record)
        },
      },
    }
    expect(await deliverBatch(racing, DeliverPayload.parse({ promotionId: id, round: 1 }))).toBe('again')
    expect(await notificationsOf(id)).toHaveLength(0)
    expect(await promotionRow(id)).toMatchObject({ status: 'cancelled', sent: 0 })
    expect(await deliverBatch(deps, DeliverPayload.parse({ promotionId: id, round: 1 }))).toBeUndefined()
    expect(await t.handle.db.$count(promotionDeliveries, and(eq(promotionDeliveries.promotionId, id), eq(promotionDeliveries.status, 'pending')))).toBe(0)
  })

  it('deletes a promotion with its recipients, deliveries, notifications and (after the undo window) image, and stops what was pending', async () => {
    const done = await promote(await manyLeads(5), {})
    await finished(done)
    await t.app.services.jobs.stop()
    const response = await submit({ id: JSON.stringify(await manyLeads(12)) }, true)
    const id = String(bodyOf(response)['_id'])
    const image = (await promotionRow(id)).image
    expect(existsSync(join(t.config.uploadsDir, image))).toBe(true)
    expect(bodyOf(await post('/DeletePromotion', { id }))).toMatchObject({ status: 'success', message: 'Promotion deleted successfully', undo: { seconds: 10 } })
    expect(existsSync(join(t.config.uploadsDir, image))).toBe(true)
    await purgeTrashNow(t)
    expect(existsSync(join(t.config.uploadsDir, image))).toBe(false)
    t.app.services.jobs.start()
    await until(async () => (await t.handle.db.$count(jobs, eq(jobs.kind, DELIVER_JOB))) === 0)
    expect(await notificationsOf(id)).toHaveLength(0)
    expect(await t.handle.db.$count(promotionDeliveries, eq(promotionDeliveries.promotionId, id))).toBe(0)
    expect(await t.handle.db.$count(promotionRecipients, eq(promotionRecipients.promotionId, id))).toBe(0)

    expect(bodyOf(await post('/DeletePromotion', { id: done }))).toMatchObject({ status: 'success' })
    expect(await notificationsOf(done)).toHaveLength(0)
    expect((await post('/DeletePromotion', { id: done })).statusCode).toBe(404)
  })
})

describe(`who may do what (${testEngine()})`, () => {
  it('lets View Only read the list, recipients and filter, and refuses them every write', async () => {
    const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/notificationlist'] }))
    const [lead] = await manyLeads(1)
    const id = await promote([lead ?? ''])
    await finished(id)
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/listNotification', headers: viewer })).statusCode).toBe(200)
    expect((await post('/listnotfiyuser', { id, page: 1, limit: 100 }, viewer)).statusCode).toBe(200)
    expect((await post('/FilterOption', { page: 1, limit: 100 }, viewer)).statusCode).toBe(200)
    expect((await submit({ id: lead ?? '' }, false, viewer)).statusCode).toBe(403)
    for (const [path, payload] of [
      ['/ResendData', { id, round: 1 }],
      ['/cancelPromotion', { id }],
      ['/DeletePromotion', { id }],
    ] as const) {
      expect((await post(path, payload, viewer)).statusCode).toBe(403)
    }
    expect(await promotionRow(id)).toMatchObject({ round: 1, status: 'done' })
    const outsider = await t.auth(await t.createAdmin({ restrictions: ['/users'] }))
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/listNotification', headers: outsider })).statusCode).toBe(403)
    expect((await post('/FilterOption', { page: 1, limit: 100 }, outsider)).statusCode).toBe(403)
  })
})
