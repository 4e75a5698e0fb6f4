import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { brands, contactEnquiries, leads, promotionDeliveries, promotions } from '../../db/schema.ts'
import { bodyOf, makeTestApp, testEngine, type TestApp } from '../../testing/test-app.ts'

let t: TestApp
let leadId = ''
let brandId = ''

beforeAll(async () => {
  t = await makeTestApp()
  const db = t.handle.db
  const [brand] = await db.insert(brands).values({ brandname: 'Page Brand', type: 'ipfs' }).returning({ id: brands.id })
  if (brand === undefined) throw new Error('no brand')
  brandId = brand.id
  const [lead] = await db
    .insert(leads)
    .values({ name: 'Page Person', email: 'page.person@example.com', operatingsystem: 'ios', walletaddress: '0xpage', provider: 'web3auth', brandId, subscribed: true, subscribedAt: new Date('2026-01-02T03:04:05Z'), country: 'PT' })
    .returning({ id: leads.id })
  if (lead === undefined) throw new Error('no lead')
  leadId = lead.id
  await db.insert(contactEnquiries).values([
    { name: 'Page Person', email: 'Page.Person@Example.com', message: 'Where is my bonus?' },
    { name: 'Someone Else', email: 'other@example.com', message: 'Not theirs' },
  ])
  const [sent, failed] = await db
    .insert(promotions)
    .values([
      { title: 'Spring offer', content: 'Hello', recipientCount: 1, total: 1, sent: 1, status: 'done' as const },
      { title: 'Summer offer', content: 'Hello', recipientCount: 1, total: 1, failed: 1, status: 'done' as const },
    ])
    .returning({ id: promotions.id })
  if (sent === undefined || failed === undefined) throw new Error('no promotions')
  await db.insert(promotionDeliveries).values([
    { promotionId: sent.id, leadId, round: 1, status: 'sent', sentAt: new Date('2026-03-01T10:00:00Z'), attempts: 1 },
    { promotionId: failed.id, leadId, round: 1, status: 'failed', attempts: 3, lastError: 'refused' },
  ])
})
afterAll(async () => {
  await t.close()
})

const get = async (id: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/admin/getLead', query: { id }, headers })

describe(`a lead's page on ${testEngine()}`, () => {
  it('answers every field, the brand, the enquiries of its email, each delivery with its outcome, and the newsletter', async () => {
    const res = await get(leadId, await t.auth(t.superadmin))
    expect(res.statusCode).toBe(200)
    const body = bodyOf(res)
    expect(body['record']).toMatchObject({
      _id: leadId,
      name: 'Page Person',
      email: 'page.person@example.com',
      walletaddress: '0xpage',
      provider: 'web3auth',
      country: 'PT',
      brand: { _id: brandId, brandname: 'Page Brand' },
      subscribed: true,
      subscribedAt: '2026-01-02T03:04:05.000Z',
      unsubscribedAt: '',
    })
    expect((body['enquiries'] as { message: string; status: string }[]).map((e) => [e.message, e.status])).toEqual([['Where is my bonus?', 'Open']])
    const deliveries = body['deliveries'] as { title: string; status: string; sentAt: string; attempts: number }[]
    expect(deliveries.map((d) => [d.title, d.status, d.sentAt, d.attempts]).sort()).toEqual([
      ['Spring offer', 'sent', '2026-03-01T10:00:00.000Z', 1],
      ['Summer offer', 'failed', '', 3],
    ])
    expect(body['deliveryCount']).toBe(2)
    expect(body['withheld']).toEqual([])
  })

  it('gives the enquiries only to those who may read Contact Us, the deliveries only to those who may read Messaging', async () => {
    const readerOf = async (pages: string[]) => bodyOf(await get(leadId, await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: pages }))))
    const leadsOnly = await readerOf(['/users'])
    expect(leadsOnly).toMatchObject({ status: 'success', record: { _id: leadId, email: 'page.person@example.com' }, enquiries: [], deliveries: [], deliveryCount: 0, withheld: ['enquiries', 'deliveries'] })
    expect(JSON.stringify(leadsOnly)).not.toContain('Where is my bonus?')
    expect(JSON.stringify(leadsOnly)).not.toContain('Spring offer')
    const withContact = await readerOf(['/users', '/contactus'])
    expect(withContact).toMatchObject({ deliveries: [], deliveryCount: 0, withheld: ['deliveries'] })
    expect(withContact['enquiries']).toHaveLength(1)
    const withMessaging = await readerOf(['/users', '/notificationlist'])
    expect(withMessaging).toMatchObject({ enquiries: [], deliveryCount: 2, withheld: ['enquiries'] })
    expect(withMessaging['deliveries']).toHaveLength(2)
  })

  it("says the record was not found for an unknown id, and lets only those who may open Leads read it, View Only included", async () => {
    const missing = await get('00000000-0000-0000-0000-000000000000', await t.auth(t.superadmin))
    expect(missing.statusCode).toBe(404)
    expect(bodyOf(missing)).toMatchObject({ status: 'failed', message: 'Record not found' })
    const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] }))
    expect((await get(leadId, viewer)).statusCode).toBe(200)
    const outsider = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/brand'] }))
    expect((await get(leadId, outsider)).statusCode).toBe(403)
  })
})
