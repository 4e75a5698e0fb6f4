/**
 * A big delete and its undo in short transactions (server/kit/request/undo.ts, decision 008): with a
 * batch of 10 rows, a promotion with 40 recipients, deliveries and notifications is a big one.
 * Other calls are answered between two batches; a run that stops halfway is finished the safe way
 * by the purge (the delete put back, the undo completed); the record cannot be deleted again, nor
 * its send changed, while its rows move.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { DELETE_INTERRUPTED, TRASH_BUSY, UNDO_UNDER_WAY } from '#contract/undo'
import { auditLog, brands, leadNotifications, leads, promotionDeliveries, promotionRecipients, promotions, trash, trashRows } from '../db/schema.ts'
import { DELIVER_JOB } from '../areas/promotions/delivery.ts'
import { promotionJobs } from '../areas/promotions/routes.ts'
import { bodyOf, makeTestApp, type TestApp } from './test-app.ts'
import { purgeAtStart, tuneTrash, type BatchStep } from '../kit/request/undo.ts'

let t: TestApp
let root: Record<string, string>

const BATCH = 10
const ROWS = 40

const post = (path: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...root, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
const get = (path: string, query: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/admin${path}`, query, headers: root })

function ticketOf(body: Record<string, unknown>): string {
  const undo = body['undo']
  if (typeof undo !== 'object' || undo === null || !('token' in undo) || typeof undo.token !== 'string') throw new Error(`no undo ticket in ${JSON.stringify(body)}`)
  return undo.token
}

/** A promise and its resolve: a run held between two batches until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {}
  const promise = new Promise<void>((resolve) => {
    open = resolve
  })
  return { promise, open }
}

/**
 * Holds the first run moving rows `state` after its batch `at` (a run finishing it goes by):
 * answers a promise that resolves once it is held, and the function that lets it go on.
 */
function holdAt(state: BatchStep['state'], at: number): { held: Promise<void>; release: () => void } {
  const reached = gate()
  const wait = gate()
  let holding: string | undefined
  tuneTrash({
    between: async (step) => {
      if (step.state !== state || step.batches !== at || holding !== undefined) return
      holding = step.entry
      reached.open()
      await wait.promise
    },
  })
  return { held: reached.promise, release: wait.open }
}

let made = 0

/** A promotion being sent, with ROWS leads as recipients, deliveries (half sent) and notifications. */
async function bigPromotion(): Promise<string> {
  made++
  const [promotion] = await t.handle.db
    .insert(promotions)
    .values({ title: `Big ${made}`, content: 'Sale', recipientCount: ROWS, total: ROWS, sent: ROWS / 2, status: 'sending' })
    .returning({ id: promotions.id })
  if (promotion === undefined) throw new Error('no promotion')
  const { id } = promotion
  await t.handle.db.execute(sql`insert into ${leads} (email) select 'big' || ${made} || '-' || i || '@example.com' from generate_series(1, ${ROWS}) i`)
  const fans = sql`select ${leads.id} as lead, ${leads.email} as email from ${leads} where ${leads.email} like ${`big${made}-%`}`
  await t.handle.db.execute(sql`insert into ${promotionRecipients} (promotion_id, lead_id, email) select ${id}, f.lead, f.email from (${fans}) f`)
  await t.handle.db.execute(sql`
    insert into ${promotionDeliveries} (promotion_id, lead_id, round, status, sent_at)
    select ${id}, f.lead, 1, case when row_number() over () % 2 = 0 then 'sent' else 'pending' end, case when row_number() over () % 2 = 0 then now() end
    from (${fans}) f`)
  await t.handle.db.execute(sql`insert into ${leadNotifications} (promotion_id, lead_id, round, title, content) select ${id}, f.lead, 1, 'Big', 'Sale' from (${fans}) f`)
  return id
}

/** Everything the promotion is, in a stable order. */
async function state(id: string) {
  const { db } = t.handle
  return {
    promotion: await db.select().from(promotions).where(eq(promotions.id, id)),
    recipients: await db.select().from(promotionRecipients).where(eq(promotionRecipients.promotionId, id)).orderBy(asc(promotionRecipients.leadId)),
    deliveries: await db.select().from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, id)).orderBy(asc(promotionDeliveries.leadId)),
    notifications: await db.select().from(leadNotifications).where(eq(leadNotifications.promotionId, id)).orderBy(asc(leadNotifications.leadId)),
  }
}

const entriesOf = (id: string) => t.handle.db.select().from(trash).where(eq(trash.recordId, id))
const expireRuns = () => t.handle.db.update(trash).set({ expiresAt: sql`now() - interval '1 second'` }).where(sql`${trash.state} <> 'kept'`)

