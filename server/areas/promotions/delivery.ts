/**
 * Promotion delivery: durable work on the job queue (server/kit/ground/queue.ts),
 * never a loop in a request.
 *
 * A round (Submit makes round 1, each Resend the next) stores one `promotion_deliveries` row per
 * recipient and queues `LANES` jobs `promotion.deliver` {promotionId, round, lane}. Each run of a
 * job does one batch:
 *
 * 1. claim: in a short transaction, lease up to `batchSize` pending rows (`FOR UPDATE SKIP
 *    LOCKED`, so lanes and instances take disjoint rows), stamping them with a new batch id, or
 *    take back one of this lane's batches that failed and is due again (it keeps its id);
 * 2. deliver: hand the batch to the transport, which calls `record` in the transaction of its own
 *    write (the database transport) or once the receiver has answered 2xx (the webhook);
 * 3. record: mark the batch sent and add to the promotion's counters, only while the promotion is
 *    still in this round and not cancelled; otherwise the transaction rolls back, so a cancelled or
 *    deleted promotion gets nothing more from the database transport.
 *
 * Cancel: the deliveries nobody holds are cancelled at once; a batch a worker holds (leased, being
 * handed to the transport) is left to that worker. The database transport writes its
 * notifications in the transaction that records the batch, so a batch recorded after the cancel
 * is rolled back and cancelled: nobody got it. The webhook records a batch only once the receiver
 * has taken it (`deliveredBeforeRecord`): such a batch reached the users whatever the cancel says,
 * so it is recorded and counted as sent (sent before the cancel took effect), and the promotion
 * stays cancelled. A batch whose post fails after the cancel is not tried again: it is cancelled.
 * So the counters always add up: sent + failed + excluded + the cancelled deliveries = total.
 *
 * Before a batch is handed over, the forecast's rules run again on its recipients
 * (server/kit/rules/audience.ts): those they leave out are marked `excluded` with their reason and
 * counted in `excluded`, in one transaction, and the rest go to the transport.
 *
 * A worker killed anywhere leaves leased rows that are taken again once the lease is over: the
 * database transport's unique key (promotion, lead, round) makes the second insert a no-op, so
 * every lead gets exactly one notification per round. The webhook is at-least-once: a batch the
 * receiver accepted just before the crash is posted again with the same `batchId`, which the
 * receiver uses to drop the repeat.
 *
 * A failed batch (the webhook's non-2xx or timeout, a database error) is retried with exponential
 * backoff and jitter (`next_attempt_at`), and its deliveries are marked failed after
 * `maxAttempts` tries. Lock order is always deliveries, then the promotion row (the cancel and the
 * delete follow it too), so no two of these wait on each other.
 */
