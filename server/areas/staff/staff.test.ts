import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SocketEvents } from '#contract/socket'
import { ACCOUNT_DEACTIVATED, WRONG_2FA } from '../../kit/ground/access/sign-in-answers.ts'
import { ABOVE_YOU, SUPERADMIN_UNTOUCHABLE, touchCheck } from './routes.ts'
import { EMAIL_TAKEN, LEVEL_ABOVE_YOURS, PAGES_ABOVE_YOURS, grantCheck, normalizeRestrictions } from '../../kit/rules/access/grants.ts'
import { admins, auditLog, loginFailures, type AdminRow } from '../../db/schema.ts'
import { TEST_PASSWORD, bodyOf, listOf, type TestApp } from '../../testing/test-app.ts'
import { openLiveApp, type LiveApp } from '../../testing/live-app.ts'
import { newTotpSecret, totpCode, totpStep } from '../../kit/ground/access/two-factor-code.ts'

let t: TestApp
let live: LiveApp
let n = 0
const uniqueEmail = (): string => `member${++n}-${Date.now()}@example.com`

beforeAll(async () => {
  live = await openLiveApp()
  t = live.t
})
afterAll(() => live.close())

const post = async (path: string, payload: unknown, as: AdminRow = t.superadmin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(await t.auth(as)) } })
const fetchList = async (query: Record<string, string>, as: AdminRow = t.superadmin) =>
  t.app.inject({ method: 'GET', url: '/api/admin/FetchSubAdminUsers', query, headers: await t.auth(as) })
const rowOf = async (id: string): Promise<AdminRow | undefined> => (await t.handle.db.select().from(admins).where(eq(admins.id, id)))[0]
const byEmail = async (email: string): Promise<AdminRow | undefined> => (await t.handle.db.select().from(admins).where(eq(admins.email, email.toLowerCase())))[0]
const profileStatus = async (token: string): Promise<number> =>
  (await t.app.inject({ method: 'GET', url: '/api/admin/get-profile', headers: { authorization: `Bearer ${token}` } })).statusCode

/** A socket of `admin` in their room, and a promise of the LOGOUT it receives. */
async function listen(admin: AdminRow): Promise<{ loggedOut: Promise<void>; got: () => boolean }> {
  const socket = await live.connect(`Bearer ${await t.tokenFor(admin)}`)
  socket.emit(SocketEvents.createRoom, admin.id)
  await new Promise((r) => setTimeout(r, 100))
  let got = false
  const loggedOut = new Promise<void>((resolve) =>
    socket.once(SocketEvents.logout, () => {
      got = true
      resolve()
    }),
  )
  return { loggedOut, got: () => got }
}

const newUser = (fields: Record<string, unknown> = {}) => ({
  name: 'Ann Lee',
  email: uniqueEmail(),
  password: 'Passw0rd!',
  accessLevel: 'View Only',
  restrictions: ['/users'],
  ...fields,
})

describe('access rules (requirements R5.13)', () => {
  it('adds the child pages of each chosen parent for Admin and removes child pages for View Only', () => {
    expect(normalizeRestrictions('Admin', ['/category', '/users'], false)).toEqual(['/users', '/lead', '/category', '/add-category', '/edit-category'])
    expect(normalizeRestrictions('View Only', ['/category', '/add-category', '/edit-cms', '/sub-admin'], false)).toEqual(['/category', '/sub-admin'])
    expect(normalizeRestrictions('Admin', [], false)).toEqual([])
  })

  it('adds /profile and /resetpassword on edit to a chosen list, never to the empty (all pages) one', () => {
    expect(normalizeRestrictions('View Only', ['/users'], true)).toEqual(['/users', '/profile', '/resetpassword'])
    expect(normalizeRestrictions('Admin', [], true)).toEqual([])
  })
})

