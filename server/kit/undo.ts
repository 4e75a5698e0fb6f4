/**
 * Undo for destructive writes (issue 13; contract/undo.ts). A delete does not destroy: the kit
 * (`deleteRecord`, server/kit/delete.ts) moves the record's row, as stored, into the `trash`
 * table inside the write's transaction, with the rows its delete cascades to and the references
 * it clears (both found from the schema's foreign keys, so an area declares nothing of them),
 * and leaves the files it held where they are. The answer carries an undo ticket; for
 * UNDO_SECONDS (plus a grace, so an Undo pressed at the last moment still arrives in time) the
 * admin who deleted it, or the superadmin, may call `undo`, which puts every row back exactly
 * (same id, same columns) and the record at its old place in a preference order. A purge job on
 * the shared queue, due when the entry expires, removes the entry and then its files; a purge at
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
import { z } from 'zod'
import type { Endpoint } from '#contract/define'
import * as undoArea from '#contract/undo'
import { UNDO_CHANGED, UNDO_EXPIRED, UNDO_GONE, UNDO_NOT_YOURS, UNDO_ORPHANED, UNDO_TAKEN, type UndoTicket } from '#contract/undo'
import type { Db } from '../db/index.ts'
import * as schema from '../db/schema.ts'
import { trash, uploadColumns } from '../db/schema.ts'
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

/** The stored upload names a row (as `to_jsonb` gives it) of `table` holds. */
function filesOf(table: PgTable, row: Record<string, unknown>): string[] {
  const names: string[] = []
  for (const column of uploadColumns) {
    if (column.table !== table) continue
    const value = row[column.name]
    for (const name of Array.isArray(value) ? value : [value]) if (typeof name === 'string' && name !== '') names.push(name)
  }
  return names
}

const JsonRows = z.object({ rows: z.array(z.object({ row: z.string() })) })
const IdRows = z.object({ rows: z.array(z.object({ id: z.string() })) })
const ReferenceRows = z.object({ rows: z.array(z.object({ id: z.string(), parent: z.string() })) })

/** What a delete moves into the trash, as JSON text (values exactly as stored: never through JS numbers). */
interface Snapshot {
  json: string
  files: string[]
  /** The ids of the records taken (those of `ids` that exist). */
  ids: string[]
  /** The record's place in its order (its preference before the delete); null for several records. */
  place: number | null
}

/**
 * Reads, and locks, the rows a delete of the records `ids` will take: first the rows that depend
 * on them (the order the deletes themselves lock in: a promotion's deliveries before the
 * promotion), then the records. Undefined when none of them exists.
 */
async function snapshot(db: Db, kind: Restorable, ids: readonly string[]): Promise<Snapshot | undefined> {
  const key = primaryKey(kind.table)
  if (key === undefined || ids.length === 0) return undefined
  const children: string[] = []
  const references: string[] = []
  const files: string[] = []
  // Walks the cascade down from the record; `where` selects the parent rows at each level.
  const walk = async (parent: PgTable, where: SQL, depth: number): Promise<void> => {
    if (depth > 4) return
    for (const d of dependentsOf(parent)) {
      const inParent = sql`${d.column} in (select ${d.parentColumn} from ${parent} where ${where})`
      const name = getTableConfig(d.table).name
      if (d.action === 'cascade') {
        const rows = JsonRows.parse(await db.execute(sql`select to_jsonb(${d.table})::text as row from ${d.table} where ${inParent} for update`)).rows
        if (rows.length === 0) continue
        for (const { row } of rows) files.push(...filesOf(d.table, z.record(z.string(), z.unknown()).parse(JSON.parse(row))))
        children.push(`{"table":${JSON.stringify(name)},"rows":[${rows.map((r) => r.row).join(',')}]}`)
        await walk(d.table, inParent, depth + 1)
      } else {
        const childKey = primaryKey(d.table)
        // A table without a one-column key cannot be named row by row; none refers by set null today.
        if (childKey === undefined) continue
        const rows = ReferenceRows.parse(await db.execute(sql`select ${childKey}::text as id, ${d.column}::text as parent from ${d.table} where ${inParent} for update`)).rows
        // Grouped by the row they referred to (several records, or a row deeper in the cascade).
        const byParent = new Map<string, string[]>()
        for (const r of rows) byParent.set(r.parent, [...(byParent.get(r.parent) ?? []), r.id])
        for (const [parent, childIds] of byParent) references.push(JSON.stringify({ table: name, column: d.column.name, key: childKey.name, ids: childIds, parent }))
      }
    }
  }
  const taken = inArray(key, [...ids])
  await walk(kind.table, taken, 1)
  const records = JsonRows.parse(await db.execute(sql`select to_jsonb(${kind.table})::text as row from ${kind.table} where ${taken} order by ${key} for update`)).rows
  if (records.length === 0) return undefined
  const found: string[] = []
  const recordFiles: string[] = []
  let place: number | null = null
  for (const record of records) {
    const parsed = z.record(z.string(), z.unknown()).parse(JSON.parse(record.row))
    recordFiles.push(...filesOf(kind.table, parsed))
    found.push(String(parsed[key.name]))
    const preference = kind.order === undefined ? undefined : parsed[kind.order.preference.name]
    if (typeof preference === 'number' && records.length === 1) place = preference
  }
  return {
    json: `{"records":[${records.map((r) => r.row).join(',')}],"children":[${children.join(',')}],"references":[${references.join(',')}]}`,
    files: [...new Set([...recordFiles, ...files])],
    ids: found,
    place,
  }
}

