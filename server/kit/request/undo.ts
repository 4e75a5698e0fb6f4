/**
 * Undo for destructive writes (contract/undo.ts). A delete does not destroy: the kit
 * (`deleteRecord`, `deleting`: server/kit/request/delete.ts) opens a `trash` entry and moves the record's
 * row, as stored, into `trash_rows`, with the rows its delete cascades to and the references it
 * clears (both found from the schema's foreign keys, so an area declares nothing of them), one
 * kept row per row, and leaves the files it held where they are. The rows move inside the
 * database, a batch per statement (DELETE ... RETURNING into INSERT), so a promotion sent to a
 * million leads costs this process no more memory than a small one. The answer carries an undo
 * ticket; for UNDO_SECONDS (plus a grace, so an Undo pressed at the last moment still arrives in
 * time) the admin who deleted it, or the superadmin, may call `undo`, which puts every row back
 * exactly (same id, same columns, by jsonb_populate_record) and the record at its old place in a
 * preference order. A purge job on the shared queue, due when the entry expires, removes the
 * entry's kept rows in batches, then the entry, then its files. Since the row really leaves its
 * table, no list, count or search sees it meanwhile, and none of them had to change.
 *
 * A delete that takes more than a batch of dependent rows, and its undo, are not one transaction:
 * on PGlite a transaction holds the only connection, and a million rows take half a minute. The
 * entry goes 'taking' (a short transaction that also refuses a second delete of the record), the
 * dependent rows move a batch per short transaction, deepest first, and the call's own
 * transaction takes what is left with the record itself and sets it 'kept'. An undo marks it
 * 'restoring' and puts the record back in one short transaction, the dependent rows a batch per
 * short transaction, parents first, and the call's transaction removes the empty entry. Other
 * calls are served between two batches. A run that stops halfway (an error, a stopped server) is
 * finished the safe way: a delete is rolled back (its rows put back: nobody was told it happened),
 * an undo completed. Each batch renews the run's lease on the entry; a lease that passed means the
 * run stopped, and the purge job finishes its work. Anything smaller is one transaction, as any
 * write.
 *
 * A bulk delete (`moveAllToTrash`, the restricted countries' Delete All) keeps every record it
 * took in one entry: one undo puts them all back. A bulk action's run keeps each batch in an entry
 * of its own (`moveBatchToTrash`), and its one undo puts the batches back together (`restoreDeletes`).
 *
 * A flip (a game's freeze) or a field-level delete (a social link, the version) is undone by
 * writing the column's old value back (`undoableUpdate`), unless the value was changed since by
 * another write: that one is kept and the undo refused.
 *
 * Each kind of record is declared once by its area:
 *
 *     const gameTrash = restorable({ name: 'games', table: games, endpoint: gamesArea.DeleteCms, order, restored: 'Game restored successfully' })
 */
import { randomUUID } from 'node:crypto'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { and, eq, inArray, is, ne, sql, type SQL } from 'drizzle-orm'
import { PgTable, getTableConfig, type PgColumn } from 'drizzle-orm/pg-core'
import { z } from 'zod'
import type { Endpoint } from '#contract/define'
import * as undoArea from '#contract/undo'
import {
  DELETE_INTERRUPTED,
  TRASH_BUSY,
  UNDO_CHANGED,
  UNDO_EXPIRED,
  UNDO_GONE,
  UNDO_INTERRUPTED,
  UNDO_NOT_YOURS,
  UNDO_ORPHANED,
  UNDO_TAKEN,
  UNDO_UNDER_WAY,
  type UndoTicket,
  undoNeedsSecondAdmin,
} from '#contract/undo'
import { sqlState, type Db, type DbHandle } from '../../db/index.ts'
import * as schema from '../../db/schema.ts'
import { auditLog, trash, trashRows } from '../../db/schema.ts'
import { uploadColumns } from '../../db/upload-columns.ts'
import { FORBIDDEN, permits } from '../ground/access/auth.ts'
import { ApiFailure, failure } from './answers.ts'
import { auditRecordId } from './api.ts'
import { defineJob, handlers, type Ctx } from './handlers.ts'
import { type Services } from '../ground/services.ts'
import type { PreferenceOrder } from './preference.ts'
import type { JobResult } from '../ground/queue.ts'
import { violatedIndex } from './unique.ts'
import { removeUpload } from '../ground/uploads.ts'
import { outwardLinkColumns } from '../../db/link-columns.ts'
import { linksOfRow, refusedStoredLink, type StoredLink } from './outward-links.ts'
import { twoAdminLinksOn } from './link-changes.ts'

/** Seconds the server keeps an entry beyond what the ticket tells the client. */
export const UNDO_GRACE_SECONDS = 5
export const PURGE_JOB = 'trash.purge'
/** Entries one purge run takes; more are taken by the next run at once. */
const PURGE_BATCH = 100

/**
 * Rows one statement of a delete, an undo or the purge moves, and so one short transaction of a
 * big delete or undo. PGlite runs every statement on the event loop: 500 rows put back (the
 * heavier way) take about 30 ms of CPU, so other calls wait that long at most. PostgreSQL runs
 * them elsewhere, where a bigger batch only bounds a statement's work and locks, and means fewer
 * transactions.
 */
export const TRASH_BATCH = { pglite: 500, pg: 2000 } as const

/**
 * How long one batch of a big delete or undo may hold PGlite (the event loop) before the next is
 * made smaller. A row's cost varies with its table (indexes, foreign keys checked on the way
 * back), the machine and its load: 500 deliveries put back took 30 ms quiet and 170 to 380 ms
 * beside other work, so a count alone cannot bound the stall. PostgreSQL runs the batches
 * elsewhere: its batches keep their count.
 */
export const TRASH_BATCH_MS = { pglite: 60, pg: undefined } as const
const SMALLEST_BATCH = 20

/**
 * The size of each batch of one run, from how long the last one took: smaller at once when a
 * batch passed `targetMs` (in proportion), larger again (up to `start`) after two that took under
 * half of it. Without a target, always `start`.
 */
export function pace(start: number, targetMs: number | undefined): { size: () => number; took: (rows: number, ms: number) => void } {
  let size = start
  let quick = 0
  return {
    size: () => size,
    took: (rows, ms) => {
      if (targetMs === undefined || rows < size) return
      if (ms > targetMs) {
        size = Math.max(Math.min(SMALLEST_BATCH, start), Math.floor((size * targetMs) / ms))
        quick = 0
      } else if (ms < targetMs / 2 && ++quick >= 2) {
        size = Math.min(start, size * 2)
        quick = 0
      }
    },
  }
}
/**
 * How long a run moving an entry's rows (a big delete or undo) holds it without a batch; each
 * batch renews it. Once it has passed, the run is taken for stopped and the purge finishes it.
 */
export const TRASH_LEASE_SECONDS = 60
/** How long a bulk run's batch entries are kept at most while the run goes on (its end gives them its own window). */
const BULK_HOLD_HOURS = 24
/** Passes over a big delete's dependent rows before the call's own transaction takes what is left. */
const TAKE_PASSES = 3

/** Where a big delete or undo is, told between two batches (after the batch's commit). */
export interface BatchStep {
  entry: string
  state: 'taking' | 'restoring'
  /** Batches done so far by this run. */
  batches: number
}

const tuning: { batch: number | undefined; between: ((step: BatchStep) => Promise<void> | void) | undefined } = { batch: undefined, between: undefined }

/** For tests: a smaller batch (so a few rows make a big delete; undefined: the engine's), and a look between two batches. */
export function tuneTrash(options: { batch?: number | undefined; between?: ((step: BatchStep) => Promise<void> | void) | undefined }): void {
  if ('batch' in options) tuning.batch = options.batch
  if ('between' in options) tuning.between = options.between
}

/** The batch on this engine. */
const batchOn = (handle: DbHandle): number => tuning.batch ?? TRASH_BATCH[handle.kind]

