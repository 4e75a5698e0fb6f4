import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { TransactionRollbackError, and, eq, sql, type SQL } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import type { PromotionProgress } from '#contract/promotions'
import { ConfigError, loadConfig } from '../../config.ts'
import { jobs, leadNotifications, leads, promotionDeliveries, promotions } from '../../db/schema.ts'
import { bodyOf, makeTestApp, multipart, testEngine, type TestApp } from '../../testing/test-app.ts'
import { DeliverPayload, ProgressThrottle, databaseTransport, deliverBatch, signBody, webhookTransport, type DeliveryDeps, type Transport } from './delivery.ts'

const SECRET = 'receiver-shared-secret-0123456789'

/** What the receiver saw: every request, its raw body and headers. */
interface Seen {
  raw: string
  headers: IncomingHttpHeaders
  answered: number
}

const Batch = z.object({
  promotion: z.object({ id: z.string(), title: z.string(), content: z.string(), image: z.string() }),
  round: z.number(),
  recipients: z.array(z.object({ leadId: z.string(), email: z.string() })),
  batchId: z.string(),
  sentAt: z.string(),
})

/**
 * A real HTTP receiver. `answer(n)` decides the status of the n-th request (1-based); 'late'
 * answers 200 only after the sender's timeout (the receiver took it, the sender gave up).
 */
