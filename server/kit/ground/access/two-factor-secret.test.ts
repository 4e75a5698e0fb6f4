/**
 * TOTP secrets at rest: sealed with AES-256-GCM under a key derived from JWT_SECRET, never stored
 * in clear after setup or enable, still good for signing in, and plain rows from before are sealed.
 */
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../../app.ts'
import { admins, type AdminRow } from '../../../db/schema.ts'
import { WRONG_2FA } from './sign-in-answers.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from '../../../testing/test-app.ts'
import { newTotpSecret, totpCode, totpStep } from './two-factor-code.ts'
import { isSealed, openTotpSecret, sealTotpSecret } from './two-factor-secret.ts'

let t: TestApp
let address = 0
const nextAddress = (): string => `10.5.${Math.floor(++address / 250)}.${address % 250}`
const login = (email: string, twoFACode = '') =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password: TEST_PASSWORD, twoFACode }, remoteAddress: nextAddress() })
const post = async (path: string, payload: unknown, as: AdminRow) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(await t.auth(as)) } })

/** The whole admin row as the database would dump it. */
const dumpOf = async (id: string): Promise<string> => {
  const [result] = await t.handle.db.select({ row: sql<string>`row_to_json(${admins})::text` }).from(admins).where(eq(admins.id, id))
  return result?.row ?? ''
}

/** Waits out the last seconds of a 30-second step, so codes computed now stay current during a test. */
async function freshStep(): Promise<number> {
  const intoStep = (Date.now() / 1000) % 30
  if (intoStep > 24) await new Promise((r) => setTimeout(r, (30 - intoStep + 0.2) * 1000))
  return totpStep()
}

beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})

describe('sealing', () => {
  it('round-trips, uses a fresh IV each time, and refuses another admin, another key or a changed byte', () => {
    const secret = newTotpSecret()
    const a = sealTotpSecret(t.config, 'admin-a', secret)
    const b = sealTotpSecret(t.config, 'admin-a', secret)
    expect(a).not.toBe(b)
    expect(isSealed(a)).toBe(true)
    expect(a).not.toContain(secret)
    expect(openTotpSecret(t.config, 'admin-a', a)).toEqual({ secret, sealed: true })
    expect(openTotpSecret(t.config, 'admin-b', a)).toBeNull()
    const otherKey = { ...t.config, jwtSecret: new TextEncoder().encode(randomBytes(32).toString('hex')) }
    expect(openTotpSecret(otherKey, 'admin-a', a)).toBeNull()
    const raw = Buffer.from(a.slice(a.indexOf(':') + 1), 'base64url')
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1
    expect(openTotpSecret(t.config, 'admin-a', `${a.slice(0, a.indexOf(':') + 1)}${raw.toString('base64url')}`)).toBeNull()
    // A value without the prefix is a plain secret from before sealing.
    expect(openTotpSecret(t.config, 'admin-a', secret)).toEqual({ secret, sealed: false })
  })
})

describe('2FA secrets in the database', () => {
  it('never holds the base32 secret after setup and enable, and login with a code still works', async () => {
    const staff = await t.createAdmin()
    const secret = String(bodyOf(await post('/twofa-setup', {}, staff))['secret'])
    expect(await dumpOf(staff.id)).not.toContain(secret)
    const enable = await post('/twofa-enable', { code: totpCode(secret, await freshStep()), password: TEST_PASSWORD }, staff)
    expect(bodyOf(enable)['status']).toBe('success')
    const stored = await t.totpSecretOf(staff.id)
    expect(stored.stored !== null && isSealed(stored.stored)).toBe(true)
    expect(await dumpOf(staff.id)).not.toContain(secret)
    expect(bodyOf(await login(staff.email))['status']).toBe('TWO_FA')
    expect(bodyOf(await login(staff.email, totpCode(secret, totpStep() + 1)))['status']).toBe('success')
    expect(await dumpOf(staff.id)).not.toContain(secret)
  })

  it('reads a plain secret from before sealing, and seals it when a code is checked', async () => {
    const secret = newTotpSecret()
    const staff = await t.createAdmin({ totpSecret: secret, totpEnabled: true })
    expect(bodyOf(await login(staff.email, totpCode(secret, await freshStep())))['status']).toBe('success')
    const stored = await t.totpSecretOf(staff.id)
    expect(stored).toEqual({ stored: expect.stringMatching(/^tsk1:/), opened: secret })
    expect(await dumpOf(staff.id)).not.toContain(secret)
  })

  it('seals every plain secret when the server starts', async () => {
    const secrets = [newTotpSecret(), newTotpSecret()]
    const enabled = await t.createAdmin({ totpSecret: secrets[0], totpEnabled: true })
    const pending = await t.createAdmin({ totpSecret: secrets[1] })
    expect(await dumpOf(enabled.id)).toContain(secrets[0])
    // A second server on the same database, as at the next start.
    const again = await buildApp(t.config, { handle: t.handle })
    await again.close()
    expect(await t.totpSecretOf(enabled.id)).toEqual({ stored: expect.stringMatching(/^tsk1:/), opened: secrets[0] })
    expect(await t.totpSecretOf(pending.id)).toEqual({ stored: expect.stringMatching(/^tsk1:/), opened: secrets[1] })
    expect(await dumpOf(pending.id)).not.toContain(secrets[1])
  })

  it('refuses codes checked against a sealed secret copied from another admin', async () => {
    const secret = newTotpSecret()
    const owner = await t.createAdmin()
    const thief = await t.createAdmin({ totpEnabled: true })
    // The owner's sealed secret copied onto the thief's row is bound to the owner's id.
    await t.handle.db.update(admins).set({ totpSecret: sealTotpSecret(t.config, owner.id, secret) }).where(eq(admins.id, thief.id))
    expect(bodyOf(await login(thief.email, totpCode(secret, await freshStep())))['message']).toBe(WRONG_2FA)
  })
})