import { createHmac, randomUUID } from 'node:crypto'
import { and, eq, inArray, ne, notInArray, sql, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import type { PromotionProgress } from '#contract/promotions'
import type { ExclusionReason } from '#contract/forecast'
import type { PromotionSettings } from '../../config.ts'
import type { Db } from '../../db/index.ts'
import { leadNotifications, leads, promotionDeliveries, promotionRecipients, promotions, type PromotionRow } from '../../db/schema.ts'
import { backoffDelay, type JobQueue, type JobResult } from '../../kit/ground/queue.ts'
import { ReasonColumn, duplicateOf, reasonOf, rulesFor } from '../../kit/rules/audience.ts'
import { uploadUrl } from '../../kit/ground/uploads.ts'

export const DELIVER_JOB = 'promotion.deliver'

/**
 * Jobs per round. Each claims its own batches, so two workers (of one instance or two) share a
 * large promotion; a lane only takes back its own failed batches, so a batch is never split.
 */
export const LANES = 2

/** One job per promotion, round and lane: adding it twice (a retried request) adds it once. */
export const deliveryJobKey = (promotionId: string, round: number, lane: number): string => `promotion:${promotionId}:round:${round}:lane:${lane}`

/** Queues a round's jobs with `db` (the transaction that stored its deliveries). Call `jobs.wake()` after commit. */
export async function queueRound(db: Db, jobs: JobQueue, promotionId: string, round: number): Promise<void> {
  for (let lane = 0; lane < LANES; lane++) await jobs.add(db, DELIVER_JOB, { promotionId, round, lane }, { key: deliveryJobKey(promotionId, round, lane) })
}

export const DeliverPayload = z.object({ promotionId: z.string(), round: z.number().int().min(1), lane: z.number().int().min(0).default(0) })
export type DeliverPayload = z.output<typeof DeliverPayload>

/** One batch as a transport receives it. */
export interface DeliveryBatch {
  /** `image` is the stored upload name, '' for none. */
  promotion: { id: string; title: string; content: string; image: string }
  round: number
  /** Stable across retries of the same recipients: the receiver's idempotency key. */
  batchId: string
  recipients: readonly { leadId: string; email: string }[]
}

/**
 * Marks a batch delivered with `tx`: every recipient is sent except those in `refused` (lead id to
 * the reason), which fail for good. Throws `DeliveryStopped` when the promotion was cancelled,
 * deleted or moved to another round meanwhile: the caller's transaction must then roll back.
 */
export type RecordResults = (tx: Db, refused?: ReadonlyMap<string, string>) => Promise<void>

/** Where deliveries go. `deliver` throws when the batch was not delivered (it is retried). */
export interface Transport {
  readonly name: string
  /**
   * Whether `record` runs after the recipients already have the batch (the webhook: after the
   * receiver's 2xx), rather than in the transaction that delivers it (the database transport,
   * whose notifications exist only if that transaction commits). A batch delivered before it is
   * recorded is recorded as sent even when the promotion was cancelled while it was on its way.
   */
  readonly deliveredBeforeRecord: boolean
  deliver(db: Db, batch: DeliveryBatch, record: RecordResults): Promise<void>
}

/** The promotion is no longer in the round being delivered: nothing of the batch is recorded. */
export class DeliveryStopped extends Error {
  constructor() {
    super('The promotion was cancelled, deleted or resent meanwhile')
  }
}

export const LEAD_GONE = 'The lead no longer exists'

const Ids = z.object({ rows: z.array(z.object({ id: z.string() })) })

/**
 * The default transport: the notification stored per lead (`lead_notifications`, what the
 * platform's app reads), in the same transaction that marks the deliveries sent. The insert
 * ignores a row already there, so a batch taken again after a crash adds nothing twice.
 */
export const databaseTransport: Transport = {
  name: 'database',
  deliveredBeforeRecord: false,
  async deliver(db, batch, record) {
    const ids = batch.recipients.map((r) => r.leadId)
    await db.transaction(async (tx) => {
      const found = Ids.parse(await tx.execute(sql`select ${leads.id} as id from ${leads} where ${leads.id} = any(${sql.param(ids)}::text[])`)).rows
      const present = new Set(found.map((r) => r.id))
      const refused = new Map(ids.filter((id) => !present.has(id)).map((id) => [id, LEAD_GONE]))
      // The deliveries and the promotion row are locked first (record), then the notifications
      // are written: the same lock order as a cancel or a delete, which therefore never deadlock.
      await record(tx, refused)
      if (present.size === 0) return
      const { id, title, content, image } = batch.promotion
      await tx.execute(sql`
        insert into ${leadNotifications} (lead_id, promotion_id, round, title, content, image)
        select v.id, ${id}, ${batch.round}, ${title}, ${content}, ${image}
        from unnest(${sql.param([...present])}::text[]) as v(id)
        on conflict (promotion_id, lead_id, round) do nothing`)
    })
  },
}

export interface WebhookSettings {
  url: string
  secret: string
  timeoutMs: number
}

/** The signature a receiver checks: `sha256=` and the hex HMAC-SHA256 of the raw body with the shared secret. */
export const signBody = (secret: string, body: string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

/**
 * The webhook transport: POSTs each batch as JSON
 * `{promotion:{id,title,content,image}, round, recipients:[{leadId,email}], batchId, sentAt}`
 * with `X-Signature: sha256=<hex HMAC of the body>` and `X-Timestamp` (Unix seconds, also inside
 * the signed body as `sentAt`, so a receiver can refuse old replays). Anything but a 2xx within
 * the timeout is a failure, retried with backoff under the same `batchId`, and so is a redirect
 * (never followed). Delivery is at-least-once: a receiver must treat a `batchId` it has already
 * accepted as done.
 */
export function webhookTransport(settings: WebhookSettings, publicUrl: string, fetchImpl: typeof fetch = fetch): Transport {
  return {
    name: 'webhook',
    deliveredBeforeRecord: true,
    async deliver(db, batch, record) {
      const sentAt = new Date()
      const body = JSON.stringify({
        promotion: {
          id: batch.promotion.id,
          title: batch.promotion.title,
          content: batch.promotion.content,
          image: batch.promotion.image === '' ? '' : `${publicUrl}${uploadUrl(batch.promotion.image)}`,
        },
        round: batch.round,
        recipients: batch.recipients.map((r) => ({ leadId: r.leadId, email: r.email })),
        batchId: batch.batchId,
        sentAt: sentAt.toISOString(),
      })
      const response = await fetchImpl(settings.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-signature': signBody(settings.secret, body),
          'x-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'x-batch-id': batch.batchId,
        },
        body,
        signal: AbortSignal.timeout(settings.timeoutMs),
        // A redirect is never followed: it would send the recipients' emails, signed, to an address
        // nobody configured (and plain http perhaps). The batch fails, and the operator sees why.
        redirect: 'manual',
      })
      // The body is not needed, but an unread one keeps the connection busy.
      await response.arrayBuffer().catch(() => undefined)
      if (response.status >= 300 && response.status < 400) throw new Error(`The webhook answered ${response.status} (a redirect, not followed: set PUSH_WEBHOOK_URL to the final address)`)
      if (!response.ok) throw new Error(`The webhook answered ${response.status}`)
      await db.transaction((tx) => record(tx))
    },
  }
}

