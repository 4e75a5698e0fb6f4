import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AuditEntry } from '#contract/audit'
import { admins, auditLog, type AdminRow } from '../../db/schema.ts'
import { bodyOf, makeTestApp, multipart, testEngine, type TestApp } from '../../testing/test-app.ts'
import { gradientIcon } from '../../db/png.ts'

let t: TestApp
let admin: AdminRow
let auditor: AdminRow
let outsider: AdminRow
const Page = z.object({ result: z.array(AuditEntry), count: z.number() })

beforeAll(async () => {
  t = await makeTestApp()
  admin = await t.createAdmin({ name: 'Ada Admin', accessLevel: 'Admin', restrictions: [] })
  auditor = await t.createAdmin({ name: 'Vera Viewer', accessLevel: 'View Only', restrictions: ['/audit'] })
  outsider = await t.createAdmin({ name: 'Otto Other', accessLevel: 'Admin', restrictions: ['/category', '/add-category', '/edit-category'] })
  // Some history: two categories added by Ada, one by Otto, one deleted.
  const png = { field: 'image', name: 'a.png', type: 'image/png', content: gradientIcon(16, [20, 80, 200], [120, 200, 255]) }
  for (const [who, name] of [[admin, 'Alpha'], [admin, 'Beta'], [outsider, 'Gamma']] as const) {
    const form = await multipart({ categoryName: name }, [png])
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/addcategory', payload: form.payload, headers: { ...form.headers, ...(await t.auth(who)) } })
    expect(res.statusCode).toBe(200)
  }
})
afterAll(() => t.close())

async function list(query: Record<string, string | number>, who: AdminRow = auditor) {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/listAudit', query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])), headers: await t.auth(who) })
  expect(res.statusCode).toBe(200)
  return Page.parse(res.json())
}

