/**
 * Passkeys end to end through the API, with a software authenticator (server/testing/soft-authenticator.ts)
 * whose answers the server checks with @simplewebauthn/server: adding one on Profile (a step-up
 * call), signing in with it (a session as Login's, 2FA satisfied), the step-up proof by passkey,
 * and what must be refused: a used or expired challenge, a counter that went back, another admin's
 * credential or user handle, a deactivated admin, a removed passkey, another origin.
 */
import { and, desc, eq } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STEP_UP_REQUIRED } from '#contract/common'
import { PASSKEY_ALREADY_ADDED, PASSKEY_FAILED } from '#contract/passkeys'
import { loadConfig } from '../../config.ts'
import { openMailBody } from '../../kit/ground/mail/mail.ts'
import { adminPasskeys, admins, auditLog, mailOutbox, passkeyChallenges, sessionTokens, type AdminRow } from '../../db/schema.ts'
import { ACCOUNT_DEACTIVATED } from '../../kit/ground/access/sign-in-answers.ts'
import { NO_RELYING_PARTY } from './webauthn.ts'
import { PRESENT_ONLY, SoftPasskey } from '../../testing/soft-authenticator.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'

let t: TestApp
beforeAll(async () => (t = await makeTestApp()))
afterAll(async () => await t.close())

// app.inject calls come to Host localhost:80: without PUBLIC_URL that is the relying party.
const ORIGIN = 'http://localhost'
const RP_ID = 'localhost'
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'

const newKey = (credentialId?: Buffer) => new SoftPasskey({ origin: ORIGIN, rpId: RP_ID, ...(credentialId === undefined ? {} : { credentialId }) })
const post = (path: string, payload: Record<string, unknown>, token?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) }, payload })
const get = (path: string, token: string) => t.app.inject({ method: 'GET', url: `/api/admin${path}`, headers: { authorization: `Bearer ${token}` } })

async function loginAs(admin: AdminRow): Promise<string> {
  const res = await post('/login', { email: admin.email, password: TEST_PASSWORD })
  expect(res.statusCode).toBe(200)
  return String(bodyOf(res)['token'])
}

interface Options {
  challenge: string
  rp: { id?: string }
  user: { id: string }
}
function optionsOf(res: { statusCode: number; json: () => unknown }): Options {
  expect(res.statusCode).toBe(200)
  const body = res.json() as { options: Options }
  return body.options
}

/** Adds `key` as a passkey of the token's admin (the token's session proved recently). */
async function addPasskey(token: string, key: SoftPasskey, name = 'Work laptop') {
  const options = optionsOf(await post('/passkeyRegistrationOptions', {}, token))
  return post('/addPasskey', { name, response: key.register(options) }, token)
}

const signInOptions = async (): Promise<Options> => optionsOf(await post('/passkeySignInOptions', {}))
async function signInWith(key: SoftPasskey, headers: Record<string, string> = {}) {
  return post('/passkeySignIn', { response: key.assert(await signInOptions()) }, undefined, headers)
}

const mailsTo = async (to: string, template: string) => (await t.handle.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, to), eq(mailOutbox.template, template))))

async function ageProof(token: string, ms: number): Promise<void> {
  await t.handle.db
    .update(sessionTokens)
    .set({ provedAt: new Date(Date.now() - ms) })
    .where(eq(sessionTokens.jti, String(decodeJwt(token).jti)))
}

