/**
 * Revert one audit entry's change (contract/audit.ts, `revertAuditEntry`): an edit, a delete, a
 * toggle, a settings and an access change are played back as new audited writes; a record changed since is refused with its
 * values now, then reverted over with `force`; a reader without the access the entry's own call
 * needs is refused, and so are entries that cannot be played back.
 */
import { and, desc, eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { REVERT_CONFLICT, REVERT_REFERENCED, REVERT_SECRET, RevertConflict } from '#contract/audit'
import { admins, auditLog, brands, leads, siteSettings, trash, type AdminRow } from '../db/schema.ts'
import { StoredChanges } from '../kit/request/audit-changes.ts'
import { bodyOf, makeTestApp } from './test-app.ts'

const t = await makeTestApp()
afterAll(async () => {
  await t.close()
})

let n = 0
const unique = (): string => `${Date.now().toString(36)}-${++n}`

async function post(path: string, payload: Record<string, unknown>, as: AdminRow = t.superadmin) {
  const res = await t.app.inject({ method: 'POST', url: `/api/admin/${path}`, headers: await t.auth(as), payload })
  return { status: res.statusCode, body: bodyOf(res) }
}

/** The newest audit row of a call. */
async function lastEntry(action: string) {
  const [row] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(1)
  if (row === undefined) throw new Error(`no audit row for ${action}`)
  return row
}

async function newBrand(): Promise<{ id: string; name: string }> {
  const name = `Revert brand ${unique()}`
  expect((await post('addBrand', { brandname: name, type: 'ipfs' })).body['status']).toBe('success')
  const [row] = await t.handle.db.select({ id: brands.id }).from(brands).where(eq(brands.brandname, name))
  if (row === undefined) throw new Error('brand not added')
  return { id: row.id, name }
}

const brandName = async (id: string): Promise<string | undefined> => (await t.handle.db.select({ name: brands.brandname }).from(brands).where(eq(brands.id, id)))[0]?.name

describe('revert an entry', () => {
  it('an edit: the before value is written back, as a new audited change', async () => {
    const brand = await newBrand()
    expect((await post('editbrandUser', { _id: brand.id, brandname: `${brand.name} renamed`, type: 'ipfs' })).body['status']).toBe('success')
    const edit = await lastEntry('/editbrandUser')
    const res = await post('revertAuditEntry', { id: edit.id })
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 'success', message: 'Change reverted' })
    expect(await brandName(brand.id)).toBe(brand.name)
    const revert = await lastEntry('/revertAuditEntry')
    expect(revert.recordId).toBe(brand.id)
    expect(revert.detail).toContain(edit.id)
    expect(StoredChanges.parse(revert.changes).rows).toEqual([
      { table: 'brands', record: brand.id, op: 'update', fields: [{ field: 'brandname', before: `${brand.name} renamed`, after: brand.name }] },
    ])
  })

  it('a delete: the record comes back with its id and fields, and its undo ticket is spent', async () => {
    const brand = await newBrand()
    const deleted = await post('deleteBrand', { id: brand.id })
    expect(deleted.body['status']).toBe('success')
    expect(await brandName(brand.id)).toBeUndefined()
    const entry = await lastEntry('/deleteBrand')
    expect(StoredChanges.parse(entry.changes).rows[0]).toMatchObject({ table: 'brands', record: brand.id, op: 'delete' })
    expect((await post('revertAuditEntry', { id: entry.id })).body['status']).toBe('success')
    expect(await brandName(brand.id)).toBe(brand.name)
    expect(await t.handle.db.$count(trash, and(eq(trash.recordId, brand.id), eq(trash.action, 'delete')))).toBe(0)
    // Reverting the delete again finds the record there: a change since, refused.
    const again = await post('revertAuditEntry', { id: entry.id })
    expect(again.status).toBe(409)
  })

  it('a toggle of access: a deactivated staff member is active again', async () => {
    const staff = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    expect((await post('ActivateSubadminStatusUpdate', { id: staff.id })).body['status']).toBe('success')
    const [off] = await t.handle.db.select({ activate: admins.activate, tokenVersion: admins.tokenVersion }).from(admins).where(eq(admins.id, staff.id))
    expect(off?.activate).not.toBe(1)
    const toggle = await lastEntry('/ActivateSubadminStatusUpdate')
    expect((await post('revertAuditEntry', { id: toggle.id })).body['status']).toBe('success')
    const [on] = await t.handle.db.select({ activate: admins.activate, tokenVersion: admins.tokenVersion }).from(admins).where(eq(admins.id, staff.id))
    expect(on?.activate).toBe(1)
    // The sessions the deactivation ended stay ended: the token version only moves forward.
    expect(on?.tokenVersion).toBe(off?.tokenVersion)
    expect(off?.tokenVersion).toBeGreaterThan(staff.tokenVersion)
  })

  it("a settings change: the site's version is back", async () => {
    const [settings] = await t.handle.db.insert(siteSettings).values({ version: '1.0.0' }).returning({ id: siteSettings.id })
    if (settings === undefined) throw new Error('no settings row')
    expect((await post('updateVersion', { _id: settings.id, version: '2.0.0' })).body['status']).toBe('success')
    const entry = await lastEntry('/updateVersion')
    expect((await post('revertAuditEntry', { id: entry.id })).body['status']).toBe('success')
    const [now] = await t.handle.db.select({ version: siteSettings.version }).from(siteSettings).where(eq(siteSettings.id, settings.id))
    expect(now?.version).toBe('1.0.0')
  })

  it("an access change: a staff member's screens are as they were", async () => {
    const staff = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const edited = await post('UpdateSubAdminUsers', { _id: staff.id, name: staff.name, email: staff.email, accessLevel: 'Admin', restrictions: ['/users', '/cms'] })
    expect(edited.body['status'], JSON.stringify(edited.body)).toBe('success')
    const entry = await lastEntry('/UpdateSubAdminUsers')
    expect((await post('revertAuditEntry', { id: entry.id })).body['status']).toBe('success')
    const [now] = await t.handle.db.select({ accessLevel: admins.accessLevel, restrictions: admins.restrictions }).from(admins).where(eq(admins.id, staff.id))
    expect(now).toEqual({ accessLevel: 'View Only', restrictions: ['/users'] })
    // Staff access is the superadmin's: an administrator of every screen may not revert it.
    await post('UpdateSubAdminUsers', { _id: staff.id, name: staff.name, email: staff.email, accessLevel: 'Admin', restrictions: ['/users', '/cms'] })
    const again = await lastEntry('/UpdateSubAdminUsers')
    const administrator = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
    expect((await post('revertAuditEntry', { id: again.id }, administrator)).status).toBe(403)
  })

  it('a record changed since: 409 with its values now, then reverted over with force', async () => {
    const brand = await newBrand()
    await post('editbrandUser', { _id: brand.id, brandname: `${brand.name} second`, type: 'ipfs' })
    const first = await lastEntry('/editbrandUser')
    await post('editbrandUser', { _id: brand.id, brandname: `${brand.name} third`, type: 'ipfs' })
    const refused = await post('revertAuditEntry', { id: first.id })
    expect(refused.status).toBe(409)
    const conflict = RevertConflict.parse(refused.body)
    expect(conflict.message).toBe(REVERT_CONFLICT)
    expect(conflict.current).toEqual([
      { table: 'brands', record: brand.id, op: 'update', fields: [{ field: 'brandname', before: `${brand.name} second`, after: `${brand.name} third`, secret: false }] },
    ])
    expect(await brandName(brand.id)).toBe(`${brand.name} third`)
    expect((await post('revertAuditEntry', { id: first.id, force: true })).body['status']).toBe('success')
    expect(await brandName(brand.id)).toBe(brand.name)
  })

  it("is refused to an admin without the write access the entry's call needs, and changes nothing", async () => {
    const brand = await newBrand()
    await post('editbrandUser', { _id: brand.id, brandname: `${brand.name} kept`, type: 'ipfs' })
    const edit = await lastEntry('/editbrandUser')
    // The Audit Log's write access, not the brands'.
    const auditor = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/audit'] })
    const refused = await post('revertAuditEntry', { id: edit.id }, auditor)
    expect(refused.status).toBe(403)
    expect(await brandName(brand.id)).toBe(`${brand.name} kept`)
    // Both screens but only to view: the revert's own rule refuses.
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/audit', '/brand'] })
    expect((await post('revertAuditEntry', { id: edit.id }, viewer)).status).toBe(403)
    expect(await brandName(brand.id)).toBe(`${brand.name} kept`)
    // The list tells each reader whether they may, and shows the changes only to readers of the brands' screen.
    const listed = async (as: AdminRow) => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/listAudit', headers: await t.auth(as), query: { record: brand.id } })
      const result = bodyOf(res)['result'] as { _id: string; revertible: boolean; changes: unknown[]; changesHidden: boolean }[]
      return result.find((e) => e._id === edit.id)
    }
    expect(await listed(auditor)).toMatchObject({ revertible: false, changes: [], changesHidden: true })
    expect(await listed(viewer)).toMatchObject({ revertible: false, changesHidden: false })
    expect((await listed(viewer))?.changes).toHaveLength(1)
    expect(await listed(t.superadmin)).toMatchObject({ revertible: true, changesHidden: false })
  })

  it('a create: the record goes, unless others refer to it now', async () => {
    const brand = await newBrand()
    const added = await lastEntry('/addBrand')
    expect((await post('revertAuditEntry', { id: added.id })).body['status']).toBe('success')
    expect(await brandName(brand.id)).toBeUndefined()

    // A brand added, then a lead referring to it: the brand's delete would clear the lead's brand.
    const other = await newBrand()
    const addedOther = await lastEntry('/addBrand')
    await t.handle.db.insert(leads).values({ name: 'Referred', email: `referred-${unique()}@example.com`, brandId: other.id })
    const refused = await post('revertAuditEntry', { id: addedOther.id, force: true })
    expect(refused).toMatchObject({ status: 409, body: { message: REVERT_REFERENCED } })
    expect(await brandName(other.id)).toBe(other.name)
  })

  it('refuses an entry that changed a secret, an unknown entry, and a sign-in', async () => {
    const email = `revert-secret-${unique()}@example.com`
    expect((await post('createSubAdminUsers', { name: 'Secret', email, password: 'Passw0rd!x', accessLevel: 'View Only', restrictions: ['/users'] })).body['status']).toBe('success')
    const created = await lastEntry('/createSubAdminUsers')
    const secret = await post('revertAuditEntry', { id: created.id })
    expect(secret).toMatchObject({ status: 400, body: { message: REVERT_SECRET } })
    expect((await post('revertAuditEntry', { id: 'no-such-entry' })).status).toBe(404)
    const signIn = await t.handle.db.insert(auditLog).values({ adminId: t.superadmin.id, action: '/login', changes: null }).returning({ id: auditLog.id })
    expect((await post('revertAuditEntry', { id: signIn[0]?.id ?? '' })).status).toBe(400)
  })
})
