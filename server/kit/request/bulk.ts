/**
 * Bulk actions on a list (contract/bulk.ts): preview, apply as one job, undo in one step.
 *
 * A list's calls are declared once in the contract; its area tells the kit, once, how its rows
 * are found and changed (`defineBulk`): the table, the name a preview shows, the search and
 * filters of its list call (the same as the list's own handler uses, so "every row matching"
 * means what the list shows), and per action either a column to set or a delete through the
 * trash. The kit serves every list alike.
 *
 * Preview reads, writes nothing: each chosen row is either one that will change or skipped with
 * its reason (the admin may not take the single action, the row is already in that state, it is
 * in use by another record; chosen ids that no longer exist). Its token is a fingerprint of the
 * exact rows that will change and the values they hold now. Apply (a write) finds them again, in
 * its transaction, into `bulk_run_rows`, and compares the fingerprint: any difference (a row
 * added to the filter, one changed or deleted) is refused with 409, so no row the admin did not
 * see counted is ever touched; otherwise the run is queued as a job, in the same transaction, and
 * audited as one row naming the run (its rows stay in `bulk_run_rows`, not in the audit text).
 *
 * The job takes the run's rows a batch at a time, in order. A row is changed only if it still
 * holds the value the preview saw (a set), or still exists (a delete); otherwise it is skipped as
 * changed since. Each batch records, in the transaction that changes the rows, which rows it did,
 * so a run killed halfway resumes where it stopped when the queue claims the job again. Progress
 * goes to the admin's sessions over the socket. Cancel stops it after the batch under way.
 *
 * When the run ends (done or cancelled) it opens one trash entry (server/kit/request/undo.ts): `undo` with
 * its token, by the same rules as any undo (the admin who made it or the superadmin, within the
 * window, still allowed the single action), writes each changed row's value back where nobody has
 * changed it since, or puts each deleted record back (last first, so an ordered list gets its
 * places back).
 */
import { createHash } from 'node:crypto'
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { z } from 'zod'
import {
  BULK_NAMES_SHOWN,
  BULK_NOTHING_TO_UNDO,
  BULK_RUN_OVER,
  BULK_RUN_UNKNOWN,
  BULK_SET_CHANGED,
  BULK_SKIP_REASONS,
  type BulkActionSpec,
  type BulkCalls,
  type BulkPreviewAnswer,
  type BulkRun,
  type BulkSelection,
  type BulkSkipReason,
} from '#contract/bulk'
import * as bulkArea from '#contract/bulk'
import type { Endpoint, ParsedInput } from '#contract/define'
import { SocketEvents } from '#contract/socket'
import { sqlState, type Db } from '../../db/index.ts'
import { admins, auditLog, bulkRunRows, bulkRuns, trash, type AdminRow } from '../../db/schema.ts'
import { FORBIDDEN, permits } from '../ground/access/auth.ts'
import { ApiFailure, failure } from './answers.ts'
import { defineJob, handlers, type Ctx } from './handlers.ts'
import { type Services } from '../ground/services.ts'
import { searchWhere, type Search } from './paging.ts'
import type { Realtime } from '../ground/realtime.ts'
import { requireFreshProof } from './step-up.ts'
import { NothingTaken, TRASH_BATCH_MS, finishTaking, keepBulkRun, moveBatchToTrash, moveToTrash, pace, restoreDeletes, restoreEntry, startTaking, takesDependents, undoesBulkRuns, type Restorable, type Taking, type TrashCtx } from './undo.ts'
import { setImmediate as yieldToLoop } from 'node:timers/promises'

export const BULK_JOB = 'bulk.apply'
/**
 * Rows one batch of a run changes at first: one statement for a set, one transaction for a delete
 * (`delete`), or one short transaction per record for a delete whose records take other rows
 * with them (`deleteEach`). On PGlite a batch runs on the event loop, so its size then follows
 * how long the last one took (TRASH_BATCH_MS, as the trash's batches); PostgreSQL runs it elsewhere.
 */
const BATCH = { set: { pglite: 500, pg: 2000 }, delete: { pglite: 500, pg: 2000 }, deleteEach: { pglite: 25, pg: 25 } } as const
/**
 * How long one claim of the job goes on taking batches before it gives the queue back (other
 * jobs are served between two claims). A claim reads the run and its admin again, so claiming
 * per batch cost as much as a small batch itself.
 */
const CLAIM_MS = 2000
/** Progress goes out at most this often while a run goes on (and once when it ends). */
const PROGRESS_MS = 500

const tuning: { batch: number | undefined; before: (() => Promise<void> | void) | undefined } = { batch: undefined, before: undefined }

/**
 * For tests: a smaller batch (so a few rows make several; undefined: the engine's), and a look
 * before each batch (a throw there stops the claim, as a stopped server would).
 */
export function tuneBulk(options: { batch?: number | undefined; before?: (() => Promise<void> | void) | undefined }): void {
  if ('batch' in options) tuning.batch = options.batch
  if ('before' in options) tuning.before = options.before
}

/** Rows left out for a reason of their own (the superadmin, the acting admin, a send not scheduled). */
export interface BulkSkip {
  when: SQL
  reason: BulkSkipReason
}

/** What a run does beside its rows' change: in the batch's transaction, and once it has committed. */
export interface BulkEffect {
  /** With the ids the batch changed, in its transaction (the sessions ended, the logout logged, the notices queued). */
  inTx?: (tx: Db, ids: readonly string[], by: AdminRow, services: Services) => Promise<void>
  /** After the batch committed (the LOGOUT to those admins' sockets). */
  after?: (services: Services, ids: readonly string[]) => void
}

