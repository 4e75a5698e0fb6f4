import { asc, desc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { categories, links } from '../../db/schema.ts'
import { makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { ApiFailure } from './answers.ts'
import { SORT_ORDER_ALONE, caseless, containsPattern, listPage, offsetOf, type SortInput } from './paging.ts'

let t: TestApp

beforeAll(async () => {
  t = await makeTestApp()
  const urls = ['https://alpha.example.com', 'https://beta.example.com', 'www.gamma.example.com', 'https://100%_sure.example.com', 'https://delta.example.org']
  await t.handle.db.insert(links).values(urls.map((url, i) => ({ kind: 'buy' as const, url, preference: i + 1 })))
  await t.handle.db.insert(links).values({ kind: 'sell', url: 'https://alpha.example.com/sell', preference: 1 })
})
afterAll(async () => {
  await t.close()
})

const page = (query: Partial<{ page: number; limit: number; search: string }>, kind: 'buy' | 'sell' = 'buy') =>
  listPage(t.handle.db, { page: 1, limit: 10, search: '', ...query }, {
    rows: t.handle.db.select({ url: links.url, preference: links.preference }).from(links).$dynamic(),
    search: [links.url],
    filter: eq(links.kind, kind),
    orderBy: [asc(links.preference), asc(links.id)],
  })

describe('listPage', () => {
  it('answers one page in the given order and the exact count of the whole list', async () => {
    const first = await page({ limit: 2 })
    expect(first).toEqual({ count: 5, rows: [{ url: 'https://alpha.example.com', preference: 1 }, { url: 'https://beta.example.com', preference: 2 }] })
    const third = await page({ page: 3, limit: 2 })
    expect(third).toEqual({ count: 5, rows: [{ url: 'https://delta.example.org', preference: 5 }] })
    expect(await page({ page: 4, limit: 2 })).toEqual({ count: 5, rows: [] })
  })

  it('searches the given columns case-insensitively inside the filter, and counts only the matches', async () => {
    const found = await page({ search: 'EXAMPLE.COM', limit: 2 })
    expect(found.count).toBe(4)
    expect(found.rows.map((r) => r.url)).toEqual(['https://alpha.example.com', 'https://beta.example.com'])
    // The sell link matches the term too, but the filter keeps it out.
    expect((await page({ search: 'alpha' })).rows.map((r) => r.url)).toEqual(['https://alpha.example.com'])
    expect((await page({ search: 'alpha' }, 'sell')).count).toBe(1)
  })

  it('treats LIKE wildcards in the term as plain characters', async () => {
    expect((await page({ search: '%_' })).rows.map((r) => r.url)).toEqual(['https://100%_sure.example.com'])
    expect((await page({ search: '_' })).count).toBe(1)
    expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%')
  })

  it('takes a search expression of its own instead of columns', async () => {
    const result = await listPage(t.handle.db, { page: 1, limit: 10, search: 'org' }, {
      rows: t.handle.db.select({ url: links.url }).from(links).$dynamic(),
      search: (term) => sql`right(${links.url}, ${term.length}) = ${term}`,
      orderBy: [asc(links.id)],
    })
    expect(result).toEqual({ count: 1, rows: [{ url: 'https://delta.example.org' }] })
  })

  it('refuses a select with a join, whose count would not match its rows', async () => {
    const joined = t.handle.db.select({ url: links.url }).from(links).innerJoin(categories, eq(categories.id, links.id)).$dynamic()
    await expect(listPage(t.handle.db, { page: 1, limit: 10, search: '' }, { rows: joined, search: [links.url], orderBy: [asc(links.id)] })).rejects.toThrow(/one table/)
  })

  it('sorts by the column asked for, both ways, text ignoring case, ties broken by the id the same way', async () => {
    await t.handle.db.insert(links).values(['https://Same.example', 'https://same.example', 'https://SAME.example'].map((url, i) => ({ kind: 'bridge' as const, url, preference: 3 - i })))
    const sorted = (query: SortInput<'url' | 'preference'>) =>
      listPage(t.handle.db, { page: 1, limit: 10, search: '', ...query }, {
        rows: t.handle.db.select({ id: links.id, url: links.url, preference: links.preference }).from(links).$dynamic(),
        search: [links.url],
        filter: eq(links.kind, 'bridge'),
        orderBy: [asc(links.preference), asc(links.id)],
        sort: { url: caseless(links.url), preference: links.preference },
      })
    const byId = (await t.handle.db.select({ id: links.id }).from(links).where(eq(links.kind, 'bridge')).orderBy(asc(links.id))).map((r) => r.id)
    // All three read the same ignoring case: the id alone orders them, in the direction asked.
    expect((await sorted({ sortBy: 'url' })).rows.map((r) => r.id)).toEqual(byId)
    expect((await sorted({ sortBy: 'url', sortOrder: 'desc' })).rows.map((r) => r.id)).toEqual([...byId].reverse())
    expect((await sorted({ sortBy: 'preference', sortOrder: 'desc' })).rows.map((r) => r.preference)).toEqual([3, 2, 1])
    // No column asked for: the list's own order.
    expect((await sorted({})).rows.map((r) => r.preference)).toEqual([1, 2, 3])
    // A direction without a column is refused, with the field named.
    const alone = await sorted({ sortOrder: 'desc' }).catch((error: unknown) => error)
    expect(alone).toBeInstanceOf(ApiFailure)
    expect(alone).toMatchObject({ statusCode: 400, message: SORT_ORDER_ALONE, errors: { sortOrder: SORT_ORDER_ALONE } })
  })

  it("sorts by an expression of the list's own", async () => {
    const byLength = async (sortOrder: 'asc' | 'desc') =>
      (
        await listPage(t.handle.db, { page: 1, limit: 1, search: '', sortBy: 'length', sortOrder }, {
          rows: t.handle.db.select({ url: links.url }).from(links).$dynamic(),
          search: [links.url],
          filter: eq(links.kind, 'buy'),
          orderBy: [desc(links.id)],
          sort: { length: sql`length(${links.url})` },
        })
      ).rows.map((r) => r.url)
    expect(await byLength('desc')).toEqual(['https://100%_sure.example.com'])
    expect(await byLength('asc')).toEqual(['www.gamma.example.com'])
  })

  it('counts pages from 1', () => {
    expect([offsetOf(1, 10), offsetOf(3, 50)]).toEqual([0, 100])
  })
})
