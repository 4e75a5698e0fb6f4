/**
 * Outward links written back without a form: a revert from the audit log, an undo (a single
 * delete, a cleared link, a bulk delete) and the restore of a deleted record by revert. Each is
 * held to the allowed domains (refused naming the host); while "Two admins for outward links" is
 * on, a revert waits for a second admin like a form's save, and an undo, whose ticket cannot wait,
 * is refused with a message saying so. With the setting off and an empty list, each works as
 * before. Contract-wide, every form's link field is stored in a column server/db/link-columns.ts
 * knows, so the columns these checks read are all of them.
 */
import { and, count, desc, eq } from 'drizzle-orm'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { bulkRunGoesOn } from '#contract/bulk'
import type { Endpoint } from '#contract/define'
import { linkChangeHeld } from '#contract/link-changes'
import { outwardLinkFields } from '#contract/outward-links'
import { undoNeedsSecondAdmin } from '#contract/undo'
import { StoredChanges } from '../kit/request/audit-changes.ts'
import { loadAreas } from '../kit/request/areas.ts'
import { isOutwardLinkColumn, outwardLinkColumns } from '../db/link-columns.ts'
import { auditLog, linkChanges, links, siteSettings, socialMedia, type AdminRow } from '../db/schema.ts'
import { isServed, makeFixtures, missingSample, samples, send, type Payload } from './endpoint-samples.ts'
import { bodyOf, listOf, makeTestApp } from './test-app.ts'

const { endpoints } = (await loadAreas()).index
const t = await makeTestApp()
afterAll(async () => {
  await t.close()
})
const fixtures = await makeFixtures(t)
const second = await t.createAdmin({ name: 'Second admin', accessLevel: 'Admin', restrictions: [] })

const post = async (path: string, payload: Record<string, unknown>, as: AdminRow = t.superadmin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: await t.auth(as), payload })

const twoAdmins = async (on: boolean): Promise<void> => {
  expect(bodyOf(await post('/setTwoAdminLinks', { on }))).toMatchObject({ status: 'success' })
}
const allowed = async (domains: string[]): Promise<void> => {
  expect(bodyOf(await post('/setOutwardLinkDomains', { domains }))).toMatchObject({ status: 'success' })
}
const pending = async (): Promise<number> => (await t.handle.db.select({ n: count() }).from(linkChanges))[0]?.n ?? 0
const storedUrl = async (id: string): Promise<string | undefined> => (await t.handle.db.select({ url: links.url }).from(links).where(eq(links.id, id)))[0]?.url
const lastEntry = async (action: string) => {
  const [row] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(1)
  if (row === undefined) throw new Error(`no ${action} entry`)
  return row
}

/** A new buy link at the end of the list, added as the superadmin with both checks off. */
async function newBuyLink(url: string): Promise<string> {
  const res = await post('/addbuyLink', { buylink: url })
  expect(res.statusCode, res.body).toBe(200)
  const [row] = await t.handle.db.select({ id: links.id }).from(links).where(eq(links.url, url)).orderBy(desc(links.createdAt)).limit(1)
  if (row === undefined) throw new Error('the link was not added')
  return row.id
}

/** Deletes a buy link; answers its undo token. */
async function deleteBuyLink(id: string): Promise<string> {
  const res = await post('/DeleteBuyLink', { id })
  expect(res.statusCode, res.body).toBe(200)
  return String((bodyOf(res)['undo'] as { token: string }).token)
}

beforeEach(async () => {
  await t.handle.db.delete(linkChanges)
  await t.handle.db.update(siteSettings).set({ outwardLinkDomains: [], twoAdminLinks: false })
})

describe('every column a form stores a link in is known as a link column', () => {
  const linkWrites = endpoints
    .filter((e: Endpoint) => e.method === 'POST' && isServed(t, e))
    .map((e) => ({ endpoint: e, fields: outwardLinkFields(e.input) }))
    .filter((w) => w.fields.length > 0)

  it('knows the tables: links, games, homepage content, social links, settings', () => {
    expect([...outwardLinkColumns.keys()].sort()).toEqual(['games', 'homepage_content', 'links', 'site_settings', 'social_media'])
  })

  for (const { endpoint, fields } of linkWrites) {
    it(`${endpoint.name}: the columns its links land in are link columns`, async () => {
      const sample = samples[endpoint.name]
      expect(sample, missingSample(endpoint)).toBeDefined()
      if (sample === undefined) return
      const stamp = Math.random().toString(36).slice(2)
      const values = Object.fromEntries(fields.map((f) => [f, `https://column-${f.toLowerCase()}.example/${stamp}`]))
      const payload: Payload = ((p: Payload) => ('form' in p ? { form: { fields: { ...p.form.fields, ...values }, files: p.form.files } } : { json: { ...p.json, ...values } }))(sample(fixtures))
      const res = await send(t, endpoint, await t.auth(t.superadmin), payload)
      expect(res.statusCode, res.body).toBe(200)
      const rows = StoredChanges.parse((await lastEntry(endpoint.path)).changes).rows
      const landed = rows.flatMap((r) => r.fields.filter((f) => typeof f.after === 'string' && Object.values(values).includes(f.after)).map((f) => ({ table: r.table, field: f.field })))
      expect(landed.length, 'the sample stored none of its links').toBeGreaterThan(0)
      for (const { table, field } of landed) expect(isOutwardLinkColumn(table, field), `${table}.${field}`).toBe(true)
    })
  }
})

