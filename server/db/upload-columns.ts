/**
 * Every column that holds stored upload names, collected from the tables: each one made in
 * server/db/schema.ts with `uploadName`, `uploadNames` or `uploadFiles`. The sweep
 * (server/kit/ground/sweep.ts) reads these to tell files in use from orphans, backup copies the files
 * they name, and undo keeps a deleted record's files; a new upload column is declared once, in its
 * table.
 */
import { is } from 'drizzle-orm'
import { getTableConfig, PgTable, type PgColumn } from 'drizzle-orm/pg-core'
import * as schema from './schema.ts'

export const uploadColumns: readonly PgColumn[] = Object.values(schema).flatMap((value) => (is(value, PgTable) ? getTableConfig(value).columns.filter(schema.holdsUploadsColumn) : []))
