import { eq } from 'drizzle-orm'
import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SocketEvents } from '#contract/socket'
import { admins, auditLog, loginFailures, loginPairFailures, mailOutbox, otpCodes, type AdminRow } from '../../db/schema.ts'
import { OTP_MAX_SENDS } from './otp.ts'
import {
  FORGOT_OTP_SENT,
  INVALID_OTP,
  NOT_YOUR_EMAIL,
  OTP_SENT,
  PASSWORD_CHANGED,
  PASSWORD_RESET,
  TOO_MANY_OTPS,
  WRONG_OLD_PASSWORD,
} from './routes.ts'
import { WRONG_2FA } from '../../kit/ground/access/sign-in-answers.ts'
import { otpFrom, startSmtpReceiver, type SmtpReceiver } from '../../testing/smtp-receiver.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { newTotpSecret, totpCode, totpStep } from '../../kit/ground/access/two-factor-code.ts'

const NEW_PASSWORD = 'Fresh#2024'

let t: TestApp
let smtp: SmtpReceiver
let url: string
const sockets: Socket[] = []
let address = 0
/** Each request comes from its own address, so the per-address limits bite only where tested. */
const nextAddress = (): string => `10.1.${Math.floor(++address / 250)}.${address % 250}`

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  t = await makeTestApp({ env: { SMTP_URL: smtp.url }, realtime: true })
  url = await t.app.listen({ port: 0, host: '127.0.0.1' })
})
afterAll(async () => {
  for (const s of sockets) s.close()
  await t.close()
  await smtp.close()
})

const post = async (path: string, payload: unknown, admin?: AdminRow, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(admin === undefined ? {} : await t.auth(admin)) }, remoteAddress })

const profileStatus = async (token: string): Promise<number> =>
  (await t.app.inject({ method: 'GET', url: '/api/admin/get-profile', headers: { authorization: `Bearer ${token}` } })).statusCode

const login = (email: string, password: string, twoFACode = '') =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password, twoFACode }, remoteAddress: nextAddress() })

/** Asks /send-mail for a code and reads it from the mail the SMTP receiver got. */
async function mailedCode(admin: AdminRow): Promise<string> {
  const res = await post('/send-mail', {}, admin)
  expect(bodyOf(res)).toEqual({ status: 'success', message: OTP_SENT })
  return otpFrom(await smtp.next(admin.email))
}

async function forgotCode(email: string): Promise<string> {
  const res = await post('/ForgotSend-mail', { email })
  expect(bodyOf(res)).toEqual({ status: 'success', message: FORGOT_OTP_SENT })
  return otpFrom(await smtp.next(email))
}

const change = (admin: AdminRow, otp: unknown, extra: Record<string, unknown> = {}) =>
  post('/change-password', { otp, oldPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email: admin.email, ...extra }, admin)

const reset = (email: string, otp: unknown, extra: Record<string, unknown> = {}) =>
  post('/forgot-password', { otp, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email, ...extra })

const otherCode = (code: string): string => (code === '000000' ? '111111' : '000000')

