/**
 * Promotions (contract/promotions.ts): the filter step's users, Submit, the
 * list with delivery progress, the recipients, Resend, cancel and delete. The delivery itself is
 * durable work on the job queue (server/areas/promotions/delivery.ts).
 *
 * Submit freezes the recipients in the write's transaction with one `insert ... select` from the
 * leads the server finds (the checked ids, or with select all every lead matching the filter),
 * together with round 1's deliveries and its jobs: a rolled-back Submit queues nothing, and leads
 * added later are not included.
 *
 * Resend's duplicate guard is the round: the request names the round the admin saw, the promotion
 * row is locked, and a round is started only while that round is still the current one. Round
 * numbers are never reused, and the deliveries' primary key (promotion, lead, round) keeps each
 * round's send record for good, so a repeat of the same request can never start a second round.
 *
 * Four eyes (server/kit/rules/four-eyes.ts): a round (Submit's or a Resend's) to more recipients than
 * FOUR_EYES_THRESHOLD stores its deliveries as usual but queues no job: the promotion waits with
 * status `awaiting` until another administrator approves (the round's jobs are queued then, as
 * the request would have queued them) or rejects it (its deliveries are cancelled unsent).
 */
import { Readable } from 'node:stream'
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import { plural } from '#contract/common'
import * as promotionsContract from '#contract/promotions'
import { promotionsBulk } from '#contract/bulk'
import { EXCLUSION_REASONS } from '#contract/forecast'
import type { Promotion, PromotionProgress, PromotionUser, UserFilter } from '#contract/promotions'
import { ALREADY_APPROVED, ALREADY_REJECTED } from '#contract/four-eyes'
import { SocketEvents } from '#contract/socket'
import { defineJob, handlers, type Ctx } from '../../kit/request/handlers.ts'
import { failure, notFound } from '../../kit/request/answers.ts'
import { type Services } from '../../kit/ground/services.ts'
import { COUNTRIES, countryNamed } from '../../kit/rules/countries.ts'
import { deleting } from '../../kit/request/delete.ts'
import { moving, refuseWhileMoving, restorable } from '../../kit/request/undo.ts'
import { adminNames, announceRequest, approvalNeed, approvalsOf, decisionDetail, decisionOn, forgetRequest, requestSend } from '../../kit/rules/four-eyes.ts'
import { caseless, containsPattern, listPage, offsetOf } from '../../kit/request/paging.ts'
import { uploadUrl } from '../../kit/ground/uploads.ts'
import { exactCount } from '../../kit/ground/row-counts.ts'
import { defineBulk } from '../../kit/request/bulk.ts'
import type { Db } from '../../db/index.ts'
import { leads, promotionDeliveries, promotionRecipients, promotions, type PromotionRow } from '../../db/schema.ts'
import type { Realtime } from '../../kit/ground/realtime.ts'
import { DELIVER_JOB, DeliverPayload, ProgressThrottle, deliverBatch, notHeld, progressOf, queueRound, transportFor, type DeliveryDeps } from './delivery.ts'
import { leadSearch } from '../../kit/rules/leads-search.ts'
import { forecast, forecastCsv, forecastLeads, forecastMessage, rulesFor, type Audience } from '../../kit/rules/audience.ts'
import { FileAnswer } from '../../kit/request/answers.ts'
import { testMailLimit, testMailSent } from '../../kit/rules/mail/test-mail.ts'
import { promotionTestMail } from './test-mail.ts'
import { ALREADY_STARTED, SEND_AT_REQUIRED } from '#contract/send-later'
import { auditStart, sendAtOf, utcWords } from '../../kit/rules/send-later.ts'
import { announceRequestOf, requestSendAs } from '../../kit/rules/four-eyes.ts'
import { admins } from '../../db/schema.ts'
import type { JobQueue } from '../../kit/ground/queue.ts'

export const PROMOTION_ADDED = 'Promotion added successfully'
export const PROMOTION_DELETED = 'Promotion deleted successfully'
export const NO_MATCHING_USER = 'No user matches the filter'
export const STILL_SENDING = 'This promotion is still being sent'
export const RESEND_REPEATED = 'This resend has already been started'
export const NO_FAILED_DELIVERY = 'No failed delivery to send again'
export const INCORRECT_FORMAT = 'Incorrect format'
export const AWAITING_RESEND = 'This promotion is waiting for approval'
export const PROMOTION_SCHEDULED = 'Promotion scheduled'
export const SCHEDULED_CANCELLED = 'Scheduled promotion cancelled: nothing was sent'
export const NOT_STARTED_YET = 'This promotion is scheduled and has not been sent yet'

