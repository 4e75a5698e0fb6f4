/**
 * The sign-in limits: five failures lock an (email, address) pair, never the
 * email everywhere; failures from many addresses slow the email down instead of locking it; the
 * answers and the work are the same for unknown emails; parallel guesses get no more answers
 * than the limits allow; lockouts and unlocks are in the audit log; the superadmin can unlock.
 */
import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { and, eq, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { ACCOUNT_UNLOCKED } from '#contract/staff'
import { auditLog, loginFailures, loginPairFailures, otpGuesses } from '../../../db/schema.ts'
import { FORGET_MS, MAX_FAILURES, SLOW_AFTER, slowDelayMs, slowedMessage } from './lockout.ts'
import { ACCOUNT_LOCKED, LOGIN_FAILED, WRONG_2FA } from './sign-in-answers.ts'
import { SUPERADMIN_EMAIL, TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from '../../../testing/test-app.ts'
import { newTotpSecret, totpCode, totpStep } from './two-factor-code.ts'

let t: TestApp
let address = 0
/** A fresh client address; the per-address request limit is set high, so it never stands in for a lock. */
const nextAddress = (): string => `10.4.${Math.floor(++address / 250)}.${address % 250}`
const login = (email: string, password: string, from = nextAddress(), twoFACode = '') =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password, twoFACode }, remoteAddress: from })
const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: bodyOf(res) })
const unknownEmail = (): string => `nobody-${randomBytes(4).toString('hex')}@example.com`
const WRONG = 'Wrong@1234'
const FAILED = { status: 400, body: { status: 'failed', message: LOGIN_FAILED } }
const LOCKED = { status: 429, body: { status: 'failed', message: ACCOUNT_LOCKED } }

const pairOf = async (email: string, from: string) => {
  const [row] = await t.handle.db
    .select()
    .from(loginPairFailures)
    .where(and(eq(loginPairFailures.email, email), eq(loginPairFailures.address, from)))
  return row
}
/** Ends the email's running wait, as if it had passed. */
const endWait = (email: string) => t.handle.db.update(loginFailures).set({ slowUntil: new Date(Date.now() - 1) }).where(eq(loginFailures.email, email))

beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})
afterEach(() => {
  vi.restoreAllMocks()
})