describe('a revert from the audit log', () => {
  it('of an edit: held for a second admin while the setting is on, and made when they approve', async () => {
    const id = await newBuyLink('https://first.example/buy')
    expect((await post('/editBuylink', { _id: id, buyLink: 'https://second.example/buy', preference: 1 })).statusCode).toBe(200)
    const edit = await lastEntry('/editBuylink')
    await twoAdmins(true)
    const res = await post('/revertAuditEntry', { id: edit.id, force: true }, second)
    expect(res.statusCode, res.body).toBe(202)
    expect(bodyOf(res)).toMatchObject({ status: 'success', message: linkChangeHeld(['url']), held: { fields: ['url'] } })
    expect(await storedUrl(id)).toBe('https://second.example/buy')
    expect(await pending()).toBe(1)
    // Shown to the other admins with its diff; its requester cannot approve it.
    const [change] = listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listLinkChanges', headers: await t.auth(t.superadmin) })), 'result')
    expect(change).toMatchObject({ action: '/revertAuditEntry', requestedById: second.id, fields: ['url'] })
    expect(JSON.stringify(change?.['changes'])).toContain('"before":"https://second.example/buy","after":"https://first.example/buy"')
    const heldId = String(change?.['_id'])
    expect((await post('/approveLinkChange', { id: heldId }, second)).statusCode).toBe(403)
    const ok = await post('/approveLinkChange', { id: heldId })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(await storedUrl(id)).toBe('https://first.example/buy')
    expect(await pending()).toBe(0)
  })

  it('of a delete: the record with its link comes back only once another admin approves', async () => {
    const id = await newBuyLink('https://deleted.example/buy')
    await deleteBuyLink(id)
    const removal = await lastEntry('/DeleteBuyLink')
    await twoAdmins(true)
    const res = await post('/revertAuditEntry', { id: removal.id }, second)
    expect(res.statusCode, res.body).toBe(202)
    expect(await storedUrl(id)).toBeUndefined()
    const [held] = await t.handle.db.select().from(linkChanges)
    expect((await post('/approveLinkChange', { id: held?.id ?? '' })).statusCode).toBe(200)
    expect(await storedUrl(id)).toBe('https://deleted.example/buy')
  })

  it('of a delete whose link is off the allowed domains: refused naming the host, nothing written', async () => {
    const id = await newBuyLink('https://gone-domain.example/buy')
    await deleteBuyLink(id)
    const removal = await lastEntry('/DeleteBuyLink')
    await allowed(['allowed.example'])
    const res = await post('/revertAuditEntry', { id: removal.id })
    expect(res.statusCode, res.body).toBe(400)
    expect(bodyOf(res)['message']).toBe('gone-domain.example is not an allowed domain for outward links (Settings)')
    expect(await storedUrl(id)).toBeUndefined()
  })

  it('that empties a link, or changes no link, is made at once while the setting is on', async () => {
    const id = await newBuyLink('https://kept.example/buy')
    const added = await lastEntry('/addbuyLink')
    await twoAdmins(true)
    // Reverting the create takes the record away: nobody is sent anywhere.
    const res = await post('/revertAuditEntry', { id: added.id }, second)
    expect(res.statusCode, res.body).toBe(200)
    expect(await storedUrl(id)).toBeUndefined()
    expect(await pending()).toBe(0)
  })

  it('with the setting off and an empty list: made at once, as before', async () => {
    const id = await newBuyLink('https://plain-a.example/buy')
    expect((await post('/editBuylink', { _id: id, buyLink: 'https://plain-b.example/buy', preference: 1 })).statusCode).toBe(200)
    const edit = await lastEntry('/editBuylink')
    const res = await post('/revertAuditEntry', { id: edit.id, force: true }, second)
    expect(res.statusCode, res.body).toBe(200)
    expect(await storedUrl(id)).toBe('https://plain-a.example/buy')
    expect(await pending()).toBe(0)
  })
})