describe('privilege ceiling', () => {
  const limited = { role: 'subadmin', accessLevel: 'Admin', restrictions: ['/users', '/category'] } as const
  const viewer = { role: 'subadmin', accessLevel: 'View Only', restrictions: [] } as const

  it('refuses a level or pages the granting admin does not hold', () => {
    expect(grantCheck(limited, 'Admin', ['/users'])).toBeNull()
    expect(grantCheck(limited, 'Admin', ['/users', '/cms'])?.message).toBe(PAGES_ABOVE_YOURS)
    expect(grantCheck(limited, 'View Only', [])?.message).toBe(PAGES_ABOVE_YOURS)
    expect(grantCheck(viewer, 'Admin', ['/users'])?.message).toBe(LEVEL_ABOVE_YOURS)
    expect(grantCheck(viewer, 'View Only', ['/cms'])).toBeNull()
    expect(grantCheck({ role: 'superadmin', accessLevel: 'Admin', restrictions: [] }, 'Admin', [])).toBeNull()
  })

  it('refuses to touch a superadmin or someone holding more', () => {
    expect(touchCheck(limited, { role: 'superadmin', accessLevel: 'Admin', restrictions: [] })?.message).toBe(SUPERADMIN_UNTOUCHABLE)
    expect(touchCheck(limited, { role: 'subadmin', accessLevel: 'Admin', restrictions: [] })?.message).toBe(ABOVE_YOU)
    expect(touchCheck(limited, { role: 'subadmin', accessLevel: 'View Only', restrictions: ['/users'] })).toBeNull()
  })

  it('keeps sub-admins, even Admin ones with the Users and Access page, away from every staff write', async () => {
    const manager = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/sub-admin', '/add-subAdmin', '/edit-subAdmin'] })
    const victim = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const before = await t.handle.db.select().from(admins)
    const attempts = [
      await post('/createSubAdminUsers', newUser({ accessLevel: 'Admin', restrictions: [] }), manager),
      await post('/UpdateSubAdminUsers', { _id: victim.id, name: 'X', email: victim.email, accessLevel: 'Admin', restrictions: [] }, manager),
      await post('/UpdateSubAdminUsers', { _id: t.superadmin.id, name: 'X', email: 'root@example.com', accessLevel: 'View Only', restrictions: ['/users'] }, manager),
      await post('/ActivateSubadminStatusUpdate', { id: t.superadmin.id }, manager),
      await post('/ActivateSubadminStatusUpdate', { id: victim.id }, manager),
    ]
    expect(attempts.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403])
    expect(await t.handle.db.select().from(admins)).toEqual(before)
    // Reading the list is allowed with the page.
    expect((await fetchList({}, manager)).statusCode).toBe(200)
  })
})