describe(`audit log (${testEngine()})`, () => {
  it('lists every write newest first, with who, what area and which record', async () => {
    const page = await list({ action: '/addcategory' })
    expect(page.count).toBe(3)
    expect(page.result.map((e) => e.adminName)).toEqual(['Otto Other', 'Ada Admin', 'Ada Admin'])
    expect(page.result[0]).toMatchObject({ area: 'Categories', action: '/addcategory', event: 'Category added', adminEmail: outsider.email })
    expect(page.result[0]?.recordId).not.toBe('')
  })

  it('names each record as its list does and links to it, only for a reader who may open that list', async () => {
    const [gamma] = (await list({ action: '/addcategory' }, admin)).result
    expect(gamma).toMatchObject({ recordName: 'Gamma', recordHref: '/category?search=Gamma' })
    // The auditor reads the audit log only: the record stays an id, its name unread.
    const [unnamed] = (await list({ action: '/addcategory' })).result
    expect(unnamed).toMatchObject({ recordId: gamma?.recordId, recordName: '', recordHref: '' })
  })

  it('filters by admin, area, action and date range, and searches, with exact counts', async () => {
    expect((await list({ admin: admin.id, action: '/addcategory' })).count).toBe(2)
    expect((await list({ area: 'Categories' })).count).toBe(3)
    expect((await list({ area: 'Brands' })).count).toBe(0)
    const today = new Date().toISOString().slice(0, 10)
    expect((await list({ action: '/addcategory', from: today, to: today })).count).toBe(3)
    expect((await list({ action: '/addcategory', to: '2020-01-01' })).count).toBe(0)
    const [first] = (await list({ action: '/addcategory' })).result
    expect((await list({ search: first?.recordId ?? 'x' })).result.map((e) => e._id)).toContain(first?._id)
    const paged = await list({ action: '/addcategory', limit: 2, page: 2 })
    expect(paged.result).toHaveLength(1)
    expect(paged.count).toBe(3)
  })

  it('refuses a malformed date with the field named', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/listAudit?from=yesterday', headers: await t.auth(auditor) })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toMatchObject({ errors: { from: 'Incorrect format' } })
    // The right shape but no such day (found by the fuzz: it was a 500).
    for (const bad of ['2026-02-30', '0700-25-23']) {
      const shaped = await t.app.inject({ method: 'GET', url: `/api/admin/listAudit?to=${bad}`, headers: await t.auth(auditor) })
      expect(shaped.statusCode, bad).toBe(400)
    }
  })

  it('is refused to staff not granted the page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/listAudit', headers: await t.auth(outsider) })
    expect(res.statusCode).toBe(403)
  })

  it("gives a record its own history: the list filtered by that record's id", async () => {
    const [first] = (await list({ action: '/addcategory' })).result
    const history = await list({ record: first?.recordId ?? '' })
    expect(history.result.map((e) => e._id)).toEqual([first?._id])
    expect(history.count).toBe(1)
    // Exactly that id: a prefix of it is no match.
    expect((await list({ record: (first?.recordId ?? '').slice(0, 8) })).count).toBe(0)
  })

  it('offers the staff, areas and actions to filter on', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/auditOptions', headers: await t.auth(auditor) })
    const body = z.object({ admins: z.array(z.object({ value: z.string(), label: z.string() })), areas: z.array(z.object({ value: z.string() })), actions: z.array(z.object({ value: z.string(), label: z.string() })) }).parse(res.json())
    expect(body.admins.map((a) => a.value)).toContain(admin.id)
    expect(body.areas.map((a) => a.value)).toEqual(expect.arrayContaining(['Categories', 'Sign-in', 'Messaging']))
    expect(body.actions).toEqual(
      expect.arrayContaining([
        { value: '/addcategory', label: 'Category added' },
        { value: 'lockout', label: 'Account locked' },
        { value: 'sign-in-failed', label: 'Failed sign-in' },
        { value: 'forced-logout', label: 'Forced logout' },
        { value: '/login', label: 'Signed in' },
      ]),
    )
    // Reads are not actions: nothing is written for them.
    expect(body.actions.map((a) => a.value)).not.toContain('/listCategory')
  })

  it('exports the filtered log as CSV, formulas neutralised', async () => {
    await t.handle.db.insert(auditLog).values({ adminId: null, action: 'sign-in-failed', detail: '=cmd|calc', ip: '10.0.0.9' })
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/exportAudit', query: { action: 'sign-in-failed' }, headers: await t.auth(auditor) })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toContain('text/csv')
    expect(res.headers['content-disposition']).toContain('audit-log.csv')
    const lines = res.body.trim().split('\n')
    expect(lines[0]).toBe('When (UTC),Name,Email,Area,Action,Record,Address,Detail')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain(`,Sign-in,sign-in-failed,"",10.0.0.9,'=cmd|calc`)
  })

  it('streams a large export in batches, every row once', async () => {
    await t.handle.db.execute(sql`insert into audit_log (admin_id, action, record_id) select ${admin.id}, '/bulk-test', 'r' || g from generate_series(1, 4500) g`)
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/exportAudit', query: { action: '/bulk-test' }, headers: await t.auth(auditor) })
    const records = res.body.trim().split('\n').slice(1).map((l) => l.split(',')[5])
    expect(records).toHaveLength(4500)
    expect(new Set(records).size).toBe(4500)
  })

  it('cannot be changed or deleted, not even by SQL', async () => {
    await expect(t.handle.db.execute(sql`update audit_log set action = 'rewritten'`)).rejects.toThrow()
    await expect(t.handle.db.execute(sql`delete from audit_log`)).rejects.toThrow()
    await expect(t.handle.db.execute(sql`truncate audit_log`)).rejects.toThrow()
    expect((await list({ action: '/addcategory' })).count).toBe(3)
  })
})

