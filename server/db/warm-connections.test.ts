/**
 * PostgreSQL's pool keeps WARM_CONNECTIONS open while idle (server/db/index.ts): a request after a
 * pause must not wait for a new connection (32-37 ms against 7-15 ms on 1,000,000 leads). The
 * connections opened for a burst beyond those close once idle.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WARM_CONNECTIONS, openDb, type DbHandle } from './index.ts'
import { scratchDatabase, testEngine } from '../testing/test-app.ts'

const IDLE_MS = 200

describe.runIf(testEngine() === 'pg')('the PostgreSQL pool after a pause', () => {
  let handle: DbHandle
  let drop: () => Promise<void>
  beforeAll(async () => {
    const scratch = await scratchDatabase()
    drop = scratch.drop
    handle = await openDb(scratch.database, undefined, { idleTimeoutMs: IDLE_MS })
  })
  afterAll(async () => {
    await handle.close()
    await drop()
  })

  it(`keeps ${WARM_CONNECTIONS} connections open and closes the others of a burst`, async () => {
    if (handle.kind !== 'pg') throw new Error('expected PostgreSQL')
    const pool = handle.pool
    const burst = WARM_CONNECTIONS + 3
    // Each statement holds its connection a moment, so the burst needs one connection each.
    await Promise.all(Array.from({ length: burst }, () => handle.db.execute(sql`select pg_sleep(0.05)`)))
    expect(pool.totalCount).toBe(burst)
    await expect.poll(() => pool.totalCount, { timeout: IDLE_MS * 20, interval: IDLE_MS / 2 }).toBe(WARM_CONNECTIONS)
    // Still there well after the idle timeout, all idle and ready.
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 3))
    expect(pool.totalCount).toBe(WARM_CONNECTIONS)
    expect(pool.idleCount).toBe(WARM_CONNECTIONS)
  })
})