describe('POST /createSubAdminUsers', () => {
  it('creates a subadmin with a hashed password and the access rules applied, and audits the new id', async () => {
    const email = uniqueEmail()
    const res = await post('/createSubAdminUsers', newUser({ email: email.toUpperCase(), accessLevel: 'Admin', restrictions: ['/category', '/users'] }))
    expect(res.statusCode).toBe(200)
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'User created successfully' })
    const row = await byEmail(email)
    expect(row).toMatchObject({ name: 'Ann Lee', role: 'subadmin', accessLevel: 'Admin', activate: 1, restrictions: ['/users', '/lead', '/category', '/add-category', '/edit-category'] })
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/)
    expect(await t.passwords.verify(row?.passwordHash ?? '', 'Passw0rd!')).toBe(true)
    const [audit] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/createSubAdminUsers'), eq(auditLog.recordId, row?.id ?? '')))
    expect(audit).toMatchObject({ adminId: t.superadmin.id })
    expect(audit?.at).toBeInstanceOf(Date)
    // The new user signs in and gets the claims of requirements R3.17.
    const login = await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password: 'Passw0rd!' } })
    expect(bodyOf(login)['status']).toBe('success')
  })

  it('refuses a duplicate email whatever its case, and unknown routes', async () => {
    const email = uniqueEmail()
    expect((await post('/createSubAdminUsers', newUser({ email }))).statusCode).toBe(200)
    const again = await post('/createSubAdminUsers', newUser({ email: email.toUpperCase() }))
    expect(again.statusCode).toBe(400)
    expect(bodyOf(again)).toEqual({ status: 'failed', message: EMAIL_TAKEN, errors: { email: EMAIL_TAKEN } })
    const unknown = await post('/createSubAdminUsers', newUser({ restrictions: ['/users', '/api/admin/login'] }))
    expect(bodyOf(unknown)['errors']).toEqual({ restrictions: 'Incorrect format' })
    expect(bodyOf(await post('/createSubAdminUsers', newUser({ restrictions: [] })))['errors']).toEqual({ restrictions: 'Access is required' })
  })

  it('refuses a View Only list of child pages only, which the access rules would empty into every page', async () => {
    const email = uniqueEmail()
    const res = await post('/createSubAdminUsers', newUser({ email, accessLevel: 'View Only', restrictions: ['/add-category', '/edit-cms'] }))
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: 'Access is required', errors: { restrictions: 'Access is required' } })
    expect(await byEmail(email)).toBeUndefined()
    const staff = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const edit = await post('/UpdateSubAdminUsers', { _id: staff.id, name: 'X', email: staff.email, accessLevel: 'View Only', restrictions: ['/addbrand'] })
    expect(bodyOf(edit)).toEqual({ status: 'failed', message: 'Restrictions is required', errors: { restrictions: 'Restrictions is required' } })
    expect((await rowOf(staff.id))?.restrictions).toEqual(['/users'])
  })

  it('asks a creator with 2FA for a code (TWO_FA), creates nothing until it comes, and accepts it once', async () => {
    const secret = newTotpSecret()
    await t.handle.db.update(admins).set({ totpSecret: secret, totpEnabled: true }).where(eq(admins.id, t.superadmin.id))
    try {
      const user = newUser()
      const ask = await post('/createSubAdminUsers', user)
      expect(ask.statusCode).toBe(200)
      expect(bodyOf(ask)).toEqual({ status: 'TWO_FA', message: 'Enter the 6-digit code from your authenticator app' })
      expect(await byEmail(user.email)).toBeUndefined()
      expect(await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/createSubAdminUsers'))).not.toContainEqual(expect.objectContaining({ recordId: null }))
      const code = totpCode(secret, totpStep())
      const wrong = await post('/createSubAdminUsers', { ...user, twoFACode: code === '000000' ? '111111' : '000000' })
      expect(bodyOf(wrong)).toEqual({ status: 'failed', message: WRONG_2FA, errors: { twoFACode: WRONG_2FA } })
      expect(await byEmail(user.email)).toBeUndefined()
      expect(bodyOf(await post('/createSubAdminUsers', { ...user, twoFACode: code }))['status']).toBe('success')
      // The same code again (same time step) is refused.
      const replay = await post('/createSubAdminUsers', { ...newUser(), twoFACode: code })
      expect(bodyOf(replay)['message']).toBe(WRONG_2FA)
    } finally {
      await t.handle.db.update(admins).set({ totpSecret: null, totpEnabled: false, totpLastStep: null }).where(eq(admins.id, t.superadmin.id))
      await t.handle.db.delete(loginFailures).where(eq(loginFailures.email, t.superadmin.email))
    }
  })
})

describe('GET /FetchSubAdminUsers', () => {
  it('pages and searches staff by name and email, without the superadmin or any secret', async () => {
    const tag = `zed${Date.now()}`
    for (let i = 0; i < 3; i++) await t.createAdmin({ name: `Zed ${tag} ${i}`, totpSecret: newTotpSecret() })
    await t.createAdmin({ email: `${tag}@example.com`, name: 'Mail Match' })
    const page1 = bodyOf(await fetchList({ search: tag.toUpperCase(), page: '1', limit: '3' }))
    expect(page1['count']).toBe(4)
    expect(listOf(page1, 'result')).toHaveLength(3)
    const page2 = bodyOf(await fetchList({ search: tag, page: '2', limit: '3' }))
    expect(listOf(page2, 'result')).toHaveLength(1)
    const everyone = bodyOf(await fetchList({ limit: '100' }))
    const rows = listOf(everyone, 'result')
    expect(rows.every((r) => r['role'] === 'subadmin')).toBe(true)
    expect(rows.map((r) => r['_id'])).not.toContain(t.superadmin.id)
    for (const r of rows) expect(Object.keys(r).sort()).toEqual(['_id', 'accessLevel', 'activate', 'email', 'name', 'restrictions', 'role', 'setupPending', 'version'])
    expect(JSON.stringify(everyone)).not.toMatch(/argon2|password|totp|secret|otp/i)
    // LIKE wildcards in the search are literal.
    expect(bodyOf(await fetchList({ search: '%' }))['count']).toBe(0)
  })
})

