/**
 * Undo for destructive writes (contract/undo.ts). A delete does not destroy: the kit
 * (`deleteRecord`, server/kit/delete.ts) opens a `trash` entry inside the write's transaction and
 * moves the record's row, as stored, into `trash_rows`, with the rows its delete cascades to and
 * the references it clears (both found from the schema's foreign keys, so an area declares
 * nothing of them), one kept row per row, and leaves the files it held where they are. The rows
 * move inside the database, TRASH_BATCH per statement (DELETE ... RETURNING into INSERT), so a
 * promotion sent to a million leads costs this process no more memory than a small one, and no
 * statement runs long (PGlite runs each on the event loop). The window starts when the rows are
 * kept, not when the transaction began. The answer carries an undo ticket; for
 * UNDO_SECONDS (plus a grace, so an Undo pressed at the last moment still arrives in time) the
 * admin who deleted it, or the superadmin, may call `undo`, which puts every row back exactly
 * (same id, same columns; again in batches, by jsonb_populate_record) and the record at its old
 * place in a preference order. A purge job on the shared queue, due when the entry expires,
 * removes the entry's kept rows in batches, then the entry, then its files; a purge at
 * start takes whatever a stopped server left. Since the row really leaves its table, no list,
 * count or search sees it meanwhile, and none of them had to change.
 *
 * A bulk delete (`moveAllToTrash`, the restricted countries' Delete All) keeps every record it
 * took in one entry: one undo puts them all back.
 *
 * A flip (a game's freeze) or a field-level delete (a social link, the version) is undone by
 * writing the column's old value back (`undoableUpdate`), unless the value was changed since by
 * another write: that one is kept and the undo refused.
 *
 * Each kind of record is declared once by its area:
 *
 *     const gameTrash = restorable({ name: 'games', table: games, endpoint: gamesArea.DeleteCms, order, restored: 'Game restored successfully' })
 */
import { and, eq, inArray, is, sql, type SQL } from 'drizzle-orm'
import { PgTable, getTableConfig, type PgColumn } from 'drizzle-orm/pg-core'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { z } from 'zod'
import type { Endpoint } from '#contract/define'
import * as undoArea from '#contract/undo'
import { UNDO_CHANGED, UNDO_EXPIRED, UNDO_GONE, UNDO_NOT_YOURS, UNDO_ORPHANED, UNDO_TAKEN, type UndoTicket } from '#contract/undo'
import { sqlState, type Db } from '../db/index.ts'
import * as schema from '../db/schema.ts'
import { trash, trashRows, uploadColumns } from '../db/schema.ts'
import { FORBIDDEN, permits } from './access/auth.ts'
import { ApiFailure, defineJob, failure, handlers, type Ctx, type Services } from './api.ts'
import type { PreferenceOrder } from './preference.ts'
import type { JobResult } from './queue.ts'
import { removeUpload } from './uploads.ts'

/** Seconds the server keeps an entry beyond what the ticket tells the client. */
export const UNDO_GRACE_SECONDS = 5
export const PURGE_JOB = 'trash.purge'
/** Entries one purge run takes; more are taken by the next run at once. */
const PURGE_BATCH = 100

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
  /** Its edit version (server/kit/version.ts): an undo that writes a value back raises it, as any write does. */
  version?: PgColumn
  /** Runs after the rows are back, in the same transaction (a promotion being sent is queued again). */
  afterRestore?: (ctx: Ctx, recordId: string) => Promise<void>
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

interface Dependent {
  table: PgTable
  /** Its column that references the parent. */
  column: PgColumn
  /** The parent's column it references. */
  parentColumn: PgColumn
  action: 'cascade' | 'set null'
}

/** The rows that refer to `table` and go (cascade) or lose the reference (set null) when a row of it is deleted. */
function dependentsOf(table: PgTable): Dependent[] {
  const found: Dependent[] = []
  for (const child of tables) {
    for (const fk of getTableConfig(child).foreignKeys) {
      const ref = fk.reference()
      const [column] = ref.columns
      const [parentColumn] = ref.foreignColumns
      if (ref.foreignTable !== table || column === undefined || parentColumn === undefined || ref.columns.length !== 1) continue
      if (fk.onDelete === 'cascade' || fk.onDelete === 'set null') found.push({ table: child, column, parentColumn, action: fk.onDelete })
    }
  }
  return found
}