async function receiver(answer: (n: number) => number | 'late'): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      const entry: Seen = { raw: Buffer.concat(chunks).toString('utf8'), headers: request.headers, answered: 0 }
      seen.push(entry)
      const decision = answer(seen.length)
      if (decision === 'late') {
        setTimeout(() => {
          entry.answered = 200
          response.writeHead(200).end('ok')
        }, 1200)
        return
      }
      entry.answered = decision
      response.writeHead(decision).end(decision < 300 ? 'ok' : 'nope')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/hooks/promotions`, seen, server }
}

const verifies = (s: Seen): boolean => {
  const header = s.headers['x-signature']
  if (typeof header !== 'string') return false
  const expected = `sha256=${createHmac('sha256', SECRET).update(s.raw).digest('hex')}`
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected))
}

async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 20))
  }
}

let t: TestApp
let flaky: Awaited<ReturnType<typeof receiver>>
const servers: Server[] = []

beforeAll(async () => {
  // Every third request fails with 500, and the fifth is answered only after the timeout.
  flaky = await receiver((n) => (n === 5 ? 'late' : n % 3 === 0 ? 500 : 200))
  servers.push(flaky.server)
  t = await makeTestApp({
    env: {
      JOB_POLL_MS: '20',
      JOB_LEASE_SECONDS: '2',
      PROMOTION_BATCH_SIZE: '5',
      PROMOTION_RETRY_BASE_MS: '20',
      PROMOTION_MAX_ATTEMPTS: '6',
      PUSH_WEBHOOK_URL: flaky.url,
      PUSH_WEBHOOK_SECRET: SECRET,
      // Generous: PGlite runs in this thread, and its work delays reading the answers.
      PUSH_WEBHOOK_TIMEOUT_MS: '800',
      PUBLIC_URL: 'https://admin.example.com',
    },
  })
})
afterAll(async () => {
  await t.close()
  for (const s of servers) s.close()
})
beforeEach(async () => {
  await t.handle.db.delete(promotions)
  await t.handle.db.delete(jobs)
  await t.handle.db.delete(leads)
})

async function newLeads(n: number): Promise<string[]> {
  const tag = randomBytes(3).toString('hex')
  const rows = await t.handle.db
    .insert(leads)
    .values(Array.from({ length: n }, (_, i) => ({ name: `Lead ${i}`, email: `lead${i}-${tag}@example.com` })))
    .returning({ id: leads.id })
  return rows.map((r) => r.id)
}

async function promote(ids: readonly string[], withImage = false): Promise<string> {
  const { encodePng } = await import('../../db/png.ts')
  const files = withImage ? [{ field: 'image', name: 'p.png', type: 'image/png', content: encodePng(2, 2, () => [1, 2, 3]) }] : []
  const form = await multipart({ title: 'Hello', content: 'New games', id: JSON.stringify(ids) }, files)
  const response = await t.app.inject({ method: 'POST', url: '/api/admin/addNotification', headers: { ...(await t.auth(t.superadmin)), ...form.headers }, payload: form.payload })
  const body = bodyOf(response)
  expect(body['status']).toBe('success')
  return String(body['_id'])
}

const promotionRow = async (id: string) => {
  const [row] = await t.handle.db.select().from(promotions).where(eq(promotions.id, id))
  if (row === undefined) throw new Error('no promotion')
  return row
}

function deps(transport: Transport, overrides: Partial<DeliveryDeps> = {}): DeliveryDeps {
  return { db: t.handle.db, settings: t.config.promotions, transport, leaseMs: 2000, progress: () => {}, ...overrides }
}

/** Runs one lane until its job would be done, as the queue would (waiting when told to). */
async function drain(d: DeliveryDeps, payload: DeliverPayload): Promise<void> {
  for (;;) {
    const result = await deliverBatch(d, payload)
    if (result === undefined) return
    if (typeof result === 'object') await new Promise((r) => setTimeout(r, result.retryInMs))
  }
}

describe(`the webhook transport (${testEngine()})`, () => {
  it('delivers every recipient through a receiver that fails some requests, signed, retrying under the same batch id', async () => {
    const ids = await newLeads(40)
    const id = await promote(ids, true)
    await until(async () => (await promotionRow(id)).status === 'done')
    // The late answer comes after the sender gave up on it.
    await until(async () => flaky.seen[4]?.answered === 200)

    const requests = flaky.seen.map((s, index) => ({ ...s, index, batch: Batch.parse(JSON.parse(s.raw)) }))
    // Every request is signed with the shared secret over its exact body, with its timestamp.
    expect(requests.every(verifies)).toBe(true)
    expect(requests.every((r) => r.headers['x-timestamp'] === String(Math.floor(Date.parse(r.batch.sentAt) / 1000)))).toBe(true)
    expect(requests.every((r) => r.headers['content-type'] === 'application/json')).toBe(true)
    expect(requests[0]?.batch.promotion).toMatchObject({ id, title: 'Hello', content: 'New games' })
    expect(requests[0]?.batch.promotion.image).toMatch(/^https:\/\/admin\.example\.com\/uploads\/[0-9a-f-]{36}\.png$/)

    // Every recipient reached the receiver in an accepted request.
    const accepted = requests.filter((r) => r.answered === 200)
    const delivered = new Set(accepted.flatMap((r) => r.batch.recipients.map((x) => x.leadId)))
    expect([...delivered].sort()).toEqual([...ids].sort())

    // Failed requests (500s and the late one) were retried, with the same batch id and recipients.
    const failedOnce = requests.filter((r) => r.answered !== 200 || r.index === 4)
    expect(failedOnce.length).toBeGreaterThanOrEqual(3)
    for (const failed of failedOnce) {
      const retries = accepted.filter((r) => r.batch.batchId === failed.batch.batchId && r.index !== failed.index)
      expect(retries.length).toBeGreaterThanOrEqual(1)
      expect(retries.every((r) => JSON.stringify(r.batch.recipients) === JSON.stringify(failed.batch.recipients))).toBe(true)
    }
    // The late answer is the at-least-once case: the receiver accepted that batch more than once,
    // and its id tells (twice, or more when a retry on a loaded machine also outlived the timeout).
    const late = requests[4]
    expect(late?.answered).toBe(200)
    expect(accepted.filter((r) => r.batch.batchId === late?.batch.batchId).length).toBeGreaterThanOrEqual(2)

    const deliveries = await t.handle.db.select().from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, id))
    expect(deliveries.every((d) => d.status === 'sent')).toBe(true)
    expect(deliveries.some((d) => d.attempts > 1)).toBe(true)
    expect(await promotionRow(id)).toMatchObject({ total: 40, sent: 40, failed: 0 })
    // The webhook replaces the database transport: nothing is stored per lead.
    expect(await t.handle.db.$count(leadNotifications, eq(leadNotifications.promotionId, id))).toBe(0)
  })

  it('marks the deliveries failed after their attempts when the receiver keeps failing', async () => {
    const down = await receiver(() => 503)
    servers.push(down.server)
    const ids = await newLeads(7)
    await t.app.services.jobs.stop()
    const id = await promote(ids)
    const transport = webhookTransport({ url: down.url, secret: SECRET, timeoutMs: 500 }, t.config.publicUrl)
    const settings = { ...t.config.promotions, maxAttempts: 3, retryBaseMs: 10, retryMaxMs: 40 }
    await drain(deps(transport, { settings }), DeliverPayload.parse({ promotionId: id, round: 1 }))
    // Two batches (5 and 2), each tried three times.
    expect(down.seen).toHaveLength(6)
    expect(new Set(down.seen.map((s) => Batch.parse(JSON.parse(s.raw)).batchId)).size).toBe(2)
    const rows = await t.handle.db.select().from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, id))
    expect(rows.every((d) => d.status === 'failed' && d.attempts === 3 && d.lastError === 'The webhook answered 503')).toBe(true)
    expect(await promotionRow(id)).toMatchObject({ total: 7, sent: 0, failed: 7, status: 'done' })
    t.app.services.jobs.start()
  })

  it('records a batch the receiver holds while the promotion is cancelled as sent, and cancels only what was never posted', async () => {
    // The receiver holds the first request until released (the batch is on its way at the cancel).
    let release = (): void => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let arrived = (): void => {}
    const posted = new Promise<void>((resolve) => (arrived = resolve))
    const seen: string[] = []
    const holding = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (c: Buffer) => chunks.push(c))
      request.on('end', () => {
        seen.push(Buffer.concat(chunks).toString('utf8'))
        if (seen.length === 1) arrived()
        void released.then(() => response.writeHead(200).end('ok'))
      })
    })
    servers.push(holding)
    await new Promise<void>((resolve) => holding.listen(0, '127.0.0.1', resolve))
    const hook = `http://127.0.0.1:${(holding.address() as AddressInfo).port}/hooks/promotions`

    const ids = await newLeads(12)
    await t.app.services.jobs.stop()
    const id = await promote(ids)
    const d = deps(webhookTransport({ url: hook, secret: SECRET, timeoutMs: 10_000 }, t.config.publicUrl))
    const lane0 = DeliverPayload.parse({ promotionId: id, round: 1, lane: 0 })
    const first = deliverBatch(d, lane0)
    await posted
    const cancel = await t.app.inject({ method: 'POST', url: '/api/admin/cancelPromotion', headers: { ...(await t.auth(t.superadmin)), 'content-type': 'application/json' }, payload: JSON.stringify({ id }) })
    expect(bodyOf(cancel)).toEqual({
      status: 'success',
      message: 'Promotion cancelled: 0 of 12 already sent; 5 more were being posted to the push service and will count as sent once it accepts them',
      sent: 0,
      failed: 0,
      total: 12,
    })
    release()
    expect(await first).toBe('again')
    await drain(d, lane0)
    await drain(d, DeliverPayload.parse({ promotionId: id, round: 1, lane: 1 }))

    // One batch reached the receiver: its five deliveries are sent, the other seven cancelled.
    expect(seen).toHaveLength(1)
    const postedTo = Batch.parse(JSON.parse(seen[0] ?? '')).recipients.map((r) => r.leadId)
    expect(postedTo).toHaveLength(5)
    const rows = await t.handle.db.select().from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, id))
    expect(rows.filter((r) => r.status === 'sent').map((r) => r.leadId).sort()).toEqual([...postedTo].sort())
    expect(rows.filter((r) => r.status === 'cancelled')).toHaveLength(7)
    expect(rows.every((r) => r.status === 'sent' || r.status === 'cancelled')).toBe(true)
    const row = await promotionRow(id)
    expect(row).toMatchObject({ status: 'cancelled', total: 12, sent: 5, failed: 0 })
    expect(row.lastSentAt).not.toBeNull()
    // The list's counts: nothing pending, and sent + failed + cancelled = total.
    const list = bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listNotification', headers: await t.auth(t.superadmin) }))
    const listed = z.array(z.object({ _id: z.string(), sent: z.number(), failed: z.number(), pending: z.number(), total: z.number(), status: z.string() }).loose()).parse(list['result']).find((p) => p._id === id)
    expect(listed).toMatchObject({ status: 'cancelled', sent: 5, failed: 0, pending: 0, total: 12 })
    t.app.services.jobs.start()
  })

  it('follows no redirect: a 302 fails the batch, and the address it points to receives nothing', async () => {
    const elsewhere = await receiver(() => 200)
    servers.push(elsewhere.server)
    const redirects: string[] = []
    const redirecting = createServer((request, response) => {
      redirects.push(request.method ?? '')
      request.resume()
      request.on('end', () => response.writeHead(302, { location: elsewhere.url }).end())
    })
    servers.push(redirecting)
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve))
    const { port } = redirecting.address() as AddressInfo
    const ids = await newLeads(3)
    await t.app.services.jobs.stop()
    const id = await promote(ids)
    const transport = webhookTransport({ url: `http://127.0.0.1:${port}/hooks/promotions`, secret: SECRET, timeoutMs: 2000 }, t.config.publicUrl)
    const settings = { ...t.config.promotions, maxAttempts: 2, retryBaseMs: 10, retryMaxMs: 40 }
    await drain(deps(transport, { settings }), DeliverPayload.parse({ promotionId: id, round: 1 }))
    expect(redirects).toEqual(['POST', 'POST'])
    expect(elsewhere.seen).toHaveLength(0)
    const rows = await t.handle.db.select().from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, id))
    expect(rows.every((d) => d.status === 'failed' && d.attempts === 2 && d.lastError?.startsWith('The webhook answered 302 (a redirect, not followed') === true)).toBe(true)
    expect(await promotionRow(id)).toMatchObject({ total: 3, sent: 0, failed: 3, status: 'done' })
    t.app.services.jobs.start()
  })

  it('refuses a plain http webhook address unless it is this machine', () => {
    const load = (url: string) => loadConfig({ DATA_DIR: t.config.dataDir, PUSH_WEBHOOK_URL: url, PUSH_WEBHOOK_SECRET: SECRET })
    for (const url of ['http://push.example.com/hook', 'http://10.0.0.5:8080/hook', 'http://[2001:db8::1]/hook', 'http://localhost.example.com/hook']) {
      expect(() => load(url)).toThrow(/PUSH_WEBHOOK_URL: must be an https:\/\/ address/)
    }
    for (const url of ['https://push.example.com/hook', 'http://localhost:9000/hook', 'http://127.0.0.1:9000/hook', 'http://[::1]:9000/hook']) {
      expect(load(url).promotions.webhook?.url).toBe(url)
    }
  })

  it('needs a secret with the webhook address', () => {
    expect(() => loadConfig({ DATA_DIR: t.config.dataDir, PUSH_WEBHOOK_URL: 'https://push.example.com/hook' })).toThrow(ConfigError)
    expect(loadConfig({ DATA_DIR: t.config.dataDir, PUSH_WEBHOOK_URL: 'https://push.example.com/hook', PUSH_WEBHOOK_SECRET: SECRET }).promotions.webhook).toEqual({
      url: 'https://push.example.com/hook',
      secret: SECRET,
      timeoutMs: 10_000,
    })
    expect(loadConfig({ DATA_DIR: t.config.dataDir }).promotions.webhook).toBeNull()
    expect(signBody('k', '{}')).toBe(`sha256=${createHmac('sha256', 'k').update('{}').digest('hex')}`)
  })
})