const countryNames = new Map(COUNTRIES.map((c) => [c.code, c.name]))

/**
 * A deleted promotion comes back with its recipients, deliveries and notifications (undo,
 * server/kit/request/undo.ts); one deleted while being sent is queued again and goes on where it was
 * (its jobs wait while its deliveries are still on their way back).
 */
const promotionTrash = restorable({
  name: 'promotions',
  table: promotions,
  endpoint: promotionsContract.DeletePromotion,
  restored: 'Promotion restored successfully',
  afterRestore: async (db, ctx, id) => {
    const [row] = await db.select({ round: promotions.round, status: promotions.status, scheduledAt: promotions.scheduledAt }).from(promotions).where(eq(promotions.id, id))
    // A scheduled one's start job found it gone: it gets another, at its time (at once if that has passed).
    if (row?.status === 'scheduled' && row.scheduledAt !== null) {
      await scheduleStart(db, ctx.jobs, id, row.scheduledAt)
      ctx.afterSuccess(() => ctx.jobs.wake())
      return
    }
    if (row === undefined || (row.status !== 'queued' && row.status !== 'sending')) return
    await queueRound(db, ctx.jobs, id, row.round)
    ctx.afterSuccess(() => ctx.jobs.wake())
  },
})

/** How soon a delivery job looks again while its promotion's rows move into or out of the trash. */
const MOVING_RETRY_MS = 1000

/**
 * The leads a filter matches. `email` is a case-insensitive part of the address: the first
 * condition is the leads search expression, answered by its trigram index (an email containing the
 * term makes the search text contain it too); the second keeps the matches in the email itself.
 * Provider and country use leads_provider_idx and leads_country_provider_idx.
 */
export function leadFilter(filter: UserFilter): SQL | undefined {
  const conditions: SQL[] = []
  if (filter.email !== '') {
    const search = leadSearch(filter.email)
    if (search !== undefined) conditions.push(search)
    conditions.push(sql`lower(${leads.email}) like ${containsPattern(filter.email)}`)
  }
  if (filter.provider !== '') conditions.push(eq(leads.provider, filter.provider))
  if (filter.country !== '') {
    const country = countryNamed(filter.country)
    // listCountry offers every name this accepts; anything else was not picked from it.
    if (country === undefined) throw failure(INCORRECT_FORMAT, { country: INCORRECT_FORMAT })
    conditions.push(eq(leads.country, country.code))
  }
  return conditions.length === 0 ? undefined : and(...conditions)
}

/** The leads a Submit reaches: the checked ids, or with select all those the filter matches. */
function selectionOf(input: UserFilter & { id: readonly string[]; selectall: boolean }): SQL | undefined {
  if (input.selectall) return leadFilter(input)
  return sql`${leads.id} = any(${sql.param([...new Set(input.id)])}::text[])`
}

/** The leads a Submit with this selection would freeze, as the forecast judges them (server/kit/rules/audience.ts). */
async function selectionAudience(db: Db, input: promotionsContract.PromotionAudience): Promise<Audience> {
  const where = selectionOf(input)
  return {
    rows: sql`select ${leads.id} as lead_id, ${leads.name} as name, ${leads.email} as email, ${leads.country} as country, ${leads.subscribed} as subscribed
      from ${leads} ${where === undefined ? sql`` : sql`where ${where}`}`,
    rules: await rulesFor(db, 'promotion'),
  }
}

/** A stored promotion's recipients (the addresses frozen at Submit, the leads as they stand), or a 404. */
async function storedAudience(db: Db, id: string): Promise<Audience> {
  const [row] = await db.select({ id: promotions.id }).from(promotions).where(eq(promotions.id, id))
  if (row === undefined) throw notFound('id')
  return {
    rows: sql`select r.lead_id, coalesce(l.name, '') as name, r.email, l.country, l.subscribed
      from ${promotionRecipients} r left join ${leads} l on l.id = r.lead_id where r.promotion_id = ${id}`,
    rules: await rulesFor(db, 'promotion'),
  }
}

const audienceOf = (db: Db, input: promotionsContract.PromotionAudience & { promotion: string }): Promise<Audience> =>
  input.promotion === '' ? selectionAudience(db, input) : storedAudience(db, input.promotion)

const toUser = (row: { id: string; name: string; email: string; provider: string; country: string }): PromotionUser => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  provider: row.provider,
  country: countryNames.get(row.country) ?? '',
})