// ---------------------------------------------------------------------------------------------
// Into the trash
// ---------------------------------------------------------------------------------------------

interface Entry {
  action: 'delete' | 'update'
  kind: Restorable
  recordId: string
  endpoint: Endpoint
  json: string
  files?: readonly string[]
  place?: number | null
  message: string
}

/** Keeps an entry for the undo window and queues its purge; answers the ticket. */
async function keep(ctx: Ctx, entry: Entry): Promise<UndoTicket> {
  const seconds = ctx.config.undoSeconds
  const [row] = await ctx.db
    .insert(trash)
    .values({
      action: entry.action,
      kind: entry.kind.name,
      recordId: entry.recordId,
      endpoint: entry.endpoint.name,
      rows: sql`${entry.json}::jsonb`,
      files: [...(entry.files ?? [])],
      place: entry.place ?? null,
      message: entry.message,
      deletedBy: ctx.me().id,
      expiresAt: sql`now() + ${`${seconds + UNDO_GRACE_SECONDS} seconds`}::interval`,
    })
    .returning({ id: trash.id, expiresAt: trash.expiresAt })
  if (row === undefined) throw new Error('the trash insert returned no row')
  await ctx.jobs.add(ctx.db, PURGE_JOB, {}, { runAt: row.expiresAt })
  return { token: row.id, seconds }
}

const restoredMessage = (kind: Restorable, count: number): string => (typeof kind.restored === 'string' ? kind.restored : kind.restored(count))

/** The area's plain delete: deletes the records and answers the deleted rows (none: nothing was there). */
type Remove = (db: Db) => Promise<readonly unknown[]>

/**
 * Deletes a record into the trash: `remove` (the area's plain delete, answering the deleted rows)
 * runs in the record's order (which closes the gap) after the rows it takes are kept. Undefined
 * when nothing was deleted.
 */
export async function moveToTrash(ctx: Ctx, kind: Restorable, id: string, remove: Remove): Promise<UndoTicket | undefined> {
  const take = async (tx: Db): Promise<Snapshot[]> => {
    const kept = await snapshot(tx, kind, [id])
    const removed = await remove(tx)
    return kept === undefined || removed.length === 0 ? [] : [kept]
  }
  // Inside the order's lock: an edit of the same list takes the lock before the row, and so does this.
  const [kept] = kind.order === undefined ? await ctx.transaction(take) : await kind.order.remove(ctx.db, take)
  if (kept === undefined) return undefined
  return keep(ctx, { action: 'delete', kind, recordId: id, endpoint: kind.endpoint, json: kept.json, files: kept.files, place: kept.place, message: restoredMessage(kind, 1) })
}

/**
 * A bulk delete into the trash, as one entry: one undo brings back every record it took. Answers
 * the ids of the records taken (those of `ids` that existed) with the ticket; undefined when none
 * was deleted. Kinds in a preference order are deleted one by one (their places close one gap at
 * a time).
 */
