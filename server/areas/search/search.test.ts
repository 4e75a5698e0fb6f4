import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { brands, categories, games, leads, links } from '../../db/schema.ts'
import { bodyOf, makeTestApp, testEngine, type TestApp } from '../../testing/test-app.ts'

let t: TestApp

beforeAll(async () => {
  t = await makeTestApp()
  const db = t.handle.db
  await db.insert(leads).values([
    { name: 'Zed Palette', email: 'zed.palette@example.com', operatingsystem: 'Android', walletaddress: '0xfeedface01', provider: 'ipfs' },
    ...Array.from({ length: 12 }, (_, i) => ({ name: `Many ${i}`, email: `many${i}.palettecrowd@example.com`, operatingsystem: 'ios', walletaddress: `0xcrowd${i}`, provider: 'web3auth' as const })),
  ])
  await db.insert(brands).values({ brandname: 'Zedbrand', type: 'ipfs' })
  const [category] = await db.insert(categories).values({ categoryName: 'Zed Arcade', image: 'x.png' }).returning({ id: categories.id })
  if (category === undefined) throw new Error('no category')
  await db.insert(games).values({ title: 'Zed Racer', description: 'd', categoryId: category.id, operatingsystem: 'both', liveLink: 'https://example.com/zed', preference: 1 })
  await db.insert(links).values({ kind: 'buy', url: 'https://buy.example.com/zedcoin', preference: 1 })
  await t.createAdmin({ name: 'Zed Staff', email: 'zed.staff@example.com' })
})
afterAll(async () => {
  await t.close()
})

const find = async (q: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/admin/findRecords', query: { q }, headers })
type Found = { screen: string; heading: string; id: string; label: string; detail: string; href: string }
const found = async (q: string, headers: Record<string, string>): Promise<Found[]> => {
  const res = await find(q, headers)
  expect(res.statusCode).toBe(200)
  return bodyOf(res)['result'] as Found[]
}

describe(`the palette's server search on ${testEngine()}`, () => {
  it('finds records of every area by the words their lists search, each with the list search that shows it', async () => {
    const result = await found('zed', await t.auth(t.superadmin))
    const byHeading = (h: string) => result.filter((r) => r.heading === h)
    expect(byHeading('Leads')).toEqual([expect.objectContaining({ screen: '/users', label: 'zed.palette@example.com', detail: 'Zed Palette', href: expect.stringMatching(/^\/lead\?id=/) })])
    expect(byHeading('Brands')[0]?.href).toBe('/brand?search=Zedbrand')
    expect(byHeading('Brands').map((r) => r.label)).toEqual(['Zedbrand'])
    expect(byHeading('Categories').map((r) => r.label)).toEqual(['Zed Arcade'])
    expect(byHeading('Games')).toEqual([expect.objectContaining({ screen: '/cms', label: 'Zed Racer', detail: expect.stringContaining('Zed Arcade') })])
    expect(byHeading('Buy links').map((r) => r.label)).toEqual(['https://buy.example.com/zedcoin'])
    expect(byHeading('Users and Access').map((r) => r.label)).toEqual(['Zed Staff'])
    // A lead by its wallet address too.
    expect((await found('0xfeedface', await t.auth(t.superadmin))).map((r) => r.label)).toEqual(['zed.palette@example.com'])
  })

  it('answers a few per kind however many match', async () => {
    const result = await found('palettecrowd', await t.auth(t.superadmin))
    expect(result.filter((r) => r.heading === 'Leads')).toHaveLength(5)
  })

  it('finds only on the screens the session may open, View Only included', async () => {
    const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/brand'] }))
    const result = await found('zed', viewer)
    expect([...new Set(result.map((r) => r.heading))]).toEqual(['Brands'])
  })

  it('refuses a query shorter than 2 characters and one without a session', async () => {
    const res = await find('z', await t.auth(t.superadmin))
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toMatchObject({ status: 'failed', errors: { q: 'Type at least 2 characters' } })
    expect((await find('zed', {})).statusCode).toBe(401)
  })

  it('treats % and _ as the letters they are', async () => {
    expect(await found('%%', await t.auth(t.superadmin))).toEqual([])
  })
})