/** The configured transport: the webhook when PUSH_WEBHOOK_URL is set, else the database. */
export const transportFor = (settings: PromotionSettings, publicUrl: string): Transport =>
  settings.webhook === null ? databaseTransport : webhookTransport(settings.webhook, publicUrl)

/** A promotion row's progress as the list and the socket event show it. */
export function progressOf(row: Pick<PromotionRow, 'id' | 'round' | 'total' | 'sent' | 'failed' | 'excluded' | 'status' | 'lastSentAt'>): PromotionProgress {
  // A cancelled or rejected round has nothing more to go.
  const pending = row.status === 'cancelled' || row.status === 'rejected' ? 0 : Math.max(0, row.total - row.sent - row.failed - row.excluded)
  return {
    id: row.id,
    round: row.round,
    total: row.total,
    sent: row.sent,
    failed: row.failed,
    excluded: row.excluded,
    pending,
    status: row.status,
    lastSentAt: row.lastSentAt === null ? null : row.lastSentAt.toISOString(),
  }
}

const progressColumns = {
  id: promotions.id,
  round: promotions.round,
  total: promotions.total,
  sent: promotions.sent,
  failed: promotions.failed,
  excluded: promotions.excluded,
  status: promotions.status,
  lastSentAt: promotions.lastSentAt,
}

export interface DeliveryDeps {
  db: Db
  settings: PromotionSettings
  transport: Transport
  /** How long a claim holds its rows before another worker may take them again. */
  leaseMs: number
  /** Told after every recorded batch (`final` once the round is over). */
  progress: (progress: PromotionProgress, final: boolean) => void
}

const Claimed = z.object({ rows: z.array(z.object({ lead_id: z.string(), batch_id: z.string(), attempts: z.coerce.number(), email: z.string() })) })
const Waiting = z.object({ rows: z.array(z.object({ pending: z.coerce.number(), wait_ms: z.coerce.number().nullable() })) })

/** A lane's batch ids start with its number, so a lane takes back only its own failed batches. */
const lanePrefix = (lane: number): string => `${lane}:`

/** A claimed batch: its id, its recipients with the emails frozen at Submit, and its highest try. */
interface Claim {
  batchId: string
  attempts: number
  recipients: { leadId: string; email: string }[]
}

/**
 * Leases this lane's next batch: a failed batch of the lane that is due again (whole, with its
 * id), else up to `size` pending rows nobody has claimed yet. Each statement has one index that
 * fits it (the partial pending index, or the primary key by an array of leads), so a new
 * promotion's rows, which have no planner statistics yet, cannot lead to a scan per row.
 */