/**
 * Rows one statement of a delete, an undo or the purge moves. PGlite runs every statement on the
 * event loop, so this bounds how long other calls wait for one; on PostgreSQL it bounds a
 * statement's work and what one answer carries (the batch's row addresses, nothing more).
 */
export const TRASH_BATCH = 1000

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
    const inParent = sql`${d.column} in (select ${d.parentColumn} from ${parent} where ${where})`
    if (d.action === 'cascade') {
      parts.push({ table: d.table, where: inParent, mode: 'move' }, ...partsOf(d.table, inParent, depth + 1))
    } else {
      const key = primaryKey(d.table)
      // A table without a one-column key cannot be named row by row; none refers by set null today.
      if (key !== undefined) parts.push({ table: d.table, where: inParent, mode: 'clear', cleared: { column: d.column, key } })
    }
  }
  return parts
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

const Addresses = z.object({ rows: z.array(z.object({ at: z.string() })) })

/**
 * Runs `each` on the rows `select` finds (it answers their `ctid::text as at`), TRASH_BATCH at a
 * time, through a cursor: the query runs once, so a batch never scans again past the rows the
 * batches before it took, and only the batch's row addresses reach this process. The event loop
 * runs between two batches (on PGlite, other calls' non-database work goes on meanwhile).
 */
async function inBatches(tx: Db, select: SQL, each: (at: SQL) => Promise<void>): Promise<void> {
  await tx.execute(sql`declare trash_batch no scroll cursor for ${select}`)
  for (;;) {
    const at = Addresses.parse(await tx.execute(sql.raw(`fetch ${TRASH_BATCH} from trash_batch`))).rows.map((r) => r.at)
    if (at.length === 0) break
    await each(sql`ctid = any(${sql.param(at)}::tid[])`)
    await yieldToLoop()
  }
  await tx.execute(sql`close trash_batch`)
}

/**
 * Keeps a part's rows in `trash_rows` (one row each, as stored, or a cleared reference's key and
 * old value), and deletes them or clears their reference, a batch per statement. The cursor locks
 * each row as it reaches it (FOR UPDATE), so a row another call changes meanwhile is kept as that
 * call left it, and nothing changes it after.
 */
async function takePart(tx: Db, entry: string, index: number, part: Part): Promise<void> {
  const { table } = part
  const into = sql`insert into ${trashRows} ("entry", "part", "row")`
  await inBatches(tx, sql`select ${table}.ctid::text as at from ${table} where ${part.where} for update`, async (batch) => {
    if (part.cleared !== undefined) {
      const column = sql.identifier(part.cleared.column.name)
      const key = sql.identifier(part.cleared.key.name)
      // Both read the same snapshot: `was` sees the values the update clears.
      await tx.execute(sql`
        with was as (select jsonb_build_object(${part.cleared.key.name}::text, ${key}, ${part.cleared.column.name}::text, ${column}) as r from ${table} where ${batch}),
          cleared as (update ${table} set ${column} = null where ${batch})
        ${into} select ${entry}::text, ${index}::int, r from was`)
      return
    }
    const taken = part.mode === 'copy' ? sql`select to_jsonb(${table}) as r from ${table} where ${batch}` : sql`delete from ${table} where ${batch} returning to_jsonb(${table}) as r`
    const files = filesIn(table, sql`kept`)
    if (files === undefined) {
      await tx.execute(sql`with taken as (${taken}) ${into} select ${entry}::text, ${index}::int, r from taken`)
      return
    }
    // The files stay until the entry is purged (the upload sweep keeps what trash.files names).
    await tx.execute(sql`
      with taken as (${taken}),
        kept as (${into} select ${entry}::text, ${index}::int, r from taken returning "row")
      update ${trash} set "files" = array(select distinct f from (select unnest(${trash.files}) as f union all ${files}) named where f <> '')
      where ${trash.id} = ${entry}`)
  })
}

/** A table's name as the trash keeps it. */
const nameOf = (t: PgTable): string => getTableConfig(t).name

const IdRows = z.object({ rows: z.array(z.object({ id: z.string() })) })
const TakenRows = z.object({ rows: z.array(z.object({ id: z.string(), place: z.number().nullable() })) })

