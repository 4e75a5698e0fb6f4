/**
 * The paged list every list call answers (page, limit, search -> `result` + `count`), declared
 * once per call:
 *
 *     const { rows, count } = await listPage(ctx.db, query, {
 *       rows: ctx.db.select().from(categories).$dynamic(),
 *       search: [categories.categoryName],
 *       orderBy: [asc(categories.preference), desc(categories.createdAt)],
 *       sort: { categoryName: caseless(categories.categoryName) },
 *     })
 *
 * The count is exact (the same where clause, no estimate; kept by triggers for the large tables,
 * server/kit/ground/row-counts.ts), and the page and the count are asked for together; or, for a list
 * whose contract takes `count: 'later'`, the rows first and the count by a call of its own
 * (`listPageRowsFirst` and `listCount`), so a broad search shows its rows before it is counted.
 *
 * Sorting: a list whose contract declares sortable columns (contract/common.ts `sortable`) maps
 * each to what it sorts by (`sort`); the call's `sortBy` and `sortOrder` then replace `orderBy` by
 * that key in that direction, then the table's primary key in the same direction, so rows that
 * tie keep one order and pages neither repeat nor skip a row.
 */
import { and, asc, desc, getTableColumns, ilike, inArray, is, or, sql, type SQL } from 'drizzle-orm'
import { PgColumn, PgTable, type PgSelect } from 'drizzle-orm/pg-core'
import type { PageQuery, SortOrder } from '#contract/common'
import type { Db } from '../../db/index.ts'
import { anchoredPageIds, type KeyedOrder } from '../ground/anchors.ts'
import { failure } from './answers.ts'
import { countSoon, exactCount, knownCount } from '../ground/row-counts.ts'

/** A LIKE pattern matching `term` anywhere, with LIKE's own wildcards escaped (backslash is the default escape). */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Rows to skip for a 1-based page. */
export const offsetOf = (page: number, limit: number): number => (page - 1) * limit

/**
 * How a search term narrows a list: a case-insensitive substring of any of these columns, or an
 * expression of the call's own (the leads' search must be exactly the expression its trigram
 * index holds, so it brings its own). An empty term never narrows.
 */
export type Search = readonly PgColumn[] | ((term: string) => SQL | undefined)

/**
 * What a sortable column sorts by: the column itself (dates, numbers), `caseless(column)` for
 * text (alphabetical whatever the case and the database's collation), or an expression of the
 * list's own (a name read from another table).
 */
export type SortKey = PgColumn | CaselessKey | SQL

interface CaselessKey {
  caseless: PgColumn
}

/** Text sorted as people read it: by lower(column), so 'alice' and 'Bob' are in alphabetical order. */
export const caseless = (column: PgColumn): CaselessKey => ({ caseless: column })

/** The sort a call asked for: the list contract's `sortBy` (one of its columns) and `sortOrder`. */
export interface SortInput<C extends string> {
  sortBy?: C | undefined
  sortOrder?: SortOrder | undefined
}

export const SORT_ORDER_ALONE = 'sortOrder needs sortBy'

export interface ListSpec<Q extends PgSelect> {
  /** The rows' select, without where, order or paging: `db.select(...).from(table).$dynamic()`. */
  rows: Q
  search: Search
  /** Conditions every row of this list meets, searched or not (the staff list holds sub-admins only). */
  filter?: SQL
  /** The default order, ending in a unique column so that pages never overlap or skip a row. */
  orderBy: readonly [SQL | PgColumn, ...(SQL | PgColumn)[]]
}

/** What each of the contract's sortable columns sorts by: every one of them, when the call has any. */
export type SortSpec<C extends string> = [C] extends [never] ? { sort?: undefined } : { sort: Readonly<Record<C, SortKey>> }

/** The where clause of a search over `search`, null-free; undefined when nothing narrows. */
export function searchWhere(search: Search, term: string, filter?: SQL): SQL | undefined {
  const matched = term === '' ? undefined : typeof search === 'function' ? search(term) : or(...search.map((column) => ilike(column, containsPattern(term))))
  return filter === undefined ? matched : matched === undefined ? filter : and(filter, matched)
}

/** An order: its ORDER BY terms, and its keys when a deep page may start from a remembered one (anchors.ts). */
export interface ListOrder {
  orderBy: readonly [SQL | PgColumn, ...(SQL | PgColumn)[]]
  keyed?: KeyedOrder
}

/**
 * The order a call asked for: `sort[sortBy]` in `sortOrder` (asc unless told), then the table's
 * primary key the same way; `orderBy` when no column is asked for. A `sortOrder` without
 * `sortBy` is refused: there is nothing it could be the direction of.
 */
export function sortedOrder<C extends string>(query: SortInput<C>, sort: Readonly<Record<C, SortKey>> | undefined, table: PgTable, orderBy: ListOrder['orderBy']): ListOrder {
  const { sortBy, sortOrder } = query
  if (sortBy === undefined) {
    if (sortOrder !== undefined) throw failure(SORT_ORDER_ALONE, { sortOrder: SORT_ORDER_ALONE })
    return { orderBy }
  }
  const by = sort?.[sortBy]
  // The contract refuses unknown columns before this; a list that declares a column it does not map is a bug.
  if (by === undefined) throw new Error(`listPage(): no sort key for the column ${sortBy}`)
  const key = primaryKeyOf(table)
  const direction = sortOrder ?? 'asc'
  const order = direction === 'asc' ? asc : desc
  const last = { value: key, type: key.getSQLType() }
  if ('caseless' in by) {
    const lowered = sql`lower(${by.caseless})`
    return { orderBy: [order(lowered), order(key)], keyed: { keys: [{ value: lowered, type: 'text' }, last], direction } }
  }
  if (is(by, PgColumn)) return { orderBy: [order(by), order(key)], keyed: { keys: [{ value: by, type: by.getSQLType() }, last], direction } }
  // An expression of the list's own: read from the top at any depth (anchors need typed keys).
  return { orderBy: [order(by), order(key)] }
}