describe(`sign-in events in the audit log (${testEngine()})`, () => {
  const login = (email: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password, twoFACode: '' }, remoteAddress })
  const events = async (action: string, ip: string) => (await list({ action, search: ip })).result.filter((e) => e.ip === ip)

  it('records a failed sign-in for a wrong password, naming the admin, the email and the address, never the password', async () => {
    const staff = await t.createAdmin({ name: 'Wendy Wrong' })
    const res = await login(staff.email.toUpperCase(), 'Wrong@9876', '10.1.0.1')
    expect(bodyOf(res)).toMatchObject({ status: 'failed', message: 'Invalid email or password' })
    const [row, ...more] = await events('sign-in-failed', '10.1.0.1')
    expect(more).toHaveLength(0)
    expect(row).toMatchObject({ area: 'Sign-in', action: 'sign-in-failed', adminId: '', recordId: staff.id, detail: `${staff.email} (wrong password)` })
    const raw = await t.handle.db.select().from(auditLog).where(sql`${auditLog.detail} like ${'%Wrong@9876%'}`)
    expect(raw).toHaveLength(0)
    // The admin's own history shows it (Edit User's History).
    expect((await list({ record: staff.id })).result.map((e) => e.action)).toContain('sign-in-failed')
  })

  it('records a failed sign-in for an unknown email the same way, with the email as typed and no record', async () => {
    const res = await login('  Nobody.Here@Example.com', 'Wrong@9876', '10.1.0.2')
    expect(bodyOf(res)).toMatchObject({ status: 'failed', message: 'Invalid email or password' })
    const rows = await events('sign-in-failed', '10.1.0.2')
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ recordId: '', adminId: '', detail: 'nobody.here@example.com (wrong password)' })
  })

  it('records the lockout after five failures, and each failure before it', async () => {
    const staff = await t.createAdmin()
    for (let i = 0; i < 5; i++) await login(staff.email, 'Wrong@9876', '10.1.0.3')
    expect(bodyOf(await login(staff.email, 'Test@1234', '10.1.0.3'))['message']).toMatch(/^Too many failed attempts/)
    expect(await events('sign-in-failed', '10.1.0.3')).toHaveLength(5)
    const [lock, ...more] = await events('lockout', '10.1.0.3')
    expect(more).toHaveLength(0)
    expect(lock).toMatchObject({ area: 'Sign-in', recordId: staff.id, detail: staff.email })
  })

  it('records a deactivated admin signing in as a failed sign-in', async () => {
    const staff = await t.createAdmin({ activate: 0 })
    expect(bodyOf(await login(staff.email, 'Test@1234', '10.1.0.4'))['message']).toBe('Your account has been deactivated')
    expect((await events('sign-in-failed', '10.1.0.4'))[0]).toMatchObject({ recordId: staff.id, detail: `${staff.email} (account deactivated)` })
  })

  it('records a sign-in, named Signed in', async () => {
    const staff = await t.createAdmin()
    expect(bodyOf(await login(staff.email, 'Test@1234', '10.1.0.5'))['status']).toBe('success')
    const [row] = await events('/login', '10.1.0.5')
    expect(row).toMatchObject({ adminId: staff.id, recordId: staff.id, area: 'Sign-in' })
    expect(row?.event).toBe('Signed in')
  })

  it("records a forced logout when the superadmin deactivates an admin or changes their access, in the admin's history", async () => {
    const staff = await t.createAdmin({ restrictions: ['/category', '/add-category', '/edit-category'] })
    const off = await t.app.inject({ method: 'POST', url: '/api/admin/ActivateSubadminStatusUpdate', payload: { id: staff.id, activate: 0 }, headers: await t.auth(t.superadmin) })
    expect(bodyOf(off)['status']).toBe('success')
    // Deactivating again ends nothing more: no second row.
    await t.app.inject({ method: 'POST', url: '/api/admin/ActivateSubadminStatusUpdate', payload: { id: staff.id, activate: 0 }, headers: await t.auth(t.superadmin) })
    const history = (await list({ record: staff.id })).result
    const forced = history.filter((e) => e.action === 'forced-logout')
    expect(forced).toHaveLength(1)
    expect(forced[0]).toMatchObject({ area: 'Sign-in', adminId: t.superadmin.id, detail: 'deactivated' })
    expect(history.map((e) => e.action)).toContain('/ActivateSubadminStatusUpdate')

    const other = await t.createAdmin({ restrictions: ['/category', '/add-category', '/edit-category'] })
    const [fresh] = await t.handle.db.select().from(admins).where(eq(admins.id, other.id))
    const edit = await t.app.inject({
      method: 'POST',
      url: '/api/admin/UpdateSubAdminUsers',
      payload: { _id: other.id, name: other.name, email: other.email, accessLevel: 'View Only', restrictions: ['/category'], version: fresh?.version },
      headers: await t.auth(t.superadmin),
    })
    expect(bodyOf(edit)['status']).toBe('success')
    expect((await list({ record: other.id, action: 'forced-logout' })).result[0]).toMatchObject({ detail: 'access changed' })
  })
})