const toPromotion = (row: PromotionRow, approval: Promotion['approval'], createdBy: string): Promotion => {
  const { id: _id, ...progress } = progressOf(row)
  return {
    _id: row.id,
    title: row.title,
    content: row.content,
    image: row.image === '' ? '' : uploadUrl(row.image),
    selectall: row.selectall,
    createdAt: row.createdAt.toISOString(),
    recipientCount: row.recipientCount,
    createdBy,
    ...progress,
    approval,
    scheduledAt: row.scheduledAt === null ? null : row.scheduledAt.toISOString(),
  }
}


/** A round's record in the four-eyes window (server/kit/rules/four-eyes.ts). */
const roundRef = (id: string, round: number): string => `promotion:${id}:${round}`

/**
 * Starts round `round` of a promotion whose deliveries are stored: its jobs are queued (woken
 * after the commit), or, over the four-eyes threshold, the promotion waits for another Admin with
 * `me` as the requester (and the other administrators are told). Answers whether it waits.
 */
async function startRound(ctx: Ctx, send: { id: string; title: string }, round: number, total: number): Promise<boolean> {
  const { id } = send
  const me = ctx.me()
  const request = await requestSend(ctx, roundRef(id, round), total)
  if (request.waits) {
    await ctx.db.update(promotions).set({ status: 'awaiting', approvalRequestedBy: me.id, approvalDecidedBy: null, approvalDecidedAt: null }).where(eq(promotions.id, id))
    ctx.auditDetail(request.detail)
    announceRequest(ctx, { kind: 'promotion', id, title: send.title, total })
    return true
  }
  await ctx.db.update(promotions).set({ approvalRequestedBy: null, approvalDecidedBy: null, approvalDecidedAt: null }).where(eq(promotions.id, id))
  await queueRound(ctx.db, ctx.jobs, id, round)
  ctx.afterSuccess(() => ctx.jobs.wake())
  return false
}

/** The promotion locked for a decision on its round `round` (the one the admin saw), or a 404. */
async function promotionToDecide(ctx: Ctx, id: string, round: number): Promise<PromotionRow> {
  const [row] = await ctx.db.select().from(promotions).where(eq(promotions.id, id)).for('update')
  if (row === undefined) throw notFound()
  if (round !== row.round) throw failure(INCORRECT_FORMAT, { round: INCORRECT_FORMAT })
  await refuseWhileMoving(ctx.db, promotionTrash, id)
  return row
}

const ReasonOrNone = z.union([z.enum(EXCLUSION_REASONS), z.literal('')])

const Count = z.object({ rows: z.array(z.object({ n: z.coerce.number() })) })

/**
 * Stores the recipients of a new promotion and round 1's deliveries in one statement, from the
 * leads `where` matches (all leads when undefined; a lead is one row, so no conflict check is
 * needed); answers how many.
 */
async function freezeRecipients(db: Db, promotionId: string, where: SQL | undefined): Promise<number> {
  const result = await db.execute(sql`
    with recipients as (
      insert into ${promotionRecipients} (promotion_id, lead_id, email)
      select ${promotionId}, ${leads.id}, ${leads.email} from ${leads} ${where === undefined ? sql`` : sql`where ${where}`}
      returning lead_id
    ), deliveries as (
      insert into ${promotionDeliveries} (promotion_id, lead_id, round)
      select ${promotionId}, lead_id, 1 from recipients
      returning 1
    )
    select count(*) as n from deliveries`)
  return Count.parse(result).rows[0]?.n ?? 0
}

/** Socket progress per app (one throttle per Realtime), to admins who may open /notificationlist. */
const throttles = new WeakMap<Realtime, ProgressThrottle>()
function announce(realtime: Realtime | null, progress: PromotionProgress, final: boolean): void {
  if (realtime === null) return
  let throttle = throttles.get(realtime)
  if (throttle === undefined) {
    throttle = new ProgressThrottle((p) => realtime.toScreen('/notificationlist', SocketEvents.promotionProgress, p))
    throttles.set(realtime, throttle)
  }
  throttle.push(progress, final)
}

/** The delivery worker's parts, built once per app. */
const deps = new WeakMap<Services, DeliveryDeps>()
function deliveryDeps(services: Services): DeliveryDeps {
  let built = deps.get(services)
  if (built === undefined) {
    const { config, handle } = services
    built = {
      db: handle.db,
      settings: config.promotions,
      transport: transportFor(config.promotions, config.publicUrl),
      leaseMs: config.jobs.leaseMs,
      progress: (progress, final) => announce(services.realtime, progress, final),
    }
    deps.set(services, built)
  }
  return built
}