interface ActionBase {
  /** Rows that may not take it (in use by another record). */
  inUse?: SQL
  /** Rows this action leaves out, each for its reason, checked in order after access. */
  skip?: readonly BulkSkip[]
}

/** An action that writes one column: `to` is the value it sets. */
interface SetAction extends ActionBase {
  set: { column: PgColumn; to: string | number | boolean }
  /** Columns set beside it (when a send was cancelled), and what undo writes back into them. */
  also?: readonly { column: PgColumn; to: SQL; back: SQL }[]
  /** Undo writes a row back only where this holds too (a cancelled send whose time has not come). */
  undoIf?: SQL
  effect?: BulkEffect
  /**
   * What undoing it does beside writing the values back, with the ids written back, in the undo's
   * transaction (`ctx.afterSuccess` for what waits for the commit): the notice of the reverse
   * change, the sessions ended again. An undo is a change like any other to the people it touches.
   */
  undone?: (ctx: Ctx, ids: readonly string[]) => Promise<void>
}

/**
 * An action that deletes the rows through the trash (one entry per batch of records, or per
 * record when they take other rows with them; one undo for all). `remove` deletes the records
 * `ids` and answers the deleted rows.
 */
interface DeleteAction extends ActionBase {
  delete: { trash: Restorable; remove: (db: Db, ids: readonly string[]) => Promise<readonly unknown[]> }
}

/** An action that changes nothing a row holds and cannot be undone (Sign out everywhere): its effect is all it does. */
interface EachAction extends ActionBase {
  each: BulkEffect & { inTx: NonNullable<BulkEffect['inTx']> }
}

type ServerAction = SetAction | DeleteAction | EachAction

export interface BulkList<C extends BulkCalls, L extends Endpoint = Endpoint> {
  calls: C
  /** The list call: "every row matching" is read with its input, and means what it shows. */
  list: L
  table: PgTable
  id: PgColumn
  /** What a preview names a row by. */
  name: SQL | PgColumn
  /** The order a run takes the rows in, and its preview names them in. */
  order: readonly (SQL | PgColumn)[]
  /** The list call's search and filters, as its handler gives them to listPage. */
  search: Search
  filter: (query: ParsedInput<L>) => SQL | undefined
  /** The rows the list holds at all (a kind of the links table): chosen ids outside it are not found. */
  scope?: SQL
  /**
   * Rows this admin may not change with the single action, whatever the action (none unless
   * told): skipped as no access, row by row, as the single action refuses them.
   */
  outOfReach?: (me: AdminRow) => SQL | undefined
  /** Rows left out of every action for this admin, each for its reason (the superadmin, their own account). */
  skips?: (me: AdminRow) => readonly BulkSkip[]
  actions: { [A in keyof C['actions']]: ServerAction }
  /** After rows changed (the menu's counts). */
  changed?: (realtime: Realtime | null) => void
}

const lists = new Map<string, BulkList<BulkCalls>>()

/** Declares how a list's rows are found and changed (once per list, at module load). */
export function defineBulk<C extends BulkCalls, L extends Endpoint>(list: BulkList<C, L>): BulkList<C, L> {
  if (lists.has(list.calls.list)) throw new Error(`Two bulk declarations for ${list.calls.list}`)
  for (const [name, action] of Object.entries<ServerAction>(list.actions)) {
    const final = (list.calls.actions as Record<string, BulkActionSpec | undefined>)[name]?.final === true
    if (final !== 'each' in action) throw new Error(`${list.calls.list}: ${name} is final in the contract exactly when it cannot be undone`)
  }
  lists.set(list.calls.list, list as unknown as BulkList<BulkCalls>)
  return list
}

function listNamed(name: string): BulkList<BulkCalls> {
  const list = lists.get(name)
  if (list === undefined) throw new Error(`no bulk declaration for ${name}`)
  return list
}

const actionOf = (list: BulkList<BulkCalls>, action: string): ServerAction => {
  const found = (list.actions as Record<string, ServerAction | undefined>)[action]
  if (found === undefined) throw new Error(`${list.calls.list}: no action ${action}`)
  return found
}
const specOf = (list: BulkList<BulkCalls>, action: string) => {
  const spec = (list.calls.actions as Record<string, BulkActionSpec | undefined>)[action]
  if (spec === undefined) throw new Error(`${list.calls.list}: no action ${action}`)
  return spec
}

/** The rows chosen, as a where clause; a matching selection's fields are read as the list call reads them. */
function chosen(list: BulkList<BulkCalls>, selection: BulkSelection): SQL | undefined {
  if ('ids' in selection) return and(inArray(list.id, [...new Set(selection.ids)]), list.scope)
  const parsed = list.list.input.safeParse({ ...selection.matching.filters, search: selection.matching.search, page: 1, limit: 1 })
  if (!parsed.success) throw failure('These filters are not the list\'s', { selection: 'Incorrect format' })
  return searchWhere(list.search, selection.matching.search, and(list.scope, list.filter(parsed.data)))
}

/** The value a row holds now in the column an action sets (null for a delete): what its undo writes back. */
const beforeOf = (action: ServerAction): SQL => ('set' in action ? sql`to_jsonb(${action.set.column})` : sql`null::jsonb`)

