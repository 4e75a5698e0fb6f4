/**
 * Leads sorted and narrowed (getuser's sortBy, sortOrder, provider, operatingsystem, country, from, to, tz)
 * and exported as shown (DownloadFile with the same inputs), on the engine under test.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DAYS_REVERSED, UNKNOWN_COUNTRY } from '#contract/leads'
import { leads } from '../../db/schema.ts'
import { SORT_ORDER_ALONE } from '../../kit/request/paging.ts'
import { bodyOf, listOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'

let t: TestApp
let admin: { authorization: string }

/** Leads whose names differ in case, so an order that minds case would show them out of turn. */
const NAMED = [
  { name: 'alice', email: 'Zed@example.com', provider: 'ipfs', operatingsystem: 'Android', country: 'FR', createdAt: '2026-03-04T23:30:00Z' },
  { name: 'Bob', email: 'yann@example.com', provider: 'web3auth', operatingsystem: 'ios', country: 'FR', createdAt: '2026-03-05T00:30:00Z' },
  { name: 'CAROL', email: 'xavier@example.com', provider: 'ipfs', operatingsystem: 'iOS', country: 'JP', createdAt: '2026-03-05T23:59:59Z' },
  { name: 'dave', email: 'Walter@example.com', provider: 'web3auth', operatingsystem: 'Android', createdAt: '2026-03-06T00:00:00Z' },
  { name: 'Eve', email: 'victor@example.com', provider: 'ipfs', operatingsystem: '', createdAt: '2026-03-07T12:00:00Z' },
] as const
/** Leads that tie on name and email: only the id tells them apart. */
const TIES = 30

beforeAll(async () => {
  t = await makeTestApp()
  admin = await t.auth(t.superadmin)
  await t.handle.db.insert(leads).values(NAMED.map((l) => ({ ...l, walletaddress: `0x${l.name}`, createdAt: new Date(l.createdAt) })))
  await t.handle.db.execute(
    sql`insert into leads (name, email, provider, operatingsystem, created_at) select 'Same Name', 'same@example.com', 'ipfs', 'Android', timestamptz '2026-01-01 00:00:00+00' from generate_series(1, ${TIES})`,
  )
})
afterAll(async () => {
  await t.close()
})

const get = async (query: string) => t.app.inject({ method: 'GET', url: `/api/admin/getuser?${query}`, headers: admin })
const page = async (query: string) => {
  const res = await get(query)
  expect(res.statusCode, res.body).toBe(200)
  const body = bodyOf(res)
  return { count: body['count'], rows: listOf(body, 'data') }
}
const names = async (query: string) => (await page(query)).rows.map((r) => r['name'])
/** Every row the list shows for `query`, page after page of `limit`. */
async function allPages(query: string, limit: number): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = []
  for (let p = 1; ; p++) {
    const found = await page(`${query}&limit=${limit}&page=${p}`)
    rows.push(...found.rows)
    if (found.rows.length < limit) return rows
  }
}