describe(`the database transport and its workers (${testEngine()})`, () => {
  it('delivers exactly once when a worker outlives its lease and another takes the same batch again', async () => {
    await t.app.services.jobs.stop()
    const ids = await newLeads(12)
    const id = await promote(ids)
    let release = (): void => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const seenBatches: string[] = []
    // The first worker stalls after its claim (a stuck process) past its short lease.
    const stalled: Transport = {
      name: 'database',
      deliveredBeforeRecord: false,
      deliver: async (db, batch, record) => {
        seenBatches.push(batch.batchId)
        await gate
        await databaseTransport.deliver(db, batch, record)
      },
    }
    const payload = DeliverPayload.parse({ promotionId: id, round: 1 })
    const stuck = deliverBatch(deps(stalled, { leaseMs: 200 }), payload)
    await until(async () => seenBatches.length === 1)
    await new Promise((r) => setTimeout(r, 300))
    const tracking: Transport = {
      name: 'database',
      deliveredBeforeRecord: false,
      deliver: async (db, batch, record) => {
        seenBatches.push(batch.batchId)
        await databaseTransport.deliver(db, batch, record)
      },
    }
    await drain(deps(tracking), payload)
    // The stalled batch was taken again whole, under its id, then the stuck worker finished too.
    expect(seenBatches.filter((b) => b === seenBatches[0])).toHaveLength(2)
    release()
    await stuck
    const notes = await t.handle.db.select().from(leadNotifications).where(eq(leadNotifications.promotionId, id))
    expect(notes.map((n) => n.leadId).sort()).toEqual([...ids].sort())
    expect(await promotionRow(id)).toMatchObject({ total: 12, sent: 12, failed: 0, status: 'done' })
    t.app.services.jobs.start()
  })

  it('lets two workers share one promotion: disjoint batches, each recipient once', async () => {
    await t.app.services.jobs.stop()
    const ids = await newLeads(60)
    const id = await promote(ids)
    const lanes = [0, 1].map((lane) => drain(deps(databaseTransport), DeliverPayload.parse({ promotionId: id, round: 1, lane })))
    await Promise.all(lanes)
    const notes = await t.handle.db.select().from(leadNotifications).where(eq(leadNotifications.promotionId, id))
    expect(notes).toHaveLength(60)
    expect(new Set(notes.map((n) => n.leadId)).size).toBe(60)
    const batches = await t.handle.db.selectDistinct({ batchId: promotionDeliveries.batchId }).from(promotionDeliveries).where(and(eq(promotionDeliveries.promotionId, id)))
    expect(batches).toHaveLength(12)
    expect(await promotionRow(id)).toMatchObject({ sent: 60, status: 'done' })
    t.app.services.jobs.start()
  })

  it('claims a batch of a fresh promotion without reading the rest of its round, statistics or not', async () => {
    await t.app.services.jobs.stop()
    const n = 3000
    const size = 100
    await t.handle.db.execute(sql`insert into leads (name, email) select 'Lead ' || i, 'lead' || i || '@plan.example' from generate_series(1, ${n}) as s(i)`)
    const form = await multipart({ title: 'Many', content: 'To everyone', selectall: 'true' })
    const response = await t.app.inject({ method: 'POST', url: '/api/admin/addNotification', headers: { ...(await t.auth(t.superadmin)), ...form.headers }, payload: form.payload })
    const id = String(bodyOf(response)['_id'])
    // Each statement the worker sends is first explained with ANALYZE in a rolled-back
    // transaction: the rows each plan node read and then threw away, per statement.
    const wasted: number[] = []
    const db = t.handle.db
    const explaining = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop !== 'execute') return Reflect.get(target, prop, receiver) as unknown
        return async (query: SQL) => {
          await db
            .transaction(async (tx) => {
              const [row] = Explained.parse(await tx.execute(sql`explain (analyze, format json) ${query}`)).rows
              const plan = row?.['QUERY PLAN']
              wasted.push(removedRows(typeof plan === 'string' ? (JSON.parse(plan) as unknown) : plan))
              tx.rollback()
            })
            .catch((error: unknown) => {
              if (!(error instanceof TransactionRollbackError)) throw error
            })
          return db.execute(query)
        }
      },
    })
    const settings = { ...t.config.promotions, batchSize: size }
    const payload = DeliverPayload.parse({ promotionId: id, round: 1 })
    for (let i = 0; i < 3; i++) expect(await deliverBatch(deps(databaseTransport, { db: explaining, settings }), payload)).toBe('again')
    expect(await promotionRow(id)).toMatchObject({ total: n, sent: 3 * size, status: 'sending' })
    expect(wasted.length).toBeGreaterThanOrEqual(3)
    // A scan of the round filtered by the batch would throw away thousands of rows per claim.
    expect(Math.max(...wasted)).toBeLessThanOrEqual(size)
    t.app.services.jobs.start()
  })
})