/** The pace of one batched run on this engine (a test's smaller batch keeps its count). */
const paceOn = (handle: DbHandle): ReturnType<typeof pace> => pace(batchOn(handle), tuning.batch === undefined ? TRASH_BATCH_MS[handle.kind] : undefined)

/**
 * What moving records into the trash needs of a call: a request's context, or a bulk action's job
 * acting for the admin who applied it (server/kit/request/bulk.ts).
 */
export type TrashCtx = Pick<Ctx, 'db' | 'handle' | 'config' | 'jobs' | 'me' | 'transaction'>

/** A kind of record that can come back: its table, its order, who may put it back, and what undo then says. */
export interface Restorable {
  /** Unique among kinds: names the kind in the trash ('games', 'links:buy'). */
  name: string
  table: PgTable
  /** Its preference order: a restored record goes back to its old place. */
  order?: PreferenceOrder
  /** The delete call: undo needs its access rule still. */
  endpoint: Endpoint
  /** What a successful undo answers; of a bulk delete, told how many records came back. */
  restored: string | ((count: number) => string)
  /** Its edit version (server/kit/request/edit-version.ts): an undo that writes a value back raises it, as any write does. */
  version?: PgColumn
  /**
   * Runs once the record is back, in `db`, the transaction that put it back; a throw refuses the
   * undo. The rows that depend on it may still be on their way back (a big undo brings them
   * after, a batch at a time): work that reads them waits while `moving` says so (a promotion
   * being sent is queued again here, and its delivery job waits).
   */
  afterRestore?: (db: Db, ctx: Ctx, recordId: string) => Promise<void>
}

const kinds = new Map<string, Restorable>()

/** Declares a kind of record that can be restored (once per name, at module load). */
export function restorable(kind: Restorable): Restorable {
  if (kinds.has(kind.name)) throw new Error(`Two restorable kinds named ${kind.name}`)
  if (getTableConfig(kind.table).primaryKeys.length > 0 || primaryKey(kind.table) === undefined) throw new Error(`${kind.name}: a restorable table needs a one-column primary key`)
  kinds.set(kind.name, kind)
  return kind
}

// ---------------------------------------------------------------------------------------------
// What a delete takes with it, read from the schema's foreign keys
// ---------------------------------------------------------------------------------------------

const tables: readonly PgTable[] = Object.values(schema as Record<string, unknown>).filter((v): v is PgTable => is(v, PgTable))
const tableNamed = new Map(tables.map((t) => [getTableConfig(t).name, t]))
const primaryKey = (table: PgTable): PgColumn | undefined => getTableConfig(table).columns.find((c) => c.primary)

/** A one-column foreign key: the referring column, the column it refers to, and its delete rule. */
interface Reference {
  table: PgTable
  column: PgColumn
  target: PgColumn
  onDelete: string | undefined
}

/** The one-column foreign keys of `table`. */
function referencesOf(table: PgTable): Reference[] {
  return getTableConfig(table).foreignKeys.flatMap((fk) => {
    const ref = fk.reference()
    const [column] = ref.columns
    const [target] = ref.foreignColumns
    return column === undefined || target === undefined || ref.columns.length !== 1 ? [] : [{ table, column, target, onDelete: fk.onDelete }]
  })
}

/** The rows that refer to `table` and go (cascade) or lose the reference (set null) when a row of it is deleted. */
function dependentsOf(table: PgTable): Reference[] {
  return tables.flatMap((child) => referencesOf(child).filter((r) => r.target.table === table && (r.onDelete === 'cascade' || r.onDelete === 'set null')))
}

/**
 * Whether a delete of this kind takes rows beyond the records themselves: then it is declared
 * with `deleting` (server/kit/request/delete.ts), which moves them in short transactions of their own.
 */
export const takesDependents = (kind: Restorable): boolean => dependentsOf(kind.table).length > 0

/**
 * What a delete takes: the records themselves (`copy`: kept, then deleted by the area's own
 * delete), the rows their delete cascades to (`move`), the references it clears (`clear`).
 */
interface Part {
  table: PgTable
  /** Selects the part's rows (their parents are still there when it runs). */
  where: SQL
  mode: 'copy' | 'move' | 'clear'
  /** Of `clear`: the referring column and the row's key. */
  cleared?: { column: PgColumn; key: PgColumn }
}

/** The rows a delete of the rows `where` selects in `parent` takes with them, parents before children (the order undo restores them in). */
function partsOf(parent: PgTable, where: SQL, depth = 1): Part[] {
  if (depth > 4) return []
  const parts: Part[] = []
  for (const d of dependentsOf(parent)) {
    const inParent = sql`${d.column} in (select ${d.target} from ${parent} where ${where})`
    if (d.onDelete === 'cascade') {
      parts.push({ table: d.table, where: inParent, mode: 'move' }, ...partsOf(d.table, inParent, depth + 1))
    } else {
      const key = primaryKey(d.table)
      // A table without a one-column key cannot be named row by row; none refers by set null today.
      if (key !== undefined) parts.push({ table: d.table, where: inParent, mode: 'clear', cleared: { column: d.column, key } })
    }
  }
  return parts
}

/** A delete's parts: the records `ids` of the kind, then what their delete takes. */
function partsFor(kind: Restorable, key: PgColumn, ids: readonly string[]): Part[] {
  const records = inArray(key, [...ids])
  return [{ table: kind.table, where: records, mode: 'copy' }, ...partsOf(kind.table, records)]
}

/** A JSON value's strings: a text column's value, or each element of a text array's. */
const STRINGS = 'lax $[*] ? (@.type() == "string" && @ != "")'

/**
 * The stored upload names the trash rows in `rows` (a relation with a `row` column) of `table`
 * hold, as a query of one column; undefined when the table has no upload column.
 */
function filesIn(table: PgTable, rows: SQL): SQL | undefined {
  const names = uploadColumns.filter((c) => c.table === table).map((c) => c.name)
  if (names.length === 0) return undefined
  return sql.join(
    names.map((name) => sql`select v #>> '{}' as f from ${rows}, jsonb_path_query(${rows}."row" -> ${name}::text, ${STRINGS}::jsonpath) v`),
    sql` union all `,
  )
}

const Count = z.object({ rows: z.array(z.object({ n: z.coerce.number() })) })
const countOf = (result: unknown): number => Count.parse(result).rows[0]?.n ?? 0

/**
 * Keeps up to a batch of a part's rows in `trash_rows` (one row each, as stored, or a cleared
 * reference's key and old value) and deletes them or clears their reference, in one statement;
 * answers how many it kept. The rows are locked as they are picked, so a row another call changes
 * meanwhile is kept as that call left it. `skipLocked`: rows another transaction holds (a
 * delivery being recorded) are left for a later pass instead of waited for. A `copy` (the records
 * themselves, a few) takes them all: they stay in their table until the area's own delete.
 */
async function moveOut(tx: Db, entry: string, index: number, part: Part, skipLocked: boolean, size: number): Promise<number> {
  const { table } = part
  const limit = part.mode === 'copy' ? sql`` : sql` limit ${size}`
  const pick = sql`pick as materialized (select ${table}.ctid as at from ${table} where ${part.where}${limit} for update${skipLocked ? sql` skip locked` : sql``})`
  const picked = sql`ctid = any(array(select at from pick))`
  const into = sql`insert into ${trashRows} ("entry", "part", "row")`
  if (part.cleared !== undefined) {
    const column = sql.identifier(part.cleared.column.name)
    const key = sql.identifier(part.cleared.key.name)
    // Both read the statement's snapshot: `was` sees the values the update clears.
    return countOf(
      await tx.execute(sql`
        with ${pick},
          was as (select jsonb_build_object(${part.cleared.key.name}::text, ${key}, ${part.cleared.column.name}::text, ${column}) as r from ${table} where ${picked}),
          cleared as (update ${table} set ${column} = null where ${picked}),
          kept as (${into} select ${entry}::text, ${index}::int, r from was returning 1)
        select count(*)::int as n from kept`),
    )
  }
  const taken = part.mode === 'copy' ? sql`select to_jsonb(${table}) as r from ${table} where ${picked}` : sql`delete from ${table} where ${picked} returning to_jsonb(${table}) as r`
  const files = filesIn(table, sql`kept`)
  // The files stay until the entry is purged (the upload sweep keeps what trash.files names).
  const named =
    files === undefined
      ? sql``
      : sql`, named as (update ${trash} set "files" = array(select distinct f from (select unnest(${trash.files}) as f union all ${files}) fs where f <> '') where ${trash.id} = ${entry})`
  return countOf(
    await tx.execute(sql`
      with ${pick}, taken as (${taken}),
        kept as (${into} select ${entry}::text, ${index}::int, r from taken returning "row")${named}
      select count(*)::int as n from kept`),
  )
}