/** Why a chosen row is skipped, or null when it will change. */
function reasonOf(list: BulkList<BulkCalls>, action: ServerAction, me: AdminRow, allowed: boolean): SQL {
  if (!allowed) return sql`'access'`
  const cases: SQL[] = []
  const out = list.outOfReach?.(me)
  if (out !== undefined) cases.push(sql`when ${out} then 'access'`)
  for (const skip of [...(list.skips?.(me) ?? []), ...(action.skip ?? [])]) cases.push(sql`when ${skip.when} then ${skip.reason}`)
  if ('set' in action) cases.push(sql`when ${action.set.column} = ${action.set.to} then 'already'`)
  if (action.inUse !== undefined) cases.push(sql`when ${action.inUse} then 'inUse'`)
  return cases.length === 0 ? sql`null` : sql`case ${sql.join(cases, sql` `)} else null end`
}

/** The chosen rows with their reason, name, value now and place in the run. */
function classified(list: BulkList<BulkCalls>, action: string, selection: BulkSelection, me: AdminRow): SQL {
  const act = actionOf(list, action)
  const allowed = permits(specOf(list, action).single.access, me)
  const where = chosen(list, selection)
  return sql`select ${list.id}::text as id, (${list.name})::text as name, ${beforeOf(act)} as before, ${reasonOf(list, act, me, allowed)}::text as reason,
    row_number() over (order by ${sql.join([...list.order], sql`, `)})::int as seq
    from ${list.table} ${where === undefined ? sql`` : sql`where ${where}`}`
}

/** The fingerprint of a set of rows (id and value now), over `rows` with columns id and before. */
const fingerprintOf = (rows: SQL): SQL => sql`select count(*)::int as n, md5(coalesce(string_agg(f.id || ':' || coalesce(f.before::text, ''), ',' order by f.id), '')) as h from (${rows}) f`
const Fingerprint = z.object({ rows: z.array(z.object({ n: z.coerce.number(), h: z.string() })) })
const tokenOf = (list: string, action: string, h: string): string => createHash('sha256').update(`${list}:${action}:${h}`).digest('hex').slice(0, 48)

const Groups = z.object({ rows: z.array(z.object({ reason: z.string().nullable(), n: z.coerce.number(), names: z.array(z.string()).nullable() })) })

async function preview(list: BulkList<BulkCalls>, input: { action: string; selection: BulkSelection }, ctx: Ctx): Promise<BulkPreviewAnswer> {
  const me = ctx.me()
  const rows = classified(list, input.action, input.selection, me)
  const groups = Groups.parse(
    await ctx.db.execute(sql`select c.reason, count(*)::int as n, (array_agg(c.name order by c.seq))[1:${BULK_NAMES_SHOWN}] as names from (${rows}) c group by c.reason`),
  ).rows
  const [print] = Fingerprint.parse(await ctx.db.execute(fingerprintOf(sql`select c.id, c.before from (${rows}) c where c.reason is null`))).rows
  const change = groups.find((g) => g.reason === null)
  const skipped: BulkPreviewAnswer['skipped'] = []
  for (const reason of Object.keys(BULK_SKIP_REASONS) as BulkSkipReason[]) {
    const group = groups.find((g) => g.reason === reason)
    if (group !== undefined) skipped.push({ reason, label: BULK_SKIP_REASONS[reason], count: group.n, names: group.names ?? [] })
  }
  if ('ids' in input.selection) {
    const found = groups.reduce((n, g) => n + g.n, 0)
    const gone = new Set(input.selection.ids).size - found
    if (gone > 0) skipped.push({ reason: 'gone', label: BULK_SKIP_REASONS.gone, count: gone, names: [] })
  }
  return {
    status: 'success',
    message: 'Preview ready',
    token: tokenOf(list.calls.list, input.action, print?.h ?? ''),
    change: { count: change?.n ?? 0, names: change?.names ?? [] },
    skipped,
  }
}

const labelOf = (list: BulkList<BulkCalls>, row: typeof bulkRuns.$inferSelect): string =>
  `${specOf(list, row.action).label}: ${row.done} of ${row.total} ${list.calls.noun}${row.skipped > 0 ? ` (${row.skipped} changed since, skipped)` : ''}`

/** A run as the contract tells it; its ticket while its undo window lasts. */
async function view(db: Db, config: Ctx['config'], row: typeof bulkRuns.$inferSelect): Promise<BulkRun> {
  const list = listNamed(row.list)
  let undo: BulkRun['undo'] = null
  if (row.undo !== null) {
    const [entry] = await db
      .select({ left: sql<number>`floor(extract(epoch from (${trash.expiresAt} - now())))::int` })
      .from(trash)
      .where(eq(trash.id, row.undo))
    const seconds = Math.min(config.undoSeconds, (entry?.left ?? 0) - 5)
    if (seconds > 0) undo = { token: row.undo, seconds }
  }
  const state = row.finishedAt === null && row.state === 'cancelled' ? 'cancelling' : row.state
  return { id: row.id, list: row.list, action: row.action, label: labelOf(list, row), state, total: row.total, done: row.done, skipped: row.skipped, undo }
}

