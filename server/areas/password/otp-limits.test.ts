/**
 * One-time-code guessing: a wrong code counts towards the sign-in lock of the
 * email and address, and every check, right or wrong, takes one of the email's OTP_DAILY_GUESSES
 * of the day; past them every check is refused with its own message until the day's window ends,
 * the same for an email without an account.
 */
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { otpGuesses } from '../../db/schema.ts'
import { ACCOUNT_LOCKED, LOGIN_FAILED } from '../../kit/ground/access/sign-in-answers.ts'
import { INVALID_OTP, PASSWORD_RESET } from './routes.ts'
import { MAX_FAILURES } from '../../kit/ground/access/lockout.ts'
import { OTP_GUESS_WINDOW_MS, issueOtp, otpCapMessage } from './otp.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'

const NEW_PASSWORD = 'Fresh#2024'
const DAILY = 20

let t: TestApp
let address = 0
const nextAddress = (): string => `10.6.${Math.floor(++address / 250)}.${address % 250}`
const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: bodyOf(res) })
const reset = (email: string, otp: string, from = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/admin/forgot-password', payload: { otp, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email, twoFACode: '' }, remoteAddress: from })
const login = (email: string, password: string, from = nextAddress()) =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password, twoFACode: '' }, remoteAddress: from })
const INVALID = { status: 400, body: { status: 'failed', message: INVALID_OTP, errors: { otp: INVALID_OTP } } }
/** A code that is not `code`. */
const other = (code: string): string => (code === '000000' ? '111111' : '000000')

beforeAll(async () => {
  // The email slow-down (10 failures from any address) would answer before the cap does here.
  t = await makeTestApp({ env: { LOGIN_SLOW_AFTER: '1000', OTP_DAILY_GUESSES: String(DAILY) } })
})
afterAll(async () => {
  await t.close()
})

describe('one-time-code guesses', () => {
  it('count wrong codes towards the sign-in lock of that email and address', async () => {
    const staff = await t.createAdmin()
    const from = nextAddress()
    const code = await issueOtp(t.handle.db, t.config, staff.email, 'forgot-password')
    for (let i = 0; i < MAX_FAILURES; i++) expect(answer(await reset(staff.email, other(code), from))).toEqual(INVALID)
    // The pair is locked: neither the right code nor the right password gets an answer from there.
    expect(answer(await reset(staff.email, code, from))).toEqual({ status: 429, body: { status: 'failed', message: ACCOUNT_LOCKED, errors: { otp: ACCOUNT_LOCKED } } })
    expect(answer(await login(staff.email, TEST_PASSWORD, from)).status).toBe(429)
    // Elsewhere the owner signs in: a wrong password there is a plain refusal.
    expect(answer(await login(staff.email, 'Wrong@1234')).body['message']).toBe(LOGIN_FAILED)
    expect(bodyOf(await login(staff.email, TEST_PASSWORD))['status']).toBe('success')
  })

  it(`cap checks at ${DAILY} per email a day, right or wrong, alike for an email without an account`, async () => {
    const staff = await t.createAdmin()
    const ghost = `ghost-${randomBytes(4).toString('hex')}@example.com`
    // No code needs to be live for a guess to count; each from its own address, so no pair locks.
    for (let i = 0; i < DAILY; i++) {
      const [a, b] = [answer(await reset(staff.email, '123456')), answer(await reset(ghost, '123456'))]
      expect(a).toEqual(INVALID)
      expect(b).toEqual(a)
    }
    // Now even the right code is refused, with a message that says when, the same for both.
    const codes = [await issueOtp(t.handle.db, t.config, staff.email, 'forgot-password'), await issueOtp(t.handle.db, t.config, ghost, 'forgot-password')]
    const capped = [answer(await reset(staff.email, codes[0] ?? '')), answer(await reset(ghost, codes[1] ?? ''))]
    const message = otpCapMessage(OTP_GUESS_WINDOW_MS)
    expect(message).toBe('Too many OTP attempts for this email. Please try again in 24 hours.')
    expect(capped[0]).toEqual({ status: 429, body: { status: 'failed', message, errors: { otp: message } } })
    expect(capped[1]).toEqual(capped[0])
    // Once the day's window has passed, the right code works.
    await t.handle.db
      .update(otpGuesses)
      .set({ windowStart: new Date(Date.now() - OTP_GUESS_WINDOW_MS - 1000) })
      .where(eq(otpGuesses.email, staff.email))
    expect(answer(await reset(staff.email, codes[0] ?? ''))).toEqual({ status: 200, body: { status: 'success', message: PASSWORD_RESET } })
    expect(await t.handle.db.select().from(otpGuesses).where(eq(otpGuesses.email, staff.email))).toMatchObject([{ guesses: 1 }])
  })

  it('lets no more parallel checks through than the cap', async () => {
    const staff = await t.createAdmin()
    const answers = await Promise.all(Array.from({ length: DAILY + 6 }, () => reset(staff.email, '123456')))
    const statuses = answers.map((a) => a.statusCode)
    expect(statuses.filter((s) => s === 400)).toHaveLength(DAILY)
    expect(statuses.filter((s) => s === 429)).toHaveLength(6)
  })
})
