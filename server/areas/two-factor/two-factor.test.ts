import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCOUNT_LOCKED, WRONG_2FA } from '../../kit/ground/access/sign-in-answers.ts'
import { ALREADY_ENABLED, NOT_ENABLED, SETUP_FIRST, WRONG_PASSWORD } from './routes.ts'
import { admins, loginPairFailures, type AdminRow } from '../../db/schema.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { base32Decode, newTotpSecret, totpCode, totpStep } from '../../kit/ground/access/two-factor-code.ts'

let t: TestApp
let address = 0
const nextAddress = (): string => `10.2.${Math.floor(++address / 250)}.${address % 250}`

beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})

const post = async (path: string, payload: unknown, as: AdminRow) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(await t.auth(as)) } })
const login = (email: string, twoFACode = '', from = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password: TEST_PASSWORD, twoFACode }, remoteAddress: from })
const rowOf = async (id: string): Promise<AdminRow> => {
  const [row] = await t.handle.db.select().from(admins).where(eq(admins.id, id))
  if (row === undefined) throw new Error('no such admin')
  return row
}
const otherCode = (code: string): string => (code === '000000' ? '111111' : '000000')

/** Waits out the last seconds of a 30-second step, so codes computed now stay current during a test. */
async function freshStep(): Promise<number> {
  const intoStep = (Date.now() / 1000) % 30
  if (intoStep > 24) await new Promise((r) => setTimeout(r, (30 - intoStep + 0.2) * 1000))
  return totpStep()
}

/** Runs setup and enable for an admin and returns the secret. */
async function enroll(admin: AdminRow): Promise<string> {
  const setup = bodyOf(await post('/twofa-setup', {}, admin))
  const secret = String(setup['secret'])
  const enable = await post('/twofa-enable', { code: totpCode(secret, await freshStep()), password: TEST_PASSWORD }, admin)
  expect(bodyOf(enable)).toEqual({ status: 'success', message: 'Two-factor authentication enabled' })
  return secret
}

describe('2FA enrolment from Profile', () => {
  it('answers the secret once as an otpauth URI, a PNG QR code and text, and keeps it pending', async () => {
    const staff = await t.createAdmin()
    const res = await post('/twofa-setup', {}, staff)
    expect(res.statusCode).toBe(200)
    const body = bodyOf(res)
    const secret = String(body['secret'])
    expect(base32Decode(secret)).toHaveLength(20)
    expect(String(body['otpauthUrl'])).toMatch(new RegExp(`^otpauth://totp/.+\\?secret=${secret}&issuer=`))
    expect(String(body['otpauthUrl'])).toContain(encodeURIComponent(staff.email))
    const png = Buffer.from(String(body['qr']).replace(/^data:image\/png;base64,/, ''), 'base64')
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
    expect((await rowOf(staff.id)).totpEnabled).toBe(false)
    expect(await t.totpSecretOf(staff.id)).toEqual({ stored: expect.not.stringContaining(secret), opened: secret })
    // Pending: login does not ask for a code yet, and the profile says 2FA is off.
    expect(bodyOf(await login(staff.email))['status']).toBe('success')
    const profile = await t.app.inject({ method: 'GET', url: '/api/admin/get-profile', headers: await t.auth(staff) })
    expect(bodyOf(profile)['data']).toMatchObject({ twoFactorEnabled: false })
    expect(profile.body).not.toContain(secret)
  })

  it('enables only with the password and a first code, then login answers TWO_FA until a valid code', async () => {
    const staff = await t.createAdmin()
    expect(bodyOf(await post('/twofa-enable', { code: '123456', password: TEST_PASSWORD }, staff))).toEqual({ status: 'failed', message: SETUP_FIRST })
    const secret = String(bodyOf(await post('/twofa-setup', {}, staff))['secret'])
    const code = totpCode(secret, await freshStep())
    expect(bodyOf(await post('/twofa-enable', { code, password: 'Wrong@1234' }, staff))).toEqual({ status: 'failed', message: WRONG_PASSWORD, errors: { password: WRONG_PASSWORD } })
    expect(bodyOf(await post('/twofa-enable', { code: otherCode(code), password: TEST_PASSWORD }, staff))).toEqual({ status: 'failed', message: WRONG_2FA, errors: { code: WRONG_2FA } })
    expect((await rowOf(staff.id)).totpEnabled).toBe(false)
    expect(bodyOf(await post('/twofa-enable', { code, password: TEST_PASSWORD }, staff))['status']).toBe('success')
    expect((await rowOf(staff.id)).totpEnabled).toBe(true)
    expect(await t.totpSecretOf(staff.id)).toEqual({ stored: expect.not.stringContaining(secret), opened: secret })
    expect(bodyOf(await login(staff.email))).toEqual({ status: 'TWO_FA', message: 'Enter the 6-digit code from your authenticator app' })
    // The code that confirmed enrolment is spent; the next step's code signs in.
    expect(bodyOf(await login(staff.email, code))['message']).toBe(WRONG_2FA)
    expect(bodyOf(await login(staff.email, totpCode(secret, totpStep() + 1)))['status']).toBe('success')
    expect(bodyOf(await post('/twofa-setup', {}, staff))).toEqual({ status: 'failed', message: ALREADY_ENABLED })
    expect((await t.totpSecretOf(staff.id)).opened).toBe(secret)
  })

  it('refuses {} [] null and malformed codes with 400', async () => {
    const staff = await t.createAdmin()
    for (const code of [{}, [], null, 12345, '12345', 'abcdef']) {
      const res = await post('/twofa-disable', { code }, staff)
      expect({ code, status: res.statusCode }).toEqual({ code, status: 400 })
      expect(Object.keys(bodyOf(res)['errors'] ?? {})).toEqual(['code'])
    }
    expect(bodyOf(await post('/twofa-enable', { code: '123456' }, staff))['errors']).toEqual({ password: 'password is required' })
  })
})