/**
 * From this offset on, a page's keys are found first (an index-only walk of the order's index,
 * from the nearest remembered key: server/kit/ground/anchors.ts) and only its rows are read whole: deep
 * pages no longer build and drop every row they skip.
 */
export const DEFERRED_JOIN_FROM = 1000

/** One page of a list and the exact count of the rows the search matches (server/kit/ground/row-counts.ts). */
export async function listPage<Q extends PgSelect, C extends string = never>(
  db: Db,
  query: PageQuery & SortInput<C>,
  spec: ListSpec<Q> & SortSpec<NoInfer<C>>,
): Promise<{ rows: Q['_']['result']; count: number }> {
  const where = searchWhere(spec.search, query.search, spec.filter)
  const table = tableOf(spec.rows)
  const offset = offsetOf(query.page, query.limit)
  const order = sortedOrder(query, spec.sort, table, spec.orderBy)
  const [rows, count] = await Promise.all([pageRows(db, spec.rows, order, table, where, query.limit, offset), exactCount(db, table, where)])
  return { rows, count }
}

/**
 * One page of a list, answered without waiting for its count when counting would take a while
 * (the contract's `count: 'later'`, contract/common.ts CountLater): a broad search on a million
 * rows finds its first 50 in a few milliseconds and its count in a hundred.
 *
 * The count is still answered when it costs nothing: unfiltered (row_counts), a search already
 * counted at this generation (the next pages, a repeat), or a page that is not full, whose rows
 * end the list (offset + rows). Otherwise it is null, and counting starts at once, so the list's
 * count call (listCount) joins it rather than starting again.
 */
export async function listPageRowsFirst<Q extends PgSelect, C extends string = never>(
  db: Db,
  query: PageQuery & SortInput<C>,
  spec: ListSpec<Q> & SortSpec<NoInfer<C>>,
): Promise<{ rows: Q['_']['result']; count: number | null }> {
  const where = searchWhere(spec.search, query.search, spec.filter)
  const table = tableOf(spec.rows)
  const offset = offsetOf(query.page, query.limit)
  const order = sortedOrder(query, spec.sort, table, spec.orderBy)
  const [rows, known] = await Promise.all([pageRows(db, spec.rows, order, table, where, query.limit, offset), knownCount(db, table, where)])
  if (known !== null) return { rows, count: known }
  // An empty page past the end says nothing of how many rows come before it.
  if (rows.length < query.limit && (rows.length > 0 || offset === 0)) return { rows, count: offset + rows.length }
  countSoon(db, table, where)
  return { rows, count: null }
}

/** What a list's count call needs of its list: the rows' table, the search and the filters (the page and the order do not change a count). */
export type CountSpec<Q extends PgSelect> = Pick<ListSpec<Q>, 'rows' | 'search' | 'filter'>

/** The exact count of the rows a list shows for `search` and its filters: the count a rows-first page left out. */
export async function listCount<Q extends PgSelect>(db: Db, query: { search: string }, spec: CountSpec<Q>): Promise<number> {
  return exactCount(db, tableOf(spec.rows), searchWhere(spec.search, query.search, spec.filter))
}

async function pageRows<Q extends PgSelect>(db: Db, select: Q, order: ListOrder, table: PgTable, where: SQL | undefined, limit: number, offset: number): Promise<Q['_']['result']> {
  const key = getTableColumns(table)['id']
  if (offset < DEFERRED_JOIN_FROM || key === undefined) {
    const rows: Q['_']['result'] = await select.where(where).orderBy(...order.orderBy).limit(limit).offset(offset)
    return rows
  }
  const ids =
    (await anchoredPageIds(db, table, key, where, order.orderBy, limit, offset, order.keyed)) ??
    (await db.select({ id: sql<string>`${key}` }).from(table).where(where).orderBy(...order.orderBy).limit(limit).offset(offset)).map((k) => k.id)
  if (ids.length === 0) return []
  const rows: Q['_']['result'] = await select.where(inArray(key, ids)).orderBy(...order.orderBy)
  return rows
}

/**
 * The table's primary key, the tie-break of a sorted order: its `id`, or the one column that is its
 * primary key (an address, on a table keyed by what it lists).
 */
export function primaryKeyOf(table: PgTable): PgColumn {
  const columns = getTableColumns(table)
  const key = columns['id'] ?? Object.values(columns).find((c) => c.primary)
  if (key === undefined) throw new Error('listPage(): the table has no id or primary key column to break ties with')
  return key
}

/** The table a dynamic select reads from: the count runs on the same one, so a join would make it lie. */
function tableOf(select: PgSelect): PgTable {
  const { table, joins } = select._.config
  if (!is(table, PgTable) || (joins !== undefined && joins.length > 0)) throw new Error('listPage(): the rows select must read from one table, without joins')
  return table
}
