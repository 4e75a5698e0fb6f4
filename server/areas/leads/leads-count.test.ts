/**
 * The leads list answered rows first (getuser with count=later) and its count by getuserCount:
 * the rows come without waiting for a count that is not known, the count call answers the same
 * exact number the list answers with count=now, a counted search is reused until a write, and the
 * count call takes the list's access and filters.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { leads } from '../../db/schema.ts'
import { forgetCounts } from '../../kit/ground/row-counts.ts'
import { bodyOf, listOf, type TestApp } from '../../testing/test-app.ts'
import { openLeadsApp } from '../../testing/leads-fixture.ts'

let t: TestApp
let admin: { authorization: string }

beforeAll(async () => {
  ;({ t, admin } = await openLeadsApp())
})
afterAll(async () => {
  await t.close()
})
// Each test starts with nothing counted, as a new search on a fresh server.
beforeEach(() => forgetCounts())

const get = async (path: string, headers: Record<string, string> = admin) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/admin/${path}`, headers })
  return { status: res.statusCode, body: bodyOf(res) }
}

describe('getuser with count=later', () => {
  it('answers the rows of a new search without its count, and getuserCount answers the exact count the list answers with count=now', async () => {
    const first = await get('getuser?search=gmail&limit=10&count=later')
    expect(first.status).toBe(200)
    expect(first.body['count']).toBeNull()
    const rows = listOf(first.body, 'data')
    expect(rows).toHaveLength(10)
    expect(rows[0]).toMatchObject({ name: 'Lead 118', email: 'lead118@gmail.com' })

    const counted = await get('getuserCount?search=gmail')
    expect(counted).toEqual({ status: 200, body: { status: 'success', message: 'Users counted', count: 60 } })
    forgetCounts()
    const whole = await get('getuser?search=gmail&limit=10')
    expect(whole.body['count']).toBe(60)
    // The same rows either way: only when the count comes differs.
    expect(listOf(whole.body, 'data')).toEqual(rows)
  })

  it('reuses a counted search: its next pages and a repeat answer the count at once, until a write', async () => {
    expect((await get('getuser?search=proton&limit=10&count=later')).body['count']).toBeNull()
    expect((await get('getuserCount?search=proton')).body['count']).toBe(60)
    expect((await get('getuser?search=proton&limit=10&page=2&count=later')).body['count']).toBe(60)
    expect((await get('getuser?search=proton&limit=10&count=later')).body['count']).toBe(60)
    // A sort does not change the count: still known.
    expect((await get('getuser?search=proton&limit=10&count=later&sortBy=name')).body['count']).toBe(60)

    // A write moves the table's generation on: the kept count is not trusted any more.
    const [added] = await t.handle.db.insert(leads).values({ name: 'Late Proton', email: 'late@proton.me', walletaddress: '', operatingsystem: 'ios', provider: 'ipfs' }).returning({ id: leads.id })
    try {
      expect((await get('getuser?search=proton&limit=10&count=later')).body['count']).toBeNull()
      expect((await get('getuserCount?search=proton')).body['count']).toBe(61)
      expect((await get('getuser?search=proton&limit=10&count=later')).body['count']).toBe(61)
    } finally {
      if (added !== undefined) await t.handle.db.delete(leads).where(eq(leads.id, added.id))
    }
  })

  it('answers the count at once when it is known without counting: no search, or a page that ends the list', async () => {
    expect((await get('getuser?count=later&limit=10')).body['count']).toBe(120)
    // 'lead 10' matches Lead 100 to Lead 109: a page of 50 that is not full holds them all.
    const few = await get('getuser?search=lead%2010&count=later')
    expect(few.body['count']).toBe(10)
    expect(listOf(few.body, 'data')).toHaveLength(10)
    // The last page of a search, not full: the rows before it plus its own.
    expect((await get('getuser?search=gmail&limit=25&page=3&count=later')).body['count']).toBe(60)
    // A search nothing matches: an empty first page is a count of 0.
    expect((await get('getuser?search=nobody-at-all&count=later')).body['count']).toBe(0)
    // An empty page past the end says nothing of the rows before it.
    expect((await get('getuser?search=gmail&limit=10&page=9&count=later')).body).toMatchObject({ data: [], count: null })
  })

  it('counts with the filters, as the list filters', async () => {
    const query = 'search=gmail&provider=web3auth&operatingsystem=IOS&from=2025-01-01&to=2025-03-31&tz=Europe%2FLisbon'
    const rowsFirst = await get(`getuser?${query}&count=later&limit=1`)
    expect(rowsFirst.body['count']).toBeNull()
    const counted = (await get(`getuserCount?${query}`)).body['count']
    forgetCounts()
    const listed = (await get(`getuser?${query}&limit=1`)).body['count']
    // Every fourth lead is web3auth, every third ios: a twelfth of the 90 days from 1 January.
    expect(counted).toBe(listed)
    expect(counted).toBe(8)
    expect((await get('getuserCount?provider=ipfs')).body['count']).toBe(90)
    expect((await get('getuserCount')).body['count']).toBe(120)
  })

  it('refuses what the list refuses', async () => {
    const reversed = await get('getuserCount?from=2025-02-01&to=2025-01-01')
    expect(reversed.status).toBe(400)
    expect(reversed.body).toMatchObject({ status: 'failed', errors: { to: 'The to date must not be before the from date' } })
    expect((await get('getuserCount?provider=myspace')).status).toBe(400)
    expect((await get('getuser?count=soon')).body).toMatchObject({ status: 'failed', errors: { count: 'count must be now or later' } })
  })

  it('takes the list access: a View Only admin of Leads may count, one without the Leads screen may not, nor a caller without a session', async () => {
    const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] }))
    const outsider = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/brand'] }))
    expect(await get('getuserCount?search=gmail', viewer)).toMatchObject({ status: 200, body: { count: 60 } })
    expect((await get('getuserCount?search=gmail', outsider)).status).toBe(403)
    expect((await get('getuserCount?search=gmail', {})).status).toBe(401)
  })
})
