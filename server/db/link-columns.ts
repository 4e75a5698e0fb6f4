/**
 * Every column that holds a link users follow, collected from the tables: each one made in
 * server/db/schema.ts with `outwardLink`. A write that stores a value in one of them is held to the
 * superadmin's allowed domains and, while "Two admins for outward links" is on, to a second admin
 * (server/kit/request/api.ts), whichever call made it: a form's save, a revert from the audit log, an
 * undo. A new link column is declared once, in its table.
 */
import { is } from 'drizzle-orm'
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core'
import * as schema from './schema.ts'

/** The link columns of each table, by the table's and the column's SQL names. */
export const outwardLinkColumns: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.values(schema).flatMap((value) => {
    if (!is(value, PgTable)) return []
    const config = getTableConfig(value)
    const columns = config.columns.filter(schema.holdsOutwardLinkColumn).map((c) => c.name)
    return columns.length === 0 ? [] : [[config.name, new Set(columns)] as const]
  }),
)

/** Whether `column` of `table` holds a link users follow. */
export const isOutwardLinkColumn = (table: string, column: string): boolean => outwardLinkColumns.get(table)?.has(column) === true