async function apply(list: BulkList<BulkCalls>, input: { action: string; selection: BulkSelection; token: string }, ctx: Ctx): Promise<{ status: 'success'; message: string; run: BulkRun }> {
  const me = ctx.me()
  const spec = specOf(list, input.action)
  if (!permits(spec.single.access, me)) throw new ApiFailure(403, FORBIDDEN)
  const [run] = await ctx.db.insert(bulkRuns).values({ list: list.calls.list, action: input.action, adminId: me.id, total: 0 }).returning({ id: bulkRuns.id })
  if (run === undefined) throw new Error('the bulk run insert returned no row')
  const rows = classified(list, input.action, input.selection, me)
  await ctx.db.execute(sql`insert into ${bulkRunRows} (run_id, seq, record_id, name, before)
    select ${run.id}, row_number() over (order by c.seq), c.id, c.name, c.before from (${rows}) c where c.reason is null`)
  const [print] = Fingerprint.parse(
    await ctx.db.execute(fingerprintOf(sql`select ${bulkRunRows.recordId} as id, ${bulkRunRows.before} as before from ${bulkRunRows} where ${bulkRunRows.run} = ${run.id}`)),
  ).rows
  // Thrown, not answered: the transaction rolls back, and with it the run and its rows.
  if (print === undefined || tokenOf(list.calls.list, input.action, print.h) !== input.token) throw failure(BULK_SET_CHANGED, { token: BULK_SET_CHANGED }, 409)
  if (print.n === 0) throw failure('None of the chosen rows would change', undefined, 409)
  const [row] = await ctx.db.update(bulkRuns).set({ total: print.n }).where(eq(bulkRuns.id, run.id)).returning()
  if (row === undefined) throw new Error('the bulk run went missing')
  await ctx.jobs.add(ctx.db, BULK_JOB, { run: run.id }, { key: `bulk:${run.id}` })
  ctx.afterSuccess(() => ctx.jobs.wake())
  ctx.audit(run.id)
  ctx.auditDetail(`${spec.label}: ${print.n} ${list.calls.noun}`)
  return { status: 'success', message: `${spec.label}: ${print.n} ${list.calls.noun}, under way`, run: await view(ctx.db, ctx.config, row) }
}

/** A run's row, when `me` may see it (its admin or the superadmin). */
async function ownRun(db: Db, me: AdminRow, id: string, lock = false): Promise<typeof bulkRuns.$inferSelect> {
  const query = db.select().from(bulkRuns).where(eq(bulkRuns.id, id))
  const [row] = lock ? await query.for('update') : await query
  if (row === undefined || (row.adminId !== me.id && me.role !== 'superadmin')) throw failure(BULK_RUN_UNKNOWN, { id: BULK_RUN_UNKNOWN }, 404)
  return row
}

/** The handlers of a list's pair of calls. */
export const bulkPreview = (name: string) => (input: { action: string; selection: BulkSelection }, ctx: Ctx) => preview(listNamed(name), input, ctx)
export const bulkApply = (name: string) => (input: { action: string; selection: BulkSelection; token: string }, ctx: Ctx) => apply(listNamed(name), input, ctx)

export const bulkRoutes = handlers(bulkArea, {
  previewGamesBulk: bulkPreview('games'),
  applyGamesBulk: bulkApply('games'),
  previewContactBulk: bulkPreview('contactus'),
  applyContactBulk: bulkApply('contactus'),
  previewCategoriesBulk: bulkPreview('categories'),
  applyCategoriesBulk: bulkApply('categories'),
  previewBrandsBulk: bulkPreview('brands'),
  applyBrandsBulk: bulkApply('brands'),
  previewBuyLinksBulk: bulkPreview('links:buy'),
  applyBuyLinksBulk: bulkApply('links:buy'),
  previewSellLinksBulk: bulkPreview('links:sell'),
  applySellLinksBulk: bulkApply('links:sell'),
  previewBridgeLinksBulk: bulkPreview('links:bridge'),
  applyBridgeLinksBulk: bulkApply('links:bridge'),
  previewHomepageBulk: bulkPreview('homepage'),
  applyHomepageBulk: bulkApply('homepage'),
  previewStaffBulk: bulkPreview('staff'),
  applyStaffBulk: bulkApply('staff'),
  previewPromotionsBulk: bulkPreview('promotions'),
  applyPromotionsBulk: bulkApply('promotions'),
  previewNewsletterBulk: bulkPreview('newsletter'),
  applyNewsletterBulk: bulkApply('newsletter'),
  getBulkRun: async ({ id }, ctx) => ({ status: 'success', message: 'Bulk action fetched', run: await view(ctx.db, ctx.config, await ownRun(ctx.db, ctx.me(), id)) }),
  cancelBulkRun: async ({ id }, ctx) => {
    const row = await ownRun(ctx.db, ctx.me(), id, true)
    if (row.state !== 'running') throw failure(BULK_RUN_OVER, { id: BULK_RUN_OVER }, 409)
    const [cancelled] = await ctx.db.update(bulkRuns).set({ state: 'cancelled' }).where(eq(bulkRuns.id, id)).returning()
    if (cancelled === undefined) throw new Error('the bulk run went missing')
    ctx.audit(id)
    ctx.afterSuccess(() => ctx.jobs.wake())
    return { status: 'success', message: 'Bulk action cancelled', run: await view(ctx.db, ctx.config, cancelled) }
  },
})

// ---------------------------------------------------------------------------------------------
// The job
// ---------------------------------------------------------------------------------------------

const lastSent = new Map<string, number>()