/** A table's name as the trash keeps it. */
const nameOf = (t: PgTable): string => getTableConfig(t).name

const IdRows = z.object({ rows: z.array(z.object({ id: z.string() })) })
const TakenRows = z.object({ rows: z.array(z.object({ id: z.string(), place: z.number().nullable() })) })

/** Thrown inside a delete's transaction when the area's delete found nothing: no entry is kept. */
export class NothingTaken extends Error {}

/** Thrown in a batch of a run that no longer holds its entry: its lease passed, and the purge finishes its work. */
class Superseded extends Error {
  constructor() {
    super('another run holds this trash entry now')
  }
}

const lease = sql`now() + ${`${TRASH_LEASE_SECONDS} seconds`}::interval`

/** Renews `mover`'s lease on the entry, in a batch's transaction; throws Superseded when the run no longer holds it. */
async function hold(tx: Db, entry: string, mover: string, state: 'taking' | 'restoring'): Promise<void> {
  const held = await tx
    .update(trash)
    .set({ expiresAt: lease })
    .where(and(eq(trash.id, entry), eq(trash.mover, mover), eq(trash.state, state)))
    .returning({ id: trash.id })
  if (held.length === 0) throw new Superseded()
}

/** Between two batches: other calls go on (on PGlite they wait for the connection meanwhile). */
async function between(step: BatchStep): Promise<void> {
  await yieldToLoop()
  await tuning.between?.(step)
}

/** The name of the index that lets one record have one entry moving at a time. */
const MOVING_INDEX = 'trash_moving_record_key'

/** A second delete (or undo) of a record whose rows are moving: the unique index's refusal, said plainly. */
async function oneMoveAtATime<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (sqlState(error) === '23505' && violatedIndex(error) === MOVING_INDEX) throw failure(TRASH_BUSY, undefined, 409)
    throw error
  }
}

/** Whether a delete or an undo is moving the record's rows now (its entry is taking or restoring). */
export async function moving(db: Db, kind: Restorable, id: string): Promise<boolean> {
  return (await db.$count(trash, and(eq(trash.kind, kind.name), sql`md5(${trash.recordId}) = md5(${id})`, eq(trash.recordId, id), ne(trash.state, 'kept')))) > 0
}

/**
 * Refuses (409) a write that depends on the record's dependent rows while a delete or an undo
 * moves them (a promotion's Resend would start a round for half its recipients). Call it after
 * locking the record's row: a big delete locks it while it opens its entry.
 */
export async function refuseWhileMoving(db: Db, kind: Restorable, id: string): Promise<void> {
  if (await moving(db, kind, id)) throw failure(TRASH_BUSY, undefined, 409)
}

// ---------------------------------------------------------------------------------------------
// Into the trash
// ---------------------------------------------------------------------------------------------

interface Entry {
  action: 'delete' | 'update'
  kind: Restorable
  recordId: string
  endpoint: Endpoint
  /** A delete: its parts (`trash.rows`); an update: the values to write back. */
  json: string
  message: string
}

/**
 * Writes an entry: an update's, kept for the undo window at once; a delete's, 'taking' until its
 * rows are kept (`mover`: the run that moves them in transactions of their own, null when the
 * call's transaction does it all). Answers its id and when it ends.
 */
async function open(ctx: TrashCtx, db: Db, entry: Entry, taking?: { mover: string | null }): Promise<{ id: string; expiresAt: Date }> {
  const seconds = ctx.config.undoSeconds
  const [row] = await db
    .insert(trash)
    .values({
      action: entry.action,
      kind: entry.kind.name,
      recordId: entry.recordId,
      endpoint: entry.endpoint.name,
      rows: sql`${entry.json}::jsonb`,
      message: entry.message,
      deletedBy: ctx.me().id,
      state: taking === undefined ? 'kept' : 'taking',
      mover: taking?.mover ?? null,
      expiresAt: taking === undefined ? sql`now() + ${`${seconds + UNDO_GRACE_SECONDS} seconds`}::interval` : lease,
    })
    .returning({ id: trash.id, expiresAt: trash.expiresAt })
  if (row === undefined) throw new Error('the trash insert returned no row')
  return row
}

/** Queues the entry's purge for when it expires; answers the ticket. */
async function ticket(ctx: Pick<TrashCtx, 'db' | 'config' | 'jobs'>, kept: { id: string; expiresAt: Date }): Promise<UndoTicket> {
  await ctx.jobs.add(ctx.db, PURGE_JOB, {}, { runAt: kept.expiresAt })
  return { token: kept.id, seconds: ctx.config.undoSeconds }
}

/** Queues a purge that watches a run moving the entry's rows, and finishes its work should it stop. */
async function watch(ctx: Pick<TrashCtx, 'jobs'>, tx: Db, entry: string): Promise<void> {
  await ctx.jobs.add(tx, PURGE_JOB, { watch: entry }, { runAt: new Date(Date.now() + (TRASH_LEASE_SECONDS + 1) * 1000) })
}

const restoredMessage = (kind: Restorable, count: number): string => (typeof kind.restored === 'string' ? kind.restored : kind.restored(count))

/** The area's plain delete: deletes the records and answers the deleted rows (none: nothing was there). */
export type Remove = (db: Db) => Promise<readonly unknown[]>

/**
 * The end of every delete, in the call's transaction `tx`: takes what is left of the dependent
 * rows (deepest first: the order the deletes themselves lock in, a promotion's deliveries before
 * the promotion), locks the records and takes again what was added meanwhile (none can be added
 * after), keeps the records, which `remove` then deletes, and sets the entry 'kept': the window
 * starts now, not when the delete began. Throws NothingTaken when `remove` deleted nothing.
 */
async function keep(
  ctx: TrashCtx,
  tx: Db,
  kind: Restorable,
  key: PgColumn,
  entry: string,
  parts: readonly Part[],
  remove: Remove,
  batched = false,
): Promise<{ id: string; expiresAt: Date; ids: string[] }> {
  const [records] = parts
  if (records === undefined) throw new Error('a delete without its records')
  const size = batchOn(ctx.handle)
  // Each part's look (and the records' delete below) walks an index that, after a big delete's
  // batches, still lists every row they moved, dead until a vacuum: on PGlite one statement after
  // another in this transaction held the event loop 260 ms for 1,000,000 rows. So the loop turns
  // between two, and a run whose batches already took the dependents (`batched`) looks once, after
  // the lock, not twice.
  const dependents = async (): Promise<void> => {
    for (let i = parts.length - 1; i >= 1; i--) {
      const part = parts[i] as Part
      while ((await moveOut(tx, entry, i, part, false, size)) === size) await yieldToLoop()
      await yieldToLoop()
    }
  }
  if (!batched) await dependents()
  if (parts.length > 1) {
    await tx.execute(sql`select count(*) from (select 1 from ${records.table} where ${records.where} for update) locked`)
    await dependents()
  }
  await moveOut(tx, entry, 0, records, false, size)
  await yieldToLoop()
  const removed = await remove(tx)
  if (removed.length === 0) throw new NothingTaken()
  // The records taken (those asked for that existed), and one record's place in its order.
  const preference = kind.order === undefined ? sql`null::int` : sql`("row" ->> ${kind.order.preference.name}::text)::int`
  const taken = TakenRows.parse(
    await tx.execute(sql`select "row" ->> ${key.name}::text as id, ${preference} as place from ${trashRows} where ${trashRows.entry} = ${entry} and ${trashRows.part} = 0 order by 1`),
  ).rows
  const place = taken.length === 1 ? (taken[0]?.place ?? null) : null
  const found = taken.map((r) => r.id)
  const [kept] = await tx
    .update(trash)
    .set({
      state: 'kept',
      mover: null,
      recordId: found.join(','),
      place,
      message: restoredMessage(kind, found.length),
      expiresAt: sql`clock_timestamp() + ${`${ctx.config.undoSeconds + UNDO_GRACE_SECONDS} seconds`}::interval`,
    })
    .where(eq(trash.id, entry))
    .returning({ id: trash.id, expiresAt: trash.expiresAt })
  if (kept === undefined) throw new Error('the trash entry went missing')
  return { ...kept, ids: found }
}

