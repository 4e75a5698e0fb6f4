/**
 * Deep pages without skipping from the top every time: the key of every ANCHOR_EVERY-th
 * row of a list's order is remembered under the table's generation (server/kit/ground/row-counts.ts), so
 * page 10,000 starts from the nearest remembered key and skips fewer than ANCHOR_EVERY rows.
 *
 * - An anchor is found by walking on from the nearest anchor already known (or from the top), so
 *   the first deep page costs what it cost before and the pages around it cost little.
 * - Every query that finds or uses an anchor also reads the generation in the same statement: an
 *   anchor is kept only under the generation it was found at, and used only when the rows are
 *   read at that generation; otherwise the page is read from the top (always exact).
 * - Only orders made of columns all ascending or all descending (the row comparison `(a, b) < (x,
 *   y)` follows one direction) on a counted table; anything else is read from the top. A sorted
 *   list may also name its keys itself (`KeyedOrder`: lower(name), id), as text expressions.
 * - Key values travel as text and are cast back to their column's type, so a timestamp keeps its
 *   microseconds (a JavaScript Date would round them and move the anchor).
 */
import { and, getTableName, is, sql, SQL } from 'drizzle-orm'
import { PgColumn, type PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/index.ts'
import { COUNTED_TABLES, generationOf, sqlKey } from './row-counts.ts'

/** Rows between two remembered keys: a deep page skips fewer than this. */
export const ANCHOR_EVERY = 10_000
/** Lists (table, filter, order) whose anchors are kept per process; the least recently used go first. */
const LISTS_KEPT = 200

type Order = { columns: PgColumn[]; direction: 'asc' | 'desc' }

/**
 * An order given as its keys (a column, or an expression over one such as lower(name)) with the
 * SQL type each key's text is cast back to, all in one direction.
 */
export interface KeyedOrder {
  keys: readonly { value: PgColumn | SQL; type: string }[]
  direction: 'asc' | 'desc'
}

const keyed = (order: Order): KeyedOrder => ({ keys: order.columns.map((column) => ({ value: column, type: column.getSQLType() })), direction: order.direction })

/** The order's columns and their one direction, or null when it is not a plain column order. */
export function plainOrder(orderBy: readonly (SQL | PgColumn)[]): Order | null {
  const columns: PgColumn[] = []
  const directions = new Set<'asc' | 'desc'>()
  for (const item of orderBy) {
    if (is(item, PgColumn)) {
      columns.push(item)
      directions.add('asc')
      continue
    }
    if (!is(item, SQL)) return null
    // desc(column) / asc(column) are sql`${column} desc`: an empty chunk, the column, the direction.
    const [head, column, tail] = item.queryChunks
    const words = (chunk: unknown): string | null => (chunk !== null && typeof chunk === 'object' && 'value' in chunk && Array.isArray(chunk.value) ? chunk.value.join('') : null)
    const direction = words(tail)?.trim()
    if (item.queryChunks.length !== 3 || words(head) !== '' || !is(column, PgColumn) || (direction !== 'asc' && direction !== 'desc')) return null
    columns.push(column)
    directions.add(direction)
  }
  const [direction] = [...directions]
  return columns.length > 0 && directions.size === 1 && direction !== undefined ? { columns, direction } : null
}

interface Anchors {
  generation: number
  /** The key (as text, one value per order column) of the row at position k * ANCHOR_EVERY - 1, by k. */
  keys: Map<number, string[]>
}
const kept = new Map<string, Anchors>()

function keep(list: string, anchors: Anchors): void {
  kept.delete(list)
  kept.set(list, anchors)
  if (kept.size > LISTS_KEPT) {
    const oldest = kept.keys().next()
    if (!oldest.done) kept.delete(oldest.value)
  }
}

/** Forgets every anchor (tests comparing pages read with and without them). */
export function forgetAnchors(): void {
  kept.clear()
}

/** A plain column order (see plainOrder) as its keys, or null when it is not one. */
export function keyedOrderOf(orderBy: readonly (SQL | PgColumn)[]): KeyedOrder | null {
  const plain = plainOrder(orderBy)
  return plain === null ? null : keyed(plain)
}

/** Rows after `key` in `order`, with the key's values cast back to their keys' types. */
export function rowsAfter(order: KeyedOrder, key: string[]): SQL {
  const values = order.keys.map((k, i) => sql`cast(${key[i] ?? null} as ${sql.raw(k.type)})`)
  return sql`(${sql.join(
    order.keys.map((k) => k.value),
    sql`, `,
  )}) ${sql.raw(order.direction === 'desc' ? '<' : '>')} (${sql.join(values, sql`, `)})`
}

/**
 * The ids of the page at `offset` found from the nearest anchor, or null when anchors do not
 * apply here or could not be used at the rows' generation (the caller reads from the top).
 * `keyedOrder` names the keys of `orderBy` when they are not plain columns.
 */
export async function anchoredPageIds(
  db: Db,
  table: PgTable,
  id: PgColumn,
  where: SQL | undefined,
  orderBy: readonly (SQL | PgColumn)[],
  limit: number,
  offset: number,
  keyedOrder?: KeyedOrder,
): Promise<string[] | null> {
  const name = getTableName(table)
  const order = keyedOrder ?? keyedOrderOf(orderBy)
  const k = Math.floor(offset / ANCHOR_EVERY)
  if (order === null || k === 0 || !COUNTED_TABLES.has(name)) return null
  const list = `${name}\u0000${where === undefined ? '' : sqlKey(where)}\u0000${sqlKey(sql.join([...orderBy], sql`, `))}`
  let anchors = kept.get(list)

  let anchor = anchors?.keys.get(k)
  if (anchor === undefined) {
    // Walk on from the nearest known anchor before k (or from the top) to the row before page k's first.
    let from = 0
    for (const known of anchors?.keys.keys() ?? []) if (known < k && known > from) from = known
    const start = from === 0 ? undefined : anchors?.keys.get(from)
    const texts = order.keys.map((k) => sql<string>`(${k.value})::text`)
    const [found] = await db
      .select({ key: sql<string[]>`array[${sql.join(texts, sql`, `)}]`, generation: generationOf(name) })
      .from(table)
      .where(and(where, start === undefined ? undefined : rowsAfter(order, start)))
      .orderBy(...orderBy)
      .limit(1)
      .offset((k - from) * ANCHOR_EVERY - 1)
    if (found === undefined || found.generation === null) return null
    const generation = Number(found.generation)
    if (start !== undefined && anchors?.generation !== generation) {
      // Walked from an anchor of an earlier generation: the key found means nothing now.
      kept.delete(list)
      return null
    }
    if (anchors === undefined || anchors.generation !== generation) anchors = { generation, keys: new Map() }
    anchors.keys.set(k, found.key)
    keep(list, anchors)
    anchor = found.key
  }
  const rows = await db
    .select({ id: sql<string>`${id}`, generation: generationOf(name) })
    .from(table)
    .where(and(where, rowsAfter(order, anchor)))
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset - k * ANCHOR_EVERY)
  const generation = rows[0]?.generation
  if (anchors === undefined || generation === undefined || generation === null || Number(generation) !== anchors.generation) {
    // Written since the anchor was found (or past the end): the caller reads from the top.
    kept.delete(list)
    return null
  }
  return rows.map((r) => r.id)
}