describe('adding a passkey and signing in with it', () => {
  it('adds a named passkey, lists it, and signs its admin in without a password', async () => {
    const staff = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const token = await loginAs(staff)
    const key = newKey()
    const added = await addPasskey(token, key)
    expect(added.statusCode).toBe(200)
    expect(bodyOf(added)).toMatchObject({ status: 'success', message: 'Passkey added' })

    const listed = bodyOf(await get('/listPasskeys', token))['data'] as Record<string, unknown>[]
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({ name: 'Work laptop', lastUsedAt: '' })
    // Only the public key and the counter are kept, under the credential's own id.
    const [row] = await t.handle.db.select().from(adminPasskeys).where(eq(adminPasskeys.adminId, staff.id))
    expect(row).toMatchObject({ credentialId: key.id, counter: 0, transports: ['internal'] })

    const signedIn = await signInWith(key, { 'user-agent': FIREFOX })
    expect(signedIn.statusCode).toBe(200)
    const passkeyToken = String(bodyOf(signedIn)['token'])
    // A session like any other: it works, is listed among the admin's sessions with its device, and is proved for step-up.
    expect(bodyOf(await get('/get-profile', passkeyToken))['data']).toMatchObject({ _id: staff.id, email: staff.email })
    const sessions = bodyOf(await get('/listSessions', passkeyToken))['data'] as Record<string, unknown>[]
    expect(sessions.find((s) => s['current'] === true)).toMatchObject({ device: 'Firefox 133 on Windows 10' })
    const again = newKey()
    expect((await addPasskey(passkeyToken, again, 'Phone')).statusCode).toBe(200)

    const [used] = await t.handle.db.select().from(adminPasskeys).where(eq(adminPasskeys.credentialId, key.id))
    expect(used?.counter).toBe(1)
    expect(used?.lastUsedAt).toBeInstanceOf(Date)
    // The sign-in's audit row names the admin; the device was new to the account, so it is mailed.
    const [audit] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/passkeySignIn'), eq(auditLog.adminId, staff.id)))
    expect(audit?.recordId).toBe(staff.id)
    expect(await mailsTo(staff.email, 'new-device-sign-in')).toHaveLength(1)
    expect(await mailsTo(staff.email, 'passkey-added')).toHaveLength(2)
    const addRows = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/addPasskey'), eq(auditLog.adminId, staff.id)))
    expect(addRows.map((r) => r.detail).sort()).toEqual(['Phone', 'Work laptop'])
  })

  it('satisfies 2FA: an admin with 2FA on signs in with a passkey and no code', async () => {
    const staff = await t.createAdmin()
    const token = await loginAs(staff)
    const key = newKey()
    expect((await addPasskey(token, key)).statusCode).toBe(200)
    await t.handle.db.update(admins).set({ totpEnabled: true, totpSecret: 'sealed-secret' }).where(eq(admins.id, staff.id))
    expect(bodyOf(await post('/login', { email: staff.email, password: TEST_PASSWORD }))['status']).toBe('TWO_FA')
    expect((await signInWith(key)).statusCode).toBe(200)
  })

  it('refuses a registration answered for another origin or without user verification', async () => {
    const staff = await t.createAdmin()
    const token = await loginAs(staff)
    const elsewhere = new SoftPasskey({ origin: 'https://evil.example', rpId: RP_ID })
    const refused = await addPasskey(token, elsewhere)
    expect([refused.statusCode, bodyOf(refused)['message']]).toEqual([400, PASSKEY_FAILED])
    const otherRp = new SoftPasskey({ origin: ORIGIN, rpId: 'evil.example' })
    expect((await addPasskey(token, otherRp)).statusCode).toBe(400)
    expect(bodyOf(await get('/listPasskeys', token))['data']).toEqual([])
  })
})

describe('challenges', () => {
  it('are good once: a replayed sign-in is refused, as is a second answer to the same challenge', async () => {
    const staff = await t.createAdmin()
    const key = newKey()
    expect((await addPasskey(await loginAs(staff), key)).statusCode).toBe(200)
    const options = await signInOptions()
    const answer = key.assert(options)
    expect((await post('/passkeySignIn', { response: answer })).statusCode).toBe(200)
    const replay = await post('/passkeySignIn', { response: answer })
    expect([replay.statusCode, bodyOf(replay)['message']]).toEqual([400, PASSKEY_FAILED])
    const second = await post('/passkeySignIn', { response: key.assert(options) })
    expect(second.statusCode).toBe(400)
    // A registration's challenge too.
    const token = await loginAs(staff)
    const regOptions = optionsOf(await post('/passkeyRegistrationOptions', {}, token))
    const other = newKey()
    const registration = other.register(regOptions)
    expect((await post('/addPasskey', { name: 'One', response: registration }, token)).statusCode).toBe(200)
    expect((await post('/addPasskey', { name: 'Two', response: registration }, token)).statusCode).toBe(400)
  })

  it('expire: an answer to a challenge past its five minutes is refused, and the challenge is gone after it', async () => {
    const staff = await t.createAdmin()
    const key = newKey()
    expect((await addPasskey(await loginAs(staff), key)).statusCode).toBe(200)
    const options = await signInOptions()
    await t.handle.db.update(passkeyChallenges).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passkeyChallenges.challenge, options.challenge))
    const late = await post('/passkeySignIn', { response: key.assert(options) })
    expect([late.statusCode, bodyOf(late)['message']]).toEqual([400, PASSKEY_FAILED])
    expect(await t.handle.db.select().from(passkeyChallenges).where(eq(passkeyChallenges.challenge, options.challenge))).toEqual([])
    // A fresh one works.
    expect((await signInWith(key)).statusCode).toBe(200)
  })

  it('live in the database with five minutes to run', async () => {
    const before = Date.now()
    const options = await signInOptions()
    const [row] = await t.handle.db.select().from(passkeyChallenges).where(eq(passkeyChallenges.challenge, options.challenge))
    expect(row?.purpose).toBe('sign-in')
    const life = (row?.expiresAt.getTime() ?? 0) - before
    expect(life).toBeGreaterThan(4.9 * 60_000)
    expect(life).toBeLessThanOrEqual(5 * 60_000 + 5000)
  })
})