/** The parts a delete's entry names (`trash.rows`). */
const Parts = z.object({ parts: z.array(z.object({ table: z.string(), column: z.string().nullable() })) })
type PartNames = z.output<typeof Parts>['parts']
const partNames = (parts: readonly Part[]): string => JSON.stringify({ parts: parts.map((p) => ({ table: nameOf(p.table), column: p.cleared?.column.name ?? null })) })

/**
 * Takes the records `ids` into a new entry, wholly in `tx` (the call's transaction). Undefined
 * when none of them exists; throws NothingTaken when `remove` deleted nothing.
 */
async function takeAtOnce(ctx: TrashCtx, tx: Db, kind: Restorable, ids: readonly string[], remove: Remove): Promise<{ id: string; expiresAt: Date; ids: string[] } | undefined> {
  const key = primaryKey(kind.table)
  if (key === undefined || ids.length === 0) return undefined
  if ((await tx.$count(kind.table, inArray(key, [...ids]))) === 0) return undefined
  const parts = partsFor(kind, key, ids)
  const entry = await open(ctx, tx, { action: 'delete', kind, recordId: ids.join(','), endpoint: kind.endpoint, json: partNames(parts), message: restoredMessage(kind, ids.length) }, { mover: null })
  return keep(ctx, tx, kind, key, entry.id, parts, remove)
}

/** Runs a take; undefined when the area's delete found nothing (the transaction then kept nothing). */
async function taking<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof NothingTaken) return undefined
    throw error
  }
}

/**
 * Deletes a record into the trash in the call's transaction: `remove` (the area's plain delete,
 * answering the deleted rows) runs in the record's order (which closes the gap) after the rows it
 * takes are kept. Undefined when nothing was deleted.
 */
export async function moveToTrash(ctx: TrashCtx, kind: Restorable, id: string, remove: Remove): Promise<UndoTicket | undefined> {
  const one = async (tx: Db) => {
    const kept = await takeAtOnce(ctx, tx, kind, [id], remove)
    return kept === undefined ? [] : [kept]
  }
  // Inside the order's lock: an edit of the same list takes the lock before the row, and so does this.
  const [kept] = (await oneMoveAtATime(() => taking(() => (kind.order === undefined ? ctx.transaction(one) : kind.order.remove(ctx.db, one))))) ?? []
  if (kept === undefined) return undefined
  return ticket(ctx, kept)
}

/**
 * A bulk delete into the trash, as one entry: one undo brings back every record it took. Answers
 * the ids of the records taken (those of `ids` that existed) with the ticket; undefined when none
 * was deleted. One transaction: for kinds whose records take nothing with them (the restricted
 * countries). Kinds in a preference order are deleted one by one (their places close one gap at
 * a time).
 */
export async function moveAllToTrash(ctx: Ctx, kind: Restorable, ids: readonly string[], remove: Remove): Promise<{ ids: string[]; undo: UndoTicket } | undefined> {
  if (kind.order !== undefined) throw new Error(`${kind.name}: a kind in a preference order is deleted one record at a time`)
  if (takesDependents(kind)) throw new Error(`${kind.name}: a bulk delete is one transaction, for records that take no rows with them`)
  const kept = await oneMoveAtATime(() => taking(() => ctx.transaction((tx) => takeAtOnce(ctx, tx, kind, ids, remove))))
  if (kept === undefined) return undefined
  return { ids: kept.ids, undo: await ticket(ctx, kept) }
}

/**
 * A batch of a bulk delete (server/kit/request/bulk.ts) into one entry, in one transaction: of the
 * records `ids`, those that still exist are kept and `remove` deletes them; `then` runs in the
 * same transaction, told the entry and the ids it took (undefined: none was there, and no entry
 * was kept), so what the run records of the batch commits with it. For kinds whose records take
 * no other rows with them. In a preference order, the list's lock is held, each record is kept
 * with its place in the list as it stood (its position, whatever the stored numbers), and the
 * gaps stay for the run to close once at its end (`closeGaps`): closing them per batch renumbered
 * the rest of the list each time, and per record, the whole list for every record.
 */
export async function moveBatchToTrash<T>(
  ctx: TrashCtx,
  kind: Restorable,
  ids: readonly string[],
  remove: Remove,
  then: (tx: Db, taken: { entry: string; ids: string[] } | undefined) => Promise<T>,
): Promise<T> {
  if (takesDependents(kind)) throw new Error(`${kind.name}: its records take other rows with them, a record at a time`)
  const key = primaryKey(kind.table)
  if (key === undefined) throw new Error(`${kind.name}: a restorable table needs a one-column primary key`)
  const batch = async (tx: Db, places: Map<string, number> | undefined): Promise<T> => {
    // In a savepoint: a delete that found nothing after all leaves no entry, and `then` still runs.
    const kept = await taking(() => tx.transaction((inner) => takeAtOnce(ctx, inner, kind, ids, remove)))
    if (kept === undefined) return then(tx, undefined)
    if (places !== undefined && kind.order !== undefined) {
      const found = kept.ids.filter((id) => places.has(id))
      const at = found.map((id) => places.get(id) ?? 0)
      await tx.execute(sql`update ${trashRows} set "row" = jsonb_set("row", ${`{${kind.order.preference.name}}`}::text[], to_jsonb(p.place))
        from unnest(${sql.param(found)}::text[], ${sql.param(at)}::int[]) p(id, place)
        where ${trashRows.entry} = ${kept.id} and ${trashRows.part} = 0 and ${trashRows.row} ->> ${key.name}::text = p.id`)
    }
    // Held while the run goes on: a run longer than the undo window would otherwise find its
    // first batches purged at its end. Its end gives them the run's own window (keepBulkRun); a
    // run that never ends leaves them to the purge once the hold has passed.
    const [held] = await tx
      .update(trash)
      .set({ expiresAt: sql`now() + ${`${BULK_HOLD_HOURS} hours`}::interval` })
      .where(eq(trash.id, kept.id))
      .returning({ expiresAt: trash.expiresAt })
    await ctx.jobs.add(tx, PURGE_JOB, {}, { runAt: held?.expiresAt ?? kept.expiresAt })
    return then(tx, { entry: kept.id, ids: kept.ids })
  }
  return kind.order === undefined ? ctx.transaction((tx) => batch(tx, undefined)) : kind.order.removeKeepingGaps(ctx.db, ids, batch)
}

/** A big delete under way: its entry ('taking'), the run that holds it, and what it takes. */
export interface Taking {
  kind: Restorable
  key: PgColumn
  entry: string
  mover: string
  parts: readonly Part[]
}

const RowCount = z.object({ rows: z.array(z.object({ n: z.coerce.number() })) })

/** The dependent rows of a delete, counted up to one more than a batch (more: a big delete). */
async function dependentRows(db: Db, parts: readonly Part[], size: number): Promise<number> {
  let n = 0
  for (const part of parts.slice(1)) {
    n += RowCount.parse(await db.execute(sql`select count(*)::int as n from (select 1 from ${part.table} where ${part.where} limit ${size + 1}) r`)).rows[0]?.n ?? 0
    if (n > size) break
  }
  return n
}

/**
 * Moves the dependent rows of a 'taking' entry into it, deepest first, a batch per short
 * transaction, the event loop turning between two. Passes again while the last pass found a
 * batch or more (rows added meanwhile, or held by another transaction then); what is left goes
 * with the records in the call's own transaction.
 */
