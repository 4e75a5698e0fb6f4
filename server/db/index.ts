/**
 * Opens the database the configuration names and brings its schema up to date. The rest of the
 * server sees one drizzle type (`Db`) whichever engine is underneath; only the CSV export looks
 * at `kind`, because PostgreSQL can stream a COPY and PGlite cannot.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import type { DatabaseConfig } from '../config.ts'
import * as schema from './schema.ts'

export type Schema = typeof schema
/** A database or a transaction: handlers take either. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export type DbHandle =
  | { kind: 'pglite'; db: Db; client: PGlite; close: () => Promise<void> }
  | { kind: 'pg'; db: Db; pool: pg.Pool; close: () => Promise<void> }

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/** Reports problems of idle pool connections (a restarted or terminated server) without crashing. */
export type PoolErrorSink = (error: Error) => void

/**
 * PGlite persisted at `dir` (in memory when null), or a pool on PostgreSQL. Migrations run before
 * this resolves, so callers may query at once.
 */
export async function openDb(config: DatabaseConfig, onPoolError: PoolErrorSink = () => {}): Promise<DbHandle> {
  if (config.kind === 'pglite') {
    if (config.dir !== null) mkdirSync(config.dir, { recursive: true })
    const client = await PGlite.create({ ...(config.dir === null ? {} : { dataDir: config.dir }), extensions: { pg_trgm } })
    const db = drizzlePglite({ client, schema })
    await migratePglite(db, { migrationsFolder })
    return { kind: 'pglite', db, client, close: () => client.close() }
  }
  const pool = new pg.Pool({ connectionString: config.url, max: 10, connectionTimeoutMillis: 5000 })
  // Without a listener, an idle client whose backend is terminated emits an unhandled 'error' that
  // kills the process. The pool drops that client and opens a new one on the next query.
  pool.on('error', onPoolError)
  const db = drizzlePg({ client: pool, schema })
  await migratePg(db, { migrationsFolder })
  return { kind: 'pg', db, pool, close: () => pool.end() }
}

const CONNECTION_CODES = new Set([
  // Class 08: connection exceptions; 57P0x: the server is shutting down or terminated us.
  '08000', '08001', '08003', '08004', '08006', '08007', '57P01', '57P02', '57P03',
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH',
])

/**
 * Whether an error (or one it wraps: drizzle wraps driver errors in `cause`) means the database
 * cannot be reached right now, which the API answers with 503 instead of 500.
 */
export function isConnectionError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = 'code' in e && typeof e.code === 'string' ? e.code : ''
    if (CONNECTION_CODES.has(code)) return true
    if (/Connection terminated|connection timeout|^PGlite is closed|Client has encountered a connection error|Cannot use a pool after calling end/i.test(e.message)) return true
  }
  return false
}

/** The SQLSTATE of a database error, looking through drizzle's wrapper. */
export function sqlState(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ('code' in e && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code
  }
  return null
}
