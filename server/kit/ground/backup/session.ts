/**
 * What a backup and a restore read of a database, the same on PGlite and PostgreSQL: one session
 * (every statement on one connection, so one transaction holds them all) and the catalogue of the
 * tables as the database itself has them, not as schema.ts says: a backup must hold every table
 * the migrations made, and a restore must load into what the target really has.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import type pg from 'pg'
import { z } from 'zod'

export type Engine = 'pglite' | 'postgres'

/** One connection; every statement of a backup (or of a restore's load) runs on it, in order. */
export interface Session {
  readonly engine: Engine
  query(text: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>
}

export function pgliteSession(client: PGlite | Transaction): Session {
  return {
    engine: 'pglite',
    async query(text, params = []) {
      const result = await client.query<Record<string, unknown>>(text, [...params])
      return result.rows
    },
  }
}

export function postgresSession(client: pg.ClientBase): Session {
  return {
    engine: 'postgres',
    async query(text, params = []) {
      const result = await client.query<Record<string, unknown>>(text, [...params])
      return result.rows
    },
  }
}

/** A quoted SQL identifier. */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`

export interface ColumnInfo {
  name: string
  /** As `format_type` spells it (`timestamp with time zone`, `text[]`, `numeric(30,10)`): what a restore casts each value's text to. */
  type: string
}

export interface TableInfo {
  name: string
  /** Every stored column in table order; generated columns are left out (the database computes them). */
  columns: ColumnInfo[]
  /** The primary key's columns in key order; empty when the table has none. */
  key: string[]
  /** The tables its foreign keys point at, itself left out. */
  parents: string[]
}

const Names = z.array(z.object({ table: z.string(), name: z.string(), type: z.string() }))
const Keys = z.array(z.object({ table: z.string(), name: z.string() }))
const Parents = z.array(z.object({ table: z.string(), parent: z.string() }))

/**
 * The ordinary tables of the current schema (public), parents before the tables that reference
 * them (names in alphabetical order where the references leave a choice), so rows can be loaded in
 * that order with every foreign key checked as they arrive.
 */
export async function readCatalog(session: Session): Promise<TableInfo[]> {
  const inSchema = `c.relnamespace = (select oid from pg_namespace where nspname = current_schema()) and c.relkind in ('r', 'p')`
  const columns = Names.parse(
    await session.query(`
      select c.relname as "table", a.attname as "name", format_type(a.atttypid, a.atttypmod) as "type"
        from pg_attribute a join pg_class c on c.oid = a.attrelid
       where ${inSchema} and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
       order by c.relname, a.attnum`),
  )
  const keys = Keys.parse(
    await session.query(`
      select c.relname as "table", a.attname as "name"
        from pg_constraint k join pg_class c on c.oid = k.conrelid
        join pg_attribute a on a.attrelid = k.conrelid and a.attnum = any(k.conkey)
       where ${inSchema} and k.contype = 'p'
       order by c.relname, array_position(k.conkey, a.attnum)`),
  )
  const parents = Parents.parse(
    await session.query(`
      select distinct c.relname as "table", p.relname as "parent"
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
       where ${inSchema} and k.contype = 'f' and k.conrelid <> k.confrelid`),
  )
  const tables = new Map<string, TableInfo>()
  for (const column of columns) {
    const table = tables.get(column.table) ?? { name: column.table, columns: [], key: [], parents: [] }
    table.columns.push({ name: column.name, type: column.type })
    tables.set(column.table, table)
  }
  for (const key of keys) tables.get(key.table)?.key.push(key.name)
  for (const link of parents) tables.get(link.table)?.parents.push(link.parent)
  return parentsFirst([...tables.values()])
}

/** Kahn's order: a table comes once every table it references has come. */
export function parentsFirst(tables: readonly TableInfo[]): TableInfo[] {
  const left = new Map(tables.map((t) => [t.name, t]))
  const ordered: TableInfo[] = []
  while (left.size > 0) {
    const ready = [...left.values()].filter((t) => t.parents.every((p) => !left.has(p))).sort((a, b) => (a.name < b.name ? -1 : 1))
    const next = ready[0]
    if (next === undefined) throw new Error(`The foreign keys of ${[...left.keys()].join(', ')} form a cycle: no order loads each table after the tables it references`)
    ordered.push(next)
    left.delete(next.name)
  }
  return ordered
}

/** The migration a database is at: drizzle's record of the last one applied. */
export interface MigrationId {
  /** The migration's name in the journal (`0022_trash-rows`), null when this code does not know it. */
  tag: string | null
  /** Its journal time, which is how drizzle orders migrations and tells which are applied. */
  when: number
  /** drizzle's hash of its SQL. */
  hash: string
}

const JournalFile = z.object({ entries: z.array(z.object({ idx: z.number(), when: z.number(), tag: z.string() })) })
export type Journal = z.infer<typeof JournalFile>['entries']

/** The migrations a folder holds (drizzle-kit's meta/_journal.json), oldest first. */
export async function readJournal(folder: string): Promise<Journal> {
  const journal = JournalFile.parse(JSON.parse(await readFile(join(folder, 'meta', '_journal.json'), 'utf8')))
  return [...journal.entries].sort((a, b) => a.when - b.when)
}

const Applied = z.array(z.object({ hash: z.string(), when: z.coerce.number() }))

/** The last migration applied to the session's database, named from `journal`. */
export async function appliedMigration(session: Session, journal: Journal): Promise<MigrationId> {
  const present = await session.query(`select to_regclass('drizzle.__drizzle_migrations') is not null as "present"`)
  if (present[0]?.['present'] !== true) throw new Error('This database has no migrations applied: it is not a back-office database (or the server never started on it)')
  const [last] = Applied.parse(await session.query('select hash, created_at::text as "when" from drizzle.__drizzle_migrations order by created_at desc limit 1'))
  if (last === undefined) throw new Error('This database has no migrations applied: it is not a back-office database (or the server never started on it)')
  return { tag: journal.find((e) => e.when === last.when)?.tag ?? null, when: last.when, hash: last.hash }
}
