import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sniff } from './kit/uploads.ts'
import { seedDemo } from './demo.ts'
import { openDb, type DbHandle } from './db/index.ts'
import { accessRequests, admins, categories, contactEnquiries, games, homepageContent, leads, siteSettings, socialMedia, tokenSettings, promotions } from './db/schema.ts'

let handle: DbHandle
let uploads: string

beforeAll(async () => {
  handle = await openDb({ kind: 'pglite', dir: null })
  uploads = await mkdtemp(join(tmpdir(), 'bo-demo-'))
})
afterAll(async () => {
  await handle.close()
  await rm(uploads, { recursive: true, force: true })
})

describe('demo data', () => {
  it('seeds varied leads over a year, 40 enquiries, 8 categories with real PNG files, the site records and two access requests, once', async () => {
    const now = Date.UTC(2026, 5, 1)
    expect(await seedDemo(handle.db, uploads, now)).toEqual({ leads: 640, enquiries: 40, categories: 8, accessRequests: 2 })
    const rows = await handle.db.select().from(leads)
    expect(rows.length).toBeGreaterThanOrEqual(500)
    expect(rows.every((r) => /^0x[0-9a-f]{40}$/.test(r.walletaddress))).toBe(true)
    expect(new Set(rows.map((r) => r.provider))).toEqual(new Set(['ipfs', 'web3auth']))
    expect(new Set(rows.map((r) => r.operatingsystem)).size).toBeGreaterThanOrEqual(4)
    expect(new Set(rows.map((r) => r.name)).size).toBeGreaterThan(300)
    const ages = rows.map((r) => (now - r.createdAt.getTime()) / (24 * 3600 * 1000))
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...ages)).toBeGreaterThan(300)
    expect(Math.max(...ages)).toBeLessThanOrEqual(365)
    expect(await handle.db.select().from(contactEnquiries)).toHaveLength(40)
    const cats = await handle.db.select().from(categories)
    expect(cats).toHaveLength(8)
    const [site, ...moreSites] = await handle.db.select().from(siteSettings)
    expect(moreSites).toEqual([])
    expect(site).toMatchObject({ sitename: 'Wallet Back Office', version: '2.4.1', forcedliq: 'Disable' })
    expect(site?.socialLink1).toMatch(/^https:\/\//)
    const blocks = await handle.db.select().from(homepageContent)
    expect(blocks.map((b) => b.title).sort()).toEqual(['Bridge to any network', 'Play games, win tokens', 'Swap in seconds'])
    expect(site?.homepageCmsVisible).toBe(true)
    expect(await handle.db.select().from(tokenSettings)).toEqual([expect.objectContaining({ tokenName: 'Game Ticket', price: '0.2500000000', ticketCount: 100 })])
    const gameImages = (await handle.db.select().from(games)).flatMap((g) => g.images)
    expect(gameImages).toHaveLength(10)
    const thumbs = [...gameImages, ...cats.map((c) => c.image), ...blocks.map((b) => b.image)].map((name) => name.replace('.png', '-thumb.webp'))
    const promotionImages = (await handle.db.select().from(promotions)).map((p) => p.image).filter((image) => image !== '')
    expect((await readdir(uploads)).sort()).toEqual([...cats.map((c) => c.image), ...blocks.map((b) => b.image), ...gameImages, ...thumbs, ...promotionImages, site?.sitelogo ?? 'missing'].sort())
    for (const name of await readdir(uploads)) if (!thumbs.includes(name)) expect(sniff(await readFile(join(uploads, name)))).toBe('png')
    const social = await handle.db.select().from(socialMedia)
    expect(social).toHaveLength(1)
    expect(Object.values(social[0] ?? {}).every((v) => v !== '')).toBe(true)
    const requests = await handle.db.select().from(accessRequests)
    expect(requests).toHaveLength(2)
    // Requests, never accounts: only the start's superadmin (none here) may exist.
    expect(await handle.db.select().from(admins)).toEqual([])
    // A second start leaves the data alone.
    expect(await seedDemo(handle.db, uploads, now)).toBeNull()
    expect(await handle.db.select().from(leads)).toHaveLength(640)
  })
})