export const START_JOB = 'promotion.start'

/** Adds the start job of a promotion scheduled for `at` with `db` (the write's transaction). */
async function scheduleStart(db: Db, jobs: JobQueue, promotionId: string, at: Date): Promise<void> {
  await jobs.add(db, START_JOB, { promotionId }, { runAt: at })
}

const StartPayload = z.object({ promotionId: z.string() })
const StoredAudience = z.object({ email: z.string(), provider: z.enum(['', 'web3auth', 'ipfs']), country: z.string(), id: z.array(z.string()) })

/**
 * Starts a scheduled promotion whose time has come (server/kit/rules/send-later.ts), as a Submit made
 * then would: its recipients frozen from the stored selection as the leads stand now, round 1's
 * deliveries queued, or over the four-eyes threshold left awaiting another Admin in the name of
 * the admin who scheduled it. One cancelled, started, deleted or moved later is left alone.
 */
async function startScheduled(services: Services, promotionId: string): Promise<void> {
  const { config, jobs } = services
  const started = await services.handle.db.transaction(async (tx) => {
    const [row] = await tx
      .update(promotions)
      .set({ status: 'queued' })
      .where(and(eq(promotions.id, promotionId), eq(promotions.status, 'scheduled'), sql`${promotions.scheduledAt} <= now()`))
      .returning()
    if (row === undefined) return null
    // The delete's trash holds a promotion's rows while they move: its start waits for the move.
    if (await moving(tx, promotionTrash, promotionId)) throw new Error('the promotion is moving into or out of the trash')
    const audience = StoredAudience.parse(row.audience ?? { email: '', provider: '', country: '', id: [] })
    const [requester] = row.createdBy === null ? [] : await tx.select({ id: admins.id, name: admins.name }).from(admins).where(eq(admins.id, row.createdBy))
    const total = requester === undefined ? 0 : await freezeRecipients(tx, promotionId, selectionOf({ ...audience, selectall: row.selectall }))
    if (requester === undefined || total === 0) {
      // Nobody to send it to, or no admin left to answer for it: it ends unsent, as Submit would refuse it.
      const [ended] = await tx.update(promotions).set({ status: 'cancelled', cancelledAt: sql`now()` }).where(eq(promotions.id, promotionId)).returning()
      const why = requester === undefined ? 'the admin who scheduled it is no longer listed' : row.selectall ? NO_MATCHING_USER : 'none of its users is left'
      await auditStart(tx, { adminId: row.createdBy, action: '/addNotification', recordId: promotionId, detail: `not sent: ${why}` })
      return ended === undefined ? null : { row: ended, waits: false, requester: null }
    }
    await tx.update(promotions).set({ recipientCount: total, total }).where(eq(promotions.id, promotionId))
    const request = await requestSendAs(tx, config, requester.id, roundRef(promotionId, 1), total)
    if (request.waits) {
      const [waiting] = await tx.update(promotions).set({ status: 'awaiting', approvalRequestedBy: requester.id }).where(eq(promotions.id, promotionId)).returning()
      await auditStart(tx, { adminId: requester.id, action: '/addNotification', recordId: promotionId, detail: request.detail })
      return waiting === undefined ? null : { row: waiting, waits: true, requester }
    }
    await queueRound(tx, jobs, promotionId, 1)
    await auditStart(tx, { adminId: requester.id, action: '/addNotification', recordId: promotionId, detail: `on its way to ${total} recipients` })
    return { row: { ...row, total, recipientCount: total }, waits: false, requester }
  })
  if (started === null) return
  announce(services.realtime, progressOf(started.row), true)
  if (started.waits && started.requester !== null) {
    announceRequestOf(services.realtime, started.requester, { kind: 'promotion', id: promotionId, title: started.row.title, total: started.row.total })
  } else jobs.wake()
}

/** The delivery and start jobs (declared with the routes in this area's index.ts). */
export const promotionJobs = [
  defineJob(START_JOB, async (payload, _job, services) => startScheduled(services, StartPayload.parse(payload).promotionId)),
  defineJob(
    DELIVER_JOB,
    async (payload, _job, services) => {
      const p = DeliverPayload.parse(payload)
      // A delete under way stops the send here (the promotion is gone once it is kept); an undo
      // under way holds it until every delivery is back, or the round would look finished.
      if (await moving(services.handle.db, promotionTrash, p.promotionId)) return { retryInMs: MOVING_RETRY_MS }
      return deliverBatch(deliveryDeps(services), p)
    },
    {
    // A run fails only when the database does (a failed batch is recorded and retried by its
    // own backoff), so the job keeps trying for about an hour before it is kept as failed.
      maxAttempts: 20,
      backoffBaseMs: 1000,
      backoffMaxMs: 5 * 60_000,
    },
  ),
]