async function takeDependents(db: Db, entry: string, mover: string, parts: readonly Part[], speed: ReturnType<typeof pace>): Promise<void> {
  let batches = 0
  for (let pass = 0; pass < TAKE_PASSES; pass++) {
    let moved = 0
    for (let i = parts.length - 1; i >= 1; i--) {
      const part = parts[i] as Part
      for (;;) {
        const size = speed.size()
        const t0 = performance.now()
        const n = await db.transaction(async (tx) => {
          await hold(tx, entry, mover, 'taking')
          return moveOut(tx, entry, i, part, true, size)
        })
        speed.took(n, performance.now() - t0)
        moved += n
        await between({ entry, state: 'taking', batches: ++batches })
        if (n < size) break
      }
    }
    if (moved < speed.size()) break
  }
}

/**
 * The first phase of a delete declared with `deleting` (server/kit/request/delete.ts), before the call's
 * transaction opens: when the records take more than a batch of rows with them, opens their entry
 * ('taking': a second delete of them is refused meanwhile) and moves those rows into it in short
 * transactions. Undefined when the call's transaction can do it all (`moveToTrash`). A run that
 * fails halfway puts back what it moved.
 */
export async function startTaking(ctx: TrashCtx, kind: Restorable, ids: readonly string[]): Promise<Taking | undefined> {
  const key = primaryKey(kind.table)
  if (key === undefined || ids.length === 0) return undefined
  const parts = partsFor(kind, key, ids)
  const size = batchOn(ctx.handle)
  if (parts.length === 1 || (await dependentRows(ctx.db, parts, size)) <= size) return undefined
  const mover = randomUUID()
  const records = inArray(key, [...ids])
  const entry = await oneMoveAtATime(() =>
    ctx.transaction(async (tx) => {
      // The records locked: a write that locks one and then asks `moving` (a promotion's Resend)
      // ran wholly before this, or sees the entry.
      const found = RowCount.parse(await tx.execute(sql`select count(*)::int as n from (select 1 from ${kind.table} where ${records} for update) r`)).rows[0]?.n ?? 0
      if (found === 0) return undefined
      const opened = await open(ctx, tx, { action: 'delete', kind, recordId: ids.join(','), endpoint: kind.endpoint, json: partNames(parts), message: restoredMessage(kind, ids.length) }, { mover })
      await watch(ctx, tx, opened.id)
      return opened.id
    }),
  )
  if (entry === undefined) return undefined
  try {
    await takeDependents(ctx.db, entry, mover, parts, paceOn(ctx.handle))
  } catch (error) {
    if (error instanceof Superseded) throw failure(DELETE_INTERRUPTED, undefined, 503)
    await rollBack(ctx, entry, mover)
    throw error
  }
  return { kind, key, entry, mover, parts }
}

/**
 * The end of a big delete, in the call's transaction: what is left, the records, the area's
 * `remove`, the entry kept. Should the call fail after all (a throw rolls this transaction back),
 * the rows moved before are put back. Throws NothingTaken when `remove` deleted nothing (the
 * caller throws its 404, so that the rows go back).
 */
export async function finishTaking(ctx: TrashCtx & Pick<Ctx, 'afterFailure'>, run: Taking, remove: Remove): Promise<{ ids: string[]; undo: UndoTicket }> {
  const { kind, entry, mover } = run
  ctx.afterFailure(() => rollBack(ctx, entry, mover))
  const one = async (tx: Db) => {
    await hold(tx, entry, mover, 'taking')
    return [await keep(ctx, tx, kind, run.key, entry, run.parts, remove, true)]
  }
  try {
    const [kept] = kind.order === undefined ? await ctx.transaction(one) : await kind.order.remove(ctx.db, one)
    if (kept === undefined) throw new NothingTaken()
    return { ids: kept.ids, undo: await ticket(ctx, kept) }
  } catch (error) {
    if (error instanceof Superseded) throw failure(DELETE_INTERRUPTED, undefined, 503)
    throw error
  }
}

/** Puts back what a failed big delete moved, while this run still holds its entry: nothing was deleted. */
async function rollBack(ctx: Pick<TrashCtx, 'handle'> & Partial<Pick<Ctx, 'log'>>, entry: string, mover: string): Promise<void> {
  const db = ctx.handle.db
  try {
    const [held] = await db
      .update(trash)
      .set({ state: 'restoring', expiresAt: lease })
      .where(and(eq(trash.id, entry), eq(trash.mover, mover), eq(trash.state, 'taking')))
      .returning({ rows: trash.rows })
    if (held === undefined) return
    await restoreDependents(db, entry, mover, Parts.parse(held.rows).parts, paceOn(ctx.handle))
    await db.delete(trash).where(and(eq(trash.id, entry), eq(trash.mover, mover)))
  } catch (error) {
    // The purge that watches the entry puts the rows back once this run's lease has passed (a
    // bulk run, which has no request's log, leaves it to the purge alone).
    ctx.log?.error({ err: error, entry }, 'could not put back the rows of a failed delete; the purge will')
  }
}

/**
 * Keeps what a write overwrote (`column` had `before`, the write left `after`) so undo can write it
 * back: a flip (`message`: the reverse flip's own message) or a field-level delete (the kind's
 * `restored`). `endpoint`: the write's call, the kind's own unless told.
 */
export async function undoableUpdate(
  ctx: Ctx,
  spec: { kind: Restorable; id: string; endpoint?: Endpoint; column: PgColumn; before: unknown; after: unknown; message?: string },
): Promise<UndoTicket> {
  const json = JSON.stringify({ set: { [spec.column.name]: spec.before }, expect: { [spec.column.name]: spec.after } })
  const kept = await open(ctx, ctx.db, { action: 'update', kind: spec.kind, recordId: spec.id, endpoint: spec.endpoint ?? spec.kind.endpoint, json, message: spec.message ?? restoredMessage(spec.kind, 1) })
  return ticket(ctx, kept)
}

// ---------------------------------------------------------------------------------------------
// Out of the trash: undo
// ---------------------------------------------------------------------------------------------

const Change = z.object({ set: z.record(z.string(), z.unknown()), expect: z.record(z.string(), z.unknown()) })

/** Runs a restore; a name taken meanwhile, or a parent deleted meanwhile, is a clear refusal (the whole call rolls back). */
async function restoring<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    const state = sqlState(error)
    if (state === '23505') throw failure(UNDO_TAKEN, undefined, 409)
    if (state === '23503') throw failure(UNDO_ORPHANED, undefined, 409)
    throw error
  }
}

const table = (name: string): PgTable => {
  const found = tableNamed.get(name)
  if (found === undefined) throw new Error(`the trash names an unknown table ${name}`)
  return found
}

/** Whether the row `kept.<column>` names exists (or it names none). */
const present = (r: Reference): SQL => {
  const c = sql.identifier(r.column.name)
  return sql`(kept.${c} is null or exists (select 1 from ${r.target.table} where ${r.target} = kept.${c}))`
}

/**
 * Moves up to a batch of a part's kept rows back, out of `trash_rows` in the same statement;
 * answers how many left the trash. The records themselves (part 0) go back as they were or not
 * at all (a unique name taken meanwhile, a parent gone: the caller's refusal). A dependent row
 * goes back unless a row it refers to has been deleted since: that delete would have taken it
 * along (a reference cleared on delete comes back cleared instead), and a row with the same key
 * added since is kept rather than it. A cleared reference is set again where nothing was set
 * since.
 */