describe('refused sign-ins', () => {
  it('refuses a counter that did not move past the stored one (a cloned authenticator)', async () => {
    const staff = await t.createAdmin()
    const key = newKey()
    expect((await addPasskey(await loginAs(staff), key)).statusCode).toBe(200)
    expect((await signInWith(key)).statusCode).toBe(200)
    expect((await signInWith(key)).statusCode).toBe(200)
    key.counter = 0 // the next assertion signs 1, below the stored 2
    const cloned = await signInWith(key)
    expect([cloned.statusCode, bodyOf(cloned)['message']]).toEqual([400, PASSKEY_FAILED])
    const [row] = await t.handle.db.select().from(adminPasskeys).where(eq(adminPasskeys.credentialId, key.id))
    expect(row?.counter).toBe(2)
    // The refusal is a failed sign-in in the audit log.
    const [event] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, 'sign-in-failed'), eq(auditLog.recordId, staff.id))).orderBy(desc(auditLog.at)).limit(1)
    expect(event?.detail).toBe(`${staff.email} (passkey refused)`)
  })

  it('refuses an assertion without user verification', async () => {
    const staff = await t.createAdmin()
    const key = newKey()
    expect((await addPasskey(await loginAs(staff), key)).statusCode).toBe(200)
    const res = await post('/passkeySignIn', { response: key.assert(await signInOptions(), { flags: PRESENT_ONLY }) })
    expect(res.statusCode).toBe(400)
  })

  it("never signs anyone in with another admin's credential: a foreign key, a foreign user handle, a copied credential id", async () => {
    const alice = await t.createAdmin()
    const bob = await t.createAdmin()
    const aliceKey = newKey()
    const bobKey = newKey()
    expect((await addPasskey(await loginAs(alice), aliceKey)).statusCode).toBe(200)
    expect((await addPasskey(await loginAs(bob), bobKey)).statusCode).toBe(200)

    // Bob's key signing an assertion that names Alice's credential: the signature is not Alice's key's.
    const forged = bobKey.assert(await signInOptions())
    const asAlice = { ...forged, id: aliceKey.id, rawId: aliceKey.id, response: { ...forged.response, userHandle: aliceKey.userHandle } }
    expect((await post('/passkeySignIn', { response: asAlice })).statusCode).toBe(400)
    // Alice's own assertion claiming Bob's user handle: the credential is Alice's, the handle must be too.
    const swapped = await post('/passkeySignIn', { response: aliceKey.assert(await signInOptions(), { userHandle: bobKey.userHandle }) })
    expect([swapped.statusCode, bodyOf(swapped)['message']]).toEqual([400, PASSKEY_FAILED])
    // Alice's credential id registered again for Bob (with Bob's own key): refused, it belongs to Alice.
    const copy = newKey(aliceKey.credentialId)
    const copied = await addPasskey(await loginAs(bob), copy)
    expect([copied.statusCode, bodyOf(copied)['message']]).toEqual([400, PASSKEY_ALREADY_ADDED])

    // Each key still signs in its own admin, and only them.
    const alices = await signInWith(aliceKey)
    expect(decodeJwt(String(bodyOf(alices)['token']))['_id']).toBe(alice.id)
    const bobs = await signInWith(bobKey)
    expect(decodeJwt(String(bodyOf(bobs)['token']))['_id']).toBe(bob.id)
  })

  it("refuses a deactivated admin's passkey with the answer a deactivated password login gets", async () => {
    const staff = await t.createAdmin()
    const key = newKey()
    expect((await addPasskey(await loginAs(staff), key)).statusCode).toBe(200)
    await t.handle.db.update(admins).set({ activate: 0 }).where(eq(admins.id, staff.id))
    const byPasskey = await signInWith(key)
    const byPassword = await post('/login', { email: staff.email, password: TEST_PASSWORD })
    expect(byPasskey.statusCode).toBe(byPassword.statusCode)
    expect(byPasskey.json()).toEqual(byPassword.json())
    expect(bodyOf(byPasskey)['message']).toBe(ACCOUNT_DEACTIVATED)
  })

  it('refuses a removed passkey, and only its owner can remove it', async () => {
    const staff = await t.createAdmin()
    const other = await t.createAdmin()
    const key = newKey()
    const token = await loginAs(staff)
    expect((await addPasskey(token, key)).statusCode).toBe(200)
    const [row] = await t.handle.db.select().from(adminPasskeys).where(eq(adminPasskeys.credentialId, key.id))
    const id = row?.id ?? ''
    // Another admin's passkey id is answered as an unknown one.
    expect((await post('/removePasskey', { id }, await loginAs(other))).statusCode).toBe(404)
    expect((await signInWith(key)).statusCode).toBe(200)

    const removed = await post('/removePasskey', { id }, token)
    expect([removed.statusCode, bodyOf(removed)['message']]).toEqual([200, 'Passkey removed'])
    const refused = await signInWith(key)
    expect([refused.statusCode, bodyOf(refused)['message']]).toEqual([400, PASSKEY_FAILED])
    expect(await mailsTo(staff.email, 'passkey-removed')).toHaveLength(1)
    const [audit] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/removePasskey'), eq(auditLog.adminId, staff.id)))
    expect(audit).toMatchObject({ recordId: id, detail: 'Work laptop' })
  })

  it('honours the sign-in lock of the address: a locked pair is refused before the passkey is checked', async () => {
    const staff = await t.createAdmin()
    const key = newKey()
    expect((await addPasskey(await loginAs(staff), key)).statusCode).toBe(200)
    for (let i = 0; i < 5; i++) await post('/login', { email: staff.email, password: 'Wrong#999' })
    const locked = await signInWith(key)
    expect(locked.statusCode).toBe(429)
  })
})