beforeAll(async () => {
  t = await makeTestApp()
  root = await t.auth(t.superadmin)
  tuneTrash({ batch: BATCH })
})
afterEach(() => {
  tuneTrash({ between: undefined })
})
afterAll(async () => {
  tuneTrash({ batch: undefined })
  await t.close()
})

describe('a big delete and its undo, a batch per transaction', () => {
  it('answers other calls between two batches of the delete and of the undo', async () => {
    const id = await bigPromotion()
    const before = await state(id)
    const batches: Partial<Record<BatchStep['state'], number>> = {}
    const answeredAfter: Partial<Record<BatchStep['state'], number>> = {}
    const statuses: number[] = []
    tuneTrash({
      between: (step) => {
        batches[step.state] = step.batches
        // Asked after the first batch, not waited for: the run goes on meanwhile.
        if (step.batches !== 1) return
        void get('/listNotification', { page: '1', limit: '10' }).then((res) => {
          statuses.push(res.statusCode)
          answeredAfter[step.state] = batches[step.state]
        })
      },
    })
    const deleted = bodyOf(await post('/DeletePromotion', { id }))
    expect(deleted).toMatchObject({ status: 'success', message: 'Promotion deleted successfully' })
    expect(await state(id)).toEqual({ promotion: [], recipients: [], deliveries: [], notifications: [] })
    const undone = bodyOf(await post('/undo', { token: ticketOf(deleted) }))
    expect(undone).toEqual({ status: 'success', message: 'Promotion restored successfully' })
    expect(await state(id)).toEqual(before)
    expect(await entriesOf(id)).toEqual([])

    // Each list call was answered while its run still had batches to go.
    expect(statuses).toEqual([200, 200])
    expect(answeredAfter.taking).toBeLessThan(batches.taking ?? 0)
    expect(answeredAfter.restoring).toBeLessThan(batches.restoring ?? 0)
    // 3 parts of 40 rows, 10 a batch: the rows moved in many transactions, both ways.
    expect(batches.taking).toBeGreaterThanOrEqual(12)
    expect(batches.restoring).toBeGreaterThanOrEqual(12)
  })

  it('puts back the rows of a delete whose run stopped halfway, at the next start', async () => {
    const id = await bigPromotion()
    const before = await state(id)
    const { held, release } = holdAt('taking', 5)
    const deleting = post('/DeletePromotion', { id })
    await held
    // Halfway: the notifications are in the trash, the promotion is still listed.
    const [entry] = await entriesOf(id)
    expect(entry?.state).toBe('taking')
    expect(await t.handle.db.$count(leadNotifications, eq(leadNotifications.promotionId, id))).toBe(0)
    expect((await state(id)).promotion).toEqual(before.promotion)

    // The server stops here: no batch renews the lease, which passes; the next start finishes it.
    await expireRuns()
    await purgeAtStart(t.app.services)
    await vi.waitFor(async () => expect(await entriesOf(id)).toEqual([]), { timeout: 20_000, interval: 50 })
    expect(await state(id)).toEqual(before)
    expect(await t.handle.db.$count(trashRows, eq(trashRows.entry, entry?.id ?? ''))).toBe(0)

    // The stalled run finds its entry taken over: it moves nothing more and says so.
    release()
    const answer = await deleting
    expect(answer.statusCode).toBe(503)
    expect(bodyOf(answer)['message']).toBe(DELETE_INTERRUPTED)
    expect(await state(id)).toEqual(before)
  })

  it('puts back at once the rows of a delete that fails halfway', async () => {
    const id = await bigPromotion()
    const before = await state(id)
    tuneTrash({
      between: (step) => {
        if (step.state === 'taking' && step.batches === 6) throw new Error('the database went away')
      },
    })
    const answer = await post('/DeletePromotion', { id })
    expect(answer.statusCode).toBe(500)
    expect(await state(id)).toEqual(before)
    expect(await entriesOf(id)).toEqual([])
  })

  it('completes an undo whose run stopped halfway, at the next start, and records it', async () => {
    const id = await bigPromotion()
    const before = await state(id)
    const token = ticketOf(bodyOf(await post('/DeletePromotion', { id })))
    const { held, release } = holdAt('restoring', 4)
    const undoing = post('/undo', { token })
    await held
    // Halfway: the promotion is listed again, with part of its rows.
    expect((await state(id)).promotion).toEqual(before.promotion)
    expect(await t.handle.db.$count(promotionDeliveries, eq(promotionDeliveries.promotionId, id))).toBeLessThan(ROWS)
    const again = await post('/undo', { token })
    expect(again.statusCode).toBe(409)
    expect(bodyOf(again)['message']).toBe(UNDO_UNDER_WAY)

    await expireRuns()
    await purgeAtStart(t.app.services)
    await vi.waitFor(async () => expect(await entriesOf(id)).toEqual([]), { timeout: 20_000, interval: 50 })
    expect(await state(id)).toEqual(before)
    expect(await t.handle.db.$count(auditLog, and(eq(auditLog.action, '/undo'), eq(auditLog.recordId, id), eq(auditLog.adminId, t.superadmin.id)))).toBe(1)

    // The stalled run finds the undo done: it answers as the undo did happen.
    release()
    expect(bodyOf(await undoing)).toEqual({ status: 'success', message: 'Promotion restored successfully' })
    expect(await state(id)).toEqual(before)
  })

  it('refuses a second delete, a Resend and a cancel while the rows move, and holds the send', async () => {
    const id = await bigPromotion()
    const before = await state(id)
    const deliver = promotionJobs.find((job) => job.kind === DELIVER_JOB)
    if (deliver === undefined) throw new Error('no delivery job')
    const runJob = () => deliver.run({ promotionId: id, round: 1, lane: 0 }, { id: 'test', kind: deliver.kind, attempt: 1 }, t.app.services)
    const refusals = async () => {
      for (const [path, payload] of [
        ['/DeletePromotion', { id }],
        ['/ResendData', { id, round: 1, only: 'all' }],
        ['/cancelPromotion', { id }],
      ] as const) {
        const res = await post(path, payload)
        expect(res.statusCode, path).toBe(409)
        expect(bodyOf(res)['message'], path).toBe(TRASH_BUSY)
      }
      // The delivery job sends nothing while the rows move: it looks again later.
      expect(await runJob()).toEqual({ retryInMs: expect.any(Number) })
    }

    const taking = holdAt('taking', 3)
    const deleting = post('/DeletePromotion', { id })
    await taking.held
    await refusals()
    taking.release()
    const token = ticketOf(bodyOf(await deleting))

    const restoring = holdAt('restoring', 3)
    const undoing = post('/undo', { token })
    await restoring.held
    await refusals()
    restoring.release()
    expect(bodyOf(await undoing)).toMatchObject({ status: 'success' })
    expect(await state(id)).toEqual(before)
  })

  it("keeps a brand's edit and a lead given the brand while its leads' references move", async () => {
    const [brand] = await t.handle.db.insert(brands).values({ brandname: 'Moving brand', type: 'ipfs' }).returning()
    if (brand === undefined) throw new Error('no brand')
    await t.handle.db.execute(sql`insert into ${leads} (email, brand_id) select 'fan' || i || '@moving.example', ${brand.id} from generate_series(1, ${ROWS}) i`)
    const fans = async () => (await t.handle.db.select({ id: leads.id }).from(leads).where(eq(leads.brandId, brand.id)).orderBy(asc(leads.id))).map((l) => l.id)
    const { held, release } = holdAt('taking', 2)
    const deleting = post('/deleteBrand', { id: brand.id })
    await held
    expect(bodyOf(await post('/editbrandUser', { _id: brand.id, brandname: 'Renamed brand', type: 'ipfs', version: brand.version }))).toMatchObject({ status: 'success' })
    const [late] = await t.handle.db.insert(leads).values({ email: 'late@moving.example', brandId: brand.id }).returning({ id: leads.id })
    release()
    const token = ticketOf(bodyOf(await deleting))
    expect(await fans()).toEqual([])

    expect(bodyOf(await post('/undo', { token }))).toMatchObject({ status: 'success', message: 'Brand restored successfully' })
    const [back] = await t.handle.db.select().from(brands).where(eq(brands.id, brand.id))
    expect(back?.brandname).toBe('Renamed brand')
    expect(await fans()).toHaveLength(ROWS + 1)
    expect(await fans()).toContain(late?.id)
  })

  it('brings a promotion back without the rows of a lead deleted meanwhile, as that delete would have', async () => {
    const id = await bigPromotion()
    const before = await state(id)
    const token = ticketOf(bodyOf(await post('/DeletePromotion', { id })))
    const [gone] = before.notifications
    await t.handle.db.delete(leads).where(eq(leads.id, gone?.leadId ?? ''))
    expect(bodyOf(await post('/undo', { token }))).toMatchObject({ status: 'success' })
    const after = await state(id)
    expect(after.notifications).toEqual(before.notifications.filter((n) => n.leadId !== gone?.leadId))
    // Recipients and deliveries name the lead without a foreign key: they are the send's record.
    expect(after.deliveries).toEqual(before.deliveries)
  })
})