async function claim(db: Db, p: DeliverPayload, size: number, leaseMs: number): Promise<Claim | null> {
  const lease = sql`now() + ${`${leaseMs} milliseconds`}::interval`
  const due = sql`${promotionDeliveries.nextAttemptAt} <= now() and (${promotionDeliveries.lockedUntil} is null or ${promotionDeliveries.lockedUntil} < now())`
  // Each claim answers its rows with the emails frozen at Submit, joined by the recipients'
  // primary key in the same statement. A failed batch is looked for among the pending rows that
  // have a batch (`is not null` bounds the index scan; the lane's prefix alone does not where the
  // database's collation is not C, and every unclaimed row of the round would be read).
  const withEmails = (ctes: SQL): SQL => sql`
    with ${ctes}
    select c.lead_id, c.batch_id, c.attempts, coalesce(r.email, '') as email from claimed c
    left join ${promotionRecipients} r on r.promotion_id = ${p.promotionId} and r.lead_id = c.lead_id`
  let rows = Claimed.parse(
    await db.execute(
      withEmails(sql`
        due_batch as materialized (
          select ${promotionDeliveries.batchId} as batch_id from ${promotionDeliveries}
          where ${promotionDeliveries.promotionId} = ${p.promotionId} and ${promotionDeliveries.round} = ${p.round}
            and ${promotionDeliveries.status} = 'pending' and ${promotionDeliveries.batchId} is not null
            and ${promotionDeliveries.batchId} like ${`${lanePrefix(p.lane)}%`} and ${due}
          limit 1
        ), claimed as (
          update ${promotionDeliveries} d set locked_until = ${lease}, attempts = d.attempts + 1
          where d.promotion_id = ${p.promotionId} and d.round = ${p.round} and d.status = 'pending' and d.batch_id = (select batch_id from due_batch)
            and (d.locked_until is null or d.locked_until < now())
          returning d.lead_id, d.batch_id, d.attempts
        )`),
    ),
  ).rows
  if (rows.length === 0) {
    const batchId = `${lanePrefix(p.lane)}${randomUUID()}`
    // The pick is a materialized CTE (as a plain subquery the planner may run it again per row,
    // and its LIMIT would then not bound the batch), handed to the update as one array of the
    // rows' physical addresses: a TID scan, whatever the statistics say. By lead ids through the
    // primary key, a fresh promotion's rows (no statistics yet, every estimate 1 row) were read
    // as a scan of the round filtered by the array: seconds per batch until autovacuum analysed
    // the table. The rows are locked by the pick, so their addresses cannot change before the
    // update. The update has no other condition on purpose: any indexed one (the round, the
    // status) lets the planner prefer that index and test the array on every row it reads.
    rows = Claimed.parse(
      await db.execute(
        withEmails(sql`
          picked as materialized (
            select ${promotionDeliveries}.ctid as row_address from ${promotionDeliveries}
            where ${promotionDeliveries.promotionId} = ${p.promotionId} and ${promotionDeliveries.round} = ${p.round}
              and ${promotionDeliveries.status} = 'pending' and ${promotionDeliveries.batchId} is null and ${promotionDeliveries.nextAttemptAt} <= now()
            limit ${size}
            for update skip locked
          ), claimed as (
            update ${promotionDeliveries} d set batch_id = ${batchId}, locked_until = ${lease}, attempts = d.attempts + 1
            where d.ctid = any(array(select row_address from picked))
            returning d.lead_id, d.batch_id, d.attempts
          )`),
      ),
    ).rows
  }
  const first = rows[0]
  if (first === undefined) return null
  // In lead order: a retry of the batch lists its recipients as the first try did.
  const recipients = rows.map((r) => ({ leadId: r.lead_id, email: r.email })).sort((a, b) => (a.leadId < b.leadId ? -1 : a.leadId > b.leadId ? 1 : 0))
  return { batchId: first.batch_id, attempts: Math.max(...rows.map((r) => r.attempts)), recipients }
}

/**
 * Deliveries no worker holds now: never claimed, waiting for a retry, or leased by a worker whose
 * lease ran out (it died). A cancel takes these at once; a held batch is its worker's to finish.
 */
export const notHeld = sql`(${promotionDeliveries.lockedUntil} is null or ${promotionDeliveries.lockedUntil} < now())`

/** The round's deliveries of one batch that are still pending. */
const inBatch = (p: DeliverPayload, batchId: string) =>
  and(eq(promotionDeliveries.promotionId, p.promotionId), eq(promotionDeliveries.round, p.round), eq(promotionDeliveries.batchId, batchId), eq(promotionDeliveries.status, 'pending'))

/**
 * Adds recorded results to the promotion's counters, only while it is in this round and, unless
 * `afterCancel` (results that happened whatever the cancel says: a batch the receiver already took,
 * a failure), not cancelled; a cancelled promotion stays cancelled. Answers its progress, or throws
 * `DeliveryStopped`.
 */