describe('step-up', () => {
  it('is required to add or remove a passkey, and a passkey can give it', async () => {
    const staff = await t.createAdmin()
    const token = await loginAs(staff)
    const key = newKey()
    expect((await addPasskey(token, key)).statusCode).toBe(200)
    const [row] = await t.handle.db.select().from(adminPasskeys).where(eq(adminPasskeys.credentialId, key.id))

    await ageProof(token, 10 * 60_000)
    const refusedOptions = await post('/passkeyRegistrationOptions', {}, token)
    expect([refusedOptions.statusCode, bodyOf(refusedOptions)['code'], bodyOf(refusedOptions)['passkey']]).toEqual([403, STEP_UP_REQUIRED, true])
    expect((await post('/addPasskey', { name: 'Sneaky', response: newKey().register({ challenge: 'x', rp: {}, user: { id: 'x' } }) }, token)).statusCode).toBe(403)
    expect((await post('/removePasskey', { id: row?.id ?? '' }, token)).statusCode).toBe(403)

    // Another admin's passkey proves nothing for this session.
    const other = await t.createAdmin()
    const otherKey = newKey()
    expect((await addPasskey(await loginAs(other), otherKey)).statusCode).toBe(200)
    const foreign = await post('/provePasskey', { response: otherKey.assert(optionsOf(await post('/passkeyStepUpOptions', {}, token))) }, token)
    expect([foreign.statusCode, bodyOf(foreign)['message']]).toEqual([400, PASSKEY_FAILED])
    expect((await post('/removePasskey', { id: row?.id ?? '' }, token)).statusCode).toBe(403)

    // The session's own admin's passkey does.
    const stepUp = optionsOf(await post('/passkeyStepUpOptions', {}, token))
    const proved = await post('/provePasskey', { response: key.assert(stepUp) }, token)
    expect([proved.statusCode, bodyOf(proved)['message']]).toEqual([200, 'Identity confirmed'])
    expect((await post('/removePasskey', { id: row?.id ?? '' }, token)).statusCode).toBe(200)
  })

  it("binds a step-up challenge to its session: another session's answer is refused", async () => {
    const staff = await t.createAdmin()
    const first = await loginAs(staff)
    const second = await loginAs(staff)
    const key = newKey()
    expect((await addPasskey(first, key)).statusCode).toBe(200)
    const options = optionsOf(await post('/passkeyStepUpOptions', {}, first))
    expect((await post('/provePasskey', { response: key.assert(options) }, second)).statusCode).toBe(400)
  })

  it('says passkey: false in the refusal of an admin without one', async () => {
    const staff = await t.createAdmin()
    const token = await loginAs(staff)
    await ageProof(token, 10 * 60_000)
    expect(bodyOf(await post('/passkeyRegistrationOptions', {}, token))['passkey']).toBe(false)
    expect((await post('/passkeyStepUpOptions', {}, token)).statusCode).toBe(400)
  })
})