const Explained = z.object({ rows: z.array(z.object({ 'QUERY PLAN': z.unknown() })) })

/** Rows that plan nodes read and then removed by a filter or a recheck, over all their loops. */
function removedRows(plan: unknown): number {
  if (Array.isArray(plan)) return plan.reduce((sum: number, p) => sum + removedRows(p), 0)
  if (typeof plan !== 'object' || plan === null) return 0
  const node = plan as Record<string, unknown>
  const loops = typeof node['Actual Loops'] === 'number' ? node['Actual Loops'] : 1
  const own = ['Rows Removed by Filter', 'Rows Removed by Index Recheck'].reduce((sum, key) => sum + (typeof node[key] === 'number' ? node[key] * loops : 0), 0)
  return own + Object.values(node).reduce((sum: number, v) => sum + (typeof v === 'object' ? removedRows(v) : 0), 0)
}

describe('progress throttle', () => {
  const progress = (sent: number, status: PromotionProgress['status'] = 'sending'): PromotionProgress => ({
    id: 'p1',
    round: 1,
    total: 100,
    excluded: 0,
    sent,
    failed: 0,
    pending: 100 - sent,
    status,
    lastSentAt: null,
  })

  it('sends at most one event per interval per promotion, the newest, and a final one at once', () => {
    vi.useFakeTimers()
    try {
      const sent: PromotionProgress[] = []
      const throttle = new ProgressThrottle((p) => sent.push(p), 500)
      throttle.push(progress(10))
      for (let n = 20; n <= 50; n += 10) throttle.push(progress(n))
      expect(sent.map((p) => p.sent)).toEqual([10])
      vi.advanceTimersByTime(499)
      expect(sent.map((p) => p.sent)).toEqual([10])
      vi.advanceTimersByTime(1)
      expect(sent.map((p) => p.sent)).toEqual([10, 50])
      vi.advanceTimersByTime(200)
      throttle.push(progress(60))
      throttle.push(progress(100, 'done'), true)
      expect(sent.map((p) => p.sent)).toEqual([10, 50, 100])
      vi.advanceTimersByTime(1000)
      expect(sent.map((p) => p.sent)).toEqual([10, 50, 100])
      // Another promotion has its own interval.
      throttle.push({ ...progress(5), id: 'p2' })
      expect(sent.map((p) => p.id)).toEqual(['p1', 'p1', 'p1', 'p2'])
      throttle.stop()
    } finally {
      vi.useRealTimers()
    }
  })
})