async function count(tx: Db, p: DeliverPayload, sent: number, failed: number, afterCancel: boolean, excluded = 0): Promise<PromotionProgress> {
  const [row] = await tx
    .update(promotions)
    .set({
      sent: sql`${promotions.sent} + ${sent}`,
      failed: sql`${promotions.failed} + ${failed}`,
      excluded: sql`${promotions.excluded} + ${excluded}`,
      ...(sent > 0 ? { lastSentAt: sql`now()` } : {}),
      // SET reads the old values: the round is over once these results bring it to its total.
      status: sql`case when ${promotions.status} = 'cancelled' then 'cancelled'
        when ${promotions.sent} + ${sent} + ${promotions.failed} + ${failed} + ${promotions.excluded} + ${excluded} >= ${promotions.total} then 'done' else 'sending' end`,
    })
    .where(and(eq(promotions.id, p.promotionId), eq(promotions.round, p.round), afterCancel ? undefined : ne(promotions.status, 'cancelled')))
    .returning(progressColumns)
  if (row === undefined) throw new DeliveryStopped()
  return progressOf(row)
}

/**
 * One run of a `promotion.deliver` job: at most one batch. Answers 'again' while there is more to
 * claim, `{ retryInMs }` while deliveries wait for a retry or another worker, nothing once the
 * round is over (or the promotion was cancelled, deleted or resent).
 */
export async function deliverBatch(deps: DeliveryDeps, payload: DeliverPayload): Promise<JobResult> {
  const { db, settings } = deps
  const [promotion] = await db
    .select({ id: promotions.id, title: promotions.title, content: promotions.content, image: promotions.image, status: promotions.status, round: promotions.round })
    .from(promotions)
    .where(eq(promotions.id, payload.promotionId))
  if (promotion === undefined) return undefined
  if (promotion.status === 'cancelled' || promotion.round !== payload.round) return stopRound(deps, payload)

  const claimed = await claim(db, payload, settings.batchSize, deps.leaseMs)
  if (claimed === null) return waitOrFinish(deps, payload)
  const { batchId, attempts } = claimed
  let progress: PromotionProgress | null = null
  // The forecast's rules again, as each delivery is due: the recipients they leave out are
  // recorded with their reason and counted, and never handed to the transport.
  const reasons = await judgeRecipients(db, payload.promotionId, payload.round, claimed.recipients.map((r) => r.leadId))
  if (reasons.size > 0) {
    try {
      progress = await db.transaction(async (tx) => {
        for (const [reason, ids] of byReason(reasons)) {
          await tx
            .update(promotionDeliveries)
            .set({ status: 'excluded', reason, lockedUntil: null, lastError: null })
            .where(and(inBatch(payload, batchId), inArray(promotionDeliveries.leadId, ids)))
        }
        return count(tx, payload, 0, 0, false, reasons.size)
      })
    } catch (error) {
      if (!(error instanceof DeliveryStopped)) throw error
      await db.update(promotionDeliveries).set({ status: 'cancelled', lockedUntil: null }).where(inBatch(payload, batchId))
      return 'again'
    }
  }
  const recipients = claimed.recipients.filter((r) => !reasons.has(r.leadId))
  if (recipients.length === 0) {
    if (progress !== null) deps.progress(progress, progress.status !== 'sending')
    return 'again'
  }
  const batch: DeliveryBatch = {
    promotion: { id: promotion.id, title: promotion.title, content: promotion.content, image: promotion.image },
    round: payload.round,
    batchId,
    recipients,
  }
  const record: RecordResults = async (tx, refused = new Map()) => {
    const refusedIds = [...refused.keys()]
    const sent = await tx
      .update(promotionDeliveries)
      .set({ status: 'sent', sentAt: sql`now()`, lockedUntil: null, lastError: null })
      .where(and(inBatch(payload, batchId), notInArray(promotionDeliveries.leadId, refusedIds)))
      .returning({ leadId: promotionDeliveries.leadId })
    const failed =
      refusedIds.length === 0
        ? []
        : await tx
            .update(promotionDeliveries)
            .set({ status: 'failed', lockedUntil: null, lastError: [...new Set(refused.values())].join('; ') })
            .where(and(inBatch(payload, batchId), inArray(promotionDeliveries.leadId, refusedIds)))
            .returning({ leadId: promotionDeliveries.leadId })
    progress = await count(tx, payload, sent.length, failed.length, deps.transport.deliveredBeforeRecord)
  }

  try {
    await deps.transport.deliver(db, batch, record)
  } catch (error) {
    if (error instanceof DeliveryStopped) {
      // Nothing of the batch was delivered (its transaction rolled back): its rows are this
      // worker's to cancel, as the cancel left them to it.
      await db.update(promotionDeliveries).set({ status: 'cancelled', lockedUntil: null }).where(inBatch(payload, batchId))
      return 'again'
    }
    // Kept per delivery (last_error), where the recipients list and an operator can see it.
    progress = await recordFailure(deps, payload, batchId, attempts, error)
  }
  if (progress !== null) deps.progress(progress, progress.status !== 'sending')
  return 'again'
}

