/**
 * Exact counts for the large lists without counting a million rows per page:
 *
 * - unfiltered, a list's count is one row of `row_counts`, kept by statement triggers in the
 *   writing transaction (migration row-counts), so it is exact at every snapshot;
 * - searched, the count is computed once per search and kept under the table's `generation`,
 *   which every write moves on: the next pages of the same search (and every instance's cache,
 *   which reads the generation from the database) reuse it until anything is written.
 *
 * The generation and the count it is kept under are read in one statement, so a count never sits
 * under a generation it was not computed at.
 */
import { eq, getTableName, sql, type SQL } from 'drizzle-orm'
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/index.ts'
import { rowCounts } from '../../db/schema.ts'

/** The tables whose count the triggers keep (migration row-counts calls row_counts_track on each). */
export const COUNTED_TABLES: ReadonlySet<string> = new Set(['leads', 'contact_enquiries', 'games', 'links', 'promotions'])

/** Searched counts kept per process; the least recently used go first beyond this. */
export const COUNT_CACHE_SIZE = 2000

const dialect = new PgDialect()
const cache = new Map<string, { generation: number; count: number }>()

function remember(key: string, entry: { generation: number; count: number }): void {
  cache.delete(key)
  cache.set(key, entry)
  if (cache.size > COUNT_CACHE_SIZE) {
    const oldest = cache.keys().next()
    if (!oldest.done) cache.delete(oldest.value)
  }
}

/**
 * The table's generation as a column of another statement, so what that statement reads and the
 * generation it is kept under come from one snapshot (null: the table is not counted here).
 */
export const generationOf = (table: string) => sql<string | null>`(select ${rowCounts.generation} from ${rowCounts} where ${rowCounts.tableName} = ${table})`

/** A condition's SQL text and parameters, as a cache key. */
export function sqlKey(condition: SQL): string {
  const query = dialect.sqlToQuery(condition)
  return `${query.sql}\u0000${JSON.stringify(query.params)}`
}

/** Forgets every cached count (tests that compare a count with and without the cache). */
export function forgetCounts(): void {
  cache.clear()
}

/**
 * Counts being computed, per database: a list answered without its count starts it (countSoon),
 * and the count call that follows a moment later joins it instead of counting again.
 */
const counting = new WeakMap<Db, Map<string, Promise<number>>>()

const keyOf = (name: string, where: SQL): string => `${name}\u0000${sqlKey(where)}`

/**
 * The exact count of `table` meeting `where` when it costs no counting: every row of a counted
 * table (one row of row_counts), or a search counted at the table's present generation. Null
 * otherwise: counting it would take a scan of the matching rows.
 */
export async function knownCount(db: Db, table: PgTable, where: SQL | undefined): Promise<number | null> {
  const name = getTableName(table)
  if (!COUNTED_TABLES.has(name)) return null
  const key = where === undefined ? null : keyOf(name, where)
  const known = key === null ? undefined : cache.get(key)
  if (key !== null && known === undefined) return null
  const [state] = await db.select({ n: rowCounts.n, generation: rowCounts.generation }).from(rowCounts).where(eq(rowCounts.tableName, name))
  if (state === undefined) return null
  if (key === null) return state.n
  if (known === undefined || known.generation !== state.generation) return null
  remember(key, known)
  return known.count
}

/**
 * Starts counting `where` without waiting for it: the list answered its rows first, and the count
 * call about to come joins this count (exactCount) or, once done, reads it from the cache. A
 * failure is the count call's to report: it counts again.
 */
export function countSoon(db: Db, table: PgTable, where: SQL | undefined): void {
  exactCount(db, table, where).catch(() => {})
}

/** The exact number of rows of `table` meeting `where` (every row when undefined). */
export async function exactCount(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const name = getTableName(table)
  if (!COUNTED_TABLES.has(name)) return db.$count(table, where)
  const key = where === undefined ? null : keyOf(name, where)
  const known = key === null ? undefined : cache.get(key)
  if (where === undefined || known !== undefined) {
    const [state] = await db.select({ n: rowCounts.n, generation: rowCounts.generation }).from(rowCounts).where(eq(rowCounts.tableName, name))
    // Not tracked in this database (a migration not applied): count the table as before.
    if (state === undefined) return db.$count(table, where)
    if (where === undefined) return state.n
    if (key !== null && known !== undefined && known.generation === state.generation) {
      remember(key, known)
      return known.count
    }
  }
  if (key === null) return countNow(db, table, name, where, null)
  // The same search being counted already (its list answered a moment ago) is joined: it counts at
  // the snapshot that list's rows were read at, or one a moment later.
  let running = counting.get(db)
  if (running === undefined) counting.set(db, (running = new Map()))
  const joined = running.get(key)
  if (joined !== undefined) return joined
  const started = countNow(db, table, name, where, key).finally(() => running.delete(key))
  running.set(key, started)
  return started
}

/** A search not counted at this generation: counted now, with the generation in the same statement. */
async function countNow(db: Db, table: PgTable, name: string, where: SQL | undefined, key: string | null): Promise<number> {
  const [counted] = await db
    .select({
      generation: generationOf(name),
      count: sql<string>`count(*)`,
    })
    .from(table)
    .where(where)
  const count = Number(counted?.count ?? 0)
  if (key !== null && counted !== undefined && counted.generation !== null) remember(key, { generation: Number(counted.generation), count })
  return count
}