/** Sends the run's progress to its admin's sessions: at most every PROGRESS_MS, and always at its end (`last`). */
async function tell(services: Services, runId: string, last: boolean): Promise<void> {
  const now = Date.now()
  if (!last && now - (lastSent.get(runId) ?? 0) < PROGRESS_MS) return
  if (last) lastSent.delete(runId)
  else lastSent.set(runId, now)
  const [row] = await services.handle.db.select().from(bulkRuns).where(eq(bulkRuns.id, runId))
  if (row === undefined) return
  services.realtime?.toAdmin(row.adminId, SocketEvents.bulkProgress, await view(services.handle.db, services.config, row))
}

const Counted = z.object({ rows: z.array(z.object({ done: z.coerce.number(), changed: z.coerce.number(), ids: z.array(z.string()).nullable() })) })

/**
 * One batch of a set (or of an action that only has an effect): the rows still as previewed take
 * the value (those still there, for an effect), the others are skipped; one statement, and the
 * action's effect in the same transaction.
 */
async function setBatch(services: Services, list: BulkList<BulkCalls>, action: SetAction | EachAction, runId: string, admin: AdminRow, size: number): Promise<number> {
  const db = services.handle.db
  const t = list.table
  const key = sql.identifier(list.id.name)
  const changes =
    'set' in action
      ? sql`update ${t} set ${sql.identifier(action.set.column.name)} = ${action.set.to}${alsoSet(action, 'to')} from pick where ${t}.${key}::text = pick.record_id and to_jsonb(${t}.${sql.identifier(action.set.column.name)}) = pick.before returning ${t}.${key}::text as id`
      : sql`select ${t}.${key}::text as id from ${t} join pick on ${t}.${key}::text = pick.record_id`
  const effect = 'set' in action ? action.effect : action.each
  const result = await db.transaction(async (tx) => {
    const [counted] = Counted.parse(
      await tx.execute(sql`
      with pick as (select seq, record_id, before from ${bulkRunRows} where run_id = ${runId} and outcome = 'pending' order by seq limit ${size} for update),
      changed as (${changes}),
      marked as (update ${bulkRunRows} r set outcome = case when r.record_id in (select id from changed) then 'done' else 'changed' end
        where r.run_id = ${runId} and r.seq in (select seq from pick) returning r.outcome, r.record_id)
      select count(*) filter (where outcome = 'done')::int as done, count(*) filter (where outcome = 'changed')::int as changed,
        array_agg(record_id) filter (where outcome = 'done') as ids from marked`),
    ).rows
    const done = counted?.done ?? 0
    const changed = counted?.changed ?? 0
    const ids = counted?.ids ?? []
    if (ids.length > 0) await effect?.inTx?.(tx, ids, admin, services)
    if (done + changed > 0) await tx.update(bulkRuns).set({ done: sql`${bulkRuns.done} + ${done}`, skipped: sql`${bulkRuns.skipped} + ${changed}` }).where(eq(bulkRuns.id, runId))
    return { took: done + changed, ids }
  })
  if (result.ids.length > 0) effect?.after?.(services, result.ids)
  return result.took
}

/** The `also` columns of a set, as more assignments of an update (`to` when it runs, `back` when undone). */
const alsoSet = (action: SetAction, way: 'to' | 'back'): SQL => sql.join((action.also ?? []).map((a) => sql`, ${sql.identifier(a.column.name)} = ${a[way]}`))

/** The admin a run acts for, as the trash needs a call's context. */
function actingFor(services: Services, admin: AdminRow): TrashCtx {
  const db = services.handle.db
  return { db, handle: services.handle, config: services.config, jobs: services.jobs, me: () => admin, transaction: (work) => db.transaction(work) }
}

/** The end of a big delete out of a call: what a failure leaves is put back at once. */
async function finishBig(ctx: TrashCtx, big: Taking, remove: (tx: Db) => Promise<readonly unknown[]>): Promise<unknown> {
  const failures: (() => Promise<void> | void)[] = []
  try {
    return await finishTaking({ ...ctx, afterFailure: (work) => failures.push(work) }, big, remove)
  } catch (error) {
    for (const work of failures) await work()
    if (error instanceof NothingTaken) return undefined
    throw error
  }
}

type Pending = { seq: number; recordId: string }

/**
 * A delete refused by a foreign key: the record is in use by another (23503 for a key without a
 * delete rule, 23001 for one that restricts it, as a game's category).
 */
const refusedInUse = (error: unknown): boolean => {
  const state = sqlState(error)
  return state === '23503' || state === '23001'
}

/**
 * One batch of a delete. Records that take no other rows with them go into the trash together,
 * one entry and one transaction that also marks their rows (a run stopped after it resumes past
 * them); when one of them was put in use since the preview (a category given to a game: the
 * delete's foreign key refuses it), the batch rolls back and each record is tried on its own, so
 * only that one is skipped. The others, each in its own transaction, as its single delete does.
 */
async function deleteBatch(services: Services, action: DeleteAction, run: typeof bulkRuns.$inferSelect, admin: AdminRow, size: number): Promise<number> {
  const db = services.handle.db
  const pending = await db
    .select({ seq: bulkRunRows.seq, recordId: bulkRunRows.recordId })
    .from(bulkRunRows)
    .where(and(eq(bulkRunRows.run, run.id), eq(bulkRunRows.outcome, 'pending')))
    .orderBy(asc(bulkRunRows.seq))
    .limit(size)
  const ctx = actingFor(services, admin)
  if (takesDependents(action.delete.trash)) {
    for (const row of pending) await deleteOne(ctx, action, run.id, row)
    return pending.length
  }
  try {
    await deleteTogether(ctx, action, run.id, pending)
  } catch (error) {
    if (!refusedInUse(error)) throw error
    for (const row of pending) {
      try {
        await deleteTogether(ctx, action, run.id, [row])
      } catch (one) {
        if (!refusedInUse(one)) throw one
        await db.transaction((tx) => markRows(tx, run.id, [row], undefined))
      }
    }
  }
  return pending.length
}