const Judged = z.object({ rows: z.array(z.object({ lead_id: z.string(), why: ReasonColumn })) })

/**
 * Why each of these recipients is left out now (server/kit/rules/audience.ts), for those who are: the
 * address frozen at Submit, the lead's country as it stands. A duplicate is a recipient whose
 * address an earlier recipient (smaller id) of the promotion shares and who is left out for no
 * other reason (promotion_recipients_address_idx).
 */
export async function judgeRecipients(db: Db, promotionId: string, round: number, leadIds: readonly string[]): Promise<Map<string, ExclusionReason>> {
  if (leadIds.length === 0) return new Map()
  // Driven by the batch's ids, each found by the primary key: a filter on the round's rows would
  // read the whole promotion per batch on a table without statistics yet.
  const rules = { ...(await rulesFor(db, 'promotion')), own: { promotionId, round } }
  const lead = { id: sql`r.lead_id`, email: sql`r.email`, country: sql`l.country`, subscribed: sql`l.subscribed` }
  const others = sql`
    select r2.lead_id, r2.email, l2.country, l2.subscribed from ${promotionRecipients} r2 left join ${leads} l2 on l2.id = r2.lead_id
    where r2.promotion_id = r.promotion_id and lower(r2.email) = lower(r.email) and r2.lead_id < r.lead_id`
  const { rows } = Judged.parse(
    await db.execute(sql`
      select r.lead_id, coalesce(${reasonOf(lead, rules)}, case when ${duplicateOf(others, rules)} then 'duplicate' end) as why
      from unnest(${sql.param([...leadIds])}::text[]) as batch(lead_id)
      join ${promotionRecipients} r on r.promotion_id = ${promotionId} and r.lead_id = batch.lead_id
      left join ${leads} l on l.id = r.lead_id`),
  )
  return new Map(rows.flatMap((r) => (r.why === null ? [] : [[r.lead_id, r.why] as const])))
}

/** The recipients grouped by their reason. */
function byReason(reasons: ReadonlyMap<string, ExclusionReason>): Map<ExclusionReason, string[]> {
  const out = new Map<ExclusionReason, string[]>()
  for (const [leadId, reason] of reasons) out.set(reason, [...(out.get(reason) ?? []), leadId])
  return out
}

/**
 * The promotion was cancelled (or deleted, or resent) since the round's job was queued: the
 * round's deliveries nobody holds are cancelled (the cancel did so already; this tidies those a
 * worker held then and let go of since, or a dead worker's). A batch another worker holds right
 * now is left to it, as the cancel left it: the job looks again once that lease is over, so a
 * batch whose worker died is cancelled then.
 */
async function stopRound(deps: DeliveryDeps, p: DeliverPayload): Promise<JobResult> {
  const ofRound = and(eq(promotionDeliveries.promotionId, p.promotionId), eq(promotionDeliveries.round, p.round), eq(promotionDeliveries.status, 'pending'))
  await deps.db
    .update(promotionDeliveries)
    .set({ status: 'cancelled', lockedUntil: null })
    .where(and(ofRound, notHeld))
  const [held] = Waiting.parse(
    await deps.db.execute(sql`
      select count(*) as pending, extract(epoch from (max(${promotionDeliveries.lockedUntil}) - now())) * 1000 as wait_ms
      from ${promotionDeliveries} where ${ofRound}`),
  ).rows
  if (held === undefined || held.pending === 0) return undefined
  return { retryInMs: Math.min(deps.leaseMs, Math.max(50, Math.ceil(held.wait_ms ?? 0))) }
}