describe('2FA at login', () => {
  it('accepts a code once per time step and tolerates one step of drift either way, no more', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    const step = await freshStep()
    expect(bodyOf(await login(staff.email, totpCode(secret, step - 1)))['status']).toBe('success')
    expect(bodyOf(await login(staff.email, totpCode(secret, step - 1)))['message']).toBe(WRONG_2FA)
    expect(bodyOf(await login(staff.email, totpCode(secret, step + 2)))['message']).toBe(WRONG_2FA)
    expect(bodyOf(await login(staff.email, totpCode(secret, step + 1)))['status']).toBe('success')
    // Older than the last accepted step: refused even though inside the drift window.
    expect(bodyOf(await login(staff.email, totpCode(secret, step)))['message']).toBe(WRONG_2FA)
  })

  it('lets only one of three logins racing with the same code through', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    const code = totpCode(secret, await freshStep())
    const answers = await Promise.all([login(staff.email, code), login(staff.email, code), login(staff.email, code)])
    expect(answers.map((a) => bodyOf(a)['status']).sort()).toEqual(['failed', 'failed', 'success'])
  })

  it('ends the attempt after 5 wrong codes: the account locks at that address, even for the right code', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    const good = totpCode(secret, await freshStep())
    const from = nextAddress()
    for (let i = 0; i < 5; i++) expect(bodyOf(await login(staff.email, otherCode(good), from))['message']).toBe(WRONG_2FA)
    const locked = await login(staff.email, good, from)
    expect(locked.statusCode).toBe(429)
    expect(bodyOf(locked)['message']).toBe(ACCOUNT_LOCKED)
  })
})

describe('disabling 2FA', () => {
  it('needs a current code, then login stops asking', async () => {
    const staff = await t.createAdmin()
    const secret = await enroll(staff)
    const next = totpCode(secret, totpStep() + 1)
    expect(bodyOf(await post('/twofa-disable', { code: otherCode(next) }, staff))).toEqual({ status: 'failed', message: WRONG_2FA, errors: { code: WRONG_2FA } })
    expect((await rowOf(staff.id)).totpEnabled).toBe(true)
    expect(bodyOf(await post('/twofa-disable', { code: next }, staff))).toEqual({ status: 'success', message: 'Two-factor authentication disabled' })
    expect(await rowOf(staff.id)).toMatchObject({ totpEnabled: false, totpSecret: null, totpLastStep: null })
    expect(bodyOf(await login(staff.email))['status']).toBe('success')
    expect(bodyOf(await post('/twofa-disable', { code: next }, staff))).toEqual({ status: 'failed', message: NOT_ENABLED })
  })

  it('ends the sessions of a caller who gets the code wrong 5 times', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    const token = await t.tokenFor(staff)
    const good = totpCode(secret, await freshStep())
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const disable = (code: string) => t.app.inject({ method: 'POST', url: '/api/admin/twofa-disable', headers, payload: JSON.stringify({ code }) })
    for (let i = 0; i < 5; i++) expect((await disable(otherCode(good))).statusCode).toBe(400)
    expect((await disable(good)).statusCode).toBe(401)
    const row = await rowOf(staff.id)
    expect(row.totpEnabled).toBe(true)
    expect(row.tokenVersion).toBe(staff.tokenVersion + 1)
    // All five came from one address (inject's default): that pair is locked.
    const [pair] = await t.handle.db.select().from(loginPairFailures).where(eq(loginPairFailures.email, staff.email))
    expect(pair?.lockedUntil?.getTime() ?? 0).toBeGreaterThan(Date.now())
  })
})