describe('the lock per email and address', () => {
  it('answers 5 wrong tries and the 6th from one address identically for an unknown email and a known one', async () => {
    const staff = await t.createAdmin()
    const unknown = unknownEmail()
    const [fromA, fromB] = [nextAddress(), nextAddress()]
    for (let i = 0; i < MAX_FAILURES; i++) {
      const [a, b] = [answer(await login(unknown, WRONG, fromA)), answer(await login(staff.email, WRONG, fromB))]
      expect(a).toEqual(b)
      expect(a).toEqual(FAILED)
    }
    const sixth = [answer(await login(unknown, WRONG, fromA)), answer(await login(staff.email, TEST_PASSWORD, fromB))]
    expect(sixth[0]).toEqual(sixth[1])
    expect(sixth[0]).toEqual(LOCKED)
    // The unknown email has its own row: the lock is real, not a guess from the answer.
    expect((await pairOf(unknown, fromA))?.lockedUntil?.getTime() ?? 0).toBeGreaterThan(Date.now() + 9 * 60_000)
  })

  it('keeps the owner in from another address while a pair is locked: nobody can lock the superadmin out', async () => {
    const attacker = nextAddress()
    for (let i = 0; i < MAX_FAILURES; i++) expect(answer(await login(SUPERADMIN_EMAIL, WRONG, attacker))).toEqual(FAILED)
    expect(answer(await login(SUPERADMIN_EMAIL, TEST_PASSWORD, attacker))).toEqual(LOCKED)
    expect(bodyOf(await login(SUPERADMIN_EMAIL, TEST_PASSWORD))['status']).toBe('success')
    // The owner's sign-in lifts nothing of the attacker's lock.
    expect(answer(await login(SUPERADMIN_EMAIL, TEST_PASSWORD, attacker))).toEqual(LOCKED)
  })

  it('refuses the right password while locked, case and spaces in the email making no difference', async () => {
    const staff = await t.createAdmin()
    const from = nextAddress()
    for (let i = 0; i < MAX_FAILURES; i++) await login(staff.email, WRONG, from)
    expect(answer(await login(` ${staff.email.toUpperCase()} `, TEST_PASSWORD, from))).toEqual(LOCKED)
  })

  it('lets the lock expire: the right password signs in, an unknown email is back to the plain refusal', async () => {
    const staff = await t.createAdmin()
    const unknown = unknownEmail()
    const from = nextAddress()
    for (let i = 0; i < MAX_FAILURES; i++) {
      await login(staff.email, WRONG, from)
      await login(unknown, WRONG, from)
    }
    expect(answer(await login(staff.email, TEST_PASSWORD, from))).toEqual(LOCKED)
    await t.handle.db.update(loginPairFailures).set({ lockedUntil: new Date(Date.now() - 1000) }).where(sql`${loginPairFailures.email} in (${staff.email}, ${unknown})`)
    expect(bodyOf(await login(staff.email, TEST_PASSWORD, from))['status']).toBe('success')
    expect(await pairOf(staff.email, from)).toBeUndefined()
    expect(await t.lockoutOf(staff.email)).toBeUndefined()
    expect(answer(await login(unknown, WRONG, from))).toEqual(FAILED)
    // The count started again after the lock: one failure so far, not a sixth.
    expect(await pairOf(unknown, from)).toMatchObject({ failures: 1, lockedUntil: null })
  })

  it('spends one password verification per attempt, known, unknown or locked', async () => {
    const staff = await t.createAdmin()
    const verify = vi.spyOn(t.passwords, 'verify')
    const from = nextAddress()
    const verifications = async (email: string, password: string): Promise<number> => {
      verify.mockClear()
      await login(email, password, from)
      return verify.mock.calls.length
    }
    expect(await verifications(unknownEmail(), WRONG)).toBe(1)
    expect(await verifications(staff.email, WRONG)).toBe(1)
    for (let i = 1; i < MAX_FAILURES; i++) await login(staff.email, WRONG, from)
    expect(await verifications(staff.email, TEST_PASSWORD)).toBe(1)
    expect(answer(await login(staff.email, TEST_PASSWORD, from))).toEqual(LOCKED)
  })

  it('answers no more than 5 of many parallel wrong tries from one address before the lock', async () => {
    const staff = await t.createAdmin()
    const from = nextAddress()
    const verify = vi.spyOn(t.passwords, 'verify')
    const answers = await Promise.all(Array.from({ length: 12 }, () => login(staff.email, WRONG, from)))
    const messages = answers.map((a) => bodyOf(a)['message'])
    expect(messages.filter((m) => m === LOGIN_FAILED).length).toBeLessThanOrEqual(MAX_FAILURES)
    expect(messages.filter((m) => m === ACCOUNT_LOCKED).length).toBeGreaterThanOrEqual(12 - MAX_FAILURES)
    // Every attempt spent one verification, answered or not, so the lock cannot be timed.
    expect(verify.mock.calls.length).toBe(12)
    expect(answer(await login(staff.email, TEST_PASSWORD, from))).toEqual(LOCKED)
  })

  it('gives the slot back when the password was right and a 2FA code is asked for', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    const from = nextAddress()
    for (let i = 1; i < MAX_FAILURES; i++) await login(staff.email, WRONG, from)
    // Asking for the code is not a failure: with 4 failures, the owner still gets a code in.
    expect(bodyOf(await login(staff.email, TEST_PASSWORD, from))['status']).toBe('TWO_FA')
    expect((await pairOf(staff.email, from))?.failures).toBe(MAX_FAILURES - 1)
    const code = totpCode(secret, totpStep())
    // ...but a wrong code is, and it is the fifth.
    expect(bodyOf(await login(staff.email, TEST_PASSWORD, from, code === '000000' ? '111111' : '000000'))['message']).toBe(WRONG_2FA)
    expect(answer(await login(staff.email, TEST_PASSWORD, from, code))).toEqual(LOCKED)
  })

  it('forgets a count untouched for a day, and prunes such rows', async () => {
    const staff = await t.createAdmin()
    const idle = unknownEmail()
    const from = nextAddress()
    for (let i = 1; i < MAX_FAILURES; i++) await login(staff.email, WRONG, from)
    await login(idle, WRONG, from)
    const dayAgo = new Date(Date.now() - FORGET_MS - 60_000)
    for (const table of [loginFailures, loginPairFailures]) await t.handle.db.update(table).set({ updatedAt: dayAgo }).where(sql`${table.email} in (${staff.email}, ${idle})`)
    expect(answer(await login(staff.email, WRONG, from))).toEqual(FAILED)
    expect(await pairOf(staff.email, from)).toMatchObject({ failures: 1, lockedUntil: null })
    expect(await t.lockoutOf(staff.email)).toMatchObject({ failures: 1, slowUntil: null })
    // Any attempt prunes stale rows, here the idle unknown email's.
    expect(await t.lockoutOf(idle)).toBeUndefined()
    expect(await pairOf(idle, from)).toBeUndefined()
  })

  it('counts wrong 2FA codes asked of a signed-in admin towards the same lock', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    const from = nextAddress()
    for (let i = 1; i < MAX_FAILURES; i++) await login(staff.email, WRONG, from)
    const code = totpCode(secret, totpStep())
    const disable = await t.app.inject({ method: 'POST', url: '/api/admin/twofa-disable', headers: await t.auth(staff), payload: { code: code === '000000' ? '111111' : '000000' }, remoteAddress: from })
    expect(bodyOf(disable)['message']).toBe(WRONG_2FA)
    expect((await pairOf(staff.email, from))?.lockedUntil?.getTime() ?? 0).toBeGreaterThan(Date.now())
  })

  it('records each lockout in the audit log, for unknown emails too', async () => {
    const staff = await t.createAdmin()
    const unknown = unknownEmail()
    const from = nextAddress()
    for (let i = 0; i < MAX_FAILURES; i++) {
      await login(staff.email, WRONG, from)
      await login(unknown, WRONG, from)
    }
    const rows = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, 'lockout'), eq(auditLog.ip, from)))
    expect(rows.map((r) => ({ adminId: r.adminId, recordId: r.recordId, detail: r.detail })).sort((a, b) => a.detail.localeCompare(b.detail))).toEqual(
      [
        { adminId: null, recordId: null, detail: unknown },
        { adminId: null, recordId: staff.id, detail: staff.email },
      ].sort((a, b) => a.detail.localeCompare(b.detail)),
    )
  })
})

