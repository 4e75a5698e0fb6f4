/**
 * The referral visit counter (visits.ts) when the database refuses its writes for a while: it
 * must neither wedge nor grow without bound, and must count the brands once the database is back.
 */
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../db/index.ts'
import { brands } from '../../db/schema.ts'
import { makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { VisitCounter } from './visits.ts'

let t: TestApp
beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})

/** The test database, refusing every statement while `down` is set (a database away). */
function flaky(db: Db): { db: Db; down: boolean } {
  const state = { down: true, db }
  state.db = new Proxy(db, {
    get(target, key, receiver) {
      if (key === 'execute' && state.down) return () => Promise.reject(new Error('connection refused'))
      return Reflect.get(target, key, receiver) as unknown
    },
  })
  return state
}

describe('the referral visit counter', () => {
  it('after a long outage and 40,000 made-up ids, counts the real brand once the database is back, keeping at most 10,000 ids for the retry', async () => {
    const [row] = await t.handle.db.insert(brands).values({ brandname: 'Tau', type: 'web3auth' }).returning({ id: brands.id })
    if (row === undefined) throw new Error('no brand')
    const database = flaky(t.handle.db)
    let dropped = 0
    const counter = new VisitCounter(database.db, t.app.log, 60_000, (n) => (dropped += n))
    try {
      counter.add(row.id)
      counter.add(row.id)
      for (let i = 0; i < 40_000; i++) counter.add(randomUUID())
      await counter.flush()
      database.down = false
      await counter.flush()
      const [after] = await t.handle.db.select({ visits: brands.visits }).from(brands).where(eq(brands.id, row.id))
      expect(after?.visits).toBe(2)
      // What did not fit in the 10,000 kept for the retry was dropped, and told.
      expect(dropped).toBeGreaterThanOrEqual(40_000 + 1 - 10_000)
      // Made-up ids were written (to no row) and are not kept: nothing waits any more.
      counter.add(row.id)
      await counter.flush()
      const [again] = await t.handle.db.select({ visits: brands.visits }).from(brands).where(eq(brands.id, row.id))
      expect(again?.visits).toBe(3)
    } finally {
      await counter.stop()
    }
  })
})