async function moveBack(tx: Db, entry: string, index: number, t: PgTable, column: string | null, size: number, after: number): Promise<Moved> {
  // From the last batch's `seq` on, in its order: the index walk starts past the rows already moved
  // back, rather than over them again (dead until a vacuum, which waits while rows move).
  const pick = sql`pick as materialized (select ctid as at from ${trashRows} where ${trashRows.entry} = ${entry} and ${trashRows.part} = ${index}::int and ${trashRows.seq} > ${after} order by ${trashRows.seq} limit ${size} for update)`
  const moved = sql`moved as (delete from ${trashRows} where ctid = any(array(select at from pick)) returning "row", "seq")`
  const kept = sql`from moved, jsonb_populate_record(null::${t}, moved."row") kept`
  const references = referencesOf(t)
  let put: SQL
  if (column !== null) {
    const key = primaryKey(t)
    if (key === undefined) throw new Error(`the trash names a reference in ${nameOf(t)}, which has no one-column key`)
    const c = sql.identifier(column)
    const k = sql.identifier(key.name)
    const target = references.find((r) => r.column.name === column)
    put = sql`update ${t} set ${c} = kept.${c} ${kept} where ${t}.${k} = kept.${k} and ${t}.${c} is null${target === undefined ? sql`` : sql` and ${present(target)}`}`
  } else if (index === 0) {
    put = sql`insert into ${t} select kept.* ${kept}`
  } else {
    const columns = getTableConfig(t).columns
    const values = columns.map((col) => {
      const c = sql.identifier(col.name)
      const cleared = references.find((r) => r.column === col && r.onDelete === 'set null')
      return cleared === undefined ? sql`kept.${c}` : sql`case when ${present(cleared)} then kept.${c} end`
    })
    const kept_ = references.filter((r) => r.onDelete !== 'set null').map(present)
    put = sql`insert into ${t} (${sql.join(
      columns.map((col) => sql.identifier(col.name)),
      sql`, `,
    )}) select ${sql.join(values, sql`, `)} ${kept} where ${kept_.length === 0 ? sql`true` : sql.join(kept_, sql` and `)} on conflict do nothing`
  }
  const [done] = MovedRows.parse(await tx.execute(sql`with ${pick}, ${moved}, put as (${put}) select count(*)::int as n, coalesce(max(seq), 0)::bigint::text as last from moved`)).rows
  return { n: done?.n ?? 0, last: Number(done?.last ?? after) }
}

/** How many rows a batch moved back, and the `seq` of the last: the next batch starts after it. */
interface Moved {
  n: number
  last: number
}
const MovedRows = z.object({ rows: z.array(z.object({ n: z.coerce.number(), last: z.coerce.string() })) })

/** Moves every kept row of a part back, a batch at a time (each in `batch`'s transaction, or in `db`). */
async function moveAllBack(size: number, batch: (after: number) => Promise<Moved>): Promise<void> {
  await moveAllBackPaced(pace(size, undefined), (after) => batch(after))
}

/** moveAllBack with each batch's size from `speed`. */
async function moveAllBackPaced(speed: ReturnType<typeof pace>, batch: (after: number, size: number) => Promise<Moved>): Promise<void> {
  let after = 0
  for (;;) {
    const size = speed.size()
    const t0 = performance.now()
    const { n, last } = await batch(after, size)
    speed.took(n, performance.now() - t0)
    if (n < size) return
    after = last
    await yieldToLoop()
  }
}

/**
 * Puts the deleted records of `entries` back (the last deleted first), in `tx`. In a preference
 * order each comes back at the place it had when it was deleted, the list read and renumbered
 * once for all of them (a bulk delete's batches: see moveBatchToTrash).
 */
async function restoreRecords(tx: Db, kind: Restorable, entries: readonly (typeof trash.$inferSelect)[], size: number): Promise<void> {
  const { order } = kind
  if (order === undefined) {
    for (const entry of entries) await moveAllBack(size, (after) => moveBack(tx, entry.id, 0, kind.table, null, size, after))
    return
  }
  const key = primaryKey(kind.table)
  if (key === undefined) throw new Error(`${kind.name}: a restorable table needs a one-column primary key`)
  const preference = order.preference.name
  const groups: { entry: string; records: { id: string; place: number }[] }[] = []
  for (const entry of entries) {
    const kept = KeptPlaces.parse(
      await tx.execute(sql`select "row" ->> ${key.name}::text as id, ("row" ->> ${preference}::text)::int as place from ${trashRows} where ${trashRows.entry} = ${entry.id} and ${trashRows.part} = 0`),
    ).rows
    groups.push({ entry: entry.id, records: kept })
    await yieldToLoop()
  }
  await order.putBack(
    tx,
    groups.map((g) => g.records),
    async (otx, places) => {
      for (const group of groups) {
        const ids = group.records.map((r) => r.id)
        const at = ids.map((id) => places.get(id) ?? 0)
        // Each record as kept, at its place in the list as it is once they are all back.
        await otx.execute(sql`insert into ${kind.table} select k.* from ${trashRows} r
          join unnest(${sql.param(ids)}::text[], ${sql.param(at)}::int[]) p(id, place) on r."row" ->> ${key.name}::text = p.id,
          jsonb_populate_record(null::${kind.table}, r."row" || jsonb_build_object(${preference}::text, p.place)) k
          where r."entry" = ${group.entry} and r."part" = 0`)
        await otx.delete(trashRows).where(and(eq(trashRows.entry, group.entry), eq(trashRows.part, 0)))
        await yieldToLoop()
      }
    },
  )
}
const KeptPlaces = z.object({ rows: z.array(z.object({ id: z.string(), place: z.coerce.number() })) })

/** Moves every kept dependent row of an entry back, parents first, a batch per short transaction while `mover` holds it. */
async function restoreDependents(db: Db, entry: string, mover: string, parts: PartNames, speed: ReturnType<typeof pace>): Promise<void> {
  let batches = 0
  for (const [i, part] of parts.entries()) {
    if (i === 0) continue
    const t = table(part.table)
    await moveAllBackPaced(speed, async (after, size) => {
      const moved = await db.transaction(async (tx) => {
        await hold(tx, entry, mover, 'restoring')
        return moveBack(tx, entry, i, t, part.column, size, after)
      })
      await between({ entry, state: 'restoring', batches: ++batches })
      return moved
    })
  }
}

/**
 * Writes a kept value back, where the column still holds what the write left (or already the old
 * value: a freeze undone by someone else meanwhile); a value written since by someone else stays,
 * and the undo is refused.
 */
async function restoreValue(ctx: Ctx, kind: Restorable, entry: typeof trash.$inferSelect): Promise<void> {
  const key = primaryKey(kind.table)
  if (key === undefined) throw failure(UNDO_GONE, undefined, 409)
  const columns = Object.keys(Change.parse(entry.rows).set).map((name) => sql.identifier(name))
  // The kept values as a row of the table: every value typed as its column, never through JS.
  const kept = (part: 'set' | 'expect'): SQL => sql`(jsonb_populate_record(null::${kind.table}, (select ${trash.rows} -> ${part} from ${trash} where ${trash.id} = ${entry.id})))`
  const assignments = columns.map((c) => sql`${c} = ${kept('set')}.${c}`)
  if (kind.version !== undefined) assignments.push(sql`${sql.identifier(kind.version.name)} = ${kind.version} + 1`)
  const unchanged = columns.map((c) => sql`(${c} is not distinct from ${kept('expect')}.${c} or ${c} is not distinct from ${kept('set')}.${c})`)
  const result = IdRows.parse(
    await ctx.db.execute(sql`update ${kind.table} set ${sql.join(assignments, sql`, `)} where ${and(eq(key, entry.recordId), ...unchanged)} returning ${key}::text as id`),
  )
  if (result.rows.length > 0) return
  const exists = (await ctx.db.$count(kind.table, eq(key, entry.recordId))) > 0
  throw failure(exists ? UNDO_CHANGED : UNDO_GONE, undefined, 409)
}