/** Newest first, id as the tie-break, so pages never overlap. */
const newestLeads = [desc(leads.createdAt), desc(leads.id)] as const

/**
 * Bulk actions on promotions (contract/bulk.ts), by the list's search and status filter. Cancel
 * calls off those scheduled (nothing was sent: their start job finds them no longer scheduled);
 * its undo schedules again only those whose time has not come. Delete is the single delete's, a
 * record at a time.
 */
defineBulk({
  calls: promotionsBulk,
  list: promotionsContract.listNotification,
  table: promotions,
  id: promotions.id,
  name: promotions.title,
  order: [desc(promotions.createdAt), desc(promotions.id)],
  search: [promotions.title, promotions.content],
  filter: ({ status }) => (status === '' ? undefined : eq(promotions.status, status)),
  actions: {
    cancel: {
      set: { column: promotions.status, to: 'cancelled' },
      also: [{ column: promotions.cancelledAt, to: sql`now()`, back: sql`null` }],
      skip: [{ when: sql`${promotions.status} <> 'scheduled'`, reason: 'notScheduled' }],
      undoIf: sql`${promotions.scheduledAt} > now()`,
    },
    delete: { delete: { trash: promotionTrash, remove: (db, ids) => db.delete(promotions).where(inArray(promotions.id, [...ids])).returning({ id: promotions.id }) } },
  },
})

