/**
 * Lists ordered by preference (categories; buy, swap-out and swap-in links): `preference` is the
 * record's place, kept 1..count without gaps or duplicates by every write.
 *
 *     const order = preferenceOrder({ lock: 'links:buy', id: links.id, preference: links.preference,
 *       createdAt: links.createdAt, scope: eq(links.kind, 'buy') })
 *
 *     await order.add(ctx.db, (tx, last) => tx.insert(links).values({ ..., preference: last }).returning(...), wanted)
 *     await order.edit(ctx.db, id, wanted, (tx) => tx.update(links).set(...).where(...).returning(...))
 *     await order.remove(ctx.db, (tx) => tx.delete(links).where(...).returning(...))
 *
 * - a new record goes last, or to the place asked for;
 * - an edit that moves a record shifts the records between its old and new place by one;
 * - a place outside 1..count is ignored: the record keeps its place (requirements R5.6);
 * - a delete closes the gap (a bulk delete's batches leave theirs, and its run closes them once at
 *   its end: `removeKeepingGaps`, `closeGaps`; its undo puts them all back with `putBack`).
 *
 * Each write runs in one transaction that first takes a transaction-scoped advisory lock named
 * after the list, so two writes to one list never interleave: the second reads the order the first
 * committed. Both engines have `pg_advisory_xact_lock`; on PGlite, which has one connection,
 * transactions are serial anyway. No unique index guards (scope, preference): renumbering moves
 * rows one at a time inside a statement, which such an index would refuse halfway.
 *
 * Every write also renumbers the whole scope from its current order (preference, then age), so
 * rows written before these rules (gaps, duplicates, zeros) come back to 1..count on the next write.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { asc, sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { z } from 'zod'
import type { Db } from '../../db/index.ts'

export interface OrderedList {
  /** Names the advisory lock: writes holding the same name wait for each other. */
  lock: string
  id: PgColumn
  preference: PgColumn
  /** Breaks ties between equal preferences (older first), which only rows from before these rules have. */
  createdAt: PgColumn
  /** The rows that share one order (one kind of link); the whole table when absent. */
  scope?: SQL
}

/** What a write did to the record's place. */
export interface Placed {
  /** The record's place after the write. */
  place: number
  /** How many records the list holds after the write. */
  count: number
  /** Whether the place asked for was outside 1..count and so ignored. */
  ignored: boolean
}

export interface PreferenceOrder {
  /** The list order for reads: preference, then age, then id (a total order, so pages never overlap). */
  readonly orderBy: readonly [SQL, SQL, SQL]
  /** The column holding the place (undo restores a record at its old place: server/kit/request/undo.ts). */
  readonly preference: PgColumn
  /**
   * Inserts a record at the end (`insert` gets the place after the last, and returns the new id),
   * then moves it to `wanted` when that is a place of the list. Undefined when `insert` inserted nothing.
   */
  add(db: Db, insert: (tx: Db, last: number) => Promise<readonly { id: string }[]>, wanted?: number): Promise<(Placed & { id: string }) | undefined>
  /** Runs `update` (which returns the updated rows), then moves record `id` to `wanted`. Undefined when `update` matched nothing. */
  edit(db: Db, id: string, wanted: number, update: (tx: Db) => Promise<readonly unknown[]>): Promise<Placed | undefined>
  /** Runs `remove` (which returns the deleted rows), then closes the gap; answers the deleted rows. */
  remove<R>(db: Db, remove: (tx: Db) => Promise<readonly R[]>): Promise<readonly R[]>
  /**
   * Takes this list's lock for the rest of `tx` (a transaction), as the writes above do first. An
   * edit that must lock its record's row before it writes (to read what it replaces) takes this
   * first: every write of the list then takes the two locks in the same order, list then row,
   * and a renumbering (which updates other records' rows under the list's lock) cannot deadlock
   * with it.
   */
  lock(tx: Db): Promise<void>
  /**
   * Each of `ids`' place in the list now (its position, whatever the stored numbers), in `tx`,
   * which holds the list's lock. Reads the list only up to the last of them.
   */
  placesOf(tx: Db, ids: readonly string[]): Promise<Map<string, number>>
  /**
   * Takes the records `ids` out of the list without closing their gaps (a bulk delete closes them
   * once, with `closeGaps`, rather than renumbering the list after every batch): `remove` runs in
   * a transaction holding the list's lock, and is told each record's place before it (`placesOf`).
   */
  removeKeepingGaps<R>(db: Db, ids: readonly string[], remove: (tx: Db, places: Map<string, number>) => Promise<R>): Promise<R>
  /** Renumbers the list 1..count from its current order (after `removeKeepingGaps`). */
  closeGaps(db: Db): Promise<void>
  /**
   * Puts removed records back where they were: `groups` in the order they are put back (the last
   * removed first), each record with its place in the list as it was when its group was removed;
   * `insert` writes them, told each record's place in the list as it is once they are all back.
   * One read and one write of the list, whatever the number of groups. A place past the end (or
   * below 1) puts the record last, as `add` does.
   */
  putBack(db: Db, groups: readonly (readonly { id: string; place: number }[])[], insert: (tx: Db, places: Map<string, number>) => Promise<void>): Promise<void>
}