export async function moveAllToTrash(ctx: Ctx, kind: Restorable, ids: readonly string[], remove: Remove): Promise<{ ids: string[]; undo: UndoTicket } | undefined> {
  if (kind.order !== undefined) throw new Error(`${kind.name}: a kind in a preference order is deleted one record at a time`)
  const kept = await ctx.transaction(async (tx) => {
    const taken = await snapshot(tx, kind, ids)
    const removed = await remove(tx)
    return removed.length === 0 ? undefined : taken
  })
  if (kept === undefined) return undefined
  const undo = await keep(ctx, { action: 'delete', kind, recordId: kept.ids.join(','), endpoint: kind.endpoint, json: kept.json, files: kept.files, message: restoredMessage(kind, kept.ids.length) })
  return { ids: kept.ids, undo }
}

/**
 * Keeps what a write overwrote (`column` had `before`, the write left `after`) so undo can write it
 * back: a flip (`message`: the reverse flip's own message) or a field-level delete (the kind's
 * `restored`). `endpoint`: the write's call, the kind's own unless told.
 */
export function undoableUpdate(
  ctx: Ctx,
  spec: { kind: Restorable; id: string; endpoint?: Endpoint; column: PgColumn; before: unknown; after: unknown; message?: string },
): Promise<UndoTicket> {
  const json = JSON.stringify({ set: { [spec.column.name]: spec.before }, expect: { [spec.column.name]: spec.after } })
  return keep(ctx, { action: 'update', kind: spec.kind, recordId: spec.id, endpoint: spec.endpoint ?? spec.kind.endpoint, json, message: spec.message ?? restoredMessage(spec.kind, 1) })
}

// ---------------------------------------------------------------------------------------------
// Out of the trash: undo
// ---------------------------------------------------------------------------------------------

const Kept = z.object({
  records: z.array(z.unknown()),
  children: z.array(z.object({ table: z.string() })),
  references: z.array(z.object({ table: z.string(), column: z.string(), key: z.string(), ids: z.array(z.string()), parent: z.string() })),
})
const Change = z.object({ set: z.record(z.string(), z.unknown()), expect: z.record(z.string(), z.unknown()) })

/** SQLSTATE of a database error, looking through drizzle's wrapper. */
function sqlState(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code: unknown = 'code' in e ? e.code : undefined
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return null
}

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

/** Puts deleted records' rows back: the records (one at its old place), the rows that went with them, the references they cleared. */
async function restoreRows(ctx: Ctx, kind: Restorable, entry: typeof trash.$inferSelect): Promise<void> {
  const kept = Kept.parse(entry.rows)
  const stored = (path: SQL): SQL => sql`(select ${trash.rows} ${path} from ${trash} where ${trash.id} = ${entry.id})`
  await restoring(async () => {
    const { order } = kind
    if (order === undefined) {
      await ctx.transaction((tx) => tx.execute(sql`insert into ${kind.table} select * from jsonb_populate_recordset(null::${kind.table}, ${stored(sql`-> 'records'`)})`))
    } else {
      // An ordered kind is deleted one record at a time: last first, then moved to its old place
      // (a place past the end of a shorter list: last).
      await order.add(
        ctx.db,
        async (tx, last) => {
          const at = JSON.stringify({ [order.preference.name]: last })
          await tx.execute(sql`insert into ${kind.table} select * from jsonb_populate_record(null::${kind.table}, ${stored(sql`-> 'records' -> 0`)} || ${at}::jsonb)`)
          return [{ id: entry.recordId }]
        },
        entry.place ?? undefined,
      )
    }
    await ctx.transaction(async (tx) => {
      for (const [i, child] of kept.children.entries()) {
        const t = table(child.table)
        await tx.execute(sql`insert into ${t} select * from jsonb_populate_recordset(null::${t}, ${stored(sql`-> 'children' -> ${i}::int -> 'rows'`)})`)
      }
      for (const ref of kept.references) {
        const t = table(ref.table)
        const column = sql.identifier(ref.column)
        await tx.execute(sql`update ${t} set ${column} = ${ref.parent} where ${sql.identifier(ref.key)} = any(${sql.param(ref.ids)}::text[]) and ${column} is null`)
      }
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

/**
 * Removes expired entries, then their files (a crash in between leaves orphan files, which the
 * upload sweep removes; never an entry whose files are gone). 'again' while more are expired.
 */
export async function purgeExpired(services: Pick<Services, 'handle' | 'storage'>): Promise<JobResult> {
  const db = services.handle.db
  const result = await db.execute(sql`
    delete from ${trash} where ${trash.id} in (
      select ${trash.id} from ${trash} where ${trash.expiresAt} <= now() order by ${trash.expiresAt} limit ${PURGE_BATCH} for update skip locked
    ) returning ${trash.files} as files`)
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