describe('the slow-down per email, from any address', () => {
  it('past 10 failures makes each next attempt wait, twice as long each time, alike for an unknown email', async () => {
    const staff = await t.createAdmin()
    const unknown = unknownEmail()
    // One failure per address: no pair ever locks.
    for (let i = 0; i < SLOW_AFTER; i++) {
      expect(answer(await login(staff.email, WRONG))).toEqual(FAILED)
      expect(answer(await login(unknown, WRONG))).toEqual(FAILED)
    }
    expect(await t.lockoutOf(staff.email)).toMatchObject({ failures: SLOW_AFTER, slowUntil: null })
    // The 11th is still checked, and starts a 1-second wait.
    expect(answer(await login(staff.email, WRONG))).toEqual(FAILED)
    expect(answer(await login(unknown, WRONG))).toEqual(FAILED)
    const waiting = { status: 429, body: { status: 'failed', message: slowedMessage(1000) } }
    expect(answer(await login(staff.email, TEST_PASSWORD))).toEqual(waiting)
    expect(answer(await login(unknown, WRONG))).toEqual(waiting)
    // Once it passed, the 12th is checked and the next wait is 2 seconds.
    await endWait(staff.email)
    expect(answer(await login(staff.email, WRONG))).toEqual(FAILED)
    const wait = ((await t.lockoutOf(staff.email))?.slowUntil?.getTime() ?? 0) - Date.now()
    expect(wait).toBeGreaterThan(1000)
    expect(wait).toBeLessThanOrEqual(2000)
    // Slowed, never locked: after the wait the owner signs in, and the count starts again.
    await endWait(staff.email)
    expect(bodyOf(await login(staff.email, TEST_PASSWORD))['status']).toBe('success')
    expect(await t.lockoutOf(staff.email)).toBeUndefined()
  })

  it('answers one of many parallel attempts from different addresses once past the threshold', async () => {
    const staff = await t.createAdmin()
    for (let i = 0; i < SLOW_AFTER; i++) await login(staff.email, WRONG)
    const answers = await Promise.all(Array.from({ length: 8 }, () => login(staff.email, WRONG)))
    const statuses = answers.map((a) => a.statusCode).sort()
    expect(statuses).toEqual([400, 429, 429, 429, 429, 429, 429, 429])
  })

  it('doubles the wait up to LOGIN_SLOW_MAX_SECONDS', () => {
    const settings = t.config.lockout
    expect([1, 2, 3, 4].map((n) => slowDelayMs(settings, n))).toEqual([1000, 2000, 4000, 8000])
    expect(slowDelayMs(settings, 0)).toBe(0)
    expect(slowDelayMs(settings, 40)).toBe(settings.slowMaxMs)
    expect(settings.slowMaxMs).toBe(60_000)
  })
})