describe('Reset Password: /send-mail and /change-password', () => {
  it('mails a code over SMTP, changes the password with it, revokes old tokens and emits LOGOUT', async () => {
    const staff = await t.createAdmin()
    const oldToken = await t.tokenFor(staff)
    const socket = io(url, { auth: { token: `Bearer ${oldToken}` }, transports: ['websocket'], reconnection: false })
    sockets.push(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    socket.emit(SocketEvents.createRoom, staff.id)
    await new Promise((r) => setTimeout(r, 100))
    const loggedOut = new Promise<void>((resolve) => socket.once(SocketEvents.logout, () => resolve()))

    const code = await mailedCode(staff)
    const res = await change(staff, code)
    expect(res.statusCode).toBe(200)
    expect(bodyOf(res)).toEqual({ status: 'success', message: PASSWORD_CHANGED })
    await loggedOut
    expect(await profileStatus(oldToken)).toBe(401)
    expect(bodyOf(await login(staff.email, TEST_PASSWORD))['status']).toBe('failed')
    expect(bodyOf(await login(staff.email, NEW_PASSWORD))['status']).toBe('success')
    const audits = await t.handle.db.select().from(auditLog).where(eq(auditLog.adminId, staff.id))
    expect(audits.map((a) => a.action)).toEqual(expect.arrayContaining(['/send-mail', '/change-password']))
    expect(audits.find((a) => a.action === '/change-password')?.recordId).toBe(staff.id)
  })

  it('keeps only a keyed hash of the code, with a 10-minute life, and records the mail as sent', async () => {
    const staff = await t.createAdmin()
    const code = await mailedCode(staff)
    const [row] = await t.handle.db.select().from(otpCodes).where(eq(otpCodes.email, staff.email))
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/)
    expect(row?.codeHash).not.toContain(code)
    const life = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0)
    expect(life).toBe(10 * 60 * 1000)
    // The outbox row is marked once the SMTP server has acknowledged the message, just after it arrived.
    await expect
      .poll(async () => (await t.handle.db.select().from(mailOutbox).where(eq(mailOutbox.to, staff.email)))[0]?.sentAt, { timeout: 3000 })
      .toBeInstanceOf(Date)
  })

  it('accepts a code once only', async () => {
    const staff = await t.createAdmin()
    const code = await mailedCode(staff)
    expect(bodyOf(await change(staff, code))['status']).toBe('success')
    const again = await change({ ...staff, tokenVersion: staff.tokenVersion + 1 }, code, { oldPassword: NEW_PASSWORD, newPassword: 'Other#2024', confirmPassword: 'Other#2024' })
    expect(again.statusCode).toBe(400)
    expect(bodyOf(again)).toEqual({ status: 'failed', message: INVALID_OTP, errors: { otp: INVALID_OTP } })
  })

  it('voids a code after 5 wrong tries, even for the right code next', async () => {
    const staff = await t.createAdmin()
    const code = await mailedCode(staff)
    for (let i = 0; i < 5; i++) expect(bodyOf(await change(staff, otherCode(code)))['message']).toBe(INVALID_OTP)
    expect(bodyOf(await change(staff, code))['message']).toBe(INVALID_OTP)
    const [row] = await t.handle.db.select().from(admins).where(eq(admins.id, staff.id))
    expect(row?.passwordHash).toBe(staff.passwordHash)
  })

  it('voids the older code when a new one is sent', async () => {
    const staff = await t.createAdmin()
    const first = await mailedCode(staff)
    const second = await mailedCode(staff)
    if (first !== second) expect(bodyOf(await change(staff, first))['message']).toBe(INVALID_OTP)
    expect(bodyOf(await change(staff, second))['status']).toBe('success')
  })

  it('refuses an expired code', async () => {
    const staff = await t.createAdmin()
    const code = await mailedCode(staff)
    await t.handle.db.update(otpCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(otpCodes.email, staff.email))
    expect(bodyOf(await change(staff, code))['message']).toBe(INVALID_OTP)
  })

  it('answers 400 for an object, an array or null where the code belongs', async () => {
    const staff = await t.createAdmin()
    await mailedCode(staff)
    for (const otp of [{}, [], null, { $ne: '' }, 123456, '12345', '1234567', 'abcdef']) {
      const res = await change(staff, otp)
      expect({ otp, status: res.statusCode }).toEqual({ otp, status: 400 })
      expect(Object.keys(bodyOf(res)['errors'] ?? {})).toEqual(['otp'])
    }
  })

  it('checks the email, the old password and the confirmation, and a wrong old password changes nothing', async () => {
    const staff = await t.createAdmin()
    const code = await mailedCode(staff)
    expect(bodyOf(await change(staff, code, { email: 'someone.else@example.com' }))).toEqual({ status: 'failed', message: NOT_YOUR_EMAIL, errors: { email: NOT_YOUR_EMAIL } })
    const wrongOld = await change(staff, code, { oldPassword: 'Wrong@1234' })
    expect(bodyOf(wrongOld)).toEqual({ status: 'failed', message: WRONG_OLD_PASSWORD, errors: { oldPassword: WRONG_OLD_PASSWORD } })
    expect(bodyOf(await change(staff, code, { confirmPassword: 'Fresh#2025' }))['errors']).toEqual({ confirmPassword: 'Confirm password does not match' })
    const [row] = await t.handle.db.select().from(admins).where(eq(admins.id, staff.id))
    expect(row?.passwordHash).toBe(staff.passwordHash)
    expect(row?.tokenVersion).toBe(staff.tokenVersion)
  })

  it(`limits sends to ${OTP_MAX_SENDS} per email in the window and 10 per address`, async () => {
    const staff = await t.createAdmin()
    for (let i = 0; i < OTP_MAX_SENDS; i++) await mailedCode(staff)
    const over = await post('/send-mail', {}, staff)
    expect(over.statusCode).toBe(429)
    expect(bodyOf(over)).toEqual({ status: 'failed', message: TOO_MANY_OTPS })
    const from = nextAddress()
    const codes: number[] = []
    for (let i = 0; i < 11; i++) codes.push((await post('/ForgotSend-mail', { email: `nobody${i}@example.com` }, undefined, from)).statusCode)
    expect(codes.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 200))
    expect(codes[10]).toBe(429)
  })
})

