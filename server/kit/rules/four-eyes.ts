/**
 * Four eyes on mass sends (contract/four-eyes.ts), shared by promotions and
 * the newsletter. A send (a promotion round, a newsletter) to more recipients than
 * FOUR_EYES_THRESHOLD is stored with status `awaiting` and the admin who asked for it
 * (`approval_requested_by`), and nothing is queued. A second administrator (the contract's
 * `approves` access: the superadmin or Admin level on every screen) then approves it, which queues
 * it exactly as the request would have, or rejects it; either is recorded with who decided
 * (`approval_decided_by`). The caller holds the record's row lock while it decides, so two approvals
 * take turns and the second one finds the send no longer awaiting: it is answered as a repeat and
 * starts nothing. The audit rows name both admins: the request's row is the requester's, and the
 * decision's row (written by the decider) names the requester in its detail. Once a request is
 * committed, the other administrators' open sessions are told over the socket (APPROVAL_REQUESTED).
 *
 * The threshold holds per requester over a rolling window too (FOUR_EYES_WINDOW_HOURS, 24 by
 * default): every request is recorded in `send_requests` with its recipients, and a send waits
 * when it and the requester's other sends of the window add up to more than the threshold. So
 * splitting one large send into many small ones gains nothing. A rejected send reached nobody: its
 * record goes with the decision. Summing the window and recording the send happen under a
 * transaction-scoped advisory lock of the requester (REQUEST_LOCK and a hash of the admin's id):
 * under READ COMMITTED two parallel sends of one admin would otherwise both sum the window
 * without the other and both start. The lock is held to the commit, so the next send's sum sees
 * this one. PGlite has one connection, where the lock is free and calls take turns anyway.
 */
import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import { ALREADY_APPROVED, ALREADY_REJECTED, NOT_AWAITING, OWN_REQUEST, type Approval, type ApprovalRequest } from '#contract/four-eyes'
import { SocketEvents } from '#contract/socket'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/index.ts'
import { admins, sendRequests, type AdminRow } from '../../db/schema.ts'
import { failure } from '../request/answers.ts'
import { type Ctx } from '../request/handlers.ts'
import type { Realtime } from '../ground/realtime.ts'

/** The first key of the requester's advisory lock: any fixed number no other advisory lock uses. */
const REQUEST_LOCK = 0x4e7e5

type FourEyesConfig = Pick<Config, 'fourEyesThreshold' | 'fourEyesWindowHours'>

/** Whether a send to `count` recipients waits for a second Admin, `earlier` being the requester's others of the window. */
export const needsApproval = (config: Pick<Config, 'fourEyesThreshold'>, count: number, earlier = 0): boolean =>
  config.fourEyesThreshold > 0 && count + earlier > config.fourEyesThreshold

/** The recipients `adminId` asked sends to reach within the window, this one excluded (it is not recorded yet). */
export async function earlierRecipients(db: Db, config: FourEyesConfig, adminId: string): Promise<number> {
  if (config.fourEyesThreshold === 0 || config.fourEyesWindowHours === 0) return 0
  const since = new Date(Date.now() - config.fourEyesWindowHours * 3600 * 1000)
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${sendRequests.recipients}), 0)` })
    .from(sendRequests)
    .where(and(eq(sendRequests.adminId, adminId), gt(sendRequests.at, since)))
  return Number(row?.n ?? 0)
}

/** The count calls' part of the answer: whether the signed-in admin's send would wait, and the threshold. */
export async function approvalNeed(ctx: Ctx, count: number) {
  const earlier = await earlierRecipients(ctx.db, ctx.config, ctx.me().id)
  return { needsApproval: needsApproval(ctx.config, count, earlier), approvalThreshold: ctx.config.fourEyesThreshold }
}

/**
 * Records a send request of the signed-in admin (`ref`: `newsletter:<id>`, `promotion:<id>:<round>`)
 * in the caller's transaction and answers whether it waits for approval, with its audit detail.
 */
export async function requestSend(ctx: Ctx, ref: string, count: number): Promise<{ waits: boolean; detail: string }> {
  return requestSendAs(ctx.db, ctx.config, ctx.me().id, ref, count)
}

/** `requestSend` for a send the server starts in an admin's name (a scheduled one, at its time). */
export async function requestSendAs(db: Db, config: FourEyesConfig, adminId: string, ref: string, count: number): Promise<{ waits: boolean; detail: string }> {
  await db.execute(sql`select pg_advisory_xact_lock(${REQUEST_LOCK}, hashtext(${adminId}))`)
  const earlier = await earlierRecipients(db, config, adminId)
  await db.insert(sendRequests).values({ adminId, recipients: count, ref })
  const waits = needsApproval(config, count, earlier)
  const threshold = config.fourEyesThreshold
  const detail =
    count > threshold
      ? `Awaiting approval: ${count} recipients, more than ${threshold}`
      : `Awaiting approval: ${count} recipients, ${count + earlier} with the requester's other sends of the last ${config.fourEyesWindowHours} h, more than ${threshold}`
  return { waits, detail }
}