describe('unlockAdmin', () => {
  const unlock = async (id: string, as = t.superadmin) =>
    t.app.inject({ method: 'POST', url: '/api/admin/unlockAdmin', headers: await t.auth(as), payload: { id }, remoteAddress: nextAddress() })

  it('lets the superadmin lift every lock, wait and code cap of an account, and records it', async () => {
    const staff = await t.createAdmin()
    const attacker = nextAddress()
    for (let i = 0; i < MAX_FAILURES; i++) await login(staff.email, WRONG, attacker)
    for (let i = 0; i < SLOW_AFTER + 1; i++) await login(staff.email, WRONG)
    await t.handle.db.insert(otpGuesses).values({ email: staff.email, guesses: 99 })
    expect(answer(await login(staff.email, TEST_PASSWORD, attacker))).toEqual(LOCKED)
    expect(answer(await unlock(staff.id))).toEqual({ status: 200, body: { status: 'success', message: ACCOUNT_UNLOCKED } })
    expect(await t.lockoutOf(staff.email)).toBeUndefined()
    expect(await t.handle.db.select().from(loginPairFailures).where(eq(loginPairFailures.email, staff.email))).toEqual([])
    expect(await t.handle.db.select().from(otpGuesses).where(eq(otpGuesses.email, staff.email))).toEqual([])
    expect(bodyOf(await login(staff.email, TEST_PASSWORD, attacker))['status']).toBe('success')
    const [row] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/unlockAdmin'), eq(auditLog.recordId, staff.id)))
    expect(row).toMatchObject({ adminId: t.superadmin.id })
  })

  it('is refused to a sub-admin, even an Admin one with Users and Access, and answers 404 for an unknown id', async () => {
    const manager = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/sub-admin'] })
    const staff = await t.createAdmin()
    expect((await unlock(staff.id, manager)).statusCode).toBe(403)
    expect((await unlock('no-such-admin')).statusCode).toBe(404)
  })
})

describe('migration 0001', () => {
  it('carries running counts and locks from the admins table into login_failures', async () => {
    // The committed migrations up to 0000, some state in the old columns, then the rest.
    const all = fileURLToPath(new URL('../../../db/migrations', import.meta.url))
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
      // An old lock now reads as the email's wait: it ends when the lock would have.
      expect(rows.map((r) => [r.email, r.failures, r.slowUntil?.getTime() ?? null])).toEqual([
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