/** The entry `token` locked in `tx`, once the caller may undo it now; its kind. Throws the refusal otherwise. */
async function admit(ctx: Ctx, tx: Db, token: string): Promise<{ entry: typeof trash.$inferSelect; kind: Restorable | null }> {
  const me = ctx.me()
  const [row] = await tx
    .select({ entry: trash, open: sql<boolean>`${trash.expiresAt} > now()` })
    .from(trash)
    .where(eq(trash.id, token))
    .for('update')
  // An unknown token and an expired one read alike: after the window the entry is purged anyway.
  // A delete still taking its rows has given no token yet.
  if (row === undefined || !row.open || row.entry.state === 'taking') throw failure(UNDO_EXPIRED, { token: UNDO_EXPIRED }, 410)
  const { deletedBy } = row.entry
  // Not 403: that is the Access rule's refusal, and undo is open to every session.
  if (deletedBy !== me.id && me.role !== 'superadmin') throw failure(UNDO_NOT_YOURS, { token: UNDO_NOT_YOURS }, 404)
  const endpoint = ctx.contract.endpoints.find((e) => e.name === row.entry.endpoint)
  if (endpoint === undefined || !permits(endpoint.access, me)) throw new ApiFailure(403, FORBIDDEN)
  if (row.entry.state === 'restoring') throw failure(UNDO_UNDER_WAY, { token: UNDO_UNDER_WAY }, 409)
  if (row.entry.action === 'bulk') return { entry: row.entry, kind: null }
  const kind = kinds.get(row.entry.kind)
  if (kind === undefined) throw new Error(`the trash names an unknown kind ${row.entry.kind}`)
  await refuseLinksPutBack(tx, row.entry, kind)
  return { entry: row.entry, kind }
}

/**
 * The links users follow an entry would put back: the kept values of its kind's link columns
 * (server/db/link-columns.ts), read from the trash before anything moves. A bulk run's undo puts
 * back each record by its own entry, so each is read as it is admitted.
 */
async function linksPutBack(tx: Db, entry: typeof trash.$inferSelect, kind: Restorable): Promise<StoredLink[]> {
  if (entry.action === 'update') return linksOfRow(nameOf(kind.table), Change.parse(entry.rows).set)
  const found: StoredLink[] = []
  for (const [i, part] of Parts.parse(entry.rows).parts.entries()) {
    // A cleared reference part puts back only its reference column.
    const columns = part.column === null ? [...(outwardLinkColumns.get(part.table) ?? [])] : []
    for (const column of columns) {
      const rows = LinkValues.parse(
        await tx.execute(
          sql`select distinct ${trashRows.row} ->> ${column} as link from ${trashRows} where ${trashRows.entry} = ${entry.id} and ${trashRows.part} = ${i}::int and coalesce(${trashRows.row} ->> ${column}, '') <> '' limit 20`,
        ),
      ).rows
      found.push(...rows.flatMap((r) => linksOfRow(part.table, { [column]: r.link })))
    }
  }
  return found
}
const LinkValues = z.object({ rows: z.array(z.object({ link: z.string() })) })

/**
 * An undo that puts a link back is held to the allowed domains as a form's save is; while two
 * admins are asked for outward links it is refused, naming the link, since its ticket cannot wait
 * for a second admin (a revert from the audit log can, and is held instead).
 */
async function refuseLinksPutBack(tx: Db, entry: typeof trash.$inferSelect, kind: Restorable): Promise<void> {
  const links = await linksPutBack(tx, entry, kind)
  if (links.length === 0) return
  const refused = await refusedStoredLink(tx, links)
  if (refused !== null) throw failure(refused.message, { token: refused.message })
  const [first] = links
  if (first !== undefined && (await twoAdminLinksOn(tx))) {
    const message = undoNeedsSecondAdmin(first.link)
    throw failure(message, { token: message }, 409)
  }
}

/** An undo in the call's transaction: every row back, or the value written back, then the entry gone. */
async function undoAtOnce(ctx: Ctx, token: string): Promise<{ status: 'success'; message: string }> {
  const undone = await restoreEntry(ctx, token)
  ctx.audit(undone.recordId)
  return { status: 'success', message: undone.message }
}

/**
 * Undoes one entry in the call's transaction, as `undo` does, without its audit row (a bulk run's
 * entry from its audit row: server/kit/request/bulk.ts).
 */
export async function restoreEntry(ctx: Ctx, token: string): Promise<{ recordId: string; message: string }> {
  const { entry, kind } = await admit(ctx, ctx.db, token)
  if (kind === null) {
    if (bulkUndo === undefined) throw new Error('a bulk entry, and no bulk undo')
    const message = await bulkUndo(ctx, entry.recordId)
    await ctx.db.delete(trash).where(eq(trash.id, token))
    return { recordId: entry.recordId, message }
  }
  if (entry.action === 'delete') {
    await restoreDeleted(ctx, kind, [entry])
  } else {
    await restoreValue(ctx, kind, entry)
    await kind.afterRestore?.(ctx.db, ctx, entry.recordId)
    await ctx.db.delete(trash).where(eq(trash.id, token))
  }
  return { recordId: entry.recordId, message: entry.message }
}

/**
 * Puts back what delete entries of one kind took, in the call's transaction, the last deleted
 * first: their records (in a preference order, the list renumbered once for all of them), then
 * each entry's dependent rows and the kind's afterRestore; the entries are then gone.
 */
async function restoreDeleted(ctx: Ctx, kind: Restorable, entries: readonly (typeof trash.$inferSelect)[]): Promise<void> {
  const size = batchOn(ctx.handle)
  await restoring(async () => {
    await restoreRecords(ctx.db, kind, entries, size)
    for (const entry of entries) {
      for (const [i, part] of Parts.parse(entry.rows).parts.entries()) {
        if (i === 0) continue
        await moveAllBack(size, (after) => moveBack(ctx.db, entry.id, i, table(part.table), part.column, size, after))
      }
    }
  })
  for (const entry of entries) {
    await kind.afterRestore?.(ctx.db, ctx, entry.recordId)
    await ctx.db.delete(trash).where(eq(trash.id, entry.id))
  }
}

/**
 * Undoes delete entries (`tokens`, the last deleted first: a bulk run's batches) in the call's
 * transaction, each admitted by the same rules as `undo`, without an audit row: what
 * restoreEntry does for each, with a preference order read and written once for them all.
 */
export async function restoreDeletes(ctx: Ctx, tokens: readonly string[]): Promise<void> {
  const byKind = new Map<Restorable, (typeof trash.$inferSelect)[]>()
  for (const token of tokens) {
    // The loop turns between two (on PGlite every statement runs on it).
    await yieldToLoop()
    const { entry, kind } = await admit(ctx, ctx.db, token)
    if (kind === null || entry.action !== 'delete') throw new Error(`trash entry ${token} is not a delete`)
    const same = byKind.get(kind)
    if (same === undefined) byKind.set(kind, [entry])
    else same.push(entry)
  }
  for (const [kind, entries] of byKind) await restoreDeleted(ctx, kind, entries)
}

let bulkUndo: ((ctx: Ctx, runId: string) => Promise<string>) | undefined

/** How a bulk run is undone (server/kit/request/bulk.ts sets it at load, so the trash names nothing of it): answers what the undo says. */
export function undoesBulkRuns(undo: (ctx: Ctx, runId: string) => Promise<string>): void {
  bulkUndo = undo
}

/**
 * The undo entry of a bulk run that has ended: one ticket for all of it, for the window from now.
 * The entries its deletes opened, one per record (`entries`), are kept as long, so the window of
 * a run's first record does not end while the run is still going.
 */
export async function keepBulkRun(
  ctx: Pick<TrashCtx, 'config' | 'jobs'>,
  db: Db,
  run: { id: string; kind: string; endpoint: Endpoint; adminId: string; message: string; entries: readonly string[] },
): Promise<UndoTicket> {
  const window = sql`now() + ${`${ctx.config.undoSeconds + UNDO_GRACE_SECONDS} seconds`}::interval`
  const [kept] = await db
    .insert(trash)
    .values({ action: 'bulk', kind: run.kind, recordId: run.id, endpoint: run.endpoint.name, rows: { run: run.id }, message: run.message, deletedBy: run.adminId, expiresAt: window })
    .returning({ id: trash.id, expiresAt: trash.expiresAt })
  if (kept === undefined) throw new Error('the trash insert returned no row')
  if (run.entries.length > 0) await db.update(trash).set({ expiresAt: kept.expiresAt }).where(and(inArray(trash.id, [...run.entries]), eq(trash.state, 'kept')))
  return ticket({ ...ctx, db }, kept)
}

