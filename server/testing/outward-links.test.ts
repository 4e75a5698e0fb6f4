/**
 * The outward-link allowlist, contract-wide: every served write with a field users will follow
 * (found from the contract's schemas, never listed here) refuses a host off the superadmin's list
 * with a message naming it and writes nothing, takes a listed host or a wildcard's subdomain, and
 * takes any host again once the list is empty.
 */
import { count, desc, eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { outwardLinkFields } from '#contract/outward-links'
import type { Endpoint } from '#contract/define'
import { loadAreas } from '../kit/request/areas.ts'
import { auditLog } from '../db/schema.ts'
import { isServed, makeFixtures, samples, send, type Payload } from './endpoint-samples.ts'
import { bodyOf, listOf, makeTestApp } from './test-app.ts'

const { endpoints } = (await loadAreas()).index
const t = await makeTestApp()
afterAll(async () => {
  await t.close()
})
const fixtures = await makeFixtures(t)

const post = async (path: string, payload: unknown, as = t.superadmin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: await t.auth(as), payload: payload as Record<string, unknown> })

const linkWrites = endpoints
  .filter((e: Endpoint) => e.method === 'POST' && isServed(t, e))
  .map((e) => ({ endpoint: e, fields: outwardLinkFields(e.input) }))
  .filter((w) => w.fields.length > 0)

/** The sample with `fields` set to `link`. */
function withLinks(payload: Payload, fields: readonly string[], link: string): Payload {
  const links = Object.fromEntries(fields.map((f) => [f, link]))
  if ('form' in payload) return { form: { fields: { ...payload.form.fields, ...links }, files: payload.form.files } }
  return { json: { ...payload.json, ...links } }
}

const auditCount = async (action: string): Promise<number> =>
  (await t.handle.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, action)))[0]?.n ?? 0

describe('outward links held to the allowed domains', () => {
  it('finds the writes that store links: links, games, homepage content, social links, settings', () => {
    expect(linkWrites.map((w) => w.endpoint.name)).toEqual(expect.arrayContaining(['addbuyLink', 'editSellink', 'addBridgeLink', 'addcms', 'Editcms', 'addHomePageCms', 'editHomePageCms', 'updatesocialmedia', 'updateSettings']))
  })

  it('keeps the list in Settings, cleaned, and refuses what is not a domain', async () => {
    const bad = await post('/setOutwardLinkDomains', { domains: ['moonpay.example', 'https://evil.example/x'] })
    expect(bad.statusCode).toBe(400)
    expect(bodyOf(bad)['message']).toBe('Not a domain: https://evil.example/x')
    const set = await post('/setOutwardLinkDomains', { domains: [' Allowed.Example ', '*.partner.example', 'allowed.example', ''] })
    expect(bodyOf(set)).toMatchObject({ status: 'success' })
    const settings = bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/settings-get', headers: await t.auth(t.superadmin) }))
    expect(listOf(settings, 'result')[0]).toMatchObject({ outward_link_domains: ['allowed.example', '*.partner.example'] })
    expect(await auditCount('/setOutwardLinkDomains')).toBe(1)
  })

  it('is the superadmin’s: an Admin with every screen may not change it', async () => {
    const admin = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
    const res = await post('/setOutwardLinkDomains', { domains: [] }, admin)
    expect(res.statusCode).toBe(403)
  })

  for (const { endpoint, fields } of linkWrites) {
    it(`${endpoint.name}: a host off the list is refused by name and nothing is written`, async () => {
      const sample = samples[endpoint.name]
      expect(sample, `add a sample for ${endpoint.name}`).toBeDefined()
      if (sample === undefined) return
      for (const field of fields) {
        const before = await auditCount(endpoint.path)
        // Its other links on the list, so the refusal is this field's.
        const others = withLinks(sample(fixtures), fields, 'https://allowed.example/')
        const res = await send(t, endpoint, await t.auth(t.superadmin), withLinks(others, [field], 'https://evil.example/buy'))
        expect(res.statusCode, res.body).toBe(400)
        const body = bodyOf(res)
        expect(body['message']).toBe('evil.example is not an allowed domain for outward links (Settings)')
        expect(body['errors']).toMatchObject({ [field]: body['message'] })
        expect(await auditCount(endpoint.path)).toBe(before)
      }
      // Listed hosts pass this check (the write may still answer for other reasons, never this one).
      for (const link of ['https://allowed.example/x', 'www.partner.example/x', 'https://a.b.partner.example']) {
        const res = await send(t, endpoint, await t.auth(t.superadmin), withLinks(sample(fixtures), fields, link))
        expect(res.statusCode, res.body).toBeLessThan(500)
        expect(String(bodyOf(res)['message'])).not.toContain('not an allowed domain')
      }
    })
  }

  it('holds a revert to the list: a link to a host taken off it since does not come back', async () => {
    expect(bodyOf(await post('/setOutwardLinkDomains', { domains: [] }))).toMatchObject({ status: 'success' })
    const id = fixtures.linkIds.buy.kept
    expect(bodyOf(await post('/editBuylink', { _id: id, buyLink: 'https://old.example/buy', preference: 1 }))).toMatchObject({ status: 'success' })
    expect(bodyOf(await post('/editBuylink', { _id: id, buyLink: 'https://allowed.example/buy', preference: 1 }))).toMatchObject({ status: 'success' })
    const [edit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/editBuylink')).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(1)
    expect(bodyOf(await post('/setOutwardLinkDomains', { domains: ['allowed.example'] }))).toMatchObject({ status: 'success' })
    const refused = await post('/revertAuditEntry', { id: edit?.id, force: true })
    expect(refused.statusCode, refused.body).toBe(400)
    expect(bodyOf(refused)['message']).toBe('old.example is not an allowed domain for outward links (Settings)')
    // Back on the list, the same revert goes through.
    expect(bodyOf(await post('/setOutwardLinkDomains', { domains: ['allowed.example', 'old.example'] }))).toMatchObject({ status: 'success' })
    expect(bodyOf(await post('/revertAuditEntry', { id: edit?.id, force: true }))).toMatchObject({ status: 'success' })
  })

  it('takes every host again once the list is empty', async () => {
    expect(bodyOf(await post('/setOutwardLinkDomains', { domains: [] }))).toMatchObject({ status: 'success' })
    const add = linkWrites.find((w) => w.endpoint.name === 'addbuyLink')
    if (add === undefined) throw new Error('addbuyLink is not served')
    const res = await send(t, add.endpoint, await t.auth(t.superadmin), { json: { buylink: 'https://evil.example/buy' } })
    expect(bodyOf(res)).toMatchObject({ status: 'success' })
  })
})