describe('GET /getSubAdminUser', () => {
  const getOne = async (id: string, as: AdminRow = t.superadmin) =>
    t.app.inject({ method: 'GET', url: '/api/admin/getSubAdminUser', query: { _id: id }, headers: await t.auth(as) })

  it('reads one staff member for Edit User with the listed fields only, never a hash or secret', async () => {
    const member = await t.createAdmin({ name: 'Ola Nor', accessLevel: 'View Only', restrictions: ['/users', '/cms'], totpSecret: newTotpSecret(), totpEnabled: true })
    const body = bodyOf(await getOne(member.id))
    expect(body).toEqual({
      status: 'success',
      message: 'User fetched',
      data: { _id: member.id, name: 'Ola Nor', email: member.email, accessLevel: 'View Only', role: 'subadmin', restrictions: ['/users', '/cms'], activate: 1, version: 1, setupPending: false },
    })
    expect(JSON.stringify(body)).not.toMatch(/argon2|password|totp|secret|otp/i)
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/sub-admin'] })
    expect((await getOne(member.id, viewer)).statusCode).toBe(200)
    const other = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/users'] })
    expect((await getOne(member.id, other)).statusCode).toBe(403)
  })

  it('answers 404 Record not found for an unknown id and for the superadmin, whom the list does not show either', async () => {
    for (const id of ['no-such-id', t.superadmin.id]) {
      const res = await getOne(id)
      expect(res.statusCode).toBe(404)
      expect(bodyOf(res)).toEqual({ status: 'failed', message: 'Record not found', errors: { _id: 'Record not found' } })
    }
  })
})

describe('POST /UpdateSubAdminUsers', () => {
  it('saves the fields with the edit rules, revokes the tokens on an access change and emits LOGOUT', async () => {
    const staff = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const oldToken = await t.tokenFor(staff)
    const socket = await listen(staff)
    const email = uniqueEmail()
    const res = await post('/UpdateSubAdminUsers', { _id: staff.id, name: 'Renamed', email, accessLevel: 'Admin', restrictions: ['/cms'] })
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'User updated successfully' })
    expect(await rowOf(staff.id)).toMatchObject({
      name: 'Renamed',
      email,
      accessLevel: 'Admin',
      role: 'subadmin',
      restrictions: ['/cms', '/add-cms', '/edit-cms', '/edit-token', '/profile', '/resetpassword'],
      tokenVersion: staff.tokenVersion + 1,
      passwordHash: staff.passwordHash,
    })
    await socket.loggedOut
    expect(await profileStatus(oldToken)).toBe(401)
    const [audit] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/UpdateSubAdminUsers'), eq(auditLog.recordId, staff.id)))
    expect(audit?.adminId).toBe(t.superadmin.id)
  })

  it('keeps sessions when only the name changes', async () => {
    const staff = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users', '/profile', '/resetpassword'] })
    const token = await t.tokenFor(staff)
    const socket = await listen(staff)
    await post('/UpdateSubAdminUsers', { _id: staff.id, name: 'Only Name', email: staff.email, accessLevel: 'View Only', restrictions: ['/users'] })
    await new Promise((r) => setTimeout(r, 150))
    expect(socket.got()).toBe(false)
    expect(await profileStatus(token)).toBe(200)
    expect((await rowOf(staff.id))?.name).toBe('Only Name')
  })

  it('refuses the superadmin, unknown ids and a taken email', async () => {
    const staff = await t.createAdmin()
    const other = await t.createAdmin()
    const superEdit = await post('/UpdateSubAdminUsers', { _id: t.superadmin.id, name: 'X', email: 'x@example.com', accessLevel: 'View Only', restrictions: ['/users'] })
    expect(superEdit.statusCode).toBe(403)
    expect(bodyOf(superEdit)['message']).toBe(SUPERADMIN_UNTOUCHABLE)
    expect(await rowOf(t.superadmin.id)).toMatchObject({ name: 'Super Admin', accessLevel: 'Admin', restrictions: [] })
    const missing = await post('/UpdateSubAdminUsers', { _id: 'no-such-id', name: 'X', email: uniqueEmail(), accessLevel: 'Admin', restrictions: [] })
    expect(missing.statusCode).toBe(404)
    const taken = await post('/UpdateSubAdminUsers', { _id: staff.id, name: 'X', email: other.email.toUpperCase(), accessLevel: 'Admin', restrictions: [] })
    expect(bodyOf(taken)['errors']).toEqual({ email: EMAIL_TAKEN })
    expect((await rowOf(staff.id))?.email).toBe(staff.email)
  })
})