/** Marks a batch's rows: those `taken` deleted done (with their entry), the others changed since; the run's counts follow. */
async function markRows(tx: Db, runId: string, rows: readonly Pending[], taken: { entry: string; ids: string[] } | undefined): Promise<void> {
  const ids = new Set(taken?.ids ?? [])
  const done = rows.filter((r) => ids.has(r.recordId)).map((r) => r.seq)
  const changed = rows.filter((r) => !ids.has(r.recordId)).map((r) => r.seq)
  if (done.length > 0) {
    await tx.update(bulkRunRows).set({ outcome: 'done', trash: taken?.entry ?? null }).where(and(eq(bulkRunRows.run, runId), sql`${bulkRunRows.seq} = any(${sql.param(done)}::int[])`))
  }
  if (changed.length > 0) {
    await tx.update(bulkRunRows).set({ outcome: 'changed' }).where(and(eq(bulkRunRows.run, runId), sql`${bulkRunRows.seq} = any(${sql.param(changed)}::int[])`))
  }
  await tx
    .update(bulkRuns)
    .set({ done: sql`${bulkRuns.done} + ${done.length}`, skipped: sql`${bulkRuns.skipped} + ${changed.length}` })
    .where(eq(bulkRuns.id, runId))
}

/** Records into one trash entry in one transaction, their rows marked in it; a foreign key's refusal is thrown. */
async function deleteTogether(ctx: TrashCtx, action: DeleteAction, runId: string, rows: readonly Pending[]): Promise<void> {
  const ids = rows.map((r) => r.recordId)
  await moveBatchToTrash(ctx, action.delete.trash, ids, (tx) => action.delete.remove(tx, ids), (tx, taken) => markRows(tx, runId, rows, taken))
}

/** A record that takes other rows with them into the trash, in a transaction that also marks its row done. */
async function deleteOne(ctx: TrashCtx, action: DeleteAction, runId: string, row: Pending): Promise<void> {
  const mark = (tx: Db, outcome: 'done' | 'changed') =>
    Promise.all([
      tx.update(bulkRunRows).set({ outcome }).where(and(eq(bulkRunRows.run, runId), eq(bulkRunRows.seq, row.seq))),
      tx
        .update(bulkRuns)
        .set(outcome === 'done' ? { done: sql`${bulkRuns.done} + 1` } : { skipped: sql`${bulkRuns.skipped} + 1` })
        .where(eq(bulkRuns.id, runId)),
    ])
  let taken: unknown
  const remove = async (tx: Db) => {
    const removed = await action.delete.remove(tx, [row.recordId])
    // In the delete's own transaction: a run stopped after it resumes past this record.
    if (removed.length > 0) await mark(tx, 'done')
    return removed
  }
  try {
    // A record that takes many rows with it (a brand's leads, a promotion's deliveries) moves
    // them in short transactions first, as its single delete does; the others in one.
    const big = await startTaking(ctx, action.delete.trash, [row.recordId])
    taken = big === undefined ? await moveToTrash(ctx, action.delete.trash, row.recordId, remove) : await finishBig(ctx, big, remove)
  } catch (error) {
    // Put in use since the preview: its delete rolled back, and it is skipped.
    if (!refusedInUse(error)) throw error
    taken = undefined
  }
  if (taken === undefined) await ctx.db.transaction((tx) => mark(tx, 'changed'))
}

/** Ends a run (done, or cancelled): its undo entry when it changed something; once. */
async function finish(services: Services, list: BulkList<BulkCalls>, runId: string, admin: AdminRow): Promise<void> {
  const db = services.handle.db
  const [run] = await db.select({ action: bulkRuns.action, finishedAt: bulkRuns.finishedAt }).from(bulkRuns).where(eq(bulkRuns.id, runId))
  const removing = run === undefined ? undefined : actionOf(list, run.action)
  // A delete's batches left the gaps of what they took in its order: closed once, here.
  if (run?.finishedAt === null && removing !== undefined && 'delete' in removing) await removing.delete.trash.order?.closeGaps(db)
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(bulkRuns).where(eq(bulkRuns.id, runId)).for('update')
    if (row === undefined || row.finishedAt !== null) return
    const spec = specOf(list, row.action)
    const action = actionOf(list, row.action)
    let undo: string | null = null
    if (row.done > 0 && !('each' in action)) {
      let entries: string[] = []
      if ('delete' in action) {
        // A record deleted on its own has its own entry, found by what it took: written by the
        // delete's transaction, so never missed. A batch's rows name their entry already.
        await tx.execute(sql`
          update ${bulkRunRows} r set trash = t.id from ${trash} t
          where r.run_id = ${runId} and r.outcome = 'done' and r.trash is null and t.action = 'delete' and t.kind = ${action.delete.trash.name}
            and t.record_id = r.record_id and t.deleted_by = ${row.adminId}`)
        const found = await tx.execute(sql`select distinct trash as id from ${bulkRunRows} where run_id = ${runId} and outcome = 'done' and trash is not null`)
        entries = z.object({ rows: z.array(z.object({ id: z.string() })) }).parse(found).rows.map((r) => r.id)
      }
      const ticket = await keepBulkRun({ config: services.config, jobs: services.jobs }, tx, {
        id: runId,
        kind: `bulk:${list.calls.list}`,
        endpoint: list.calls.apply,
        adminId: admin.id,
        message: `${spec.label} undone: ${row.done} ${list.calls.noun}`,
        entries,
      })
      undo = ticket.token
    }
    await tx
      .update(bulkRuns)
      .set({ state: row.state === 'running' ? 'done' : row.state, finishedAt: new Date(), undo })
      .where(eq(bulkRuns.id, runId))
  })
}

