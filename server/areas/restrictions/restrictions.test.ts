import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { restrictedCountries } from '../../db/schema.ts'
import { COUNTRIES } from '../../kit/rules/countries.ts'
import { bodyOf, makeTestApp, testEngine, type TestApp } from '../../testing/test-app.ts'

let t: TestApp
let admin: { authorization: string }

beforeAll(async () => {
  t = await makeTestApp()
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
})
beforeEach(async () => {
  await t.handle.db.delete(restrictedCountries)
})

const post = (path: string, payload: Record<string, unknown>, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
const get = (path: string, headers: Record<string, string> = admin) => t.app.inject({ method: 'GET', url: `/api/admin${path}`, headers })

interface Entry {
  _id: string
  country: string
  hide: boolean
}
const isEntry = (v: unknown): v is Entry =>
  typeof v === 'object' && v !== null && '_id' in v && typeof v._id === 'string' && 'country' in v && typeof v.country === 'string' && 'hide' in v && typeof v.hide === 'boolean'

/** FetchRestrictions' result[0].Restrictedcountry, or [] when result is empty. */
async function entries(): Promise<Entry[]> {
  const body = bodyOf(await get('/FetchRestrictions'))
  expect(body['status']).toBe('success')
  const result = body['result']
  if (!Array.isArray(result)) throw new Error('result is not a list')
  if (result.length === 0) return []
  expect(result).toHaveLength(1)
  const [record]: unknown[] = result
  const list: unknown = typeof record === 'object' && record !== null && 'Restrictedcountry' in record ? record.Restrictedcountry : undefined
  if (!Array.isArray(list)) throw new Error('no Restrictedcountry list')
  return list.filter(isEntry)
}
const names = async () => (await entries()).map((e) => e.country)
const add = (country: unknown) => post('/AddRestrictions', { country })

describe(`restricted countries on ${testEngine()}`, () => {
  it('lists every ISO 3166 country by name in alphabetical order through listCountry', async () => {
    const body = bodyOf(await get('/listCountry'))
    const result = body['result']
    if (!Array.isArray(result)) throw new Error('result is not a list')
    expect(result).toHaveLength(COUNTRIES.length)
    expect(result.length).toBeGreaterThanOrEqual(249)
    expect(result).toContain('France')
    expect(result).toContain('United States of America')
    expect(result.indexOf('Afghanistan')).toBeLessThan(result.indexOf('Zimbabwe'))
    expect(COUNTRIES.find((c) => c.name === 'France')?.code).toBe('FR')
  })

  it('answers an empty result before the first country', async () => {
    expect(bodyOf(await get('/FetchRestrictions'))['result']).toEqual([])
  })

  it('adds countries as result[0].Restrictedcountry, in name order, not hidden', async () => {
    const res = await add(['Japan', 'france'])
    expect(res.statusCode).toBe(200)
    expect(bodyOf(res)['message']).toBe('2 countries added to the restriction list')
    const list = await entries()
    expect(list.map((e) => [e.country, e.hide])).toEqual([
      ['France', false],
      ['Japan', false],
    ])
  })

  it('never duplicates a country, within one call or across calls', async () => {
    await add(['France', 'France', 'FRANCE'])
    const again = bodyOf(await add(['France', 'Spain']))
    expect(again['message']).toBe('1 country added to the restriction list, 1 was already listed')
    const none = bodyOf(await add(['Spain']))
    expect(none['status']).toBe('success')
    expect(none['message']).toBe('Already restricted: 1 country was listed before, nothing added')
    expect(await names()).toEqual(['France', 'Spain'])
  })

  it('adds every country at once (the All option) and stays duplicate-free when repeated', async () => {
    const all = COUNTRIES.map((c) => c.name)
    expect(bodyOf(await add(all))['message']).toBe(`${all.length} countries added to the restriction list`)
    await add(all)
    expect(await names()).toHaveLength(all.length)
  })

  it('removes every country at once (Select All, Delete All): one trash entry names them all', async () => {
    const all = COUNTRIES.map((c) => c.name)
    await add(all)
    const ids = (await entries()).map((e) => e._id)
    const res = await post('/CheckBoxDelete', { deleteData: ids })
    expect(bodyOf(res)).toMatchObject({ status: 'success', message: `${all.length} countries removed from the restriction list` })
    expect(await entries()).toEqual([])
  })

  it('refuses a name that is not in the country list, adding nothing', async () => {
    const res = await add(['France', 'Atlantis'])
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toMatchObject({ status: 'failed', message: 'Atlantis is not in the country list', errors: { country: 'Atlantis is not in the country list' } })
    expect(await names()).toEqual([])
  })

  it("refuses an empty list and the All option's value '*'", async () => {
    expect(bodyOf(await add([]))).toMatchObject({ status: 'failed', errors: { country: 'Country is required' } })
    expect(bodyOf(await add(['*']))).toMatchObject({ status: 'failed', errors: { country: 'Incorrect format' } })
    expect(bodyOf(await post('/AddRestrictions', {}))).toMatchObject({ status: 'failed', errors: { country: 'Country is required' } })
  })

  it('hides and unhides one country by its entry id', async () => {
    await add(['France', 'Japan'])
    const [france] = await entries()
    if (france === undefined) throw new Error('France missing')
    expect(bodyOf(await post('/HideRestrictions', { hide: true, country: france._id }))['message']).toBe('France hidden')
    expect((await entries()).map((e) => [e.country, e.hide])).toEqual([
      ['France', true],
      ['Japan', false],
    ])
    expect(bodyOf(await post('/HideRestrictions', { hide: false, country: france._id }))['message']).toBe('France shown again')
    expect((await entries()).every((e) => !e.hide)).toBe(true)
  })

  it('answers Record not found for an unknown entry and a bad hide flag', async () => {
    const res = await post('/HideRestrictions', { hide: true, country: 'no-such-entry' })
    expect(res.statusCode).toBe(404)
    expect(bodyOf(res)).toMatchObject({ status: 'failed', errors: { country: 'Record not found' } })
    expect(bodyOf(await post('/HideRestrictions', { hide: 'yes', country: 'x' }))).toMatchObject({ errors: { hide: 'Incorrect format' } })
  })

  it('deletes the selected entries and, with every id, all of them (Delete All)', async () => {
    await add(['France', 'Japan', 'Spain', 'Chile'])
    const list = await entries()
    const pick = (name: string) => list.find((e) => e.country === name)?._id ?? ''
    const some = bodyOf(await post('/CheckBoxDelete', { deleteData: [pick('Japan'), pick('Chile')] }))
    expect(some['message']).toBe('2 countries removed from the restriction list')
    expect(await names()).toEqual(['France', 'Spain'])
    const rest = (await entries()).map((e) => e._id)
    expect(bodyOf(await post('/CheckBoxDelete', { deleteData: rest }))['message']).toBe('2 countries removed from the restriction list')
    expect(bodyOf(await get('/FetchRestrictions'))['result']).toEqual([])
  })

  it('refuses an empty selection and ids that name nothing', async () => {
    expect(bodyOf(await post('/CheckBoxDelete', { deleteData: [] }))).toMatchObject({ status: 'failed', errors: { deleteData: 'Select at least one country' } })
    const res = await post('/CheckBoxDelete', { deleteData: ['gone'] })
    expect(res.statusCode).toBe(404)
    expect(bodyOf(res)).toMatchObject({ errors: { deleteData: 'Record not found' } })
  })

  it('serves the restricted, not hidden, countries publicly with their codes, cached for a minute', async () => {
    await add(['Japan', 'France', 'Spain'])
    const spain = (await entries()).find((e) => e.country === 'Spain')
    if (spain === undefined) throw new Error('Spain missing')
    await post('/HideRestrictions', { hide: true, country: spain._id })
    const res = await get('/restricted-countries', {})
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('public, max-age=60')
    expect(bodyOf(res)['result']).toEqual([
      { country: 'France', code: 'FR' },
      { country: 'Japan', code: 'JP' },
    ])
    expect((await get('/FetchRestrictions', {})).statusCode).toBe(401)
    expect((await get('/FetchRestrictions', {})).headers['cache-control']).toBe('no-store')
  })

  it('answers the public read from memory until a write, then from the database again', async () => {
    await add(['Japan'])
    const publicNames = async () => (bodyOf(await get('/restricted-countries', {}))['result'] as { country: string }[]).map((c) => c.country)
    expect(await publicNames()).toEqual(['Japan'])
    // A row that no call of ours wrote (another tool, a restore) is not seen: the answer is kept.
    await t.handle.db.insert(restrictedCountries).values({ country: 'Chile', code: 'CL' })
    expect(await publicNames()).toEqual(['Japan'])
    // Any successful write forgets it: the next read asks the database.
    await add(['France'])
    expect(await publicNames()).toEqual(['Chile', 'France', 'Japan'])
    // A refused write changes nothing and forgets nothing it need not: the answer stays right.
    expect((await post('/AddRestrictions', { country: ['Atlantis'] })).statusCode).toBe(400)
    expect(await publicNames()).toEqual(['Chile', 'France', 'Japan'])
  })

  it('lets View Only read the list and refuses its writes; staff without /restriction read nothing', async () => {
    await add(['France'])
    const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/restriction'] }))
    expect(await entries()).toHaveLength(1)
    expect((await get('/FetchRestrictions', viewer)).statusCode).toBe(200)
    expect((await get('/listCountry', viewer)).statusCode).toBe(200)
    const [france] = await entries()
    for (const [path, payload] of [
      ['/AddRestrictions', { country: ['Spain'] }],
      ['/HideRestrictions', { hide: true, country: france?._id ?? '' }],
      ['/CheckBoxDelete', { deleteData: [france?._id ?? ''] }],
    ] as const) {
      expect((await post(path, payload, viewer)).statusCode, path).toBe(403)
    }
    const outsider = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/users'] }))
    expect((await get('/FetchRestrictions', outsider)).statusCode).toBe(403)
    expect((await entries()).map((e) => [e.country, e.hide])).toEqual([['France', false]])
  })
})