describe('Forgot: /ForgotSend-mail and /forgot-password', () => {
  it('answers alike for known, unknown and deactivated emails, and mails only the known one', async () => {
    const staff = await t.createAdmin()
    const gone = await t.createAdmin({ activate: 0 })
    const known = await post('/ForgotSend-mail', { email: staff.email.toUpperCase() })
    const unknown = await post('/ForgotSend-mail', { email: 'nobody-here@example.com' })
    const deactivated = await post('/ForgotSend-mail', { email: gone.email })
    expect(known.statusCode).toBe(200)
    expect(unknown.statusCode).toBe(known.statusCode)
    expect(unknown.body).toBe(known.body)
    expect(deactivated.body).toBe(known.body)
    expect(otpFrom(await smtp.next(staff.email))).toMatch(/^\d{6}$/)
    const outbox = await t.handle.db.select({ to: mailOutbox.to }).from(mailOutbox)
    expect(outbox.map((m) => m.to)).not.toContain('nobody-here@example.com')
    expect(outbox.map((m) => m.to)).not.toContain(gone.email)
    // The per-email limit applies to unknown addresses too, so it cannot tell them apart either.
    for (const email of [staff.email, 'nobody-here@example.com']) {
      for (let i = 1; i < OTP_MAX_SENDS; i++) await post('/ForgotSend-mail', { email })
      const over = await post('/ForgotSend-mail', { email })
      expect({ email, status: over.statusCode, body: bodyOf(over) }).toEqual({ email, status: 429, body: { status: 'failed', message: TOO_MANY_OTPS } })
    }
  })

  it('resets the password with the mailed code, ends every session and lifts a lockout', async () => {
    const staff = await t.createAdmin()
    // Failures counted for the email, and the owner's usual address locked.
    const usual = nextAddress()
    const loginFrom = (password: string) => t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: staff.email, password, twoFACode: '' }, remoteAddress: usual })
    await t.handle.db.insert(loginFailures).values({ email: staff.email, failures: 9 })
    await t.handle.db.insert(loginPairFailures).values({ email: staff.email, address: usual, failures: 0, lockedUntil: new Date(Date.now() + 60_000) })
    expect((await loginFrom(TEST_PASSWORD)).statusCode).toBe(429)
    const tokens = [await t.tokenFor(staff), await t.tokenFor(staff)]
    const code = await forgotCode(staff.email)
    const res = await reset(staff.email, code)
    expect(bodyOf(res)).toEqual({ status: 'success', message: PASSWORD_RESET })
    for (const token of tokens) expect(await profileStatus(token)).toBe(401)
    expect(await t.lockoutOf(staff.email)).toBeUndefined()
    expect(await t.handle.db.select().from(loginPairFailures).where(eq(loginPairFailures.email, staff.email))).toEqual([])
    expect(bodyOf(await loginFrom(NEW_PASSWORD))['status']).toBe('success')
    expect(bodyOf(await reset(staff.email, code))['message']).toBe(INVALID_OTP)
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/forgot-password'))
    expect(audit).toMatchObject({ adminId: staff.id, recordId: staff.id })
  })

  it('gives the same answer for a guessed code on an unknown email as on a known one', async () => {
    const staff = await t.createAdmin()
    await forgotCode(staff.email)
    await post('/ForgotSend-mail', { email: 'ghost@example.com' })
    const a = await reset(staff.email, '000000')
    const b = await reset('ghost@example.com', '000000')
    expect(a.statusCode).toBe(b.statusCode)
    expect(a.body).toBe(b.body)
  })

  it('never skips an enabled 2FA: TWO_FA without a code, refused with a wrong one, reset with a good one', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    const code = await forgotCode(staff.email)
    const ask = await reset(staff.email, code)
    expect(ask.statusCode).toBe(200)
    expect(bodyOf(ask)['status']).toBe('TWO_FA')
    const good = totpCode(secret, totpStep())
    expect(bodyOf(await reset(staff.email, code, { twoFACode: otherCode(good) }))).toEqual({ status: 'failed', message: WRONG_2FA, errors: { twoFACode: WRONG_2FA } })
    let [row] = await t.handle.db.select().from(admins).where(eq(admins.id, staff.id))
    expect(row?.passwordHash).toBe(staff.passwordHash)
    expect((await t.lockoutOf(staff.email))?.failures).toBe(1)
    expect(bodyOf(await reset(staff.email, code, { twoFACode: good }))['status']).toBe('success')
    ;[row] = await t.handle.db.select().from(admins).where(eq(admins.id, staff.id))
    expect(row?.passwordHash).not.toBe(staff.passwordHash)
    expect(row?.totpEnabled).toBe(true)
    // No audit row claims a reset for the TWO_FA answer; one for the real reset.
    const audits = await t.handle.db.select().from(auditLog).where(eq(auditLog.adminId, staff.id))
    expect(audits.filter((a) => a.action === '/forgot-password')).toHaveLength(1)
  })

  it('refuses malformed input with the field messages', async () => {
    const res = await post('/forgot-password', { otp: null, newPassword: 'weak', confirmPassword: 'weak', email: 'x' })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)['errors']).toEqual({ otp: 'OTP is required', newPassword: 'Incorrect format', email: 'Incorrect format' })
    const send = await post('/ForgotSend-mail', { email: ['a@b.io'] })
    expect(send.statusCode).toBe(400)
    expect(bodyOf(send)['errors']).toEqual({ email: 'email is required' })
  })
})
