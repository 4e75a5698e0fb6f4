import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Passwords, revokeSessions, signToken, verifyToken } from './auth.ts'
import { admins, auditLog, loginPairFailures } from '../../../db/schema.ts'
import { ACCOUNT_DEACTIVATED, ACCOUNT_LOCKED, LOGIN_FAILED, WRONG_2FA } from './sign-in-answers.ts'
import { SUPERADMIN_EMAIL, TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from '../../../testing/test-app.ts'
import { newTotpSecret, totpCode, totpStep } from './two-factor-code.ts'

let t: TestApp
let address = 0
/** Each test logs in from its own address, so the per-address limit only bites where tested. */
const nextAddress = (): string => `10.0.${Math.floor(++address / 250)}.${address % 250}`

const login = (body: Record<string, unknown>, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: body, remoteAddress })

beforeAll(async () => {
  t = await makeTestApp({ env: { LOGIN_RATE_LIMIT: '8' } })
})
afterAll(async () => {
  await t.close()
})

describe('POST /login', () => {
  it('signs in the superadmin with a token carrying the required claims, an expiry and a jti', async () => {
    const res = await login({ email: SUPERADMIN_EMAIL.toUpperCase(), password: TEST_PASSWORD, twoFACode: '' })
    expect(res.statusCode).toBe(200)
    const body = bodyOf(res)
    expect(body['status']).toBe('success')
    const token = String(body['token'])
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'HS256' })
    const claims = decodeJwt(token)
    expect(claims).toMatchObject({ _id: t.superadmin.id, email: SUPERADMIN_EMAIL, role: 'superadmin', accessLevel: 'Admin', restrictions: [] })
    expect(typeof claims.jti).toBe('string')
    expect((claims.exp ?? Infinity) - (claims.iat ?? 0)).toBeLessThanOrEqual(12 * 3600)
    const again = bodyOf(await login({ email: SUPERADMIN_EMAIL, password: TEST_PASSWORD }))
    expect(again['token']).not.toBe(token)
    const audits = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/login'))
    expect(audits.length).toBeGreaterThanOrEqual(2)
  })

  it('gives the same answer for an unknown email and a wrong password', async () => {
    const unknown = await login({ email: 'nobody@example.com', password: TEST_PASSWORD })
    const wrong = await login({ email: SUPERADMIN_EMAIL, password: 'Wrong@1234' })
    expect(unknown.statusCode).toBe(wrong.statusCode)
    expect(unknown.body).toBe(wrong.body)
    expect(bodyOf(wrong)).toEqual({ status: 'failed', message: LOGIN_FAILED })
  })

  it('answers field errors with the required messages for missing and malformed input', async () => {
    const res = await login({})
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toMatchObject({ status: 'failed', errors: { email: 'email is required', password: 'password is required' } })
    const bad = bodyOf(await login({ email: 'not-an-email', password: 'short', twoFACode: 'abc' }))
    expect(bad['errors']).toEqual({ email: 'Incorrect format', password: 'Incorrect format', twoFACode: 'Incorrect format' })
  })

  it('locks the email at that address for 10 minutes after 5 failures, even for the right password', async () => {
    const staff = await t.createAdmin()
    const from = nextAddress()
    for (let i = 0; i < 5; i++) expect(bodyOf(await login({ email: staff.email, password: 'Wrong@1234' }, from))['message']).toBe(LOGIN_FAILED)
    const locked = await login({ email: staff.email, password: TEST_PASSWORD }, from)
    expect(locked.statusCode).toBe(429)
    expect(bodyOf(locked)['message']).toBe(ACCOUNT_LOCKED)
    const pair = and(eq(loginPairFailures.email, staff.email), eq(loginPairFailures.address, from))
    const [row] = await t.handle.db.select().from(loginPairFailures).where(pair)
    const minutes = ((row?.lockedUntil?.getTime() ?? 0) - Date.now()) / 60_000
    expect(minutes).toBeGreaterThan(9)
    expect(minutes).toBeLessThanOrEqual(10)
    // Once the lock has passed, the right password works again from there.
    await t.handle.db.update(loginPairFailures).set({ lockedUntil: new Date(Date.now() - 1000) }).where(pair)
    expect((await login({ email: staff.email, password: TEST_PASSWORD }, from)).statusCode).toBe(200)
  })

  it('limits attempts per address', async () => {
    const from = nextAddress()
    const codes: number[] = []
    // A new email each time, so the per-email lock (5 failures) never answers for the address limit.
    for (let i = 0; i < 8; i++) codes.push((await login({ email: `nobody${i}@example.com`, password: 'Wrong@1234' }, from)).statusCode)
    expect(codes).toEqual(Array.from({ length: 8 }, () => 400))
    const over = await login({ email: 'nobody8@example.com', password: 'Wrong@1234' }, from)
    expect({ status: over.statusCode, body: bodyOf(over) }).toEqual({ status: 429, body: { status: 'failed', message: 'Too many attempts, please try again later' } })
    // Another address is not affected.
    expect((await login({ email: SUPERADMIN_EMAIL, password: TEST_PASSWORD })).statusCode).toBe(200)
  })

  it('refuses a deactivated admin', async () => {
    const staff = await t.createAdmin({ activate: 0 })
    const res = await login({ email: staff.email, password: TEST_PASSWORD })
    expect(bodyOf(res)).toEqual({ status: 'failed', message: ACCOUNT_DEACTIVATED })
  })

  it('asks for the 2FA code, accepts a valid one once, and refuses wrong or reused codes', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    const ask = await login({ email: staff.email, password: TEST_PASSWORD })
    expect(ask.statusCode).toBe(200)
    expect(bodyOf(ask)).toEqual({ status: 'TWO_FA', message: 'Enter the 6-digit code from your authenticator app' })
    const code = totpCode(secret, totpStep())
    const wrongCode = code === '000000' ? '111111' : '000000'
    expect(bodyOf(await login({ email: staff.email, password: TEST_PASSWORD, twoFACode: wrongCode }))).toMatchObject({ status: 'failed', message: WRONG_2FA })
    const ok = bodyOf(await login({ email: staff.email, password: TEST_PASSWORD, twoFACode: code }))
    expect(ok['status']).toBe('success')
    const replay = bodyOf(await login({ email: staff.email, password: TEST_PASSWORD, twoFACode: code }))
    expect(replay['message']).toBe(WRONG_2FA)
    // A wrong password never reaches the 2FA step.
    expect(bodyOf(await login({ email: staff.email, password: 'Wrong@1234' }))['message']).toBe(LOGIN_FAILED)
  })

  it('spends about the same time on an unknown email as on a wrong password', async () => {
    // Library-default cost here, as in production: with it, skipping the dummy hash would be ~100x faster.
    const passwords = new Passwords(null)
    const hash = await passwords.hash(TEST_PASSWORD)
    const timed = async (work: () => Promise<unknown>): Promise<number> => {
      const start = performance.now()
      await work()
      return performance.now() - start
    }
    // Interleaved, so a slow moment of a loaded machine falls on both alike; medians of seven.
    await passwords.verifyDummy('warm-up')
    const wrongTimes: number[] = []
    const unknownTimes: number[] = []
    for (let i = 0; i < 7; i++) {
      wrongTimes.push(await timed(() => passwords.verify(hash, 'Wrong@1234')))
      unknownTimes.push(await timed(() => passwords.verifyDummy('Wrong@1234')))
    }
    const median = (times: number[]): number => [...times].sort((a, b) => a - b)[3] ?? 0
    const wrong = median(wrongTimes)
    const unknown = median(unknownTimes)
    expect(unknown / wrong).toBeGreaterThan(0.33)
    expect(unknown / wrong).toBeLessThan(3)
  })
})

