/**
 * The sign-in lockout cannot tell which emails exist: it counts per email whether or not an admin
 * has it, answers a locked known email and a locked unknown one alike, and bounds parallel guesses.
 */
import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { eq, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { loginFailures } from '../db/schema.ts'
import { FORGET_MS, MAX_FAILURES } from './lockout.ts'
import { ACCOUNT_LOCKED, LOGIN_FAILED, WRONG_2FA } from '../routes/auth.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from '../testing/test-app.ts'
import { newTotpSecret, totpCode, totpStep } from './two-factor-code.ts'

let t: TestApp
let address = 0
/** Each login comes from its own address, so the per-address limit never stands in for the lock. */
const nextAddress = (): string => `10.4.${Math.floor(++address / 250)}.${address % 250}`
const login = (email: string, password: string, twoFACode = '') =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password, twoFACode }, remoteAddress: nextAddress() })
const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: bodyOf(res) })
const unknownEmail = (): string => `nobody-${randomBytes(4).toString('hex')}@example.com`
const WRONG = 'Wrong@1234'

beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})
afterEach(() => {
  vi.restoreAllMocks()
})

describe('login lockout per email, known or not', () => {
  it('answers 5 wrong tries and the 6th identically for an unknown email and a known one', async () => {
    const staff = await t.createAdmin()
    const unknown = unknownEmail()
    for (let i = 0; i < MAX_FAILURES; i++) {
      const [a, b] = [answer(await login(unknown, WRONG)), answer(await login(staff.email, WRONG))]
      expect(a).toEqual(b)
      expect(a).toEqual({ status: 400, body: { status: 'failed', message: LOGIN_FAILED } })
    }
    const sixth = [answer(await login(unknown, WRONG)), answer(await login(staff.email, WRONG))]
    expect(sixth[0]).toEqual(sixth[1])
    expect(sixth[0]).toEqual({ status: 429, body: { status: 'failed', message: ACCOUNT_LOCKED } })
    // The unknown email has its own row: the lock is real, not a guess from the answer.
    expect((await t.lockoutOf(unknown))?.lockedUntil?.getTime() ?? 0).toBeGreaterThan(Date.now() + 9 * 60_000)
  })

  it('refuses the right password while locked, case and spaces in the email making no difference', async () => {
    const staff = await t.createAdmin()
    for (let i = 0; i < MAX_FAILURES; i++) await login(staff.email, WRONG)
    expect(answer(await login(` ${staff.email.toUpperCase()} `, TEST_PASSWORD))).toEqual({ status: 429, body: { status: 'failed', message: ACCOUNT_LOCKED } })
    expect(answer(await login(staff.email, TEST_PASSWORD)).status).toBe(429)
  })

  it('lets the lock expire: the right password signs in, an unknown email is back to the plain refusal', async () => {
    const staff = await t.createAdmin()
    const unknown = unknownEmail()
    for (let i = 0; i < MAX_FAILURES; i++) {
      await login(staff.email, WRONG)
      await login(unknown, WRONG)
    }
    expect(answer(await login(staff.email, TEST_PASSWORD)).status).toBe(429)
    const past = new Date(Date.now() - 1000)
    await t.handle.db.update(loginFailures).set({ lockedUntil: past }).where(sql`${loginFailures.email} in (${staff.email}, ${unknown})`)
    expect(bodyOf(await login(staff.email, TEST_PASSWORD))['status']).toBe('success')
    expect(await t.lockoutOf(staff.email)).toBeUndefined()
    expect(answer(await login(unknown, WRONG))).toEqual({ status: 400, body: { status: 'failed', message: LOGIN_FAILED } })
    // The count started again after the lock: one failure so far, not a sixth.
    expect(await t.lockoutOf(unknown)).toMatchObject({ failures: 1, lockedUntil: null })
  })

  it('spends one password verification per attempt, known, unknown or locked', async () => {
    const staff = await t.createAdmin()
    const verify = vi.spyOn(t.passwords, 'verify')
    const verifications = async (email: string, password: string): Promise<number> => {
      verify.mockClear()
      await login(email, password)
      return verify.mock.calls.length
    }
    expect(await verifications(unknownEmail(), WRONG)).toBe(1)
    expect(await verifications(staff.email, WRONG)).toBe(1)
    for (let i = 1; i < MAX_FAILURES; i++) await login(staff.email, WRONG)
    expect(await verifications(staff.email, TEST_PASSWORD)).toBe(1)
    expect(answer(await login(staff.email, TEST_PASSWORD)).status).toBe(429)
  })

  it('lets no more than 5 of many parallel wrong tries be checked before the lock', async () => {
    const staff = await t.createAdmin()
    const verify = vi.spyOn(t.passwords, 'verify')
    const answers = await Promise.all(Array.from({ length: 12 }, () => login(staff.email, WRONG)))
    const messages = answers.map((a) => bodyOf(a)['message'])
    expect(messages.filter((m) => m === LOGIN_FAILED).length).toBeLessThanOrEqual(MAX_FAILURES)
    expect(messages.filter((m) => m === ACCOUNT_LOCKED).length).toBeGreaterThanOrEqual(12 - MAX_FAILURES)
    // Locked attempts still spend a (dummy) verification, so every answer took one.
    expect(verify.mock.calls.length).toBe(12)
    expect(answer(await login(staff.email, TEST_PASSWORD)).status).toBe(429)
  })

  it('gives the slot back when the password was right and a 2FA code is asked for', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    for (let i = 1; i < MAX_FAILURES; i++) await login(staff.email, WRONG)
    // Asking for the code is not a failure: with 4 failures, the owner still gets a code in.
    expect(bodyOf(await login(staff.email, TEST_PASSWORD))['status']).toBe('TWO_FA')
    expect((await t.lockoutOf(staff.email))?.failures).toBe(MAX_FAILURES - 1)
    const code = totpCode(secret, totpStep())
    // ...but a wrong code is, and it is the fifth.
    expect(bodyOf(await login(staff.email, TEST_PASSWORD, code === '000000' ? '111111' : '000000'))['message']).toBe(WRONG_2FA)
    expect(answer(await login(staff.email, TEST_PASSWORD, code)).status).toBe(429)
  })

  it('forgets a count untouched for a day, and prunes such rows', async () => {
    const staff = await t.createAdmin()
    const idle = unknownEmail()
    for (let i = 1; i < MAX_FAILURES; i++) await login(staff.email, WRONG)
    await login(idle, WRONG)
    const dayAgo = new Date(Date.now() - FORGET_MS - 60_000)
    await t.handle.db.update(loginFailures).set({ updatedAt: dayAgo }).where(sql`${loginFailures.email} in (${staff.email}, ${idle})`)
    expect(answer(await login(staff.email, WRONG)).status).toBe(400)
    expect(await t.lockoutOf(staff.email)).toMatchObject({ failures: 1, lockedUntil: null })
    // Any attempt prunes stale rows, here the idle unknown email's.
    expect(await t.lockoutOf(idle)).toBeUndefined()
  })

  it('counts wrong 2FA codes asked of a signed-in admin towards the same lock', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    for (let i = 1; i < MAX_FAILURES; i++) await login(staff.email, WRONG)
    const code = totpCode(secret, totpStep())
    const disable = await t.app.inject({ method: 'POST', url: '/api/admin/twofa-disable', headers: await t.auth(staff), payload: { code: code === '000000' ? '111111' : '000000' } })
    expect(bodyOf(disable)['message']).toBe(WRONG_2FA)
    expect((await t.lockoutOf(staff.email))?.lockedUntil?.getTime() ?? 0).toBeGreaterThan(Date.now())
  })
})