const IdRows = z.object({ rows: z.array(z.object({ id: z.string() })) })
const Placed = z.object({ rows: z.array(z.object({ id: z.string(), place: z.coerce.number() })) })

export function preferenceOrder(list: OrderedList): PreferenceOrder {
  const orderBy = [asc(list.preference), asc(list.createdAt), asc(list.id)] as const
  const table = list.id.table

  const lock = async (tx: Db): Promise<void> => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${list.lock}))`)
  }

  /** Runs `work` in one transaction that holds this list's lock. */
  const locked = <T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> =>
    db.transaction(async (tx) => {
      await lock(tx)
      return work(tx)
    })

  /** The ids in their current order. */
  const current = async (tx: Db): Promise<string[]> => {
    const rows = IdRows.parse(await tx.execute(sql`select ${list.id} as id from ${table} ${where(list.scope)} order by ${sql.join([...orderBy], sql`, `)}`))
    return rows.rows.map((r) => r.id)
  }

  /** Writes places 1..n in the given order, touching only the rows whose place changes, in one statement. */
  const write = async (tx: Db, ids: readonly string[]): Promise<void> => {
    if (ids.length === 0) return
    const column = sql.identifier(list.preference.name)
    await tx.execute(
      sql`update ${table} set ${column} = v.place::integer
          from unnest(${sql.param(ids)}::text[]) with ordinality as v(id, place)
          where ${list.id} = v.id and ${list.preference} is distinct from v.place::integer`,
    )
  }

  /** Writes each of `ids` its place in `places`, touching only the rows whose place changes, in one statement. */
  const writeAt = async (tx: Db, ids: readonly string[], places: readonly number[]): Promise<void> => {
    if (ids.length === 0) return
    const column = sql.identifier(list.preference.name)
    await tx.execute(
      sql`update ${table} set ${column} = v.place
          from unnest(${sql.param(ids)}::text[], ${sql.param(places)}::int[]) as v(id, place)
          where ${list.id} = v.id and ${list.preference} is distinct from v.place`,
    )
  }

  /**
   * Moves `id` to `wanted` when that is a place of the list, else keeps it where it is (an edit) or
   * puts it last (an add: stored places may have gaps above the new one's), and renumbers everything.
   */
  const place = async (tx: Db, id: string, wanted: number | undefined, otherwise: 'keep' | 'last'): Promise<Placed> => {
    const ids = await current(tx)
    const from = ids.indexOf(id)
    const ignored = wanted !== undefined && (wanted < 1 || wanted > ids.length)
    const target = wanted !== undefined && !ignored ? wanted : otherwise === 'last' ? ids.length : undefined
    if (from >= 0 && target !== undefined) {
      ids.splice(from, 1)
      ids.splice(target - 1, 0, id)
    }
    await write(tx, ids)
    return { place: ids.indexOf(id) + 1, count: ids.length, ignored }
  }

  const placesOf = async (tx: Db, ids: readonly string[]): Promise<Map<string, number>> => {
    if (ids.length === 0) return new Map()
    const column = sql.identifier(list.preference.name)
    const key = sql.identifier(list.id.name)
    // Rows after the last of them in the order cannot come before any of them: the prefix is enough.
    const rows = Placed.parse(
      await tx.execute(sql`select r.id, r.place from (
          select ${list.id} as id, row_number() over (order by ${sql.join([...orderBy], sql`, `)})::int as place from ${table}
          where ${list.scope === undefined ? sql`` : sql`${list.scope} and `}${list.preference} <= (select max(${column}) from ${table} where ${key} = any(${sql.param(ids)}::text[]))
        ) r where r.id = any(${sql.param(ids)}::text[])`),
    ).rows
    return new Map(rows.map((r) => [r.id, r.place]))
  }

  /** The list `ids` with each group put back at its places, last removed first. */
  const merged = async (ids: readonly string[], groups: readonly (readonly { id: string; place: number }[])[]): Promise<string[]> => {
    let list = [...ids]
    for (const group of groups) {
      const placed = [...group].sort((a, b) => a.place - b.place)
      const out: string[] = []
      const last: string[] = []
      let i = 0
      for (const record of placed) {
        if (record.place < 1 || record.place > list.length + placed.length) {
          last.push(record.id)
          continue
        }
        while (out.length < record.place - 1 && i < list.length) out.push(list[i++] as string)
        out.push(record.id)
      }
      while (i < list.length) out.push(list[i++] as string)
      list = [...out, ...last]
      // Each group walks the whole list: the loop turns between two (a bulk run has many).
      await yieldToLoop()
    }
    return list
  }

  return {
    orderBy,
    preference: list.preference,
    placesOf,
    removeKeepingGaps: (db, ids, remove) =>
      locked(db, async (tx) => remove(tx, await placesOf(tx, ids))),
    closeGaps: (db) => locked(db, async (tx) => write(tx, await current(tx))),
    putBack: (db, groups, insert) =>
      locked(db, async (tx) => {
        const ids = await merged(await current(tx), groups)
        const back = new Set(groups.flatMap((g) => g.map((r) => r.id)))
        const places = new Map<string, number>()
        const stay: string[] = []
        const stayAt: number[] = []
        for (const [i, id] of ids.entries()) {
          if (back.has(id)) places.set(id, i + 1)
          else {
            stay.push(id)
            stayAt.push(i + 1)
          }
        }
        await insert(tx, places)
        // The records put back are inserted at their places: only the others are renumbered.
        await writeAt(tx, stay, stayAt)
      }),
    add: (db, insert, wanted) =>
      locked(db, async (tx) => {
        const [row] = await insert(tx, (await tx.$count(table, list.scope)) + 1)
        if (row === undefined) return undefined
        return { id: row.id, ...(await place(tx, row.id, wanted, 'last')) }
      }),
    edit: (db, id, wanted, update) =>
      locked(db, async (tx) => {
        const rows = await update(tx)
        if (rows.length === 0) return undefined
        return place(tx, id, wanted, 'keep')
      }),
    lock,
    remove: (db, remove) =>
      locked(db, async (tx) => {
        const rows = await remove(tx)
        if (rows.length > 0) await write(tx, await current(tx))
        return rows
      }),
  }
}

const where = (scope: SQL | undefined): SQL => (scope === undefined ? sql`` : sql`where ${scope}`)

/**
 * The success message of an edit whose preference was ignored: the change was saved, and the
 * record kept its place (requirements R5.6), which the caller should hear rather than guess.
 */
export const keptPlace = (updated: string, wanted: number, placed: Placed): string =>
  `${updated}; preference ${wanted} is not a place in this list (1 to ${placed.count}), so it keeps place ${placed.place}`