describe('getuser sorted', () => {
  it('sorts names alphabetically whatever their case, both ways', async () => {
    expect(await names('sortBy=name&search=ve')).toEqual(['dave', 'Eve'])
    expect(await names('sortBy=name&search=ve&sortOrder=desc')).toEqual(['Eve', 'dave'])
    expect((await names('sortBy=name&sortOrder=asc&limit=5')).slice(0, 4)).toEqual(['alice', 'Bob', 'CAROL', 'dave'])
    expect((await names('sortBy=name&sortOrder=desc&limit=100')).slice(-5)).toEqual(['Eve', 'dave', 'CAROL', 'Bob', 'alice'])
  })

  it('sorts by email ignoring case, and by date created oldest first', async () => {
    const emails = (await page('sortBy=email&limit=100')).rows.map((r) => r['email'])
    expect(emails).toEqual(['same@example.com', ...Array.from({ length: TIES - 1 }, () => 'same@example.com'), 'victor@example.com', 'Walter@example.com', 'xavier@example.com', 'yann@example.com', 'Zed@example.com'])
    const oldest = (await page('sortBy=createdAt&sortOrder=asc&limit=100')).rows
    expect(oldest.slice(TIES).map((r) => r['name'])).toEqual(['alice', 'Bob', 'CAROL', 'dave', 'Eve'])
  })

  it('keeps newest first by default, the same as sortBy=createdAt&sortOrder=desc', async () => {
    const plain = await page('limit=100')
    expect(plain.rows.slice(0, 5).map((r) => r['name'])).toEqual(['Eve', 'dave', 'CAROL', 'Bob', 'alice'])
    expect((await page('limit=100&sortBy=createdAt&sortOrder=desc')).rows).toEqual(plain.rows)
  })

  it('breaks ties on the id in the order asked, so pages neither repeat nor skip a row', async () => {
    for (const order of ['asc', 'desc']) {
      const ids = (await allPages(`sortBy=name&sortOrder=${order}&search=same`, 7)).map((r) => r['_id'])
      expect(ids).toHaveLength(TIES)
      expect(new Set(ids).size).toBe(TIES)
      expect(ids).toEqual([...ids].sort((a, b) => (String(a) < String(b) ? -1 : 1) * (order === 'asc' ? 1 : -1)))
    }
  })

  it('refuses an unknown column, an unknown order, and an order without a column, saying why', async () => {
    const unknown = await get('sortBy=walletaddress')
    expect(unknown.statusCode).toBe(400)
    expect(bodyOf(unknown)).toMatchObject({ status: 'failed', errors: { sortBy: 'sortBy must be one of: createdAt, name, email' } })
    const order = await get('sortBy=name&sortOrder=up')
    expect(bodyOf(order)).toMatchObject({ errors: { sortOrder: 'sortOrder must be asc or desc' } })
    const alone = await get('sortOrder=desc')
    expect(alone.statusCode).toBe(400)
    expect(bodyOf(alone)).toMatchObject({ status: 'failed', message: SORT_ORDER_ALONE, errors: { sortOrder: SORT_ORDER_ALONE } })
  })

  it('reads a sorted first page from its index', async () => {
    const plan = await t.handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`)
      await tx.execute(sql`set local enable_sort = off`)
      return tx.execute(sql`explain select * from leads order by lower(${leads.name}) desc, ${leads.id} desc limit 50`)
    })
    expect(JSON.stringify(plan)).toContain('leads_name_sort_idx')
  })
})

describe('getuser filtered', () => {
  it('narrows by provider and by operating system (ignoring case), with the search, and counts the matches', async () => {
    expect(await page('provider=web3auth')).toMatchObject({ count: 2 })
    expect(await names('provider=web3auth&sortBy=name')).toEqual(['Bob', 'dave'])
    expect(await names('operatingsystem=IOS&sortBy=name')).toEqual(['Bob', 'CAROL'])
    expect(await page('provider=ipfs&operatingsystem=android&search=ali')).toMatchObject({ count: 1, rows: [{ name: 'alice' }] })
  })

  it('narrows by country, named as listCountry names it (any case), shows each lead its country, and refuses a name that is not one', async () => {
    expect(await names('country=France&sortBy=name')).toEqual(['alice', 'Bob'])
    expect(await page('country=japan&provider=ipfs')).toMatchObject({ count: 1, rows: [{ name: 'CAROL', country: 'Japan' }] })
    expect(await page('country=France&search=dave')).toMatchObject({ count: 0 })
    expect((await page('search=dave')).rows).toMatchObject([{ country: '' }])
    const count = await t.app.inject({ method: 'GET', url: '/api/admin/getuserCount?country=France&provider=web3auth', headers: admin })
    expect(bodyOf(count)).toMatchObject({ status: 'success', count: 1 })
    const unknown = await get('country=Atlantis')
    expect(unknown.statusCode).toBe(400)
    expect(bodyOf(unknown)).toMatchObject({ status: 'failed', message: UNKNOWN_COUNTRY, errors: { country: UNKNOWN_COUNTRY } })
    // The export keeps exactly the rows the list shows for the same country.
    const csv = await t.app.inject({ method: 'GET', url: '/api/admin/DownloadFile?country=France&sortBy=name', headers: admin })
    expect(csv.body.split('\n').slice(1, -1).map((line) => line.split(',')[1])).toEqual(['alice', 'Bob'])
  })

  it("takes from and to as whole days in the admin's time zone, both included", async () => {
    // In UTC, 5 March holds Bob and CAROL.
    expect(await names('from=2026-03-05&to=2026-03-05&sortBy=name')).toEqual(['Bob', 'CAROL'])
    expect(await names('from=2026-03-05&to=2026-03-05&tz=UTC&sortBy=name')).toEqual(['Bob', 'CAROL'])
    // In New York (UTC-5) 5 March runs from 05:00 UTC to 05:00 UTC the next day: CAROL and dave.
    expect(await names('from=2026-03-05&to=2026-03-05&tz=America/New_York&sortBy=name')).toEqual(['CAROL', 'dave'])
    // In Tokyo (UTC+9) alice's 23:30 UTC on 4 March is already 5 March.
    expect(await names('from=2026-03-05&to=2026-03-05&tz=Asia/Tokyo&sortBy=name')).toEqual(['alice', 'Bob'])
    // The calendar's first and last days, moved by a zone past the years a date is written in.
    expect(await page('from=0001-01-01&to=9999-12-31&tz=Asia/Tokyo')).toMatchObject({ count: NAMED.length + TIES })
    expect(await page('from=9999-12-31&tz=America/New_York')).toMatchObject({ count: 0 })
    expect(await page('to=0001-01-01&tz=Asia/Tokyo')).toMatchObject({ count: 0 })
    // Open-ended on either side.
    expect(await names('from=2026-03-06&sortBy=name')).toEqual(['dave', 'Eve'])
    expect(await page('to=2026-03-04')).toMatchObject({ count: TIES + 1 })
  })

  it('refuses a to before the from, an unknown time zone and an unknown provider', async () => {
    const reversed = await get('from=2026-03-06&to=2026-03-05')
    expect(reversed.statusCode).toBe(400)
    expect(bodyOf(reversed)).toMatchObject({ status: 'failed', errors: { to: DAYS_REVERSED } })
    expect(bodyOf(await get('from=2026-03-05&tz=Mars/Olympus'))).toMatchObject({ errors: { tz: 'Unknown time zone' } })
    expect(bodyOf(await get('provider=google'))).toMatchObject({ errors: { provider: 'provider must be one of: web3auth, ipfs' } })
    expect(bodyOf(await get('from=2026-02-30'))).toMatchObject({ errors: { from: 'Incorrect format' } })
  })
})

describe('DownloadFile as shown', () => {
  const download = (query: string) => t.app.inject({ method: 'GET', url: `/api/admin/DownloadFile?${query}`, headers: admin })
  const csvRows = (body: string) => body.split('\n').slice(1, -1)

  it('streams exactly the rows the list shows for the same search, filters and order, all of them, in its order', async () => {
    const query = 'provider=ipfs&sortBy=name&sortOrder=desc'
    const shown = await allPages(query, 10)
    const res = await download(query)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-disposition']).toBe('attachment; filename="user.csv"')
    const lines = res.body.split('\n')
    expect(lines[0]).toBe('createdAt,name,email,operatingsystem,walletaddress,provider')
    expect(csvRows(res.body)).toEqual(shown.map((l) => [l['createdAt'], l['name'], l['email'], l['operatingsystem'] === '' ? '""' : l['operatingsystem'], l['walletaddress'] === '' ? '""' : l['walletaddress'], l['provider']].join(',')))
    expect(csvRows(res.body).slice(0, 2)).toEqual(expect.arrayContaining([expect.stringContaining(',Same Name,')]))
    expect(csvRows(res.body).at(-1)).toBe('2026-03-04T23:30:00.000Z,alice,Zed@example.com,Android,0xalice,ipfs')
  })

  it("narrows by days in the admin's zone and by search, newest first by default", async () => {
    const res = await download('from=2026-03-05&to=2026-03-05&tz=America/New_York')
    expect(csvRows(res.body).map((l) => l.split(',')[1])).toEqual(['dave', 'CAROL'])
    const searched = await download('search=same&sortBy=email')
    expect(csvRows(searched.body)).toHaveLength(TIES)
  })

  it('keeps every row once, in order, across more rows than one batch', async () => {
    await t.handle.db.execute(
      sql`insert into leads (name, email, provider, created_at) select 'Bulk ' || (g % 7), 'bulk' || g || '@example.com', 'web3auth', timestamptz '2025-06-01 00:00:00+00' from generate_series(1, 2000) g`,
    )
    try {
      const res = await download('provider=web3auth&sortBy=name')
      const names = csvRows(res.body).map((l) => l.split(',')[1] ?? '')
      expect(names).toHaveLength(2002)
      const emails = new Set(csvRows(res.body).map((l) => l.split(',')[2]))
      expect(emails.size).toBe(2002)
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase(), 'en')))
      const shown = (await allPages('provider=web3auth&sortBy=name', 100)).map((l) => l['email'])
      expect(csvRows(res.body).map((l) => l.split(',')[2])).toEqual(shown)
    } finally {
      await t.handle.db.execute(sql`delete from leads where name like 'Bulk %'`)
    }
  })

  it('refuses the inputs the list refuses, before any export starts', async () => {
    const res = await download('from=2026-03-06&to=2026-03-05')
    expect(res.statusCode).toBe(400)
    expect(res.headers['content-disposition']).toBeUndefined()
    expect(bodyOf(await download('sortBy=provider'))).toMatchObject({ errors: { sortBy: expect.stringContaining('createdAt, name, email') } })
    expect(bodyOf(await download('sortOrder=asc'))).toMatchObject({ message: SORT_ORDER_ALONE })
  })

  it('without inputs still streams every lead', async () => {
    const res = await download('')
    expect(csvRows(res.body)).toHaveLength(NAMED.length + TIES)
  })
})