const RunPayload = z.object({ run: z.string() })

/**
 * Batches of a run for up to CLAIM_MS per claim ('again' while rows are left), so other jobs are
 * served between two claims. The run's state is read again before each batch: a cancel stops it
 * after the batch under way.
 */
async function runBatch(payload: Record<string, unknown>, services: Services): Promise<'again' | undefined> {
  const { run: runId } = RunPayload.parse(payload)
  const db = services.handle.db
  const [run] = await db.select().from(bulkRuns).where(eq(bulkRuns.id, runId))
  if (run === undefined || run.finishedAt !== null) return undefined
  const list = listNamed(run.list)
  const [admin] = await db.select().from(admins).where(eq(admins.id, run.adminId))
  if (run.state !== 'running' || admin === undefined) {
    if (admin !== undefined) await finish(services, list, runId, admin)
    else await db.update(bulkRuns).set({ state: 'failed', finishedAt: new Date() }).where(eq(bulkRuns.id, runId))
    await tell(services, runId, true)
    return undefined
  }
  const action = actionOf(list, run.action)
  const kind = services.handle.kind
  // A delete whose records take other rows with them is one short transaction per record, each
  // one stall at most: its count is kept.
  const speed =
    tuning.batch !== undefined
      ? pace(tuning.batch, undefined)
      : 'delete' in action && takesDependents(action.delete.trash)
        ? pace(BATCH.deleteEach[kind], undefined)
        : pace(('delete' in action ? BATCH.delete : BATCH.set)[kind], TRASH_BATCH_MS[kind])
  const start = performance.now()
  let took = 0
  for (;;) {
    const size = speed.size()
    await tuning.before?.()
    const t0 = performance.now()
    const n = 'delete' in action ? await deleteBatch(services, action, run, admin, size) : await setBatch(services, list, action, runId, admin, size)
    speed.took(n, performance.now() - t0)
    took += n
    if (n < size || performance.now() - start > CLAIM_MS) break
    await yieldToLoop()
    const [now] = await db.select({ state: bulkRuns.state }).from(bulkRuns).where(eq(bulkRuns.id, runId))
    if (now?.state !== 'running') break
  }
  if (took > 0) {
    list.changed?.(services.realtime)
    services.publicCache.forget()
    await tell(services, runId, false)
    return 'again'
  }
  await finish(services, list, runId, admin)
  await tell(services, runId, true)
  return undefined
}

export const bulkJobs = [defineJob(BULK_JOB, (payload, _job, services) => runBatch(payload, services))]

// ---------------------------------------------------------------------------------------------
// Undo
// ---------------------------------------------------------------------------------------------

const Picked = z.object({ rows: z.array(z.object({ seq: z.coerce.number(), record_id: z.string(), before: z.string() })) })
const IdRows = z.object({ rows: z.array(z.object({ id: z.string() })) })
const Entries = z.object({ rows: z.array(z.object({ trash: z.string(), n: z.coerce.number() })) })

