/**
 * A fresh, migrated database on either engine for one bench section: a new DATA_DIR for PGlite,
 * a new database on the PostgreSQL server the test runner would find (or, with
 * `postgresSharedBuffers`, on a throwaway cluster of the bench's own with that much shared
 * memory, as docs/operations.md ("Several instances") advises for a million leads). The section seeds it
 * in a session of its own, then starts the real server on it; everything is removed afterwards.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { z } from 'zod'
import { loadConfig } from '../server/config.ts'
import { openDb } from '../server/db/index.ts'
import { TempCluster } from '../scripts/fault-kit.ts'
import { findPostgres, redact, withDatabase } from '../scripts/pg.ts'
import { root } from './lib.ts'
import type { Sql } from './seed.ts'

export type EngineName = 'pglite' | 'postgres'

export interface Engine {
  engine: EngineName
  /** PGlite's package version or the PostgreSQL server's `server_version`. */
  version: string
  /** Where the data lives, for the log (a folder, or the database URL without its password). */
  where: string
  /** The server's environment: DATA_DIR, and DATABASE_URL for PostgreSQL. */
  env: NodeJS.ProcessEnv
  /** Runs `fn` in one session; on PGlite only while no server has the data folder open. */
  session<T>(fn: (sql: Sql) => Promise<T>): Promise<T>
}

function pgliteVersion(): string {
  // The package does not export its package.json, so read the installed copy.
  const pkg = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')))
  return `PGlite ${pkg.version}`
}

/**
 * Runs `fn` on a fresh database of `engine`. Answers why it could not instead (no PostgreSQL
 * reachable) as a string, so a machine without PostgreSQL still gets the PGlite figures.
 */
export async function withEngine<T>(engine: EngineName, label: string, fn: (e: Engine) => Promise<T>, options: { postgresSharedBuffers?: string } = {}): Promise<T | string> {
  if (engine === 'pglite') return withPglite(fn)
  if (options.postgresSharedBuffers === undefined) return withPostgres(label, fn)
  const cluster = await TempCluster.create({ shared_buffers: options.postgresSharedBuffers })
  try {
    return await withPostgres(label, (e) => fn({ ...e, version: `${e.version}, a throwaway cluster with shared_buffers ${options.postgresSharedBuffers}` }), cluster.url)
  } finally {
    await cluster.remove()
  }
}

async function withPglite<T>(fn: (e: Engine) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'))
  try {
    const config = loadConfig({ DATA_DIR: dataDir })
    const session = async <R>(run: (sql: Sql) => Promise<R>): Promise<R> => {
      const handle = await openDb(config.database)
      try {
        if (handle.kind !== 'pglite') throw new Error('expected PGlite')
        const client = handle.client
        return await run({ query: (t) => client.query(t), exec: (t) => client.exec(t) })
      } finally {
        await handle.close()
      }
    }
    return await fn({ engine: 'pglite', version: pgliteVersion(), where: dataDir, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, session })
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

async function withPostgres<T>(label: string, fn: (e: Engine) => Promise<T>, serverUrl?: string): Promise<T | string> {
  const { found, tried } = serverUrl === undefined ? await findPostgres() : { found: { url: serverUrl }, tried: [] }
  if (!found) return `no PostgreSQL answers (${tried.map((t) => `${t.url}: ${t.result.reason ?? 'may not create databases'}`).join('; ')})`
  const name = `bench_${label}_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: found.url })
  await admin.connect()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'))
  try {
    await admin.query(`CREATE DATABASE "${name}"`)
    const url = withDatabase(found.url, name)
    // Opening it once applies the migrations.
    await (await openDb(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url }).database)).close()
    const session = async <R>(run: (sql: Sql) => Promise<R>): Promise<R> => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      try {
        // One session, so this applies to the index builds a seed runs.
        await client.query(`SET maintenance_work_mem = '512MB'`)
        return await run({ query: (t) => client.query(t), exec: (t) => client.query(t) })
      } finally {
        await client.end()
      }
    }
    const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '?'
    return await fn({ engine: 'postgres', version: `PostgreSQL ${version}`, where: redact(url), env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: url }, session })
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {})
    await admin.end()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
