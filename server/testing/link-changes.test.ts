/**
 * Two admins for outward links (contract/link-changes.ts, server/kit/request/link-changes.ts): while the
 * setting is on, a write that changes a link users follow is kept, unapplied, until another admin
 * who may make it approves it; reads keep the old value; the requester cannot approve; a rejection
 * or a withdrawal leaves only audit rows; a record changed since refuses the approval; and
 * contract-wide, every served write with an outward-link field is held (found from the schemas,
 * as server/testing/outward-links.test.ts finds them).
 */
import { and, count, desc, eq } from 'drizzle-orm'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { outwardLinkFields } from '#contract/outward-links'
import { LINK_CHANGE_CONFLICT, NOT_YOUR_LINK_CHANGE, OWN_LINK_CHANGE, linkChangeHeld } from '#contract/link-changes'
import type { Endpoint } from '#contract/define'
import { loadAreas } from '../kit/request/areas.ts'
import { auditLog, linkChanges, links, siteSettings, type AdminRow } from '../db/schema.ts'
import { isServed, makeFixtures, samples, send, type Payload } from './endpoint-samples.ts'
import { bodyOf, listOf, makeTestApp } from './test-app.ts'

const { endpoints } = (await loadAreas()).index
const t = await makeTestApp()
afterAll(async () => {
  await t.close()
})
const fixtures = await makeFixtures(t)
const second = await t.createAdmin({ name: 'Second admin', accessLevel: 'Admin', restrictions: [] })
const linksOnly = await t.createAdmin({ name: 'Buy links admin', accessLevel: 'Admin', restrictions: ['/buy_list'] })
const leadsOnly = await t.createAdmin({ name: 'Leads admin', accessLevel: 'Admin', restrictions: ['/users'] })

const post = async (path: string, payload: Record<string, unknown>, as: AdminRow = t.superadmin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: await t.auth(as), payload })
const get = async (path: string, as: AdminRow = t.superadmin) => t.app.inject({ method: 'GET', url: `/api/admin${path}`, headers: await t.auth(as) })

const setting = async (on: boolean): Promise<void> => {
  expect(bodyOf(await post('/setTwoAdminLinks', { on }))).toMatchObject({ status: 'success' })
}
const pendingCount = async (): Promise<number> => (await t.handle.db.select({ n: count() }).from(linkChanges))[0]?.n ?? 0
const storedUrl = async (id: string): Promise<string | undefined> => (await t.handle.db.select({ url: links.url }).from(links).where(eq(links.id, id)))[0]?.url
const auditRows = async (action: string) => t.handle.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.at), desc(auditLog.id))
const buyLink = fixtures.linkIds.buy.kept

/** Asks, as `as`, for the kept buy link to lead to `url`: answers the held change's id. */
async function requestChange(url: string, as: AdminRow = t.superadmin): Promise<string> {
  const res = await post('/editBuylink', { _id: buyLink, buyLink: url, preference: 1 }, as)
  expect(res.statusCode, res.body).toBe(202)
  const body = bodyOf(res)
  expect(body).toMatchObject({ status: 'success', message: linkChangeHeld(['buyLink']), held: { fields: ['buyLink'] } })
  return String((body['held'] as { id: string }).id)
}