/** A rejected send reached nobody: it no longer counts against its requester's window. */
export async function forgetRequest(db: Db, ref: string): Promise<void> {
  await db.delete(sendRequests).where(eq(sendRequests.ref, ref))
}

/**
 * Tells every other administrator's open sessions, once the call commits, that the send waits for
 * their approval (with REDIS_URL, on every instance). The requester is the signed-in admin.
 */
export function announceRequest(ctx: Ctx, send: Pick<ApprovalRequest, 'kind' | 'id' | 'title' | 'total'>): void {
  const me = ctx.me()
  ctx.afterSuccess(() => announceRequestOf(ctx.realtime, me, send))
}

/** `announceRequest` once committed, for a send the server started in `requester`'s name. */
export function announceRequestOf(realtime: Realtime | null, requester: Pick<AdminRow, 'id' | 'name'>, send: Pick<ApprovalRequest, 'kind' | 'id' | 'title' | 'total'>): void {
  const request: ApprovalRequest = { ...send, requestedBy: requester.name, requestedById: requester.id }
  realtime?.toApprovers(SocketEvents.approvalRequested, request, requester.id)
}

/** The approval columns of a send (server/db/schema.ts, approvalColumns). */
export interface ApprovalColumns {
  status: string
  approvalRequestedBy: string | null
  approvalDecidedBy: string | null
}

/**
 * What a decision on a send does, read from its locked row: `decide` when it awaits approval and
 * the caller is not its requester (who gets a 403 naming why); `repeat` when the same decision was
 * already made (a double click: answered as success, nothing more is started); otherwise a 409.
 */
export function decisionOn(row: ApprovalColumns, me: AdminRow, decision: 'approve' | 'reject'): 'decide' | 'repeat' {
  if (row.status === 'awaiting') {
    if (row.approvalRequestedBy === me.id) throw failure(OWN_REQUEST, undefined, 403)
    return 'decide'
  }
  if (row.approvalDecidedBy === null) throw failure(NOT_AWAITING, undefined, 409)
  const rejected = row.status === 'rejected'
  if (rejected === (decision === 'reject')) return 'repeat'
  throw failure(rejected ? ALREADY_REJECTED : ALREADY_APPROVED, undefined, 409)
}

/** The decision's audit detail: who asked, for how many. */
export async function decisionDetail(db: Db, requestedBy: string | null, decision: 'approve' | 'reject', count: number): Promise<string> {
  const [requester] = requestedBy === null ? [] : await db.select({ name: admins.name, email: admins.email }).from(admins).where(inArray(admins.id, [requestedBy]))
  const who = requester === undefined ? 'an admin no longer listed' : `${requester.name} (${requester.email})`
  return `${decision === 'approve' ? 'Approved' : 'Rejected'} the send to ${count} recipients requested by ${who}`
}

/** The names of the admins with these ids (nulls and repeats allowed), in one query; an id of no admin has none. */
export async function adminNames(db: Db, ids: readonly (string | null)[]): Promise<ReadonlyMap<string, string>> {
  const wanted = [...new Set(ids.filter((id) => id !== null))]
  if (wanted.length === 0) return new Map()
  return new Map((await db.select({ id: admins.id, name: admins.name }).from(admins).where(inArray(admins.id, wanted))).map((a) => [a.id, a.name]))
}

/** Each row's approval as the lists show it, with the admins' names (one query for the page). */
export async function approvalsOf<R extends ApprovalColumns>(db: Db, rows: readonly R[]): Promise<(row: R) => Approval | null> {
  const names = await adminNames(db, rows.flatMap((r) => [r.approvalRequestedBy, r.approvalDecidedBy]))
  return (row) =>
    row.approvalRequestedBy === null
      ? null
      : {
          requestedBy: names.get(row.approvalRequestedBy) ?? '',
          requestedById: row.approvalRequestedBy,
          decidedBy: row.approvalDecidedBy === null ? '' : (names.get(row.approvalDecidedBy) ?? ''),
        }
}
