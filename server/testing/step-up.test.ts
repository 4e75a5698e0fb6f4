/**
 * Step-up: the contract's `stepUp` endpoints (exporting every lead, creating or editing staff,
 * approving a mass send) are refused by the registrar (403, code step-up-required) unless the
 * session proved its owner within STEP_UP_MINUTES: sign-in counts, and so does proveIdentity's
 * password (and 2FA code when on). Spans the auth, leads and staff areas.
 */
import { eq } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STEP_UP_MESSAGE, STEP_UP_REQUIRED } from '#contract/common'
import { approveAccessRequest } from '#contract/access-requests'
import { contractModules, endpointsOf } from '#contract/testing/endpoint-table'
import { accessRequests, admins, auditLog, sessionTokens, type AdminRow } from '../db/schema.ts'
import { makeFixtures, samples, send } from './endpoint-samples.ts'
import { newTotpSecret, totpCode, totpStep } from '../kit/ground/access/two-factor-code.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from './test-app.ts'

let t: TestApp
beforeAll(async () => (t = await makeTestApp()))
afterAll(async () => await t.close())

const STEP_UP_MS = 5 * 60_000

async function loginAs(admin: AdminRow): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: admin.email, password: TEST_PASSWORD } })
  expect(res.statusCode).toBe(200)
  return String(bodyOf(res)['token'])
}

/** Moves the session's last proof `ms` into the past (as if it was signed in that long ago). */
async function ageProof(token: string, ms: number): Promise<void> {
  await t.handle.db
    .update(sessionTokens)
    .set({ provedAt: new Date(Date.now() - ms) })
    .where(eq(sessionTokens.jti, String(decodeJwt(token).jti)))
}

const get = (token: string, path: string) => t.app.inject({ method: 'GET', url: `/api/admin${path}`, headers: { authorization: `Bearer ${token}` } })
const post = (token: string, path: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { authorization: `Bearer ${token}` }, payload })
const exportAll = (token: string) => get(token, '/DownloadFile')
let n = 0
const newStaff = () => {
  n += 1
  return { name: `Stepped ${n}`, email: `stepped-${n}-${Date.now()}@example.com`, password: 'Passw0rd!', accessLevel: 'View Only', restrictions: ['/users'] }
}
const prove = (token: string, password: string, twoFACode = '') => post(token, '/proveIdentity', { password, twoFACode })

describe('stepUp endpoints', () => {
  it('are allowed right after sign-in (the sign-in is the proof)', async () => {
    const root = await loginAs(t.superadmin)
    expect((await exportAll(root)).statusCode).toBe(200)
    expect((await post(root, '/createSubAdminUsers', newStaff())).statusCode).toBe(200)
  })

  it('are refused with the step-up answer once the proof is older than STEP_UP_MINUTES, and change nothing', async () => {
    const root = await loginAs(t.superadmin)
    await ageProof(root, STEP_UP_MS + 1000)
    const refused = await exportAll(root)
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ status: 'failed', message: STEP_UP_MESSAGE, code: STEP_UP_REQUIRED, twoFactor: false, passkey: false })
    const staff = newStaff()
    const create = await post(root, '/createSubAdminUsers', staff)
    expect(create.statusCode).toBe(403)
    expect(bodyOf(create)['code']).toBe(STEP_UP_REQUIRED)
    const listed = await get(root, `/FetchSubAdminUsers?page=1&limit=10&search=${encodeURIComponent(staff.email)}`)
    expect(bodyOf(listed)['count']).toBe(0)
    // Calls without the flag go on as usual.
    expect((await get(root, '/getuser?page=1&limit=10')).statusCode).toBe(200)
  })

  it('refuses every flagged call of the contract the same way', async () => {
    const root = await loginAs(t.superadmin)
    await ageProof(root, STEP_UP_MS + 1000)
    const victim = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const calls = [
      await exportAll(root),
      await post(root, '/createSubAdminUsers', newStaff()),
      await post(root, '/UpdateSubAdminUsers', { _id: victim.id, name: victim.name, email: victim.email, accessLevel: 'Admin', restrictions: [] }),
      await post(root, '/approvePromotion', { id: 'x', round: 1 }),
      await post(root, '/approveNewsletter', { id: 'x' }),
    ]
    for (const res of calls) expect([res.statusCode, bodyOf(res)['code']]).toEqual([403, STEP_UP_REQUIRED])
  })

  it('are allowed again after proveIdentity with the password, until that proof expires', async () => {
    const root = await loginAs(t.superadmin)
    await ageProof(root, STEP_UP_MS + 1000)
    expect((await exportAll(root)).statusCode).toBe(403)
    const proved = await prove(root, TEST_PASSWORD)
    expect(proved.statusCode).toBe(200)
    expect(bodyOf(proved)).toEqual({ status: 'success', message: 'Identity confirmed' })
    expect((await exportAll(root)).statusCode).toBe(200)
    expect((await post(root, '/createSubAdminUsers', newStaff())).statusCode).toBe(200)
    // The proof is this session's: another session of the same admin is not let through by it.
    const other = await loginAs(t.superadmin)
    await ageProof(other, STEP_UP_MS + 1000)
    expect((await exportAll(other)).statusCode).toBe(403)
    // Five minutes on, the proof has expired.
    await ageProof(root, STEP_UP_MS + 1000)
    expect((await exportAll(root)).statusCode).toBe(403)
    const [row] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/proveIdentity'))
    expect(row?.adminId).toBe(t.superadmin.id)
  })

  it('refuses a wrong password (counted towards the lockout) and lets nothing through', async () => {
    const staff = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
    const token = await loginAs(staff)
    await ageProof(token, STEP_UP_MS + 1000)
    const wrong = await prove(token, 'Wrong@1234')
    expect(wrong.statusCode).toBe(400)
    expect(bodyOf(wrong)).toMatchObject({ status: 'failed', errors: { password: 'Incorrect password' } })
    expect((await t.lockoutOf(staff.email))?.failures ?? 0).toBeGreaterThan(0)
    expect((await exportAll(token)).statusCode).toBe(403)
  })

  it('asks an admin with 2FA for the code too: the refusal says so, the password alone answers TWO_FA', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ accessLevel: 'Admin', restrictions: [], totpSecret: secret, totpEnabled: true })
    const token = await t.tokenFor(staff)
    await ageProof(token, STEP_UP_MS + 1000)
    const refused = await exportAll(token)
    expect(refused.json()).toMatchObject({ code: STEP_UP_REQUIRED, twoFactor: true })
    const passwordOnly = await prove(token, TEST_PASSWORD)
    expect(passwordOnly.statusCode).toBe(200)
    expect(bodyOf(passwordOnly)['status']).toBe('TWO_FA')
    expect((await exportAll(token)).statusCode).toBe(403)
    const wrongCode = await prove(token, TEST_PASSWORD, totpCode(secret, totpStep() + 5))
    expect(wrongCode.statusCode).toBe(400)
    expect((await exportAll(token)).statusCode).toBe(403)
    const withCode = await prove(token, TEST_PASSWORD, totpCode(secret, totpStep()))
    expect(withCode.statusCode).toBe(200)
    expect(bodyOf(withCode)['status']).toBe('success')
    expect((await exportAll(token)).statusCode).toBe(200)
  })
})