describe('two admins for outward links', () => {
  beforeEach(async () => {
    await t.handle.db.delete(linkChanges)
    await t.handle.db.update(siteSettings).set({ outwardLinkDomains: [] })
    await setting(false)
    await post('/editBuylink', { _id: buyLink, buyLink: 'https://old.example/buy', preference: 1 })
    await setting(true)
  })

  it('is the superadmin’s, shown in Settings and audited', async () => {
    const settings = bodyOf(await get('/settings-get'))
    expect(listOf(settings, 'result')[0]).toMatchObject({ two_admin_links: true })
    expect((await post('/setTwoAdminLinks', { on: false }, second)).statusCode).toBe(403)
    expect((await auditRows('/setTwoAdminLinks'))[0]).toMatchObject({ adminId: t.superadmin.id, detail: 'Turned on' })
  })

  it('keeps the change unapplied: the stored record and every read keep the old link', async () => {
    // Set before the setting was on, it took effect at once.
    expect(await storedUrl(buyLink)).toBe('https://old.example/buy')
    const id = await requestChange('https://new.example/buy', second)
    expect(await storedUrl(buyLink)).toBe('https://old.example/buy')
    const read = bodyOf(await get(`/getbuyLink?_id=${buyLink}`, linksOnly))
    expect(JSON.stringify(read)).toContain('https://old.example/buy')
    expect(JSON.stringify(read)).not.toContain('https://new.example/buy')
    // Shown with its diff to who may make the write; not to an admin of other screens.
    const list = listOf(bodyOf(await get('/listLinkChanges', linksOnly)), 'result')
    expect(list).toHaveLength(1)
    expect(list[0]).toMatchObject({ _id: id, event: 'Buy link edited', requestedBy: 'Second admin', requestedById: second.id, fields: ['buyLink'] })
    expect(JSON.stringify(list[0]?.['changes'])).toContain('"before":"https://old.example/buy","after":"https://new.example/buy"')
    expect(listOf(bodyOf(await get('/listLinkChanges', leadsOnly)), 'result')).toHaveLength(0)
    // The menu's badge counts it for the others, not for its requester.
    expect(bodyOf(await get('/getMenuCounts', linksOnly))['counts']).toMatchObject({ linkChanges: 1 })
    expect(bodyOf(await get('/getMenuCounts', second))['counts']).toMatchObject({ linkChanges: 0 })
    expect(bodyOf(await get('/getMenuCounts', leadsOnly))['counts']).not.toHaveProperty('linkChanges')
    // The request's audit row says what it would change; the write's own row is not written.
    const [held] = await auditRows('link-change-held')
    expect(held).toMatchObject({ adminId: second.id, recordId: buyLink })
    expect(held?.detail).toContain('https://old.example/buy → https://new.example/buy')
    expect((await auditRows('/editBuylink')).filter((r) => r.adminId === second.id)).toHaveLength(0)
  })

  it('takes effect when another admin approves it, made as the approver, the audit naming both', async () => {
    const id = await requestChange('https://new.example/buy', second)
    const self = await post('/approveLinkChange', { id }, second)
    expect(self.statusCode).toBe(403)
    expect(bodyOf(self)['message']).toBe(OWN_LINK_CHANGE)
    // An admin who may not make the write finds no such change, as their list shows none.
    expect((await post('/approveLinkChange', { id }, leadsOnly)).statusCode).toBe(404)
    expect(await storedUrl(buyLink)).toBe('https://old.example/buy')
    const ok = await post('/approveLinkChange', { id }, linksOnly)
    expect(ok.statusCode, ok.body).toBe(200)
    expect(await storedUrl(buyLink)).toBe('https://new.example/buy')
    expect(await pendingCount()).toBe(0)
    const [row] = await auditRows('/approveLinkChange')
    expect(row).toMatchObject({ adminId: linksOnly.id, recordId: buyLink })
    expect(row?.detail).toContain('requested by Second admin')
    expect(JSON.stringify(row?.changes)).toContain('https://new.example/buy')
    // Decided: a second approval finds nothing pending.
    expect((await post('/approveLinkChange', { id }, t.superadmin)).statusCode).toBe(404)
  })

  it('holds the allowed domains at approval as they are then', async () => {
    const id = await requestChange('https://new.example/buy', second)
    await post('/setOutwardLinkDomains', { domains: ['other.example'] })
    const refused = await post('/approveLinkChange', { id }, linksOnly)
    expect(refused.statusCode).toBe(400)
    expect(bodyOf(refused)['message']).toBe('new.example is not an allowed domain for outward links (Settings)')
    expect(await storedUrl(buyLink)).toBe('https://old.example/buy')
    expect(await pendingCount()).toBe(1)
  })

  it('leaves only audit rows when rejected or withdrawn; only the requester withdraws, and rejects nothing of their own', async () => {
    const rejected = await requestChange('https://rejected.example/buy', second)
    expect(bodyOf(await post('/rejectLinkChange', { id: rejected }, second))['message']).toBe(OWN_LINK_CHANGE)
    expect(bodyOf(await post('/rejectLinkChange', { id: rejected }, linksOnly))).toMatchObject({ status: 'success' })
    const withdrawn = await requestChange('https://withdrawn.example/buy', second)
    const notTheirs = await post('/withdrawLinkChange', { id: withdrawn }, linksOnly)
    expect(notTheirs.statusCode).toBe(403)
    expect(bodyOf(notTheirs)['message']).toBe(NOT_YOUR_LINK_CHANGE)
    expect(bodyOf(await post('/withdrawLinkChange', { id: withdrawn }, second))).toMatchObject({ status: 'success' })
    expect(await pendingCount()).toBe(0)
    expect(await storedUrl(buyLink)).toBe('https://old.example/buy')
    expect((await auditRows('/rejectLinkChange'))[0]).toMatchObject({ adminId: linksOnly.id, recordId: buyLink, changes: null })
    expect((await auditRows('/rejectLinkChange'))[0]?.detail).toContain('https://rejected.example/buy')
    expect((await auditRows('/withdrawLinkChange'))[0]).toMatchObject({ adminId: second.id, recordId: buyLink, changes: null })
  })

  it('refuses the approval (409) when the record changed since, and writes nothing', async () => {
    const id = await requestChange('https://new.example/buy', second)
    // The same record's other field, changed since (no link in it: applied at once).
    await t.handle.db.update(links).set({ preference: 2 }).where(eq(links.id, buyLink))
    const res = await post('/approveLinkChange', { id }, linksOnly)
    expect(res.statusCode, res.body).toBe(409)
    expect(bodyOf(res)['message']).toBe(LINK_CHANGE_CONFLICT)
    expect(await storedUrl(buyLink)).toBe('https://old.example/buy')
    expect((await t.handle.db.select({ p: links.preference }).from(links).where(eq(links.id, buyLink)))[0]?.p).toBe(2)
    expect(await pendingCount()).toBe(1)
    await t.handle.db.update(links).set({ preference: 1 }).where(eq(links.id, buyLink))
  })

  it('applies at once what changes no link, and everything while the setting is off', async () => {
    const same = await post('/editBuylink', { _id: buyLink, buyLink: 'https://old.example/buy', preference: 1 }, second)
    expect(same.statusCode, same.body).toBe(200)
    await setting(false)
    const res = await post('/editBuylink', { _id: buyLink, buyLink: 'https://now.example/buy', preference: 1 }, second)
    expect(res.statusCode, res.body).toBe(200)
    expect(await storedUrl(buyLink)).toBe('https://now.example/buy')
    expect(await pendingCount()).toBe(0)
  })
})