describe('migration 0001', () => {
  it('carries running counts and locks from the admins table into login_failures', async () => {
    // The committed migrations up to 0000, some state in the old columns, then the rest.
    const all = fileURLToPath(new URL('../db/migrations', import.meta.url))
    const dir = await mkdtemp(join(tmpdir(), 'bo-migrations-'))
    const client = await PGlite.create({ extensions: { pg_trgm } })
    try {
      await cp(all, dir, { recursive: true })
      const Journal = z.object({ entries: z.array(z.object({ tag: z.string() }).passthrough()) }).passthrough()
      const journal = Journal.parse(JSON.parse(await readFile(join(all, 'meta/_journal.json'), 'utf8')))
      await writeFile(join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.filter((e) => e.tag.startsWith('0000_')) }))
      const db = drizzle({ client })
      await migrate(db, { migrationsFolder: dir })
      const lockedUntil = new Date(Date.now() + 5 * 60_000)
      await db.execute(sql`
        insert into admins (name, email, password_hash, role, access_level, failed_logins, locked_until) values
          ('Counting', 'counting@example.com', 'x', 'subadmin', 'Admin', 3, null),
          ('Locked', 'locked@example.com', 'x', 'subadmin', 'Admin', 0, ${lockedUntil.toISOString()}::timestamptz),
          ('Clean', 'clean@example.com', 'x', 'subadmin', 'Admin', 0, ${new Date(Date.now() - 60_000).toISOString()}::timestamptz)`)
      await migrate(db, { migrationsFolder: all })
      const rows = await db.select().from(loginFailures).orderBy(loginFailures.email)
      expect(rows.map((r) => [r.email, r.failures, r.lockedUntil?.getTime() ?? null])).toEqual([
        ['counting@example.com', 3, null],
        ['locked@example.com', 0, lockedUntil.getTime()],
      ])
      const columns = await db.execute<{ column_name: string }>(sql`select column_name from information_schema.columns where table_name = 'admins'`)
      expect(columns.rows.map((c) => c.column_name)).not.toContain('failed_logins')
      expect(await db.select().from(loginFailures).where(eq(loginFailures.email, 'clean@example.com'))).toEqual([])
    } finally {
      await client.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
