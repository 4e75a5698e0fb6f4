/**
 * The bulk area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 * Games, Contact Us and Categories use the shared fixtures; every other list's pair runs on a
 * record of its own, made and previewed once per test app (`moreBulkFixtures`).
 */
import { eq } from 'drizzle-orm'
import * as bulk from '#contract/bulk'
import { brands, homepageContent, links, newsletterSends, promotions } from '../../db/schema.ts'
import { bulkPreviewer } from '../../testing/fixtures.ts'
import { defineSamplesWith, unique } from '../../testing/sample-kit.ts'
import type { TestApp } from '../../testing/test-app.ts'

type More = Record<string, { action: string; id: string; token: string }>
type MoreList = 'Brands' | 'BuyLinks' | 'SellLinks' | 'BridgeLinks' | 'Homepage' | 'Staff' | 'Promotions' | 'Newsletter'

/** A record for each other list's bulk sample (deleted, cancelled or deactivated by it), with its preview's token. */
async function moreBulkFixtures(t: TestApp): Promise<More> {
  const db = t.handle.db
  const tokenOf = await bulkPreviewer(t)
  const one = <R extends { id: string }>(rows: R[]): string => {
    const [row] = rows
    if (row === undefined) throw new Error('bulk fixture insert returned no row')
    return row.id
  }
  const linkOf = async (kind: 'buy' | 'sell' | 'bridge') =>
    one(await db.insert(links).values({ kind, url: `https://bulk.example/${kind}-${unique()}`, preference: (await db.$count(links, eq(links.kind, kind))) + 1 }).returning({ id: links.id }))
  const later = new Date(Date.now() + 24 * 3600 * 1000)
  const records: [MoreList, string, string][] = [
    ['Brands', 'delete', one(await db.insert(brands).values({ brandname: `Bulk brand ${unique()}`, type: 'web3auth' }).returning({ id: brands.id }))],
    ['BuyLinks', 'delete', await linkOf('buy')],
    ['SellLinks', 'delete', await linkOf('sell')],
    ['BridgeLinks', 'delete', await linkOf('bridge')],
    ['Homepage', 'delete', one(await db.insert(homepageContent).values({ title: `Bulk block ${unique()}`, link: 'https://bulk.example/home', image: 'fixture.png' }).returning({ id: homepageContent.id }))],
    ['Staff', 'deactivate', (await t.createAdmin({ name: 'Bulk staff', accessLevel: 'View Only', restrictions: ['/users'] })).id],
    ['Promotions', 'cancel', one(await db.insert(promotions).values({ title: `Bulk promotion ${unique()}`, content: 'Soon', status: 'scheduled', recipientCount: 0, total: 0, scheduledAt: later }).returning({ id: promotions.id }))],
    ['Newsletter', 'cancel', one(await db.insert(newsletterSends).values({ subject: `Bulk send ${unique()}`, content: 'Soon', status: 'scheduled', total: 0, scheduledAt: later }).returning({ id: newsletterSends.id }))],
  ]
  const more: More = {}
  for (const [list, action, id] of records) more[list] = { action, id, token: await tokenOf(`/preview${list}Bulk`, action, id) }
  return more
}

const of = (more: More, list: MoreList) => {
  const found = more[list]
  if (found === undefined) throw new Error(`no bulk fixture for ${list}`)
  return found
}
const preview = (list: MoreList) => (_f: unknown, more: More) => ({ json: { action: of(more, list).action, selection: { ids: [of(more, list).id] } } })
const apply = (list: MoreList) => (_f: unknown, more: More) => ({ json: { action: of(more, list).action, selection: { ids: [of(more, list).id] }, token: of(more, list).token } })

export const samples = defineSamplesWith([bulk], moreBulkFixtures, {
  previewGamesBulk: (f) => ({ json: { action: 'freeze', selection: { ids: [f.bulk.gameId] } } }),
  applyGamesBulk: (f) => ({ json: { action: 'freeze', selection: { ids: [f.bulk.gameId] }, token: f.bulk.gameToken } }),
  previewContactBulk: () => ({ json: { action: 'resolve', selection: { matching: { search: 'Bulk fixture', filters: { status: 'Open' } } } } }),
  applyContactBulk: (f) => ({ json: { action: 'resolve', selection: { ids: [f.bulk.enquiryId] }, token: f.bulk.enquiryToken } }),
  previewCategoriesBulk: (f) => ({ json: { action: 'delete', selection: { ids: [f.bulk.categoryId] } } }),
  applyCategoriesBulk: (f) => ({ json: { action: 'delete', selection: { ids: [f.bulk.categoryId] }, token: f.bulk.categoryToken } }),
  getBulkRun: (f) => ({ json: { id: f.bulk.runId } }),
  cancelBulkRun: (f) => ({ json: { id: f.bulk.runId } }),
  previewBrandsBulk: preview('Brands'),
  applyBrandsBulk: apply('Brands'),
  previewBuyLinksBulk: preview('BuyLinks'),
  applyBuyLinksBulk: apply('BuyLinks'),
  previewSellLinksBulk: preview('SellLinks'),
  applySellLinksBulk: apply('SellLinks'),
  previewBridgeLinksBulk: preview('BridgeLinks'),
  applyBridgeLinksBulk: apply('BridgeLinks'),
  previewHomepageBulk: preview('Homepage'),
  applyHomepageBulk: apply('Homepage'),
  previewStaffBulk: preview('Staff'),
  applyStaffBulk: apply('Staff'),
  previewPromotionsBulk: preview('Promotions'),
  applyPromotionsBulk: apply('Promotions'),
  previewNewsletterBulk: preview('Newsletter'),
  applyNewsletterBulk: apply('Newsletter'),
})