const linkWrites = endpoints
  .filter((e: Endpoint) => e.method === 'POST' && isServed(t, e))
  .map((e) => ({ endpoint: e, fields: outwardLinkFields(e.input) }))
  .filter((w) => w.fields.length > 0)

/** The sample with each of `fields` set to a new link of its own. */
function withNewLinks(payload: Payload, fields: readonly string[]): Payload {
  const links = Object.fromEntries(fields.map((f) => [f, `https://held-${f.toLowerCase()}.example/${Math.random().toString(36).slice(2)}`]))
  if ('form' in payload) return { form: { fields: { ...payload.form.fields, ...links }, files: payload.form.files } }
  return { json: { ...payload.json, ...links } }
}

describe('every write that stores an outward link is held while the setting is on', () => {
  it('finds them', () => {
    expect(linkWrites.length).toBeGreaterThanOrEqual(9)
  })

  for (const { endpoint, fields } of linkWrites) {
    it(`${endpoint.name}: held, nothing written, until approved`, async () => {
      await t.handle.db.delete(linkChanges)
      await t.handle.db.update(siteSettings).set({ outwardLinkDomains: [], twoAdminLinks: true })
      const sample = samples[endpoint.name]
      expect(sample, `add a sample for ${endpoint.name}`).toBeDefined()
      if (sample === undefined) return
      const before = (await t.handle.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, endpoint.path)))[0]?.n
      const res = await send(t, endpoint, await t.auth(second), withNewLinks(sample(fixtures), fields))
      expect(res.statusCode, res.body).toBe(202)
      const held = bodyOf(res)['held'] as { id: string; fields: string[] }
      expect(held.fields.length).toBeGreaterThan(0)
      expect((await t.handle.db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, endpoint.path)))[0]?.n).toBe(before)
      const approved = await post('/approveLinkChange', { id: held.id }, t.superadmin)
      expect(approved.statusCode, approved.body).toBe(200)
      const [row] = await t.handle.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, '/approveLinkChange'), eq(auditLog.adminId, t.superadmin.id)))
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(1)
      expect(row?.changes).not.toBeNull()
    })
  }
})