/** Thrown inside a delete's transaction when the area's delete found nothing: no entry is kept. */
class NothingTaken extends Error {}

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

/** Writes an entry for the undo window; answers its id and its end. */
async function open(ctx: Ctx, db: Db, entry: Entry): Promise<{ id: string; expiresAt: Date }> {
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
      expiresAt: sql`now() + ${`${seconds + UNDO_GRACE_SECONDS} seconds`}::interval`,
    })
    .returning({ id: trash.id, expiresAt: trash.expiresAt })
  if (row === undefined) throw new Error('the trash insert returned no row')
  return row
}

/** Queues the entry's purge for when it expires; answers the ticket. */
async function ticket(ctx: Ctx, kept: { id: string; expiresAt: Date }): Promise<UndoTicket> {
  await ctx.jobs.add(ctx.db, PURGE_JOB, {}, { runAt: kept.expiresAt })
  return { token: kept.id, seconds: ctx.config.undoSeconds }
}

const restoredMessage = (kind: Restorable, count: number): string => (typeof kind.restored === 'string' ? kind.restored : kind.restored(count))

/** The area's plain delete: deletes the records and answers the deleted rows (none: nothing was there). */
type Remove = (db: Db) => Promise<readonly unknown[]>

/**
 * Takes the records `ids` into a new trash entry, in `tx`: first the rows that depend on them,
 * deepest first (the order the deletes themselves lock in: a promotion's deliveries before the
 * promotion), then the records, which `remove` deletes. Everything moves inside the database, a
 * batch at a time; this process only ever holds a batch's row addresses. Undefined when none of
 * the records exists; throws NothingTaken when `remove` deleted nothing.
 */
