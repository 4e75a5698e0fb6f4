/**
 * STATEMENT_TIMEOUT_MS: every connection carries the limit, PostgreSQL cancels
 * a statement that runs past it (SQLSTATE 57014), and the API answers that 503 with a clear message,
 * its write rolled back. PGlite takes the setting but cannot fire it (WebAssembly, no timer
 * signals: a query there holds the event loop until it ends), so there only the setting and the
 * answer to a 57014 are checked.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { DATABASE_TIMEOUT, buildApp } from '../app.ts'
import { loadConfig, type Config } from '../config.ts'
import { admins } from '../db/schema.ts'
import { isStatementTimeout, openDb, type DbHandle } from '../db/index.ts'
import { TEST_PASSWORD, bodyOf, scratchDatabase, testEngine } from './test-app.ts'
import { signToken } from '../kit/ground/access/auth.ts'

const LIMIT_MS = 300
/** What execute answers on either engine: at least its rows. */
const Rows = z.object({ rows: z.array(z.record(z.string(), z.unknown())) })
let handle: DbHandle
let app: FastifyInstance
let config: Config
let dataDir: string
let drop: () => Promise<void>

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bo-timeout-'))
  const scratch = await scratchDatabase()
  drop = scratch.drop
  config = {
    ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex'), ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: TEST_PASSWORD, LOG_LEVEL: 'silent', STATEMENT_TIMEOUT_MS: String(LIMIT_MS) }),
    database: scratch.database,
    hashCost: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
  }
  handle = await openDb(config.database, undefined, { statementTimeoutMs: config.statementTimeoutMs })
  app = await buildApp(config, { handle, jobs: false })
  // Test-only routes: a statement that outlives the limit, and a driver error as drizzle wraps one.
  app.get('/test/slow', async () => {
    await handle.db.execute(sql`select pg_sleep(${(LIMIT_MS * 4) / 1000})`)
    return { status: 'success', message: 'slept' }
  })
  app.get('/test/cancelled', async () => {
    const driver = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })
    throw new Error('Failed query: select ...', { cause: driver })
  })
  await app.ready()
})
afterAll(async () => {
  await app.close()
  await handle.close()
  await drop()
  await rm(dataDir, { recursive: true, force: true })
})

describe('the statement timeout', () => {
  it('is set on the connections the app uses', async () => {
    const shown = Rows.parse(await handle.db.execute(sql`show statement_timeout`))
    expect(shown.rows).toEqual([{ statement_timeout: `${LIMIT_MS}ms` }])
  })

  it('answers a cancelled statement (SQLSTATE 57014) with 503 and a message that says what happened', async () => {
    const res = await app.inject({ method: 'GET', url: '/test/cancelled' })
    expect(res.statusCode).toBe(503)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: DATABASE_TIMEOUT })
    expect(DATABASE_TIMEOUT).toBe('The database took too long to answer; please try again')
  })

  it.runIf(testEngine() === 'pg')('cancels a statement that runs past it on PostgreSQL, and the API answers 503', async () => {
    const started = Date.now()
    const direct = await handle.db.execute(sql`select pg_sleep(2)`).then(
      () => null,
      (error: unknown) => error,
    )
    expect(isStatementTimeout(direct)).toBe(true)
    expect(Date.now() - started).toBeLessThan(1500)
    const res = await app.inject({ method: 'GET', url: '/test/slow' })
    expect(res.statusCode).toBe(503)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: DATABASE_TIMEOUT })
    // The connection is still good for the next query.
    expect(Rows.parse(await handle.db.execute(sql`select 1 as one`)).rows).toEqual([{ one: 1 }])
  })

  it.runIf(testEngine() === 'pg')('rolls back a write whose statement times out', async () => {
    const [root] = await handle.db.select().from(admins).where(eq(admins.email, 'root@example.com'))
    if (root === undefined) throw new Error('no superadmin')
    // The audit insert of this write sleeps past the limit: the write's transaction is cancelled.
    await handle.db.execute(sql`create or replace function slow_audit() returns trigger language plpgsql as $$ begin perform pg_sleep(1); return new; end $$`)
    await handle.db.execute(sql`create trigger audit_slow before insert on audit_log for each row execute function slow_audit()`)
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/admin/edit-profile',
        headers: { authorization: `Bearer ${await signToken(config, root)}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'Never saved' }),
      })
      expect(res.statusCode).toBe(503)
      expect(bodyOf(res)).toEqual({ status: 'failed', message: DATABASE_TIMEOUT })
      const [after] = await handle.db.select({ name: admins.name }).from(admins).where(eq(admins.id, root.id))
      expect(after?.name).toBe(root.name)
    } finally {
      await handle.db.execute(sql`drop trigger if exists audit_slow on audit_log`)
    }
  })
})