describe('an undo', () => {
  it('of a deleted link: refused while the setting is on, saying another admin must approve; nothing put back', async () => {
    const id = await newBuyLink('https://undo.example/buy')
    const token = await deleteBuyLink(id)
    await twoAdmins(true)
    const res = await post('/undo', { token })
    expect(res.statusCode, res.body).toBe(409)
    expect(bodyOf(res)['message']).toBe(undoNeedsSecondAdmin('https://undo.example/buy'))
    expect(await storedUrl(id)).toBeUndefined()
    expect(await pending()).toBe(0)
    // Off again, the same ticket still undoes it.
    await twoAdmins(false)
    expect((await post('/undo', { token })).statusCode).toBe(200)
    expect(await storedUrl(id)).toBe('https://undo.example/buy')
  })

  it('of a deleted link off the allowed domains: refused naming the host', async () => {
    const id = await newBuyLink('https://undo-off-list.example/buy')
    const token = await deleteBuyLink(id)
    await allowed(['allowed.example'])
    const res = await post('/undo', { token })
    expect(res.statusCode, res.body).toBe(400)
    expect(bodyOf(res)['message']).toBe('undo-off-list.example is not an allowed domain for outward links (Settings)')
    expect(await storedUrl(id)).toBeUndefined()
  })

  it('of a cleared social link: refused while the setting is on', async () => {
    await t.handle.db.update(socialMedia).set({ discordLink: 'https://discord.example/wallet' }).where(eq(socialMedia.id, fixtures.socialId))
    const cleared = await post('/Delete-socialmedia', { linkdata: 'discordLink', datas: { _id: fixtures.socialId } })
    expect(cleared.statusCode, cleared.body).toBe(200)
    const token = String((bodyOf(cleared)['undo'] as { token: string }).token)
    await twoAdmins(true)
    const res = await post('/undo', { token })
    expect(res.statusCode, res.body).toBe(409)
    expect(bodyOf(res)['message']).toBe(undoNeedsSecondAdmin('https://discord.example/wallet'))
    const [row] = await t.handle.db.select({ link: socialMedia.discordLink }).from(socialMedia).where(eq(socialMedia.id, fixtures.socialId))
    expect(row?.link).toBe('')
  })

  it('of a bulk delete of links: refused while the setting is on, and puts every link back once it is off', async () => {
    const ids = [await newBuyLink('https://bulk-undo.example/a'), await newBuyLink('https://bulk-undo.example/b')]
    const preview = await post('/previewBuyLinksBulk', { action: 'delete', selection: { ids } })
    expect(preview.statusCode, preview.body).toBe(200)
    const apply = await post('/applyBuyLinksBulk', { action: 'delete', selection: { ids }, token: String(bodyOf(preview)['token']) })
    expect(apply.statusCode, apply.body).toBe(200)
    let run = (bodyOf(apply)['run'] as { id: string; state: string; undo: { token: string } | null })
    for (let i = 0; i < 400 && bulkRunGoesOn(run as Parameters<typeof bulkRunGoesOn>[0]); i++) {
      await new Promise((r) => setTimeout(r, 25))
      run = bodyOf(await t.app.inject({ method: 'GET', url: `/api/admin/getBulkRun?id=${run.id}`, headers: await t.auth(t.superadmin) }))['run'] as typeof run
    }
    expect(await t.handle.db.$count(links, and(eq(links.kind, 'buy'), eq(links.url, 'https://bulk-undo.example/a')))).toBe(0)
    await twoAdmins(true)
    const refused = await post('/undo', { token: run.undo?.token ?? '' })
    expect(refused.statusCode, refused.body).toBe(409)
    expect(String(bodyOf(refused)['message'])).toMatch(/^This cannot be undone while "Two admins for outward links" is on: it would put back https:\/\/bulk-undo\.example\/[ab]/)
    expect(await storedUrl(ids[0] ?? '')).toBeUndefined()
    await twoAdmins(false)
    expect((await post('/undo', { token: run.undo?.token ?? '' })).statusCode).toBe(200)
    expect(await storedUrl(ids[0] ?? '')).toBe('https://bulk-undo.example/a')
    expect(await storedUrl(ids[1] ?? '')).toBe('https://bulk-undo.example/b')
  })

  it('of a delete with the setting off and an empty list: as before', async () => {
    const id = await newBuyLink('https://undo-plain.example/buy')
    const token = await deleteBuyLink(id)
    expect((await post('/undo', { token }, t.superadmin)).statusCode).toBe(200)
    expect(await storedUrl(id)).toBe('https://undo-plain.example/buy')
  })
})