describe('every stepUp call of the contract', () => {
  it('answers a stale proof 403 step-up-required, and changes nothing', async () => {
    const contractDir = new URL('../../contract/', import.meta.url).pathname
    const stepped = endpointsOf(await contractModules(contractDir)).filter((e) => e.stepUp === true)
    // The calls that also make staff, beside Create User and Edit User.
    expect(stepped.map((e) => e.name)).toEqual(expect.arrayContaining(['approveAccessRequest', 'ActivateSubadminStatusUpdate', 'unlockAdmin', 'exportAudit']))
    const fixtures = await makeFixtures(t)
    await t.handle.db.update(admins).set({ activate: 0 }).where(eq(admins.id, fixtures.victim.id))
    const root = await loginAs(t.superadmin)
    await ageProof(root, STEP_UP_MS + 1000)
    for (const e of stepped) {
      const sample = samples[e.name]
      expect(sample, `a sample payload for ${e.name}`).toBeDefined()
      const res = await send(t, e, { authorization: `Bearer ${root}` }, sample!(fixtures))
      expect([e.name, res.statusCode, bodyOf(res)['code']]).toEqual([e.name, 403, STEP_UP_REQUIRED])
    }
    // The request is still pending and the deactivated member still off.
    const [request] = await t.handle.db.select().from(accessRequests).where(eq(accessRequests.id, fixtures.approveRequest.id))
    expect(request).toBeDefined()
    const [victim] = await t.handle.db.select().from(admins).where(eq(admins.id, fixtures.victim.id))
    expect(victim?.activate).toBe(0)
    const [approved] = await t.handle.db.select().from(admins).where(eq(admins.email, fixtures.approveRequest.email))
    expect(approved).toBeUndefined()
  })
})

describe('approving an access request', () => {
  it('asks an approver with 2FA for the code, as Create User does', async () => {
    const secret = newTotpSecret()
    const approver = await t.createAdmin({ role: 'superadmin', accessLevel: 'Admin', restrictions: [], totpSecret: secret, totpEnabled: true })
    const token = await t.tokenFor(approver)
    const fixtures = await makeFixtures(t)
    const payload = samples[approveAccessRequest.name]!(fixtures)
    const json = 'json' in payload ? payload.json : {}
    const withoutCode = await post(token, '/approveAccessRequest', json)
    expect(bodyOf(withoutCode)['status']).toBe('TWO_FA')
    const [notYet] = await t.handle.db.select().from(admins).where(eq(admins.email, fixtures.approveRequest.email))
    expect(notYet).toBeUndefined()
    const withCode = await post(token, '/approveAccessRequest', { ...json, twoFACode: totpCode(secret, totpStep()) })
    expect(withCode.statusCode).toBe(200)
    expect(bodyOf(withCode)['status']).toBe('success')
    const [created] = await t.handle.db.select().from(admins).where(eq(admins.email, fixtures.approveRequest.email))
    expect(created?.activate).toBe(1)
  })
})