/**
 * A batch that was not delivered waits for its next try, or fails for good after `maxAttempts`.
 * The rows stay in their batch, so the retry posts the same `batchId`.
 */
async function recordFailure(deps: DeliveryDeps, p: DeliverPayload, batchId: string, attempts: number, error: unknown): Promise<PromotionProgress | null> {
  const { maxAttempts, retryBaseMs, retryMaxMs } = deps.settings
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500)
  const delay = backoffDelay(attempts, retryBaseMs, retryMaxMs)
  return deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(promotionDeliveries)
      .set({
        status: sql`case when ${promotionDeliveries.attempts} >= ${maxAttempts} then 'failed' else 'pending' end`,
        lockedUntil: null,
        lastError: message,
        nextAttemptAt: sql`now() + ${`${delay} milliseconds`}::interval`,
      })
      .where(inBatch(p, batchId))
      .returning({ status: promotionDeliveries.status })
    const failed = rows.filter((r) => r.status === 'failed').length
    if (failed === 0) return null
    try {
      // Failed is what became of them, cancelled or not; those left to retry after a cancel are
      // cancelled by the job's next run (nothing is tried again once a promotion is cancelled).
      return await count(tx, p, 0, failed, true)
    } catch (stopped) {
      if (stopped instanceof DeliveryStopped) return null
      throw stopped
    }
  })
}

/** Nothing to claim now: wait for rows in backoff or leased by another worker, or close the round. */
async function waitOrFinish(deps: DeliveryDeps, p: DeliverPayload): Promise<JobResult> {
  const [waiting] = Waiting.parse(
    await deps.db.execute(sql`
      select count(*) as pending,
        extract(epoch from (min(greatest(${promotionDeliveries.nextAttemptAt}, coalesce(${promotionDeliveries.lockedUntil}, ${promotionDeliveries.nextAttemptAt}))) - now())) * 1000 as wait_ms
      from ${promotionDeliveries}
      where ${promotionDeliveries.promotionId} = ${p.promotionId} and ${promotionDeliveries.round} = ${p.round} and ${promotionDeliveries.status} = 'pending'`),
  ).rows
  if (waiting !== undefined && waiting.pending > 0) {
    return { retryInMs: Math.min(deps.leaseMs, Math.max(50, Math.ceil(waiting.wait_ms ?? 0))) }
  }
  // Every delivery is recorded: the round is done (the last batch usually said so already).
  const [row] = await deps.db
    .update(promotions)
    .set({ status: 'done' })
    .where(and(eq(promotions.id, p.promotionId), eq(promotions.round, p.round), inArray(promotions.status, ['queued', 'sending'])))
    .returning(progressColumns)
  if (row !== undefined) deps.progress(progressOf(row), true)
  return undefined
}

/**
 * Socket progress at most every `intervalMs` per promotion: the newest state waits for the end of
 * the interval, and a final state (round over, cancelled) goes at once.
 */
export class ProgressThrottle {
  readonly #last = new Map<string, number>()
  readonly #waiting = new Map<string, { progress: PromotionProgress; timer: NodeJS.Timeout }>()

  constructor(
    private readonly send: (progress: PromotionProgress) => void,
    private readonly intervalMs = 500,
  ) {}

  push(progress: PromotionProgress, final = false): void {
    const now = Date.now()
    const waiting = this.#waiting.get(progress.id)
    const since = now - (this.#last.get(progress.id) ?? 0)
    if (final || since >= this.intervalMs) {
      if (waiting !== undefined) clearTimeout(waiting.timer)
      this.#waiting.delete(progress.id)
      if (final) this.#last.delete(progress.id)
      else this.#last.set(progress.id, now)
      this.send(progress)
      return
    }
    if (waiting !== undefined) {
      waiting.progress = progress
      return
    }
    const timer = setTimeout(() => {
      const latest = this.#waiting.get(progress.id)
      this.#waiting.delete(progress.id)
      if (latest === undefined) return
      this.#last.set(progress.id, Date.now())
      this.send(latest.progress)
    }, this.intervalMs - since)
    timer.unref()
    this.#waiting.set(progress.id, { progress, timer })
  }

  stop(): void {
    for (const { timer } of this.#waiting.values()) clearTimeout(timer)
    this.#waiting.clear()
  }
}
