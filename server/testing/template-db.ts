/**
 * One migrated database per test run, cloned for every test app instead of created and migrated
 * each time: PGlite spends seconds in initdb on every `PGlite.create`, and a PostgreSQL database
 * spends seconds in the migrations, times every test app of the run.
 *
 * The vitest global setup (server/testing/global-setup.ts) prepares it once and names it in the
 * environment the test workers inherit:
 *   - PGlite: a `dumpDataDir` archive of a migrated cluster, in a temporary file; each test app
 *     starts an in-memory PGlite from it (config.database.image).
 *   - PostgreSQL: a migrated database, copied by `CREATE DATABASE ... TEMPLATE`.
 * Without that environment (a Playwright spec making a test app, a single file run by another
 * runner) scratch databases are made the slow way, as before. Either way each app still runs the
 * migrations at start (nothing left to apply on a clone), so a stale template cannot hide one.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { DatabaseConfig } from '../config.ts'
import { openDb } from '../db/index.ts'

/** The file holding the migrated PGlite archive. */
export const PGLITE_IMAGE_ENV = 'BO_TEST_PGLITE_IMAGE'
/** The migrated PostgreSQL database that scratch databases copy. */
export const PG_TEMPLATE_ENV = 'BO_TEST_PG_TEMPLATE'

const withDatabase = (url: string, name: string): string => {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

export interface Template {
  /** Environment for the test workers. */
  env: Record<string, string>
  dispose(): Promise<void>
}

/** Migrates the template for the engine DATABASE_URL selects (PGlite without one). */
export async function prepareTemplate(databaseUrl: string | undefined): Promise<Template> {
  if (databaseUrl) {
    const name = `bo_template_${randomBytes(6).toString('hex')}`
    await onServer(databaseUrl, `CREATE DATABASE ${name}`)
    const dispose = () => onServer(databaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    try {
      // The pool is ended before any copy: CREATE DATABASE refuses a template with sessions.
      await (await openDb({ kind: 'pg', url: withDatabase(databaseUrl, name) })).close()
    } catch (error) {
      await dispose()
      throw error
    }
    return { env: { [PG_TEMPLATE_ENV]: name }, dispose }
  }
  const handle = await openDb({ kind: 'pglite', dir: null })
  if (handle.kind !== 'pglite') throw new Error('expected PGlite')
  const archive = await handle.client.dumpDataDir('none')
  await handle.close()
  const folder = await mkdtemp(join(tmpdir(), 'bo-template-'))
  const file = join(folder, 'pglite.tar')
  await writeFile(file, Buffer.from(await archive.arrayBuffer()))
  return { env: { [PGLITE_IMAGE_ENV]: file }, dispose: () => rm(folder, { recursive: true, force: true }) }
}

// Read once per worker process: several apps in one file share the bytes (PGlite copies them in).
let image: Promise<Blob> | undefined

/**
 * A fresh database for one test app: in-memory PGlite, or CREATE DATABASE on the DATABASE_URL
 * server (dropped by `drop`). `empty` skips the template, for tests of the migrations themselves.
 */
export async function scratchDatabase(options: { empty?: boolean } = {}): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }> {
  const url = process.env['DATABASE_URL']
  if (!url) {
    const file = options.empty ? undefined : process.env[PGLITE_IMAGE_ENV]
    if (file === undefined) return { database: { kind: 'pglite', dir: null }, drop: async () => {} }
    image ??= readFile(file).then((bytes) => new Blob([new Uint8Array(bytes)]))
    return { database: { kind: 'pglite', dir: null, image: await image }, drop: async () => {} }
  }
  const name = `bo_test_${randomBytes(6).toString('hex')}`
  const template = options.empty ? undefined : process.env[PG_TEMPLATE_ENV]
  if (template !== undefined && !/^bo_template_[0-9a-f]+$/.test(template)) throw new Error(`${PG_TEMPLATE_ENV} is not a template name: ${template}`)
  await onServer(url, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
  return {
    database: { kind: 'pg', url: withDatabase(url, name) },
    drop: () => onServer(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  }
}