describe('passkeys that would outlive a password', () => {
  const forgotCode = async (email: string): Promise<string> => {
    expect((await post('/ForgotSend-mail', { email })).statusCode).toBe(200)
    const [mail] = await t.handle.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, email), eq(mailOutbox.template, 'forgot-password-otp'))).orderBy(desc(mailOutbox.createdAt)).limit(1)
    const code = /\b(\d{6})\b/.exec(openMailBody(t.config, mail?.id ?? '', mail?.body ?? '')?.text ?? '')?.[1]
    if (code === undefined) throw new Error(`no code mailed to ${email}`)
    return code
  }
  const reset = (email: string, otp: string, extra: Record<string, unknown>) =>
    post('/forgot-password', { otp, newPassword: 'Fresh#2024', confirmPassword: 'Fresh#2024', email, twoFACode: '', ...extra })

  it('a staff manager removes every passkey of a member, audited, even with an old proof (it only takes access away); the passkeys no longer sign in', async () => {
    const member = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const memberToken = await loginAs(member)
    const [laptop, phone] = [newKey(), newKey()]
    expect((await addPasskey(memberToken, laptop, 'Laptop')).statusCode).toBe(200)
    expect((await addPasskey(memberToken, phone, 'Phone')).statusCode).toBe(200)
    expect((await signInWith(laptop)).statusCode).toBe(200)

    const manager = await loginAs(t.superadmin)
    // Like Sign out everywhere, it narrows access: an old proof does not stop a manager cutting a lost device off.
    await ageProof(manager, 10 * 60_000)
    // A member, even an Admin on Users and Access, cannot.
    const admin = await loginAs(await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/sub-admin'] }))
    expect((await post('/removeStaffPasskeys', { id: member.id }, admin)).statusCode).toBe(403)

    const fresh = await loginAs(t.superadmin)
    const removed = await post('/removeStaffPasskeys', { id: member.id }, manager)
    expect([removed.statusCode, bodyOf(removed)]).toEqual([200, { status: 'success', message: '2 passkeys removed', removed: 2 }])
    for (const key of [laptop, phone]) expect(bodyOf(await signInWith(key))['message']).toBe(PASSKEY_FAILED)
    const [audit] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/removeStaffPasskeys'), eq(auditLog.recordId, member.id)))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, detail: expect.stringMatching(/^Removed 2 passkeys: (Laptop, Phone|Phone, Laptop)$/) })
    expect(bodyOf(await post('/removeStaffPasskeys', { id: member.id }, fresh))).toMatchObject({ message: 'This user has no passkey', removed: 0 })
    // Nobody removes the superadmin's.
    expect((await post('/removeStaffPasskeys', { id: t.superadmin.id }, fresh)).statusCode).toBe(403)
  })

  it('a Forgot Password reset removes every passkey of the account when asked, and keeps them otherwise', async () => {
    const staff = await t.createAdmin()
    const key = newKey()
    expect((await addPasskey(await loginAs(staff), key)).statusCode).toBe(200)
    expect((await reset(staff.email, await forgotCode(staff.email), {})).statusCode).toBe(200)
    expect((await signInWith(key)).statusCode).toBe(200)

    expect((await reset(staff.email, await forgotCode(staff.email), { removePasskeys: true })).statusCode).toBe(200)
    expect(await t.handle.db.$count(adminPasskeys, eq(adminPasskeys.adminId, staff.id))).toBe(0)
    expect(bodyOf(await signInWith(key))['message']).toBe(PASSKEY_FAILED)
    const audits = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/forgot-password'), eq(auditLog.recordId, staff.id)))
    expect(audits.map((a) => a.detail).sort()).toEqual(['', 'Removed 1 passkey'])
  })
})

describe('the relying party', () => {
  it('refuses a Host header that names no host, without PUBLIC_URL', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/passkeySignInOptions', headers: { host: 'bad host' }, payload: {} })
    expect([res.statusCode, bodyOf(res)['message']]).toEqual([400, NO_RELYING_PARTY])
  })


  it('is PUBLIC_URL\'s origin and host name when it is set, and the call\'s own address otherwise', () => {
    const base = { JWT_SECRET: 'x'.repeat(64), DATA_DIR: '/tmp/unused' }
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://backoffice.example.com/admin/' }).passkeyRelyingParty).toEqual({ origin: 'https://backoffice.example.com', id: 'backoffice.example.com' })
    expect(loadConfig(base).passkeyRelyingParty).toBeNull()
  })
})
