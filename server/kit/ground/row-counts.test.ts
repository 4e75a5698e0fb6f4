/**
 * The maintained counts (server/kit/ground/row-counts.ts, migration row-counts) on the engine under test:
 * the triggers keep `row_counts` equal to count(*) through every kind of write, a searched count
 * never outlives a write, and a deep page found through its keys is the page the plain offset
 * query answers.
 */
import { asc, desc, eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { leads, rowCounts } from '../../db/schema.ts'
import { makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { ANCHOR_EVERY, anchoredPageIds, forgetAnchors, plainOrder } from './anchors.ts'
import { DEFERRED_JOIN_FROM, caseless, listPage, offsetOf, sortedOrder } from '../request/paging.ts'
import { COUNTED_TABLES, exactCount, forgetCounts } from './row-counts.ts'

let t: TestApp

beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})

const kept = async (table: string): Promise<number | undefined> =>
  (await t.handle.db.select({ n: rowCounts.n }).from(rowCounts).where(eq(rowCounts.tableName, table)))[0]?.n
const counted = async (): Promise<number> => t.handle.db.$count(leads)
const lead = (i: number, email = `lead${i}@example.com`) => ({ name: `Lead ${i}`, email, createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) })

describe('row_counts', () => {
  it('has triggers on exactly the tables the kit counts', async () => {
    const result = await t.handle.db.execute(
      sql`select distinct c.relname as "table" from pg_trigger g join pg_class c on c.oid = g.tgrelid where g.tgname like '%\\_count\\_insert'`,
    )
    const tables = z.object({ rows: z.array(z.object({ table: z.string() })) }).parse(result).rows.map((r) => r.table).sort()
    expect(tables).toEqual([...COUNTED_TABLES].sort())
  })

  it('stays equal to count(*) through inserts, deletes, updates, a rolled-back write and a truncate', async () => {
    const { db } = t.handle
    const start = await counted()
    expect(await kept('leads')).toBe(start)
    await db.insert(leads).values(Array.from({ length: 25 }, (_, i) => lead(i)))
    expect(await kept('leads')).toBe(start + 25)
    await db.delete(leads).where(sql`${leads.email} like 'lead1%@example.com'`)
    expect(await kept('leads')).toBe(await counted())
    await db.update(leads).set({ provider: 'ipfs' })
    expect(await kept('leads')).toBe(await counted())
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(leads).values(lead(900))
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect(await kept('leads')).toBe(await counted())
    await db.execute(sql`truncate leads cascade`)
    expect(await kept('leads')).toBe(0)
    expect(await exactCount(db, leads, undefined)).toBe(0)
  })

  it('writes nothing for a statement that touched no row (a refused delete or edit changes no table)', async () => {
    const { db } = t.handle
    const before = await db.select().from(rowCounts).where(eq(rowCounts.tableName, 'leads'))
    await db.delete(leads).where(eq(leads.id, 'not-there'))
    await db.update(leads).set({ name: 'x' }).where(eq(leads.id, 'not-there'))
    await db.insert(leads).select(db.select().from(leads).where(eq(leads.id, 'not-there')))
    expect(await db.select().from(rowCounts).where(eq(rowCounts.tableName, 'leads'))).toEqual(before)
  })

  it('counts a search once per generation: a write in between is counted at once', async () => {
    const { db } = t.handle
    forgetCounts()
    await db.insert(leads).values(Array.from({ length: 12 }, (_, i) => lead(100 + i, i % 3 === 0 ? `kept${i}@gmail.test` : `other${i}@example.com`)))
    const where = sql`${leads.email} like '%gmail.test%'`
    expect(await exactCount(db, leads, where)).toBe(4)
    expect(await exactCount(db, leads, where)).toBe(4)
    await db.insert(leads).values(lead(200, 'late@gmail.test'))
    expect(await exactCount(db, leads, where)).toBe(5)
    await db.update(leads).set({ email: 'moved@example.com' }).where(eq(leads.email, 'late@gmail.test'))
    expect(await exactCount(db, leads, where)).toBe(4)
    await db.delete(leads).where(eq(leads.email, 'kept0@gmail.test'))
    expect(await exactCount(db, leads, where)).toBe(3)
    // The kept count really answers: a row slipped in behind the triggers' back is not seen until
    // the cache is forgotten (every real write goes through them).
    await db.execute(sql`alter table leads disable trigger leads_count_insert`)
    await db.insert(leads).values(lead(300, 'hidden@gmail.test'))
    await db.execute(sql`alter table leads enable trigger leads_count_insert`)
    expect(await exactCount(db, leads, where)).toBe(3)
    forgetCounts()
    expect(await exactCount(db, leads, where)).toBe(4)
  })
})