describe('POST /ActivateSubadminStatusUpdate', () => {
  it('deactivates at once (token refused, login refused, LOGOUT) and activates again', async () => {
    const staff = await t.createAdmin()
    const token = await t.tokenFor(staff)
    const socket = await listen(staff)
    const off = await post('/ActivateSubadminStatusUpdate', { id: staff.id })
    expect(bodyOf(off)).toEqual({ status: 'success', message: 'User deactivated successfully' })
    await socket.loggedOut
    expect(await profileStatus(token)).toBe(401)
    const login = () => t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: staff.email, password: TEST_PASSWORD } })
    expect(bodyOf(await login())).toEqual({ status: 'failed', message: ACCOUNT_DEACTIVATED })
    const on = await post('/ActivateSubadminStatusUpdate', { id: staff.id })
    expect(bodyOf(on)).toEqual({ status: 'success', message: 'User activated successfully' })
    expect((await rowOf(staff.id))?.activate).toBe(1)
    // Tokens from before the deactivation stay dead; a new login works.
    expect(await profileStatus(token)).toBe(401)
    expect(bodyOf(await login())['status']).toBe('success')
    const audits = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/ActivateSubadminStatusUpdate'), eq(auditLog.recordId, staff.id)))
    expect(audits).toHaveLength(2)
  })

  it('sets the state asked for, so a retried request changes nothing more; without one it flips', async () => {
    const staff = await t.createAdmin()
    for (let i = 0; i < 2; i++) {
      expect(bodyOf(await post('/ActivateSubadminStatusUpdate', { id: staff.id, activate: 0 }))['message']).toBe('User deactivated successfully')
      expect(await rowOf(staff.id)).toMatchObject({ activate: 0, tokenVersion: staff.tokenVersion + 1 })
    }
    expect(bodyOf(await post('/ActivateSubadminStatusUpdate', { id: staff.id, activate: 1 }))['message']).toBe('User activated successfully')
    expect(bodyOf(await post('/ActivateSubadminStatusUpdate', { id: staff.id, activate: 1 }))['message']).toBe('User activated successfully')
    expect(await rowOf(staff.id)).toMatchObject({ activate: 1, tokenVersion: staff.tokenVersion + 1 })
    expect(bodyOf(await post('/ActivateSubadminStatusUpdate', { id: staff.id }))['message']).toBe('User deactivated successfully')
    expect(bodyOf(await post('/ActivateSubadminStatusUpdate', { id: staff.id, activate: 2 }))['errors']).toEqual({ activate: 'Incorrect format' })
  })

  it('never deactivates the superadmin, and answers 404 for an unknown id', async () => {
    const res = await post('/ActivateSubadminStatusUpdate', { id: t.superadmin.id })
    expect(res.statusCode).toBe(403)
    expect((await rowOf(t.superadmin.id))?.activate).toBe(1)
    expect((await post('/ActivateSubadminStatusUpdate', { id: 'nope' })).statusCode).toBe(404)
    expect((await post('/ActivateSubadminStatusUpdate', {})).statusCode).toBe(400)
  })
})