describe('session tokens', () => {
  const profile = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/api/admin/get-profile', headers: authorization === undefined ? {} : { authorization } })

  it('accepts a valid token', async () => {
    const res = await profile(`Bearer ${await t.tokenFor(t.superadmin)}`)
    expect(res.statusCode).toBe(200)
    expect(bodyOf(res)['data']).toEqual({
      _id: t.superadmin.id,
      name: 'Super Admin',
      email: SUPERADMIN_EMAIL,
      role: 'superadmin',
      accessLevel: 'Admin',
      restrictions: [],
      twoFactorEnabled: false,
    })
    expect(JSON.stringify(bodyOf(res))).not.toMatch(/password|totp|secret/i)
  })

  it('refuses missing, forged, expired, revoked and malformed tokens with 401', async () => {
    const valid = await t.tokenFor(t.superadmin)
    const [h, , s] = valid.split('.')
    const claims = { _id: t.superadmin.id, email: SUPERADMIN_EMAIL, role: 'superadmin', accessLevel: 'Admin', restrictions: [], tv: 0 }
    const now = Math.floor(Date.now() / 1000)
    const sign = (alg: string, key: Uint8Array, build: (j: SignJWT) => SignJWT) =>
      build(new SignJWT(claims).setProtectedHeader({ alg }).setJti('x')).sign(key)
    const otherKey = new TextEncoder().encode('another-secret-another-secret-another-secret')
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
    const edited = `${h}.${b64({ ...decodeJwt(valid), restrictions: ['/users'] })}.${s}`
    const staff = await t.createAdmin()
    const revokedToken = await t.tokenFor(staff)
    await t.handle.db.update(admins).set({ tokenVersion: 1 }).where(eq(admins.id, staff.id))
    const other = await t.createAdmin()
    const deactivatedToken = await t.tokenFor(other)
    await t.handle.db.update(admins).set({ activate: 0 }).where(eq(admins.id, other.id))

    const cases: Record<string, string | undefined> = {
      'no header': undefined,
      'alg none': `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, exp: now + 600, iat: now, jti: 'x' })}.`,
      'wrong key': `Bearer ${await sign('HS256', otherKey, (j) => j.setIssuedAt().setExpirationTime('1h'))}`,
      'HS512 with our key': `Bearer ${await sign('HS512', t.config.jwtSecret, (j) => j.setIssuedAt().setExpirationTime('1h'))}`,
      expired: `Bearer ${await sign('HS256', t.config.jwtSecret, (j) => j.setIssuedAt(now - 7200).setExpirationTime(now - 3600))}`,
      'no expiry': `Bearer ${await sign('HS256', t.config.jwtSecret, (j) => j.setIssuedAt())}`,
      'longer than 12 hours': `Bearer ${await sign('HS256', t.config.jwtSecret, (j) => j.setIssuedAt().setExpirationTime('30d'))}`,
      'edited payload': `Bearer ${edited}`,
      'lower-case scheme': `bearer ${valid}`,
      'no scheme': valid,
      'two spaces': `Bearer  ${valid}`,
      'other scheme': `Token ${valid}`,
      'truncated signature': `Bearer ${valid.slice(0, -4)}`,
      revoked: `Bearer ${revokedToken}`,
      deactivated: `Bearer ${deactivatedToken}`,
    }
    for (const [name, header] of Object.entries(cases)) {
      const res = await profile(header)
      expect({ name, status: res.statusCode }).toEqual({ name, status: 401 })
      expect(bodyOf(res)['status']).toBe('failed')
    }
  })
})