export const promotionsRoutes = handlers(promotionsContract, {
  FilterOption: async ({ page, limit, data, selectall }, ctx) => {
    // "data ... or selectall": select all lists every user whatever the filter says.
    const where = selectall ? undefined : leadFilter(data)
    const [rows, count] = await Promise.all([
      ctx.db
        .select({ id: leads.id, name: leads.name, email: leads.email, provider: leads.provider, country: leads.country })
        .from(leads)
        .where(where)
        .orderBy(...newestLeads)
        .limit(limit)
        .offset(offsetOf(page, limit)),
      exactCount(ctx.db, leads, where),
    ])
    return { status: 'success', message: 'Users fetched', data: rows.map(toUser), count }
  },

  countRecipients: async (input, ctx) => {
    const count = await exactCount(ctx.db, leads, selectionOf(input))
    return { status: 'success', message: `${count} ${count === 1 ? 'user' : 'users'} will receive this promotion`, count, ...(await approvalNeed(ctx, count)) }
  },

  forecastPromotion: async (input, ctx) => {
    const answer = await forecast(ctx.db, await selectionAudience(ctx.db, input))
    return { status: 'success', message: forecastMessage(answer), ...answer }
  },

  forecastPromotionRound: async ({ id }, ctx) => {
    const answer = await forecast(ctx.db, await storedAudience(ctx.db, id))
    return { status: 'success', message: forecastMessage(answer), ...answer }
  },

  forecastPromotionLeads: async (input, ctx) => {
    const { result, count } = await forecastLeads(ctx.db, await audienceOf(ctx.db, input), input.reason, input.page, input.limit)
    return { status: 'success', message: 'Leads left out', result, count }
  },

  forecastPromotionCsv: async (input, ctx) => {
    const audience = await audienceOf(ctx.db, input)
    return new FileAnswer('left-out.csv', 'text/csv; charset=utf-8', Readable.from(forecastCsv(ctx.handle.db, audience, input.reason), { objectMode: false }))
  },

  addNotification: async (input, ctx) => {
    const where = selectionOf(input)
    const image = ctx.files['image']?.[0]?.name ?? ''
    const later = sendAtOf(input.sendAt)
    if (later !== null) {
      // Refused now as it would be then, though the audience is frozen again at its time.
      if ((await exactCount(ctx.db, leads, where)) === 0) {
        const message = input.selectall ? NO_MATCHING_USER : promotionsContract.SELECT_A_USER
        throw failure(message, { id: message })
      }
      const audience = { email: input.email, provider: input.provider, country: input.country, id: input.selectall ? [] : [...new Set(input.id)] }
      const [row] = await ctx.db
        .insert(promotions)
        .values({ title: input.title, content: input.content, image, selectall: input.selectall, createdBy: ctx.me().id, recipientCount: 0, total: 0, status: 'scheduled', scheduledAt: later, audience })
        .returning({ id: promotions.id })
      if (row === undefined) throw new Error('insert returned no row')
      await scheduleStart(ctx.db, ctx.jobs, row.id, later)
      ctx.audit(row.id)
      ctx.auditDetail(`Scheduled for ${utcWords(later)}`)
      return { status: 'success', message: `${PROMOTION_SCHEDULED} for ${utcWords(later)}`, _id: row.id, total: 0, awaitingApproval: false, scheduledAt: later.toISOString() }
    }
    const [row] = await ctx.db
      .insert(promotions)
      .values({ title: input.title, content: input.content, image, selectall: input.selectall, createdBy: ctx.me().id, recipientCount: 0, total: 0 })
      .returning({ id: promotions.id })
    if (row === undefined) throw new Error('insert returned no row')
    const total = await freezeRecipients(ctx.db, row.id, where)
    // Thrown, not returned: the write's transaction rolls back and the image is discarded.
    if (total === 0) {
      const message = input.selectall ? NO_MATCHING_USER : promotionsContract.SELECT_A_USER
      throw failure(message, { id: message })
    }
    await ctx.db.update(promotions).set({ recipientCount: total, total }).where(eq(promotions.id, row.id))
    const awaitingApproval = await startRound(ctx, { id: row.id, title: input.title }, 1, total)
    ctx.audit(row.id)
    const message = awaitingApproval ? `${PROMOTION_ADDED}: it goes to ${plural(total, 'user')} once another Admin approves it` : PROMOTION_ADDED
    return { status: 'success', message, _id: row.id, total, awaitingApproval, scheduledAt: null }
  },

  reschedulePromotion: async ({ id, sendAt }, ctx) => {
    const [current] = await ctx.db.select({ status: promotions.status }).from(promotions).where(eq(promotions.id, id)).for('update')
    if (current === undefined) throw notFound()
    await refuseWhileMoving(ctx.db, promotionTrash, id)
    if (current.status !== 'scheduled') throw failure(ALREADY_STARTED, { id: ALREADY_STARTED }, 409)
    const at = sendAtOf(sendAt)
    if (at === null) throw failure(SEND_AT_REQUIRED, { sendAt: SEND_AT_REQUIRED })
    await ctx.db.update(promotions).set({ scheduledAt: at }).where(eq(promotions.id, id))
    await scheduleStart(ctx.db, ctx.jobs, id, at)
    ctx.audit(id)
    ctx.auditDetail(`Scheduled for ${utcWords(at)}`)
    return { status: 'success', message: `The promotion is now scheduled for ${utcWords(at)}`, scheduledAt: at.toISOString() }
  },

  listNotification: async (query, ctx) => {
    const { rows, count } = await listPage(ctx.db, query, {
      rows: ctx.db.select().from(promotions).$dynamic(),
      search: [promotions.title, promotions.content],
      filter: query.status === '' ? undefined : eq(promotions.status, query.status),
      orderBy: [desc(promotions.createdAt), desc(promotions.id)],
      sort: { title: caseless(promotions.title) },
    })
    const approval = await approvalsOf(ctx.db, rows)
    const senders = await adminNames(ctx.db, rows.map((r) => r.createdBy))
    return { status: 'success', message: 'Promotions fetched', result: rows.map((r) => toPromotion(r, approval(r), senders.get(r.createdBy ?? '') ?? '')), count }
  },

  listnotfiyuser: async ({ id, page, limit }, ctx) => {
    const [promotion] = await ctx.db.select({ recipientCount: promotions.recipientCount }).from(promotions).where(eq(promotions.id, id))
    if (promotion === undefined) throw notFound()
    // Each recipient's latest delivery: the primary key (promotion, lead, round) read backwards.
    const latestOf = (column: SQL, fallback: string) => sql<string>`coalesce((
      select ${column} from ${promotionDeliveries}
      where ${promotionDeliveries.promotionId} = ${promotionRecipients.promotionId} and ${promotionDeliveries.leadId} = ${promotionRecipients.leadId}
      order by ${promotionDeliveries.round} desc limit 1), ${fallback})`
    const rows = await ctx.db
      .select({ _id: promotionRecipients.leadId, email: promotionRecipients.email, status: latestOf(sql`${promotionDeliveries.status}`, 'pending'), reason: latestOf(sql`${promotionDeliveries.reason}`, '') })
      .from(promotionRecipients)
      .where(eq(promotionRecipients.promotionId, id))
      .orderBy(promotionRecipients.email, promotionRecipients.leadId)
      .limit(limit)
      .offset(offsetOf(page, limit))
    const result = rows.map((r) => ({ ...r, status: promotionsContract.DeliveryStatus.parse(r.status), reason: ReasonOrNone.parse(r.reason) }))
    return { status: 'success', message: 'Recipients fetched', result, count: promotion.recipientCount }
  },

  ResendData: async ({ id, round, only }, ctx) => {
    // The lock makes two identical requests take turns: the second sees the round the first started.
    const [current] = await ctx.db.select().from(promotions).where(eq(promotions.id, id)).for('update')
    if (current === undefined) throw notFound()
    // A round for the recipients half moved into (or out of) the trash would miss the others.
    await refuseWhileMoving(ctx.db, promotionTrash, id)
    if (round < current.round) {
      return { status: 'success', message: RESEND_REPEATED, started: false, round: current.round, total: current.total, awaitingApproval: current.status === 'awaiting' }
    }
    if (round > current.round) throw failure(INCORRECT_FORMAT, { round: INCORRECT_FORMAT })
    if (current.status === 'queued' || current.status === 'sending') throw failure(STILL_SENDING)
    if (current.status === 'awaiting') throw failure(AWAITING_RESEND)
    if (current.status === 'scheduled') throw failure(NOT_STARTED_YET)
    const next = current.round + 1
    const source =
      only === 'failed'
        ? sql`select ${id}, ${promotionDeliveries.leadId}, ${next} from ${promotionDeliveries}
              where ${promotionDeliveries.promotionId} = ${id} and ${promotionDeliveries.round} = ${current.round} and ${promotionDeliveries.status} = 'failed'`
        : sql`select ${id}, ${promotionRecipients.leadId}, ${next} from ${promotionRecipients} where ${promotionRecipients.promotionId} = ${id}`
    const inserted = await ctx.db.execute(sql`
      with deliveries as (
        insert into ${promotionDeliveries} (promotion_id, lead_id, round) ${source}
        on conflict do nothing
        returning 1
      )
      select count(*) as n from deliveries`)
    const total = Count.parse(inserted).rows[0]?.n ?? 0
    if (total === 0) throw failure(NO_FAILED_DELIVERY)
    const [row] = await ctx.db
      .update(promotions)
      .set({ round: next, status: 'queued', total, sent: 0, failed: 0, excluded: 0, lastSentAt: null, cancelledAt: null })
      .where(eq(promotions.id, id))
      .returning()
    if (row === undefined) throw new Error('update returned no row')
    const awaitingApproval = await startRound(ctx, row, next, total)
    ctx.afterSuccess(() => announce(ctx.realtime, progressOf({ ...row, status: awaitingApproval ? 'awaiting' : row.status }), true))
    ctx.audit(id)
    const who = plural(total, only === 'failed' ? 'failed recipient' : 'recipient')
    const message = awaitingApproval ? `Resend to ${who} waits for another Admin's approval` : `Resend started to ${who}`
    return { status: 'success', message, started: true, round: next, total, awaitingApproval }
  },

  approvePromotion: async ({ id, round }, ctx) => {
    const current = await promotionToDecide(ctx, id, round)
    const me = ctx.me()
    ctx.audit(id)
    if (decisionOn(current, me, 'approve') === 'repeat') return { status: 'success', message: ALREADY_APPROVED, started: false, total: current.total }
    const [row] = await ctx.db
      .update(promotions)
      .set({ status: 'queued', approvalDecidedBy: me.id, approvalDecidedAt: sql`now()` })
      .where(eq(promotions.id, id))
      .returning()
    if (row === undefined) throw new Error('update returned no row')
    await queueRound(ctx.db, ctx.jobs, id, row.round)
    ctx.auditDetail(await decisionDetail(ctx.db, row.approvalRequestedBy, 'approve', row.total))
    ctx.afterSuccess(() => {
      ctx.jobs.wake()
      announce(ctx.realtime, progressOf(row), true)
    })
    return { status: 'success', message: `Approved: the promotion is on its way to ${plural(row.total, 'recipient')}`, started: true, total: row.total }
  },

  rejectPromotion: async ({ id, round }, ctx) => {
    const current = await promotionToDecide(ctx, id, round)
    const me = ctx.me()
    ctx.audit(id)
    if (decisionOn(current, me, 'reject') === 'repeat') return { status: 'success', message: ALREADY_REJECTED }
    // Deliveries first, then the promotion: the worker's lock order (no worker holds these: no job was queued).
    await ctx.db
      .update(promotionDeliveries)
      .set({ status: 'cancelled', lockedUntil: null })
      .where(and(eq(promotionDeliveries.promotionId, id), eq(promotionDeliveries.round, current.round), eq(promotionDeliveries.status, 'pending')))
    const [row] = await ctx.db
      .update(promotions)
      .set({ status: 'rejected', approvalDecidedBy: me.id, approvalDecidedAt: sql`now()` })
      .where(eq(promotions.id, id))
      .returning()
    if (row === undefined) throw new Error('update returned no row')
    await forgetRequest(ctx.db, roundRef(id, current.round))
    ctx.auditDetail(await decisionDetail(ctx.db, row.approvalRequestedBy, 'reject', row.total))
    ctx.afterSuccess(() => announce(ctx.realtime, progressOf(row), true))
    return { status: 'success', message: `Rejected: the promotion is not sent to its ${plural(row.total, 'recipient')}` }
  },

  cancelPromotion: async ({ id }, ctx) => {
    const [current] = await ctx.db.select({ round: promotions.round, status: promotions.status }).from(promotions).where(eq(promotions.id, id))
    if (current === undefined) throw notFound()
    // Deliveries on their way into or out of the trash would stay pending in a cancelled round.
    await refuseWhileMoving(ctx.db, promotionTrash, id)
    // Deliveries first, then the promotion: the worker's lock order. A batch a worker is
    // recording is waited for and counts as sent. A batch a worker holds (claimed, being handed
    // to the transport) is left to it: the webhook may have posted it already, and then it is
    // recorded as sent when the receiver answers (the database transport's is rolled back and
    // cancelled by its worker). Every other pending delivery is cancelled.
    const ofRound = and(eq(promotionDeliveries.promotionId, id), eq(promotionDeliveries.round, current.round), eq(promotionDeliveries.status, 'pending'))
    await ctx.db.update(promotionDeliveries).set({ status: 'cancelled', lockedUntil: null }).where(and(ofRound, notHeld))
    const inFlight = ctx.config.promotions.webhook === null ? 0 : await ctx.db.$count(promotionDeliveries, ofRound)
    const [cancelled] = await ctx.db
      .update(promotions)
      .set({ status: 'cancelled', cancelledAt: sql`now()` })
      // A round awaiting approval may be withdrawn too.
      .where(and(eq(promotions.id, id), eq(promotions.round, current.round), inArray(promotions.status, ['queued', 'sending', 'awaiting', 'scheduled'])))
      .returning()
    const [row] = cancelled === undefined ? await ctx.db.select().from(promotions).where(eq(promotions.id, id)) : [cancelled]
    if (row === undefined) throw notFound()
    ctx.audit(id)
    const { sent, failed, total } = row
    if (cancelled !== undefined) ctx.afterSuccess(() => announce(ctx.realtime, progressOf(cancelled), true))
    const posting = inFlight === 0 ? '' : `; ${inFlight} more ${inFlight === 1 ? 'was' : 'were'} being posted to the push service and will count as sent once it accepts them`
    // A scheduled one is called off before its time: its start job then finds it no longer scheduled.
    if (cancelled !== undefined && current.status === 'scheduled') return { status: 'success', message: SCHEDULED_CANCELLED, sent, failed, total }
    const message = cancelled === undefined ? `Nothing left to cancel: ${sent} of ${total} sent${posting}` : `Promotion cancelled: ${sent} of ${total} already sent${posting}`
    return { status: 'success', message, sent, failed, total }
  },

  // Its deliveries, recipients and notifications go into the trash first, deepest first (a batch
  // at a time for a big promotion), then the promotion; its delivery jobs wait meanwhile.
  DeletePromotion: deleting(({ id }) => ({
    id,
    message: PROMOTION_DELETED,
    trash: promotionTrash,
    remove: (db) => db.delete(promotions).where(eq(promotions.id, id)).returning({ id: promotions.id }),
  })),

  // To the admin only, in no send's group: no ledger, no progress, no frequency cap, no four eyes.
  sendTestPromotion: async ({ title, content }, ctx) => {
    const me = ctx.me()
    // The audit row names the mail: no other record was touched.
    ctx.audit(await ctx.sendMail({ to: me.email, template: 'promotion-test', ...promotionTestMail(title, content) }))
    ctx.auditDetail(`To ${me.email}: ${title}`)
    return { status: 'success', message: testMailSent(me.email) }
  },
}, { sendTestPromotion: testMailLimit })