async function take(ctx: Ctx, tx: Db, kind: Restorable, ids: readonly string[], remove: Remove): Promise<{ id: string; expiresAt: Date; ids: string[] } | undefined> {
  const key = primaryKey(kind.table)
  if (key === undefined || ids.length === 0) return undefined
  const records = inArray(key, [...ids])
  if ((await tx.$count(kind.table, records)) === 0) return undefined
  const parts: Part[] = [{ table: kind.table, where: records, mode: 'copy' }, ...partsOf(kind.table, records)]
  const json = JSON.stringify({ parts: parts.map((p) => ({ table: nameOf(p.table), column: p.cleared?.column.name ?? null })) })
  const entry = await open(ctx, tx, { action: 'delete', kind, recordId: ids.join(','), endpoint: kind.endpoint, json, message: restoredMessage(kind, ids.length) })
  for (let i = parts.length - 1; i >= 1; i--) await takePart(tx, entry.id, i, parts[i] as Part)
  await takePart(tx, entry.id, 0, parts[0] as Part)
  const removed = await remove(tx)
  if (removed.length === 0) throw new NothingTaken()
  // The records taken (those of `ids` that existed), and one record's place in its order.
  const preference = kind.order === undefined ? sql`null::int` : sql`("row" ->> ${kind.order.preference.name}::text)::int`
  const taken = TakenRows.parse(
    await tx.execute(sql`select "row" ->> ${key.name}::text as id, ${preference} as place from ${trashRows} where ${trashRows.entry} = ${entry.id} and ${trashRows.part} = 0 order by 1`),
  ).rows
  const place = taken.length === 1 ? (taken[0]?.place ?? null) : null
  const found = taken.map((r) => r.id)
  // The window starts now, not when the transaction began: moving a million rows takes a while.
  const [kept] = await tx
    .update(trash)
    .set({ recordId: found.join(','), place, message: restoredMessage(kind, found.length), expiresAt: sql`clock_timestamp() + ${`${ctx.config.undoSeconds + UNDO_GRACE_SECONDS} seconds`}::interval` })
    .where(eq(trash.id, entry.id))
    .returning({ id: trash.id, expiresAt: trash.expiresAt })
  if (kept === undefined) throw new Error('the trash entry went missing')
  return { ...kept, ids: found }
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
 * Deletes a record into the trash: `remove` (the area's plain delete, answering the deleted rows)
 * runs in the record's order (which closes the gap) after the rows it takes are kept. Undefined
 * when nothing was deleted.
 */
export async function moveToTrash(ctx: Ctx, kind: Restorable, id: string, remove: Remove): Promise<UndoTicket | undefined> {
  const one = async (tx: Db) => {
    const kept = await take(ctx, tx, kind, [id], remove)
    return kept === undefined ? [] : [kept]
  }
  // Inside the order's lock: an edit of the same list takes the lock before the row, and so does this.
  const [kept] = (await taking(() => (kind.order === undefined ? ctx.transaction(one) : kind.order.remove(ctx.db, one)))) ?? []
  if (kept === undefined) return undefined
  return ticket(ctx, kept)
}

/**
 * A bulk delete into the trash, as one entry: one undo brings back every record it took. Answers
 * the ids of the records taken (those of `ids` that existed) with the ticket; undefined when none
 * was deleted. Kinds in a preference order are deleted one by one (their places close one gap at
 * a time).
 */
export async function moveAllToTrash(ctx: Ctx, kind: Restorable, ids: readonly string[], remove: Remove): Promise<{ ids: string[]; undo: UndoTicket } | undefined> {
  if (kind.order !== undefined) throw new Error(`${kind.name}: a kind in a preference order is deleted one record at a time`)
  const kept = await taking(() => ctx.transaction((tx) => take(ctx, tx, kind, ids, remove)))
  if (kept === undefined) return undefined
  return { ids: kept.ids, undo: await ticket(ctx, kept) }
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

const Parts = z.object({ parts: z.array(z.object({ table: z.string(), column: z.string().nullable() })) })
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

/**
 * Moves a part's kept rows back, a batch per statement, out of `trash_rows` as they go: each row
 * inserted as stored (`jsonb_populate_record`: same id, same columns, timestamps and numerics
 * never through JavaScript), or a cleared reference set again where nothing was set since.
 */
async function putBack(tx: Db, entry: string, index: number, t: PgTable, column: string | null): Promise<void> {
  const select = sql`select ctid::text as at from ${trashRows} where ${trashRows.entry} = ${entry} and ${trashRows.part} = ${index}::int`
  await inBatches(tx, select, async (batch) => {
    const moved = sql`delete from ${trashRows} where ${batch} returning "row"`
    if (column === null) {
      await tx.execute(sql`with moved as (${moved}) insert into ${t} select kept.* from moved, jsonb_populate_record(null::${t}, moved."row") kept`)
      return
    }
    const key = primaryKey(t)
    if (key === undefined) throw new Error(`the trash names a reference in ${nameOf(t)}, which has no one-column key`)
    const c = sql.identifier(column)
    const k = sql.identifier(key.name)
    await tx.execute(sql`with moved as (${moved}) update ${t} set ${c} = kept.${c} from moved, jsonb_populate_record(null::${t}, moved."row") kept where ${t}.${k} = kept.${k} and ${t}.${c} is null`)
  })
}

/** Puts deleted records' rows back: the records (one at its old place), the rows that went with them, the references they cleared. */
async function restoreRows(ctx: Ctx, kind: Restorable, entry: typeof trash.$inferSelect): Promise<void> {
  const { parts } = Parts.parse(entry.rows)
  await restoring(async () => {
    const { order } = kind
    if (order === undefined) {
      await ctx.transaction((tx) => putBack(tx, entry.id, 0, kind.table, null))
    } else {
      // An ordered kind is deleted one record at a time: last first, then moved to its old place
      // (a place past the end of a shorter list: last).
      await order.add(
        ctx.db,
        async (tx, last) => {
          const at = JSON.stringify({ [order.preference.name]: last })
          const record = sql`(select "row" from ${trashRows} where ${trashRows.entry} = ${entry.id} and ${trashRows.part} = 0)`
          await tx.execute(sql`insert into ${kind.table} select * from jsonb_populate_record(null::${kind.table}, ${record} || ${at}::jsonb)`)
          await tx.delete(trashRows).where(and(eq(trashRows.entry, entry.id), eq(trashRows.part, 0)))
          return [{ id: entry.recordId }]
        },
        entry.place ?? undefined,
      )
    }
    await ctx.transaction(async (tx) => {
      for (const [i, part] of parts.entries()) if (i > 0) await putBack(tx, entry.id, i, table(part.table), part.column)
    })
  })
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

export const undoRoutes = handlers(undoArea, {
  undo: async ({ token }, ctx) => {
    const me = ctx.me()
    const [entry] = await ctx.db
      .select({ entry: trash, open: sql<boolean>`${trash.expiresAt} > now()` })
      .from(trash)
      .where(eq(trash.id, token))
      .for('update')
    // An unknown token and an expired one read alike: after the window the entry is purged anyway.
    if (entry === undefined || !entry.open) throw failure(UNDO_EXPIRED, { token: UNDO_EXPIRED }, 410)
    const { recordId, deletedBy, action } = entry.entry
    // Not 403: that is the Access rule's refusal, and undo is open to every session.
    if (deletedBy !== me.id && me.role !== 'superadmin') throw failure(UNDO_NOT_YOURS, { token: UNDO_NOT_YOURS }, 404)
    const endpoint = ctx.contract.endpoints.find((e) => e.name === entry.entry.endpoint)
    if (endpoint === undefined || !permits(endpoint.access, me)) throw new ApiFailure(403, FORBIDDEN)
    const kind = kinds.get(entry.entry.kind)
    if (kind === undefined) throw new Error(`the trash names an unknown kind ${entry.entry.kind}`)
    if (action === 'delete') await restoreRows(ctx, kind, entry.entry)
    else await restoreValue(ctx, kind, entry.entry)
    await kind.afterRestore?.(ctx, recordId)
    await ctx.db.delete(trash).where(eq(trash.id, token))
    ctx.audit(recordId)
    return { status: 'success', message: entry.entry.message }
  },
})

// ---------------------------------------------------------------------------------------------
// The purge
// ---------------------------------------------------------------------------------------------

const FilesRows = z.object({ rows: z.array(z.object({ files: z.array(z.string()) })) })
const Count = z.object({ rows: z.array(z.object({ n: z.number() })) })

/** Batches of kept rows one purge run deletes; the next run, at once, goes on. */
const PURGE_ROW_BATCHES = 50

/**
 * Removes expired entries: first their kept rows, TRASH_BATCH per statement (each its own
 * transaction, so none holds many rows' locks or, on PGlite, the event loop for long), then the
 * entries, then their files (a crash in between leaves orphan files, which the upload sweep
 * removes; never an entry whose files are gone). An entry an undo holds (it began before the
 * entry expired) is skipped: the undo removes it, or a later purge does. 'again' while more are
 * expired.
 */
export async function purgeExpired(services: Pick<Services, 'handle' | 'storage'>): Promise<JobResult> {
  const db = services.handle.db
  const expired = sql`select ${trash.id} from ${trash} where ${trash.expiresAt} <= now() order by ${trash.expiresAt} limit ${PURGE_BATCH} for update skip locked`
  for (let batch = 0; ; batch++) {
    if (batch === PURGE_ROW_BATCHES) return 'again'
    const [gone] = Count.parse(
      await db.execute(sql`
        with gone as (
          delete from ${trashRows} where ctid = any(array(select ctid from ${trashRows} where ${trashRows.entry} in (${expired}) limit ${TRASH_BATCH}))
          returning 1)
        select count(*)::int as n from gone`),
    ).rows
    if ((gone?.n ?? 0) < TRASH_BATCH) break
    await yieldToLoop()
  }
  // Only entries whose rows are gone: one whose rows an undo held a moment ago waits for the next run.
  const result = await db.execute(sql`
    delete from ${trash} where ${trash.id} in (${expired}) and not exists (select 1 from ${trashRows} where ${trashRows.entry} = ${trash.id})
    returning ${trash.files} as files`)
  const rows = FilesRows.parse(result).rows
  for (const name of new Set(rows.flatMap((r) => r.files))) await removeUpload(services.storage, name)
  return rows.length === PURGE_BATCH ? 'again' : undefined
}

/** The purge: one job per entry, due when it expires, each taking every expired entry. */
export const undoJobs = [defineJob(PURGE_JOB, (_payload, _job, services) => purgeExpired(services))]

/** At start: a purge for entries that expired while no server ran (their jobs may have failed for good). */
export async function purgeAtStart(services: Services): Promise<void> {
  await services.jobs.add(services.handle.db, PURGE_JOB, {})
  services.jobs.wake()
}