describe('revokeSessions', () => {
  it('counts every revocation, even when several race', async () => {
    const staff = await t.createAdmin()
    await Promise.all([revokeSessions(t.handle.db, staff.id), revokeSessions(t.handle.db, staff.id), revokeSessions(t.handle.db, staff.id)])
    const [row] = await t.handle.db.select({ tv: admins.tokenVersion }).from(admins).where(eq(admins.id, staff.id))
    expect(row?.tv).toBe(staff.tokenVersion + 3)
  })
})

describe('POST /edit-profile', () => {
  it('changes the name of the signed-in admin', async () => {
    const staff = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const headers = await t.auth(staff)
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/edit-profile', headers, payload: { name: '  Dana Reyes ' } })
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'Profile updated successfully' })
    const [row] = await t.handle.db.select().from(admins).where(eq(admins.id, staff.id))
    expect(row?.name).toBe('Dana Reyes')
  })

  it('requires a name, ignores fields it does not know, and requires a session', async () => {
    const staff = await t.createAdmin()
    const headers = await t.auth(staff)
    const empty = await t.app.inject({ method: 'POST', url: '/api/admin/edit-profile', headers, payload: { name: '  ' } })
    expect(empty.statusCode).toBe(400)
    expect(bodyOf(empty)).toEqual({ status: 'failed', message: 'Name is required', errors: { name: 'Name is required' } })
    await t.app.inject({ method: 'POST', url: '/api/admin/edit-profile', headers, payload: { name: 'New', role: 'superadmin', accessLevel: 'Admin', restrictions: [] } })
    const [row] = await t.handle.db.select().from(admins).where(eq(admins.id, staff.id))
    expect(row?.role).toBe('subadmin')
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/admin/edit-profile', payload: { name: 'X' } })
    expect(anonymous.statusCode).toBe(401)
  })
})

describe('signToken', () => {
  it('gives a token exactly the configured life even when a second turns while it is signed', async () => {
    // A clock that moves 400 ms each time it is read, from 100 ms before a second turns: reading
    // it twice while signing (issued at, then expires at) would cross into the next second.
    const RealDate = Date
    let at = 1_800_000_000_900
    class SteppingDate extends RealDate {
      constructor(...args: [] | [number]) {
        if (args.length === 0) {
          super(at)
          at += 400
        } else super(args[0])
      }
      static override now(): number {
        const now = at
        at += 400
        return now
      }
    }
    vi.stubGlobal('Date', SteppingDate)
    let token: string
    try {
      token = await signToken(t.config, t.superadmin)
    } finally {
      vi.unstubAllGlobals()
    }
    const claims = decodeJwt(token)
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(t.config.tokenTtlSeconds)
    expect(await verifyToken(t.config, token)).not.toBeNull()
  })
})
