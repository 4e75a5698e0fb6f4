/**
 * Opens the database the configuration names and brings its schema up to date. The rest of the
 * server sees one drizzle type (`Db`) whichever engine is underneath; only the CSV export looks
 * at `kind`, because PostgreSQL can stream a COPY and PGlite cannot.
 */
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { PGlite } from '@electric-sql/pglite'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
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

/** The migrations the server applies at start (drizzle-kit's folder, with its meta/_journal.json). */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/** Pooled PostgreSQL connections kept open while idle (openDb). */
export const WARM_CONNECTIONS = 3

/**
 * The application_name of the server's PostgreSQL connections, as pg_stat_activity shows them:
 * how `npm run restore -- --force` tells a server still using the database (server/kit/ground/backup/restore.ts).
 */
export const SERVER_APPLICATION_NAME = 'back-office server'

/** Reports a pooled connection lost (a restarted or terminated server), idle or in use, without crashing. */
export type PoolErrorSink = (error: Error) => void

/** STATEMENT_TIMEOUT_MS's default (server/config.ts), for callers that open a database without a config. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000

export interface OpenOptions {
  /**
   * Longest a statement may run before the server cancels it (SQLSTATE 57014, answered 503 by
   * app.ts); 0 means no limit. Migrations run without it: building an index on a big table may
   * take longer, once.
   */
  statementTimeoutMs?: number
  /** PostgreSQL: how long a pooled connection beyond WARM_CONNECTIONS stays open idle (pg's default, 10 s). */
  idleTimeoutMs?: number
  /**
   * Another migrations folder than the server's: a restore migrates an empty database only as far
   * as its backup's schema (a copy of this folder with a shorter journal), loads the rows, then
   * opens it again to apply the rest.
   */
  migrationsFolder?: string
}

/**
 * A PGlite of the configuration, without migrating it: openDb's engine, and what a backup reads a
 * copy of the data folder with (server/kit/backup/), which must not change the copy's schema.
 */
export async function createPglite(config: Extract<DatabaseConfig, { kind: 'pglite' }>): Promise<PGlite> {
  if (config.dir !== null) mkdirSync(config.dir, { recursive: true })
  // PGlite (about 28 MiB of memory once loaded) loads only when it is the engine.
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')])
  return PGlite.create({
    ...(config.dir === null ? {} : { dataDir: config.dir }),
    ...(config.image === undefined ? {} : { loadDataDir: config.image }),
    // PGlite keeps its shared buffers in the process's own memory, filled as pages are read:
    // fewer of them cost a little more file reading and keep a large database's server small.
    ...(config.sharedBuffersMb === undefined ? {} : { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${config.sharedBuffersMb}MB`] }),
    extensions: { pg_trgm },
  })
}

/**
 * PGlite persisted at `dir` (in memory when null), or a pool on PostgreSQL. Migrations run before
 * this resolves, so callers may query at once.
 */
export async function openDb(config: DatabaseConfig, onPoolError: PoolErrorSink = () => {}, options: OpenOptions = {}): Promise<DbHandle> {
  const timeout = Math.max(0, Math.floor(options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS))
  const folder = options.migrationsFolder ?? migrationsFolder
  if (config.kind === 'pglite') {
    const client = await createPglite(config)
    const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([import('drizzle-orm/pglite'), import('drizzle-orm/pglite/migrator')])
    const db = drizzlePglite({ client, schema })
    await migratePglite(db, { migrationsFolder: folder })
    // Set for the one session PGlite has. PGlite (WebAssembly, no timer signals) does not fire it
    // today: a query there runs on the event loop and nothing can interrupt it. It is set so the
    // limit holds wherever the engine honours it, and `show statement_timeout` tells the truth.
    await client.exec(`SET statement_timeout = ${timeout}`)
    return { kind: 'pglite', db, client, close: () => client.close() }
  }
  // Migrations on a pool of their own, without the statement limit (see OpenOptions).
  const migrationPool = new pg.Pool({ connectionString: config.url, max: 2, connectionTimeoutMillis: 5000, application_name: SERVER_APPLICATION_NAME })
  survive(migrationPool, onPoolError)
  try {
    const migrationDb = drizzlePg({ client: migrationPool, schema })
    await migrateOnce(migrationPool, () => migratePg(migrationDb, { migrationsFolder: folder }))
  } finally {
    await migrationPool.end()
  }
  // statement_timeout is sent at connect, so every pooled connection has it from its first query.
  // The first WARM_CONNECTIONS stay open when idle (the rest close after 10 s idle):
  // a list call's page and count go out together, and a request on a connection opened afresh
  // took 32-37 ms against 7-15 ms on one already open (getuser page 1 on 1,000,000 leads), so
  // staff who read a page for a while before the next click would otherwise pay that each time.
  const pool = new pg.Pool({ connectionString: config.url, max: 10, min: WARM_CONNECTIONS, idleTimeoutMillis: options.idleTimeoutMs ?? 10_000, connectionTimeoutMillis: 5000, statement_timeout: timeout, application_name: SERVER_APPLICATION_NAME })
  survive(pool, onPoolError)
  const db = drizzlePg({ client: pool, schema })
  return { kind: 'pg', db, pool, close: () => pool.end() }
}

/**
 * A client whose backend goes away (PostgreSQL restarted or stopped, the session terminated) emits
 * 'error', and an 'error' without a listener kills the process. The pool listens on its idle
 * clients only: a client checked out for a transaction (drizzle's `transaction` holds one between
 * its queries) or a COPY had none, so a restart of PostgreSQL under load crashed the server. Every
 * client gets a listener for its whole life; the failed query or transaction still rejects (and is
 * answered 503), and the pool drops a client that is no longer queryable when it is released.
 */
function survive(pool: pg.Pool, onError: PoolErrorSink): void {
  // The pool re-emits an idle client's error, which the client's own listener has reported already.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    client.on('error', onError)
  })
}

/** Any fixed number: the advisory lock every instance takes around its migrations. */
const MIGRATION_LOCK = 724_310_915

/**
 * Several instances started at once must not migrate at once (two would race to create the same
 * tables). The first takes a session advisory lock and migrates; the others wait for the lock and
 * then find nothing left to apply.
 */
async function migrateOnce(pool: pg.Pool, migrate: () => Promise<void>): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      await migrate()
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK])
    }
  } finally {
    client.release()
  }
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

/** SQLSTATE 57014: the statement ran past statement_timeout (or was cancelled) and was stopped. */
export const isStatementTimeout = (error: unknown): boolean => sqlState(error) === '57014'