/** A big undo under way: its entry ('restoring') and the run that holds it. */
interface Restoring {
  token: string
  mover: string
  recordId: string
  message: string
}

const KeptRows = z.object({ rows: z.array(z.object({ action: z.string(), n: z.coerce.number() })) })

/**
 * The first phase of an undo, before the call's transaction opens: an entry with more kept rows
 * than a batch is marked 'restoring' and its records put back in one short transaction (with the
 * kind's `afterRestore`: a refusal there leaves the entry as it was), then its dependent rows a
 * batch per short transaction. Undefined when the call's transaction can do it all.
 */
async function startRestoring(ctx: Ctx, token: string): Promise<Restoring | undefined> {
  const size = batchOn(ctx.handle)
  const [probe] = KeptRows.parse(
    await ctx.db.execute(sql`select ${trash.action} as action, (select count(*)::int from (select 1 from ${trashRows} where ${trashRows.entry} = ${trash.id} limit ${size + 1}) r) as n
      from ${trash} where ${trash.id} = ${token}`),
  ).rows
  if (probe === undefined || probe.action !== 'delete' || probe.n <= size) return undefined
  const mover = randomUUID()
  const me = ctx.me()
  const started = await restoring(() =>
    oneMoveAtATime(() =>
      ctx.transaction(async (tx) => {
        const { entry, kind } = await admit(ctx, tx, token)
        if (kind === null) throw new Error('a bulk entry keeps no rows of its own')
        await tx.update(trash).set({ state: 'restoring', mover, restoredBy: me.id, expiresAt: lease }).where(eq(trash.id, token))
        await restoreRecords(tx, kind, [entry], size)
        await kind.afterRestore?.(tx, ctx, entry.recordId)
        await watch(ctx, tx, token)
        return entry
      }),
    ),
  )
  try {
    await restoreDependents(ctx.db, token, mover, Parts.parse(started.rows).parts, paceOn(ctx.handle))
  } catch (error) {
    // Taken over (this run stalled past its lease): the purge completes the undo, and the call
    // answers as it would have. Anything else: the purge completes it once the lease has passed.
    if (!(error instanceof Superseded)) {
      ctx.log.error({ err: error, entry: token }, 'an undo stopped halfway; the purge completes it')
      throw failure(UNDO_INTERRUPTED, undefined, 503)
    }
  }
  return { token, mover, recordId: started.recordId, message: started.message }
}

export const undoRoutes = handlers(undoArea, {
  undo: {
    prepare: async ({ token }, outside) => {
      const run = await startRestoring(outside, token)
      if (run === undefined) return (ctx) => undoAtOnce(ctx, token)
      return async (ctx) => {
        // Every row is back: only the empty entry is left (unless the purge finished the run).
        await ctx.db.delete(trash).where(and(eq(trash.id, run.token), eq(trash.mover, run.mover)))
        ctx.audit(run.recordId)
        return { status: 'success', message: run.message }
      }
    },
  },
})

// ---------------------------------------------------------------------------------------------
// The purge
// ---------------------------------------------------------------------------------------------

const FilesRows = z.object({ rows: z.array(z.object({ files: z.array(z.string()) })) })
const Waiting = z.object({ rows: z.array(z.object({ state: z.string(), ms: z.coerce.number() })) })

/** Batches of kept rows one purge run deletes; the next run, at once, goes on. */
const PURGE_ROW_BATCHES = 50

/**
 * Finishes one run that stopped moving an entry's rows (its lease passed: the server stopped, or
 * the run failed and could not clean up): a delete's rows go back (its caller was never told it
 * happened), an undo is completed and recorded in the audit log. Answers whether there was one.
 */
async function finishStopped(handle: DbHandle): Promise<boolean> {
  const { db } = handle
  const mover = randomUUID()
  const stopped = sql`select ${trash.id} from ${trash} where ${trash.state} <> 'kept' and ${trash.expiresAt} <= now() order by ${trash.expiresAt} limit 1 for update skip locked`
  const [claimed] = await db
    .update(trash)
    .set({ state: 'restoring', mover, expiresAt: lease })
    .where(sql`${trash.id} = (${stopped})`)
    .returning({ id: trash.id, rows: trash.rows, recordId: trash.recordId, restoredBy: trash.restoredBy })
  if (claimed === undefined) return false
  await restoreDependents(db, claimed.id, mover, Parts.parse(claimed.rows).parts, paceOn(handle))
  await db.transaction(async (tx) => {
    const gone = await tx.delete(trash).where(and(eq(trash.id, claimed.id), eq(trash.mover, mover))).returning({ id: trash.id })
    // An undo whose caller never heard the end of it: it happened, so it is recorded.
    if (gone.length > 0 && claimed.restoredBy !== null) {
      await tx.insert(auditLog).values({ adminId: claimed.restoredBy, action: undoArea.undo.path, recordId: auditRecordId(claimed.recordId), detail: 'completed by the server after the call stopped' })
    }
  })
  return true
}

/**
 * Removes expired entries: first their kept rows, a batch per statement (each its own
 * transaction, so none holds many rows' locks or, on PGlite, the event loop for long), then the
 * entries, then their files (a crash in between leaves orphan files, which the upload sweep
 * removes; never an entry whose files are gone). An entry an undo holds is skipped: the undo
 * removes it, or a later purge does. Before that, a run that stopped moving an entry's rows is
 * finished. 'again' while more are expired; with `watched`, the entry of a run under way is
 * looked at again until it is kept or gone.
 */
export async function purgeExpired(services: Pick<Services, 'handle' | 'storage'>, watched?: string): Promise<JobResult> {
  const db = services.handle.db
  const size = batchOn(services.handle)
  if (await finishStopped(services.handle)) return 'again'
  const expired = sql`select ${trash.id} from ${trash} where ${trash.state} = 'kept' and ${trash.expiresAt} <= now() order by ${trash.expiresAt} limit ${PURGE_BATCH} for update skip locked`
  for (let batch = 0; ; batch++) {
    if (batch === PURGE_ROW_BATCHES) return 'again'
    const gone = countOf(
      await db.execute(sql`
        with gone as (
          delete from ${trashRows} where ctid = any(array(select ctid from ${trashRows} where ${trashRows.entry} in (${expired}) limit ${size}))
          returning 1)
        select count(*)::int as n from gone`),
    )
    if (gone < size) break
    await yieldToLoop()
  }
  // Only entries whose rows are gone: one whose rows an undo held a moment ago waits for the next run.
  const result = await db.execute(sql`
    delete from ${trash} where ${trash.id} in (${expired}) and not exists (select 1 from ${trashRows} where ${trashRows.entry} = ${trash.id})
    returning ${trash.files} as files`)
  const rows = FilesRows.parse(result).rows
  for (const name of new Set(rows.flatMap((r) => r.files))) await removeUpload(services.storage, name)
  if (rows.length === PURGE_BATCH) return 'again'
  if (watched === undefined) return undefined
  const [run] = Waiting.parse(
    await db.execute(sql`select ${trash.state} as state, extract(epoch from (${trash.expiresAt} - now())) * 1000 as ms from ${trash} where ${trash.id} = ${watched}`),
  ).rows
  if (run === undefined || run.state === 'kept') return undefined
  return { retryInMs: Math.max(1000, Math.ceil(run.ms) + 1000) }
}

const PurgePayload = z.object({ watch: z.string().optional() })

/** The purge: one job per entry, due when it expires, each taking every expired entry; one per big delete or undo, watching its run. */
export const undoJobs = [defineJob(PURGE_JOB, (payload, _job, services) => purgeExpired(services, PurgePayload.parse(payload).watch))]

/** At start: a purge for entries that expired while no server ran (their jobs may have failed for good), and runs that stopped with it. */
export async function purgeAtStart(services: Services): Promise<void> {
  await services.jobs.add(services.handle.db, PURGE_JOB, {})
  services.jobs.wake()
}
