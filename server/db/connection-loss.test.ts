/**
 * A PostgreSQL session that ends while the server holds its connection (PostgreSQL restarted or
 * stopped, the session terminated) must not end the process. The pool only listened on idle
 * connections, so a restart of PostgreSQL under load crashed the server from a transaction's
 * connection (found by scripts/fault-postgres.ts). PostgreSQL only: PGlite has no sessions to lose
 * (app.test.ts covers a closed PGlite).
 */
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { isConnectionError, openDb, type DbHandle } from './index.ts'
import { bodyOf, listOf, makeTestApp, scratchDatabase, testEngine, type TestApp } from '../testing/test-app.ts'

const Pid = z.object({ rows: z.array(z.object({ pid: z.coerce.number() })).length(1) })

/** Ends one server session from a connection of its own, as a restart or an operator does. */
async function terminate(pid: number): Promise<void> {
  const killer = new pg.Client({ connectionString: process.env['DATABASE_URL'] })
  await killer.connect()
  try {
    await killer.query('select pg_terminate_backend($1)', [pid])
  } finally {
    await killer.end()
  }
}

describe.runIf(testEngine() === 'pg')('a PostgreSQL session lost while in use', () => {
  let handle: DbHandle
  let drop: () => Promise<void>
  const lost: Error[] = []

  beforeAll(async () => {
    const scratch = await scratchDatabase()
    drop = scratch.drop
    handle = await openDb(scratch.database, (error) => lost.push(error))
  })
  afterAll(async () => {
    await handle.close()
    await drop()
  })

  it('rejects the transaction that held it, reports it, keeps the process, and the next query gets a new connection', async () => {
    let release = (): void => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let pid = 0
    const transaction = handle.db.transaction(async (tx) => {
      pid = Pid.parse(await tx.execute(sql`select pg_backend_pid() as pid`)).rows[0]?.pid ?? 0
      // The connection is checked out and idle in the transaction, as during a handler's await.
      await held
      await tx.execute(sql`select 1`)
    })
    const outcome = transaction.then(
      () => null,
      (error: unknown) => error,
    )
    await vi.waitFor(() => expect(pid).toBeGreaterThan(0))
    await terminate(pid)
    // The session's end arrives as an 'error' on the checked-out connection: reported, not thrown.
    await vi.waitFor(() => expect(lost.map((e) => ('code' in e ? e.code : e.message))).toContain('57P01'))
    release()
    const error = await outcome
    expect(error).not.toBeNull()
    expect(isConnectionError(error)).toBe(true)

    const after = Pid.parse(await handle.db.execute(sql`select pg_backend_pid() as pid`)).rows[0]?.pid
    expect(after).not.toBe(pid)
  })
})

describe.runIf(testEngine() === 'pg')('a write whose session is ended while it waits', () => {
  let t: TestApp

  beforeAll(async () => {
    t = await makeTestApp()
  })
  afterAll(async () => {
    await t.close()
  })

  it('answers 503 with the database message, stores nothing, and the next write succeeds', async () => {
    const admin = await t.auth(t.superadmin)
    const add = (buylink: string) => t.app.inject({ method: 'POST', url: '/api/admin/addbuyLink', headers: admin, payload: { buylink } })
    if (t.config.database.kind !== 'pg') throw new Error('PostgreSQL only')
    const url = t.config.database.url
    const database = new URL(url).pathname.slice(1)

    // Holding the table makes the write wait inside its transaction, connection checked out.
    const locker = new pg.Client({ connectionString: url })
    await locker.connect()
    const watcher = new pg.Client({ connectionString: url })
    await watcher.connect()
    let waiting = 0
    try {
      await locker.query('begin; lock table links in access exclusive mode')
      let answered: number | null = null
      const pending = add('https://lost.example/one')
      void pending.then((res) => (answered = res.statusCode))
      // Up to 25 s: with the whole suite running on two cores, the request can take long to reach
      // its first query. An answer before it waits would be a bug of its own, and is named.
      await vi.waitFor(
        async () => {
          expect(answered, 'the write answered without waiting for the locked table').toBeNull()
          // Not asked on the locker: inside its transaction pg_stat_activity is read once and kept,
          // so a write that reached the lock after the first look was never seen waiting.
          const { rows } = await watcher.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'", [database])
          waiting = rows[0]?.pid ?? 0
          expect(waiting).toBeGreaterThan(0)
        },
        { timeout: 25_000, interval: 50 },
      )
      await terminate(waiting)
      const res = await pending
      expect(res.statusCode).toBe(503)
      expect(bodyOf(res)).toEqual({ status: 'failed', message: 'The database is not available right now; please try again shortly' })
    } finally {
      await locker.query('rollback').catch(() => {})
      await locker.end()
      await watcher.end()
    }

    const next = await add('https://lost.example/two')
    expect(next.statusCode).toBe(200)
    expect(bodyOf(next)['status']).toBe('success')
    const list = await t.app.inject({ method: 'POST', url: '/api/admin/ListBuyLink', headers: admin, payload: { page: 1, limit: 10 } })
    expect(listOf(bodyOf(list), 'result').map((l) => l['buyLink'])).toEqual(['https://lost.example/two'])
  })
})
