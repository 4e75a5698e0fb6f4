/**
 * The paged list every list call answers (page, limit, search -> `result` + `count`), declared
 * once per call:
 *
 *     const { rows, count } = await listPage(ctx.db, query, {
 *       rows: ctx.db.select().from(categories).$dynamic(),
 *       search: [categories.categoryName],
 *       orderBy: [asc(categories.preference), desc(categories.createdAt)],
 *     })
 *
 * The count is exact (the same where clause, no estimate; kept by triggers for the large tables,
 * server/kit/row-counts.ts), and the page and the count are asked for together.
 */
import { and, getTableColumns, ilike, inArray, is, or, sql, type SQL } from 'drizzle-orm'
import { PgTable, type PgColumn, type PgSelect } from 'drizzle-orm/pg-core'
import type { PageQuery } from '#contract/common'
import type { Db } from '../db/index.ts'
import { anchoredPageIds } from './anchors.ts'
import { exactCount } from './row-counts.ts'

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

export interface ListSpec<Q extends PgSelect> {
  /** The rows' select, without where, order or paging: `db.select(...).from(table).$dynamic()`. */
  rows: Q
  search: Search
  /** Conditions every row of this list meets, searched or not (the staff list holds sub-admins only). */
  filter?: SQL
  /** The order, ending in a unique column so that pages never overlap or skip a row. */
  orderBy: readonly [SQL | PgColumn, ...(SQL | PgColumn)[]]
}

/** The where clause of a search over `search`, null-free; undefined when nothing narrows. */
export function searchWhere(search: Search, term: string, filter?: SQL): SQL | undefined {
  const matched = term === '' ? undefined : typeof search === 'function' ? search(term) : or(...search.map((column) => ilike(column, containsPattern(term))))
  return filter === undefined ? matched : matched === undefined ? filter : and(filter, matched)
}

/**
 * From this offset on, a page's keys are found first (an index-only walk of the order's index,
 * from the nearest remembered key: server/kit/anchors.ts) and only its rows are read whole: deep
 * pages no longer build and drop every row they skip.
 */
export const DEFERRED_JOIN_FROM = 1000

/** One page of a list and the exact count of the rows the search matches (server/kit/row-counts.ts). */
export async function listPage<Q extends PgSelect>(db: Db, query: PageQuery, spec: ListSpec<Q>): Promise<{ rows: Q['_']['result']; count: number }> {
  const where = searchWhere(spec.search, query.search, spec.filter)
  const table = tableOf(spec.rows)
  const offset = offsetOf(query.page, query.limit)
  const [rows, count] = await Promise.all([pageRows(db, spec, table, where, query.limit, offset), exactCount(db, table, where)])
  return { rows, count }
}

async function pageRows<Q extends PgSelect>(db: Db, spec: ListSpec<Q>, table: PgTable, where: SQL | undefined, limit: number, offset: number): Promise<Q['_']['result']> {
  const key = getTableColumns(table)['id']
  if (offset < DEFERRED_JOIN_FROM || key === undefined) {
    const rows: Q['_']['result'] = await spec.rows.where(where).orderBy(...spec.orderBy).limit(limit).offset(offset)
    return rows
  }
  const ids =
    (await anchoredPageIds(db, table, key, where, spec.orderBy, limit, offset)) ??
    (await db.select({ id: sql<string>`${key}` }).from(table).where(where).orderBy(...spec.orderBy).limit(limit).offset(offset)).map((k) => k.id)
  if (ids.length === 0) return []
  const rows: Q['_']['result'] = await spec.rows.where(inArray(key, ids)).orderBy(...spec.orderBy)
  return rows
}

/** The table a dynamic select reads from: the count runs on the same one, so a join would make it lie. */
function tableOf(select: PgSelect): PgTable {
  const { table, joins } = select._.config
  if (!is(table, PgTable) || (joins !== undefined && joins.length > 0)) throw new Error('listPage(): the rows select must read from one table, without joins')
  return table
}
