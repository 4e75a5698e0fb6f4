import { execFileSync } from 'node:child_process'
import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { auditLog, brands, leads } from '../../db/schema.ts'
import { encodeReferral } from './referral.ts'
import { bodyOf, listOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'

const KEY = 'brands-test-referral-key'

let t: TestApp
let admin: { authorization: string }

beforeAll(async () => {
  t = await makeTestApp({ env: { REFERRAL_KEY: KEY } })
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
})
beforeEach(async () => {
  await t.handle.db.delete(leads)
  await t.handle.db.delete(brands)
})

let address = 0
const post = (path: string, payload: Record<string, unknown>, headers: Record<string, string> = admin) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin${path}`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
    // Each call from its own address: the visit limit is tested on its own.
    remoteAddress: `10.7.${Math.floor(++address / 250) % 250}.${address % 250}`,
  })
const list = (query: Record<string, unknown> = {}) => t.app.inject({ method: 'GET', url: '/api/admin/listbrand', query: { page: '1', limit: '10', search: '', ...query }, headers: admin })

async function addBrand(brandname: string, type = 'web3auth'): Promise<string> {
  expect(bodyOf(await post('/addBrand', { brandname, type }))).toEqual({ status: 'success', message: 'Brand added successfully' })
  const [row] = await t.handle.db.select({ id: brands.id }).from(brands).where(eq(brands.brandname, brandname))
  if (row === undefined) throw new Error(`no brand ${brandname}`)
  return row.id
}

/** Leads of a brand, the first one oldest, one second apart, so "newest first" has one answer. */
async function addLeads(brandId: string | null, emails: readonly string[]): Promise<void> {
  const start = Date.now() - 3_600_000
  await t.handle.db.insert(leads).values(emails.map((email, i) => ({ email, name: email, brandId, createdAt: new Date(start + i * 1000) })))
}

describe('Brand List and Add / Edit Brand', () => {
  it('adds a brand with an audit row and lists it as { _id, brandname, type }, newest first, searchable', async () => {
    const older = await addBrand('Alpha Games', 'ipfs')
    const newer = await addBrand('Beta Wallet')
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, newer))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, action: '/addBrand' })

    const body = bodyOf(await list())
    expect(body).toMatchObject({ status: 'success', count: 2 })
    expect(listOf(body, 'result')).toEqual([
      { _id: newer, brandname: 'Beta Wallet', type: 'web3auth', version: 1 },
      { _id: older, brandname: 'Alpha Games', type: 'ipfs', version: 1 },
    ])
    const searched = bodyOf(await list({ search: 'alpha' }))
    expect(searched['count']).toBe(1)
    expect(listOf(searched, 'result').map((b) => b['brandname'])).toEqual(['Alpha Games'])
    expect(bodyOf(await list({ search: '%' }))['count']).toBe(0)
    const paged = bodyOf(await list({ limit: '1', page: '2' }))
    expect(listOf(paged, 'result').map((b) => b['_id'])).toEqual([older])
  })

  it("answers the required messages for a missing name or type, and 'Incorrect format' for another type", async () => {
    const missing = bodyOf(await post('/addBrand', { brandname: '  ' }))
    expect(missing).toMatchObject({ status: 'failed', errors: { brandname: 'Brandname is required', type: 'type is required' } })
    const wrongType = bodyOf(await post('/addBrand', { brandname: 'Gamma', type: 'email' }))
    expect(wrongType['errors']).toEqual({ type: 'type is required' })
    expect(bodyOf(await list())['count']).toBe(0)
  })

  it('keeps brand names unique whatever their case, on add and on edit, and lets a brand keep its own name', async () => {
    const id = await addBrand('Delta')
    const other = await addBrand('Epsilon')
    const again = await post('/addBrand', { brandname: 'dELTA', type: 'ipfs' })
    expect(again.statusCode).toBe(400)
    expect(bodyOf(again)).toEqual({ status: 'failed', message: 'Brandname already exists', errors: { brandname: 'Brandname already exists' } })

    const clash = await post('/editbrandUser', { _id: other, brandname: ' delta ', type: 'ipfs' })
    expect(bodyOf(clash)['errors']).toEqual({ brandname: 'Brandname already exists' })
    const same = await post('/editbrandUser', { _id: id, brandname: 'DELTA', type: 'ipfs' })
    expect(bodyOf(same)).toEqual({ status: 'success', message: 'Brand updated successfully' })
    const [row] = await t.handle.db.select().from(brands).where(eq(brands.id, id))
    expect(row).toMatchObject({ brandname: 'DELTA', type: 'ipfs' })
  })

  it('answers one success and one "already exists" when two adds of one name race', async () => {
    const answers = await Promise.all([post('/addBrand', { brandname: 'Race', type: 'ipfs' }), post('/addBrand', { brandname: 'RACE', type: 'ipfs' })])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400])
    expect(bodyOf(await list())['count']).toBe(1)
  })

  it('answers Record not found for an unknown brand on edit, detail and delete', async () => {
    const unknown = '00000000-0000-0000-0000-000000000000'
    expect(bodyOf(await post('/editbrandUser', { _id: unknown, brandname: 'Zeta', type: 'ipfs' }))).toMatchObject({ errors: { _id: 'Record not found' } })
    const detail = await post('/listbrandUser', { id: unknown })
    expect(detail.statusCode).toBe(404)
    expect((await post('/deleteBrand', { id: unknown })).statusCode).toBe(404)
  })
})

describe('View Brand: listbrandUser', () => {
  it('answers the brand as record, its emails newest first as result with their count, 2 by default and 2 more per page', async () => {
    const id = await addBrand('Eta Games')
    const other = await addBrand('Theta')
    await addLeads(id, ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com'])
    await addLeads(other, ['other@example.com'])
    await addLeads(null, ['none@example.com'])

    const first = bodyOf(await post('/listbrandUser', { id }))
    expect(first).toMatchObject({ status: 'success', count: 5, record: { _id: id, brandname: 'Eta Games', type: 'web3auth' }, visits: 0 })
    expect(first['result']).toEqual([{ email: 'e@example.com' }, { email: 'd@example.com' }])
    const pages = await Promise.all([2, 3, 4].map(async (page) => bodyOf(await post('/listbrandUser', { id, page }))['result']))
    expect(pages).toEqual([[{ email: 'c@example.com' }, { email: 'b@example.com' }], [{ email: 'a@example.com' }], []])
    expect(bodyOf(await post('/listbrandUser', { id, page: 1, limit: 10 }))['result']).toHaveLength(5)
  })

  it("carries the brand's referral code: one code per brand, which openssl decodes back to the id", async () => {
    const id = await addBrand('Iota')
    const code = bodyOf(await post('/listbrandUser', { id }))['referralCode']
    expect(code).toBe(encodeReferral(id, KEY))
    expect(bodyOf(await post('/listbrandUser', { id, page: 2 }))['referralCode']).toBe(code)
    const decoded = execFileSync('openssl', ['enc', '-d', '-aes-256-cbc', '-md', 'md5', '-a', '-A', '-pass', 'env:K'], {
      input: String(code),
      env: { ...process.env, K: KEY },
      stdio: ['pipe', 'pipe', 'ignore'],
    }).toString('utf8')
    expect(decoded).toBe(id)
  })
})

describe('Delete Brand', () => {
  it('deletes the brand, keeps its leads with their brand reference cleared, and writes an audit row', async () => {
    const id = await addBrand('Kappa')
    await addLeads(id, ['k1@example.com', 'k2@example.com'])
    expect(bodyOf(await post('/deleteBrand', { id }))).toMatchObject({ status: 'success', message: 'Brand deleted successfully', undo: { seconds: 10 } })
    expect(await t.handle.db.$count(brands, eq(brands.id, id))).toBe(0)
    const kept = await t.handle.db.select({ brandId: leads.brandId }).from(leads).where(inArray(leads.email, ['k1@example.com', 'k2@example.com']))
    expect(kept).toEqual([{ brandId: null }, { brandId: null }])
    expect(await t.handle.db.$count(auditLog, and(eq(auditLog.recordId, id), eq(auditLog.action, '/deleteBrand')))).toBe(1)
  })
})

describe('Access', () => {
  it('lets View Only staff read the list and a brand but refuses every write; a sub-admin without /brand gets nothing', async () => {
    const id = await addBrand('Lambda')
    const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/brand'] }))
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/listbrand', headers: viewer })).statusCode).toBe(200)
    expect((await post('/listbrandUser', { id }, viewer)).statusCode).toBe(200)
    expect((await post('/addBrand', { brandname: 'Sneaky', type: 'ipfs' }, viewer)).statusCode).toBe(403)
    expect((await post('/editbrandUser', { _id: id, brandname: 'Sneaky', type: 'ipfs' }, viewer)).statusCode).toBe(403)
    expect((await post('/deleteBrand', { id }, viewer)).statusCode).toBe(403)
    expect(await t.handle.db.$count(brands, eq(brands.id, id))).toBe(1)

    const outsider = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/users'] }))
    expect((await post('/listbrandUser', { id }, outsider)).statusCode).toBe(403)
    expect((await post('/deleteBrand', { id }, outsider)).statusCode).toBe(403)
  })
})

describe('Referral visits', () => {
  const visit = (code: string, remoteAddress = '10.8.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/admin/referral-visit', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ code }), remoteAddress })
  const visitsOf = async (id: string) => (await t.handle.db.select({ visits: brands.visits }).from(brands).where(eq(brands.id, id)))[0]?.visits

  it('counts a visit, without a session, for a code of a known brand: ours, URL-encoded, or made by openssl', async () => {
    const id = await addBrand('Mu')
    const code = encodeReferral(id, KEY)
    expect(bodyOf(await visit(code))).toEqual({ status: 'success', message: 'Referral visit received', counted: true })
    expect(bodyOf(await visit(encodeURIComponent(code), '10.8.0.2'))['counted']).toBe(true)
    const fromOpenssl = execFileSync('openssl', ['enc', '-aes-256-cbc', '-md', 'md5', '-a', '-A', '-pass', 'env:K'], {
      input: id,
      env: { ...process.env, K: KEY },
      stdio: ['pipe', 'pipe', 'ignore'],
    })
      .toString('utf8')
      .trim()
    expect(bodyOf(await visit(fromOpenssl, '10.8.0.3'))['counted']).toBe(true)
    expect(await visitsOf(id)).toBe(3)
    expect(bodyOf(await post('/listbrandUser', { id }))['visits']).toBe(3)
  })

  it('counts nowhere for a garbled code, a code of another key, or a deleted brand, and still answers success', async () => {
    const id = await addBrand('Nu')
    const gone = await addBrand('Xi')
    await post('/deleteBrand', { id: gone })
    for (const [n, code] of ['garbage', encodeReferral(id, 'another-key'), encodeReferral(gone, KEY), encodeReferral(id, KEY).slice(0, 30)].entries()) {
      const res = await visit(code, `10.8.1.${n}`)
      expect(res.statusCode).toBe(200)
      expect(bodyOf(res)).toMatchObject({ status: 'success', counted: false })
    }
    expect(await visitsOf(id)).toBe(0)
    expect(bodyOf(await visit('', '10.8.1.9'))).toMatchObject({ status: 'failed', errors: { code: 'code is required' } })
  })

  it('limits the counting call per address, and counts 10 visits of a brand per address an hour', async () => {
    const id = await addBrand('Omicron')
    const code = encodeReferral(id, KEY)
    const answers = []
    const counted = []
    for (let i = 0; i < 32; i++) {
      const res = await visit(code, '10.8.2.1')
      answers.push(res.statusCode)
      if (res.statusCode === 200) counted.push(bodyOf(res)['counted'])
    }
    expect(answers.filter((s) => s === 200)).toHaveLength(30)
    expect(answers.slice(-2)).toEqual([429, 429])
    expect(counted.filter((c) => c === true)).toHaveLength(10)
    expect(await visitsOf(id)).toBe(10)
  })
})

describe('The referral redirect', () => {
  const LISTING = 'https://play.google.com/store/apps/details?id=com.example.wallet'
  const open = (app: TestApp, segment: string) => app.app.inject({ method: 'GET', url: `/admin/app/${segment}` })
  const visitsIn = async (app: TestApp, id: string) => (await app.handle.db.select({ visits: brands.visits }).from(brands).where(eq(brands.id, id)))[0]?.visits

  it('sends any code to the store listing with that referrer, without a page, and counts the visits of a known brand', async () => {
    const id = await addBrand('Pi')
    const code = encodeReferral(id, KEY)
    for (let i = 0; i < 5; i++) {
      const res = await open(t, encodeURIComponent(code))
      expect(res.statusCode).toBe(302)
      expect(res.headers['location']).toBe(`${LISTING}&referrer=${encodeURIComponent(code)}`)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.body).not.toContain('<script')
    }
    // A code that names no brand goes to the store all the same, counted nowhere.
    const foreign = await open(t, 'not-a-code')
    expect(foreign.statusCode).toBe(302)
    expect(foreign.headers['location']).toBe(`${LISTING}&referrer=not-a-code`)
    // Counted in memory, written within the flush interval (1 s by default).
    await expect.poll(() => visitsIn(t, id), { timeout: 5000, interval: 100 }).toBe(5)
  })

  it('redirects every visit of one address but counts REFERRAL_VISITS_PER_ADDRESS of them an hour; an IPv6 client by its /64', async () => {
    const own = await makeTestApp({ env: { REFERRAL_KEY: KEY, REFERRAL_VISITS_PER_ADDRESS: '10' } })
    try {
      const [row] = await own.handle.db.insert(brands).values({ brandname: 'Sigma', type: 'web3auth' }).returning({ id: brands.id })
      if (row === undefined) throw new Error('no brand')
      const code = encodeURIComponent(encodeReferral(row.id, KEY))
      const from = (remoteAddress: string) => own.app.inject({ method: 'GET', url: `/admin/app/${code}`, remoteAddress })
      for (let i = 0; i < 200; i++) expect((await from('203.0.113.7')).statusCode).toBe(302)
      // One host walking the addresses of its /64.
      for (let i = 1; i <= 30; i++) expect((await from(`2001:db8:7:7::${i.toString(16)}`)).statusCode).toBe(302)
      // Another client is counted on its own.
      for (let i = 0; i < 3; i++) expect((await from('203.0.113.8')).statusCode).toBe(302)
      await own.app.close()
      expect(await visitsIn(own, row.id)).toBe(10 + 10 + 3)
    } finally {
      await own.close()
    }
  })

  it('writes the counted visits at a graceful stop, though the interval has not come', async () => {
    const own = await makeTestApp({ env: { REFERRAL_KEY: KEY, REFERRAL_FLUSH_MS: '60000' } })
    try {
      const [row] = await own.handle.db.insert(brands).values({ brandname: 'Rho', type: 'web3auth' }).returning({ id: brands.id })
      if (row === undefined) throw new Error('no brand')
      const code = encodeURIComponent(encodeReferral(row.id, KEY))
      for (let i = 0; i < 7; i++) expect((await open(own, code)).statusCode).toBe(302)
      expect(await visitsIn(own, row.id)).toBe(0)
      await own.app.close()
      expect(await visitsIn(own, row.id)).toBe(7)
    } finally {
      await own.close()
    }
  })
})