/** Reverts a run: each changed value back where nobody changed it since; each deleted record back, last first. */
async function undoRun(ctx: Ctx, runId: string): Promise<string> {
  const [run] = await ctx.db.select().from(bulkRuns).where(eq(bulkRuns.id, runId)).for('update')
  if (run === undefined) throw new Error(`the trash names an unknown bulk run ${runId}`)
  const list = listNamed(run.list)
  const spec = specOf(list, run.action)
  const action = actionOf(list, run.action)
  if (!permits(spec.single.access, ctx.me())) throw new ApiFailure(403, FORBIDDEN)
  // An undo that writes back what a step-up Apply changed (Deactivate: access given back) asks for the same proof.
  if (list.calls.apply.stepUp === true) await requireFreshProof(ctx)
  if ('each' in action) throw new Error(`${list.calls.list}: ${run.action} cannot be undone, and kept no undo`)
  let back = 0
  if ('set' in action) {
    const t = list.table
    const key = sql.identifier(list.id.name)
    const column = sql.identifier(action.set.column.name)
    const kind = ctx.handle.kind
    const speed = pace(BATCH.set[kind], TRASH_BATCH_MS[kind])
    // A batch at a time, in the run's order, each from where the last stopped (by the index on
    // run, outcome and seq), the batches in the call's transaction. Each batch's rows are named
    // by their keys, not joined: a join's plan rests on statistics taken before the run (no row
    // in that state then), and a nested loop over both sides made 5,000 rows take minutes.
    let after = 0
    for (;;) {
      const size = speed.size()
      const t0 = performance.now()
      const picked = Picked.parse(
        await ctx.db.execute(sql`select seq, record_id, coalesce(before, 'null'::jsonb)::text as before from ${bulkRunRows}
          where run_id = ${runId} and outcome = 'done' and seq > ${after}::int order by seq limit ${size}`),
      ).rows
      // Rows holding the same value before are written back by one statement (a Freeze: all of them).
      const byValue = new Map<string, { ids: string[]; seqs: Map<string, number> }>()
      for (const row of picked) {
        const group = byValue.get(row.before) ?? { ids: [], seqs: new Map<string, number>() }
        group.ids.push(row.record_id)
        group.seqs.set(row.record_id, row.seq)
        byValue.set(row.before, group)
      }
      const undone: number[] = []
      const undoneIds: string[] = []
      for (const [before, group] of byValue) {
        // The kept value typed as the column, never through JS (as a single undo writes it back).
        const kept = sql`(jsonb_populate_record(null::${t}, jsonb_build_object(${action.set.column.name}::text, ${before}::jsonb))).${column}`
        const ids = sql.join(group.ids.map((id) => sql`${id}`), sql`, `)
        const result = IdRows.parse(
          await ctx.db.execute(sql`update ${t} set ${column} = ${kept}${alsoSet(action, 'back')}
            where ${t}.${key}::text in (${ids}) and ${t}.${column} = ${action.set.to}${action.undoIf === undefined ? sql`` : sql` and ${action.undoIf}`}
            returning ${t}.${key}::text as id`),
        ).rows
        for (const row of result) {
          undone.push(group.seqs.get(row.id) ?? -1)
          undoneIds.push(row.id)
        }
      }
      if (undoneIds.length > 0) await action.undone?.(ctx, undoneIds)
      if (undone.length > 0) {
        await ctx.db.execute(sql`update ${bulkRunRows} set outcome = 'undone' where run_id = ${runId} and seq in (${sql.join(undone.map((n) => sql`${n}::int`), sql`, `)})`)
      }
      speed.took(picked.length, performance.now() - t0)
      back += undone.length
      const last = picked.at(-1)
      if (last === undefined || picked.length < size) break
      after = last.seq
      await yieldToLoop()
    }
  } else {
    // Each entry (a batch's, or a record's) with how many records it took, the last taken first.
    const taken = Entries.parse(
      await ctx.db.execute(sql`select trash, count(*)::int as n from ${bulkRunRows}
        where run_id = ${runId} and outcome = 'done' and trash is not null group by trash order by max(seq) desc`),
    ).rows
    await restoreDeletes(ctx, taken.map((e) => e.trash))
    back = taken.reduce((n, e) => n + e.n, 0)
    await ctx.db.update(bulkRunRows).set({ outcome: 'undone' }).where(and(eq(bulkRunRows.run, runId), eq(bulkRunRows.outcome, 'done')))
  }
  ctx.afterSuccess(() => list.changed?.(ctx.realtime))
  const kept = run.done - back
  return `${spec.label} undone: ${back} ${list.calls.noun}${kept > 0 ? `; ${kept} changed since, kept as they are` : ''}`
}

undoesBulkRuns(undoRun)

// ---------------------------------------------------------------------------------------------
// Undo from the audit log
// ---------------------------------------------------------------------------------------------

/** Whether an audit row is a bulk action's Apply (its record: the run). */
const isApplyRow = (row: { action: string; recordId: string | null }): row is { action: string; recordId: string } =>
  row.recordId !== null && [...lists.values()].some((list) => list.calls.apply.path === row.action)

/**
 * Of these audit rows, those whose run `me` may undo now, by the toast's rules: its undo entry
 * still open, theirs (or they are the superadmin), and they may still take the single action.
 */
export async function undoableBulkRows(db: Db, me: AdminRow, rows: readonly { id: string; action: string; recordId: string | null }[]): Promise<Set<string>> {
  const applied = rows.flatMap((row) => (row.recordId !== null && isApplyRow(row) ? [{ id: row.id, recordId: row.recordId }] : []))
  if (applied.length === 0) return new Set()
  const runs = await db
    .select({ id: bulkRuns.id, list: bulkRuns.list, action: bulkRuns.action, adminId: bulkRuns.adminId })
    .from(bulkRuns)
    .innerJoin(trash, eq(trash.id, bulkRuns.undo))
    .where(and(inArray(bulkRuns.id, applied.map((r) => r.recordId)), sql`${trash.expiresAt} > now()`))
  const open = new Set(runs.filter((run) => (run.adminId === me.id || me.role === 'superadmin') && permits(specOf(listNamed(run.list), run.action).single.access, me)).map((run) => run.id))
  return new Set(applied.filter((row) => open.has(row.recordId)).map((row) => row.id))
}

/**
 * Reverts a bulk action from its audit row: its run's one undo, as the toast's Undo (the same
 * checks, the same answer). Undefined when the row is not a bulk action's Apply.
 */
export async function undoBulkFromAudit(ctx: Ctx, auditId: string): Promise<{ runId: string; message: string } | undefined> {
  const [row] = await ctx.db.select({ action: auditLog.action, recordId: auditLog.recordId }).from(auditLog).where(eq(auditLog.id, auditId))
  if (row === undefined || !isApplyRow(row)) return undefined
  const [run] = await ctx.db.select({ id: bulkRuns.id, undo: bulkRuns.undo, state: bulkRuns.state }).from(bulkRuns).where(eq(bulkRuns.id, row.recordId))
  if (run === undefined || run.undo === null) throw failure(BULK_NOTHING_TO_UNDO, { id: BULK_NOTHING_TO_UNDO }, 409)
  const { message } = await restoreEntry(ctx, run.undo)
  return { runId: run.id, message }
}