describe('deep pages', () => {
  it(`from offset ${DEFERRED_JOIN_FROM} on, answers the rows and order of the plain offset query`, async () => {
    const { db } = t.handle
    await db.execute(sql`truncate leads cascade`)
    const total = DEFERRED_JOIN_FROM + 120
    // Pairs of leads share a creation time: the id decides their order, as in the list's own order.
    await db.insert(leads).values(Array.from({ length: total }, (_, i) => ({ name: `Deep ${i}`, email: `deep${i}@example.com`, createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 1000) })))
    const order = [desc(leads.createdAt), desc(leads.id)] as const
    for (const [page, limit] of [[Math.floor(DEFERRED_JOIN_FROM / 10) + 1, 10], [11, 100], [112, 10], [200, 10]] as const) {
      const result = await listPage(db, { page, limit, search: '' }, { rows: db.select({ id: leads.id, name: leads.name }).from(leads).$dynamic(), search: [leads.name], orderBy: order })
      const plain = await db.select({ id: leads.id, name: leads.name }).from(leads).orderBy(...order).limit(limit).offset(offsetOf(page, limit))
      expect(result.count).toBe(total)
      expect(result.rows).toEqual(plain)
    }
  })
})

describe('anchored deep pages', () => {
  it(`past ${ANCHOR_EVERY.toLocaleString('en')} rows, answers what the plain offset query answers, before and after a write`, async () => {
    const { db } = t.handle
    await db.execute(sql`truncate leads cascade`)
    const total = 2 * ANCHOR_EVERY + 2500
    // Pairs share a creation time, and times carry microseconds (a rounded anchor would move).
    await db.execute(
      sql`insert into leads (name, email, created_at) select 'Anchor ' || g, 'anchor' || g || '@example.com', timestamptz '2026-01-01 00:00:00.000001+00' + (g / 2) * interval '1.000007 seconds' from generate_series(1, ${total}) g`,
    )
    forgetAnchors()
    const order = [desc(leads.createdAt), desc(leads.id)] as const
    const compare = async (page: number, limit: number): Promise<void> => {
      const result = await listPage(db, { page, limit, search: '' }, { rows: db.select({ id: leads.id }).from(leads).$dynamic(), search: [leads.name], orderBy: order })
      const plain = await db.select({ id: leads.id }).from(leads).orderBy(...order).limit(limit).offset(offsetOf(page, limit))
      expect(result.rows, `page ${page} of ${limit}`).toEqual(plain)
    }
    const pages = [[ANCHOR_EVERY / 10 + 1, 10], [ANCHOR_EVERY / 50 + 2, 50], [2 * (ANCHOR_EVERY / 10), 10], [2 * (ANCHOR_EVERY / 10) + 1, 10], [Math.ceil(total / 10), 10], [Math.ceil(total / 10) + 1, 10]] as const
    for (const [page, limit] of pages) await compare(page, limit)
    // Again, from the anchors now known.
    for (const [page, limit] of pages) await compare(page, limit)
    // The anchors really serve: asked directly, they answer (null would mean "read from the top").
    const deepIds = async () => (await db.select({ id: leads.id }).from(leads).orderBy(...order).limit(10).offset(ANCHOR_EVERY + 30)).map((r) => r.id)
    expect(await anchoredPageIds(db, leads, leads.id, undefined, order, 10, ANCHOR_EVERY + 30)).toEqual(await deepIds())
    // A new lead first in the order moves every row one place: no anchor of before may serve.
    await db.insert(leads).values({ name: 'Newest', email: 'newest@example.com', createdAt: new Date(Date.UTC(2030, 0, 1)) })
    expect(await anchoredPageIds(db, leads, leads.id, undefined, order, 10, ANCHOR_EVERY + 30)).toBeNull()
    expect(await anchoredPageIds(db, leads, leads.id, undefined, order, 10, ANCHOR_EVERY + 30)).toEqual(await deepIds())
    for (const [page, limit] of pages) await compare(page, limit)
    // And a searched list keeps anchors of its own.
    const searched = await listPage(db, { page: ANCHOR_EVERY / 10 + 1, limit: 10, search: 'anchor1' }, { rows: db.select({ id: leads.id }).from(leads).$dynamic(), search: [leads.name], orderBy: order })
    const plainSearched = await db.select({ id: leads.id }).from(leads).where(sql`${leads.name} ilike '%anchor1%'`).orderBy(...order).limit(10).offset(ANCHOR_EVERY)
    expect(searched.rows).toEqual(plainSearched)
  })

  it('serves deep pages of a list sorted by a text column ignoring case, both ways, from remembered keys', async () => {
    const { db } = t.handle
    await db.execute(sql`truncate leads cascade`)
    const total = 2 * ANCHOR_EVERY + 700
    // Names repeat (ties the id breaks) and differ in case from one row to the next.
    await db.execute(
      sql`insert into leads (name, email) select case when g % 2 = 0 then 'NAME ' else 'name ' end || lpad((g % 997)::text, 4, '0'), 'sorted' || g || '@example.com' from generate_series(1, ${total}) g`,
    )
    forgetAnchors()
    const sort = { name: caseless(leads.name) }
    for (const sortOrder of ['asc', 'desc'] as const) {
      const plainOrder = sortOrder === 'asc' ? [asc(sql`lower(${leads.name})`), asc(leads.id)] : [desc(sql`lower(${leads.name})`), desc(leads.id)]
      for (const [page, limit] of [[ANCHOR_EVERY / 10 + 3, 10], [2 * (ANCHOR_EVERY / 50) + 5, 50], [Math.ceil(total / 10), 10]] as const) {
        const result = await listPage(db, { page, limit, search: '', sortBy: 'name', sortOrder }, { rows: db.select({ id: leads.id }).from(leads).$dynamic(), search: [leads.name], orderBy: [desc(leads.createdAt), desc(leads.id)], sort })
        const plain = await db.select({ id: leads.id }).from(leads).orderBy(...plainOrder).limit(limit).offset(offsetOf(page, limit))
        expect(result.rows, `${sortOrder} page ${page} of ${limit}`).toEqual(plain)
      }
      // The anchors serve this order (null would mean "read from the top").
      const order = sortedOrder({ sortBy: 'name', sortOrder }, sort, leads, [desc(leads.createdAt)])
      const ids = await anchoredPageIds(db, leads, leads.id, undefined, order.orderBy, 10, ANCHOR_EVERY + 20, order.keyed)
      expect(ids).toEqual((await db.select({ id: leads.id }).from(leads).orderBy(...plainOrder).limit(10).offset(ANCHOR_EVERY + 20)).map((r) => r.id))
    }
  })

  it('takes only orders of plain columns in one direction', () => {
    expect(plainOrder([desc(leads.createdAt), desc(leads.id)])).toEqual({ columns: [leads.createdAt, leads.id], direction: 'desc' })
    expect(plainOrder([leads.email, asc(leads.id)])).toEqual({ columns: [leads.email, leads.id], direction: 'asc' })
    expect(plainOrder([desc(leads.createdAt), asc(leads.id)])).toBeNull()
    expect(plainOrder([sql`lower(${leads.name})`, desc(leads.id)])).toBeNull()
  })
})

