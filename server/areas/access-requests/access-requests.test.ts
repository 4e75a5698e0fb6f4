import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RECORD_NOT_FOUND } from '../../kit/request/answers.ts'
import { accessRequests, admins, auditLog, emailTemplates, passwordSetups, type AdminRow } from '../../db/schema.ts'
import { bodyOf, listOf, makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { confirmTokenFrom, setPasswordTokenFrom, startSmtpReceiver, type SmtpReceiver } from '../../testing/smtp-receiver.ts'
import { LOGIN_FAILED } from '../../kit/ground/access/sign-in-answers.ts'
import { EMAIL_TAKEN } from '../../kit/rules/access/grants.ts'
import {
  EXPIRED_CONFIRM_LINK,
  INVALID_CONFIRM_LINK,
  REQUEST_ALREADY_CONFIRMED,
  REQUEST_APPROVED,
  REQUEST_CONFIRMED,
  REQUEST_DECLINED,
  REQUEST_EMAIL_FIXED,
  REQUEST_RECEIVED,
  REQUEST_UNCONFIRMED,
} from './routes.ts'
import { EXPIRED_SETUP_LINK, HAS_PASSWORD, INVALID_SETUP_LINK, PASSWORD_LINK_SENT, PASSWORD_SET, SETUP_MAIL_UNAVAILABLE } from './password-setup.ts'

let t: TestApp
let smtp: SmtpReceiver
let n = 0
const uniqueEmail = (prefix = 'applicant'): string => `${prefix}${++n}-${Date.now()}@example.com`
const PASSWORD = 'Request#2026'

beforeAll(async () => {
  smtp = await startSmtpReceiver()
  t = await makeTestApp({ env: { SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' } })
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})

let address = 0
/** Each call from its own address unless told, so the per-address limit only shows where tested. */
const register = (payload: Record<string, unknown>, remoteAddress = `10.20.${Math.floor(++address / 250)}.${address % 250}`) =>
  t.app.inject({ method: 'POST', url: '/api/admin/register', payload, remoteAddress })
const application = (email: string) => ({ name: 'Jo Applicant', email })
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password, twoFACode: '' }, remoteAddress: '10.30.0.1' })
const post = async (path: string, payload: unknown, as: AdminRow = t.superadmin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(await t.auth(as)) } })
const list = async (query: Record<string, string>, as: AdminRow = t.superadmin) =>
  t.app.inject({ method: 'GET', url: '/api/admin/listAccessRequests', query, headers: await t.auth(as) })
const requestOf = async (email: string) => (await t.handle.db.select().from(accessRequests).where(eq(accessRequests.email, email.toLowerCase())))[0]
const adminOf = async (email: string) => (await t.handle.db.select().from(admins).where(eq(admins.email, email.toLowerCase())))[0]

const confirm = (token: string) => t.app.inject({ method: 'POST', url: '/api/admin/confirmAccessRequest', payload: { token }, remoteAddress: '10.50.0.1' })
const get = async (id: string) => t.app.inject({ method: 'GET', url: '/api/admin/getAccessRequest', query: { id }, headers: await t.auth(t.superadmin) })
const approval = (id: string, email: string) => ({ _id: id, name: 'Jo Applicant', email, accessLevel: 'View Only', restrictions: ['/users'] })
const setPassword = (token: string, newPassword = PASSWORD, confirmPassword = newPassword) =>
  t.app.inject({ method: 'POST', url: '/api/admin/setFirstPassword', payload: { token, newPassword, confirmPassword }, remoteAddress: '10.60.0.1' })
const toConfirm = (token: string) => t.app.inject({ method: 'GET', url: '/api/admin/getRequestToConfirm', query: { token }, remoteAddress: '10.50.0.2' })

/** Registers and answers the link mailed to `email` for it. */
async function mailedLink(email: string): Promise<string> {
  expect(bodyOf(await register(application(email)))).toEqual({ status: 'success', message: REQUEST_RECEIVED })
  return confirmTokenFrom(await smtp.next(email.toLowerCase()))
}

/** A stored request for `email`, made through the register call and confirmed from its mail. */
async function requested(email: string): Promise<string> {
  const token = await mailedLink(email)
  expect(bodyOf(await confirm(token))).toEqual({ status: 'success', message: REQUEST_CONFIRMED })
  const row = await requestOf(email)
  if (row === undefined) throw new Error('no request stored')
  return row.id
}

describe('POST /register', () => {
  it('stores a request (lower-cased email, no password), never an account', async () => {
    const email = uniqueEmail('Mixed.Case')
    const res = await register(application(email))
    expect(res.statusCode).toBe(200)
    expect(bodyOf(res)).toEqual({ status: 'success', message: REQUEST_RECEIVED })
    const row = await requestOf(email)
    expect(row).toMatchObject({ name: 'Jo Applicant', email: email.toLowerCase() })
    expect(Object.keys(row ?? {}).filter((k) => /password/i.test(k))).toEqual([])
    expect(await adminOf(email)).toBeUndefined()
  })

  it('answers the same for a new email, an unconfirmed request’s, a confirmed request’s and an admin’s', async () => {
    const fresh = uniqueEmail()
    const unconfirmed = uniqueEmail()
    await mailedLink(unconfirmed)
    const unconfirmedId = (await requestOf(unconfirmed))?.id
    const confirmed = uniqueEmail()
    const confirmedId = await requested(confirmed)
    const staff = await t.createAdmin()
    const answers = []
    for (const email of [fresh, unconfirmed, confirmed.toUpperCase(), staff.email.toUpperCase(), t.superadmin.email]) {
      const res = await register({ ...application(email), name: 'Someone Else' })
      answers.push({ code: res.statusCode, body: res.body })
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1)
    expect(answers[0]).toEqual({ code: 200, body: JSON.stringify({ status: 'success', message: REQUEST_RECEIVED }) })
    // A confirmed request is kept: nobody can replace what its owner proved and waits on.
    expect(await requestOf(confirmed)).toMatchObject({ id: confirmedId, name: 'Jo Applicant' })
    // An unconfirmed one proved nothing: the newer request replaces it.
    expect((await requestOf(unconfirmed))?.id).not.toBe(unconfirmedId)
    expect(await requestOf(staff.email)).toBeUndefined()
    expect(await requestOf(t.superadmin.email)).toBeUndefined()
    expect((await adminOf(staff.email))?.passwordHash).toBe(staff.passwordHash)
  })

  it('checks the form with Create User’s messages and stores nothing on a mistake', async () => {
    const email = uniqueEmail()
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ email }, { name: 'Name is required' }],
      [{ name: 'Jo', email: 'not-an-email' }, { email: 'Incorrect format' }],
      [{ name: 'Jo', email: '' }, { email: 'Email is required' }],
    ]
    for (const [payload, errors] of cases) {
      const res = await register(payload)
      expect(res.statusCode).toBe(400)
      expect(bodyOf(res)).toEqual({ status: 'failed', message: Object.values(errors)[0], errors })
    }
    expect(await requestOf(email)).toBeUndefined()
  })

  it('limits requests per address (10 in 15 minutes), other addresses unaffected', async () => {
    for (let i = 0; i < 10; i++) expect((await register(application(uniqueEmail()), '10.40.0.1')).statusCode).toBe(200)
    const email = uniqueEmail()
    const refused = await register(application(email), '10.40.0.1')
    expect(refused.statusCode).toBe(429)
    expect(bodyOf(refused)).toMatchObject({ status: 'failed' })
    expect(await requestOf(email)).toBeUndefined()
    expect((await register(application(email), '10.40.0.2')).statusCode).toBe(200)
  })
})

describe('the address proves itself before staff see the request', () => {
  it('mails a single-use link; until it is opened the request is not listed, not readable and not approvable', async () => {
    const email = uniqueEmail('Proof')
    const token = await mailedLink(email)
    const row = await requestOf(email)
    if (row === undefined) throw new Error('no request stored')
    // Only the link's digest is stored.
    expect(row.confirmTokenHash).not.toBe(token)
    expect(row.confirmedAt).toBeNull()
    expect(bodyOf(await list({ search: email }))['count']).toBe(0)
    expect((await get(row.id)).statusCode).toBe(404)
    const refused = await post('/approveAccessRequest', approval(row.id, email))
    expect(refused.statusCode).toBe(400)
    expect(bodyOf(refused)).toEqual({ status: 'failed', message: REQUEST_UNCONFIRMED, errors: { _id: REQUEST_UNCONFIRMED } })
    expect(await adminOf(email)).toBeUndefined()

    expect(bodyOf(await confirm(token))).toEqual({ status: 'success', message: REQUEST_CONFIRMED })
    const listed = listOf(bodyOf(await list({ search: email })), 'result')
    expect(listed).toEqual([{ _id: row.id, name: 'Jo Applicant', email: email.toLowerCase(), createdAt: row.createdAt.toISOString(), confirmedAt: expect.any(String) }])
    // Nobody was signed in: the row names the request and the address that confirmed it.
    const [audit] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.recordId, row.id), eq(auditLog.action, '/confirmAccessRequest')))
    expect(audit).toMatchObject({ adminId: null, ip: '10.50.0.1' })

    // Single-use: the second opening changes nothing and says so.
    const again = await confirm(token)
    expect(again.statusCode).toBe(400)
    expect(bodyOf(again)).toEqual({ status: 'failed', message: REQUEST_ALREADY_CONFIRMED, errors: { token: REQUEST_ALREADY_CONFIRMED } })
    expect(await t.handle.db.select().from(auditLog).where(and(eq(auditLog.recordId, row.id), eq(auditLog.action, '/confirmAccessRequest')))).toHaveLength(1)
  })

  it('an outsider asking in a colleague’s name gets no login: the link goes to the colleague’s mailbox only', async () => {
    const jane = uniqueEmail('jane.doe')
    const before = smtp.received.length
    expect(bodyOf(await register({ ...application(jane), name: 'Jane Doe', password: 'Outsider#2026', confirmPassword: 'Outsider#2026' }))['status']).toBe('success')
    const mail = await smtp.next(jane)
    expect(smtp.received.slice(before).every((m) => m.to.every((to) => to === jane))).toBe(true)
    const row = await requestOf(jane)
    if (row === undefined) throw new Error('no request stored')
    // The superadmin who would recognise the name never sees the request, and cannot approve it by id.
    expect(bodyOf(await list({ search: 'Jane Doe' }))['count']).toBe(0)
    expect(bodyOf(await post('/approveAccessRequest', { ...approval(row.id, jane), name: 'Jane Doe' }))['message']).toBe(REQUEST_UNCONFIRMED)
    // Guessing the link is not a way in either.
    for (const guess of ['x'.repeat(43), confirmTokenFrom(mail).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))]) {
      expect(bodyOf(await confirm(guess))).toEqual({ status: 'failed', message: INVALID_CONFIRM_LINK, errors: { token: INVALID_CONFIRM_LINK } })
    }
    expect((await requestOf(jane))?.confirmedAt).toBeNull()
    expect(bodyOf(await login(jane, 'Outsider#2026'))).toEqual({ status: 'failed', message: LOGIN_FAILED })
  })

  it('an outsider whose request the owner confirms and a manager approves still cannot sign in: the password is set from the owner’s mailbox', async () => {
    const jane = uniqueEmail('jane')
    await mailedLink(jane)
    const janesRow = await requestOf(jane)
    // The last registration wins the link, as before; but it carries no password of the outsider's.
    const outsiders = await register({ name: 'Jane Doe', email: jane, password: 'Outsider#2026', confirmPassword: 'Outsider#2026' })
    expect(bodyOf(outsiders)['message']).toBe(REQUEST_RECEIVED)
    const link = confirmTokenFrom(await smtp.next(jane))
    const outsiderRow = await requestOf(jane)
    expect(outsiderRow?.id).not.toBe(janesRow?.id)
    // Jane's confirmation page names the request (name, address, time) before its button.
    expect(bodyOf(await toConfirm(link))).toEqual({ status: 'success', message: 'Access request fetched', data: { name: 'Jane Doe', email: jane, createdAt: outsiderRow?.createdAt.toISOString() } })
    expect(bodyOf(await confirm(link))['message']).toBe(REQUEST_CONFIRMED)
    expect(bodyOf(await post('/approveAccessRequest', approval(outsiderRow?.id ?? '', jane)))['message']).toBe(REQUEST_APPROVED)
    expect((await adminOf(jane))?.passwordHash).toBeNull()
    for (const password of ['Outsider#2026', PASSWORD]) expect(bodyOf(await login(jane, password))['message']).toBe(LOGIN_FAILED)
    // Only the mailbox's owner gets the way in.
    const token = setPasswordTokenFrom(await smtp.next(jane))
    expect(bodyOf(await setPassword(token, 'JanesOwn#2026'))).toEqual({ status: 'success', message: PASSWORD_SET })
    expect(bodyOf(await login(jane, 'Outsider#2026'))['message']).toBe(LOGIN_FAILED)
    expect(bodyOf(await login(jane, 'JanesOwn#2026'))['status']).toBe('success')
  })

  it('a link expires after 24 hours, and an expired request is cleared by the next one', async () => {
    const email = uniqueEmail('late')
    const token = await mailedLink(email)
    const row = await requestOf(email)
    expect((row?.confirmExpiresAt?.getTime() ?? 0) - Date.now()).toBeGreaterThan(23.9 * 3600_000)
    expect((row?.confirmExpiresAt?.getTime() ?? 0) - Date.now()).toBeLessThanOrEqual(24 * 3600_000)
    await t.handle.db.update(accessRequests).set({ confirmExpiresAt: new Date(Date.now() - 1000) }).where(eq(accessRequests.email, email.toLowerCase()))
    const late = await confirm(token)
    expect(late.statusCode).toBe(400)
    expect(bodyOf(late)).toEqual({ status: 'failed', message: EXPIRED_CONFIRM_LINK, errors: { token: EXPIRED_CONFIRM_LINK } })
    expect((await requestOf(email))?.confirmedAt).toBeNull()
    await mailedLink(uniqueEmail())
    expect(await requestOf(email)).toBeUndefined()
  })

  it('answers the same when the confirmation template is switched off, keeping the request', async () => {
    const off = eq(emailTemplates.identifier, 'access-request-confirm')
    await t.handle.db.update(emailTemplates).set({ status: 'inactive' }).where(off)
    try {
      const email = uniqueEmail('no-template')
      const res = await register(application(email))
      expect(res.statusCode).toBe(200)
      expect(bodyOf(res)).toEqual({ status: 'success', message: REQUEST_RECEIVED })
      expect(await requestOf(email)).toBeDefined()
    } finally {
      await t.handle.db.update(emailTemplates).set({ status: 'active' }).where(off)
    }
  })
})

describe('a pending request cannot sign in', () => {
  it('fails login exactly like a wrong password, until approved and a password is set from the mailed link', async () => {
    const email = uniqueEmail()
    const id = await requested(email)
    const staff = await t.createAdmin()
    const pendingLogin = await login(email, PASSWORD)
    const wrongPassword = await login(staff.email, 'Wrong#Pass1')
    const unknownEmail = await login(uniqueEmail('nobody'), PASSWORD)
    for (const res of [pendingLogin, wrongPassword, unknownEmail]) {
      expect(res.statusCode).toBe(400)
      expect(bodyOf(res)).toEqual({ status: 'failed', message: LOGIN_FAILED })
    }

    const approved = await post('/approveAccessRequest', approval(id, email))
    expect(bodyOf(approved)).toEqual({ status: 'success', message: REQUEST_APPROVED })
    // Approved but with no password yet: refused like a wrong password.
    const noPassword = await login(email, PASSWORD)
    expect([noPassword.statusCode, bodyOf(noPassword)]).toEqual([400, { status: 'failed', message: LOGIN_FAILED }])
    expect(bodyOf(await setPassword(setPasswordTokenFrom(await smtp.next(email))))['status']).toBe('success')
    const signedIn = bodyOf(await login(email, PASSWORD))
    expect(signedIn).toMatchObject({ status: 'success' })
    expect(typeof signedIn['token']).toBe('string')
  })
})

describe('GET /listAccessRequests', () => {
  it('pages pending requests newest first, searches name and email, and never shows a hash', async () => {
    const emails = [uniqueEmail('listing'), uniqueEmail('listing'), uniqueEmail('listing')]
    for (const [i, email] of emails.entries()) {
      await t.handle.db.insert(accessRequests).values({ name: `Listed ${i}`, email, createdAt: new Date(Date.UTC(2026, 0, i + 1)), confirmedAt: new Date(Date.UTC(2026, 0, i + 2)) })
    }
    // Never confirmed: not listed, whatever the search.
    await t.handle.db.insert(accessRequests).values({ name: 'Listed unconfirmed', email: uniqueEmail('listing'), confirmExpiresAt: new Date(Date.now() + 3600_000) })
    const page1 = bodyOf(await list({ page: '1', limit: '2', search: 'listing' }))
    expect(page1).toMatchObject({ status: 'success', count: 3 })
    expect(listOf(page1, 'result').map((r) => r['email'])).toEqual([emails[2], emails[1]])
    expect(listOf(page1, 'result')[0]).toEqual({ _id: expect.any(String), name: 'Listed 2', email: emails[2], createdAt: '2026-01-03T00:00:00.000Z', confirmedAt: '2026-01-04T00:00:00.000Z' })
    const page2 = bodyOf(await list({ page: '2', limit: '2', search: 'listing' }))
    expect(listOf(page2, 'result').map((r) => r['email'])).toEqual([emails[0]])
    const byName = bodyOf(await list({ search: 'LISTED 1' }))
    expect(listOf(byName, 'result').map((r) => r['email'])).toEqual([emails[1]])
    const wildcard = bodyOf(await list({ search: '%' }))
    expect(wildcard['count']).toBe(0)
  })

  it('is for staff managers only: View Only and sub-admins, even with the Users and Access page, are refused', async () => {
    const viewOnly = await t.createAdmin({ accessLevel: 'View Only', restrictions: [] })
    const manager = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/sub-admin'] })
    const id = await requested(uniqueEmail())
    for (const caller of [viewOnly, manager]) {
      expect((await list({}, caller)).statusCode).toBe(403)
      expect((await post('/declineAccessRequest', { id }, caller)).statusCode).toBe(403)
      const approve = await post('/approveAccessRequest', { _id: id, name: 'Jo', email: 'x@example.com', accessLevel: 'Admin', restrictions: [] }, caller)
      expect(approve.statusCode).toBe(403)
    }
    expect(await t.handle.db.select().from(accessRequests).where(eq(accessRequests.id, id))).toHaveLength(1)
  })
})

describe('GET /getAccessRequest', () => {
  it('answers one pending request without its hash; an unknown id is 404', async () => {
    const email = uniqueEmail('one')
    const id = await requested(email)
    const found = bodyOf(await get(id))
    expect(found['data']).toEqual({ _id: id, name: 'Jo Applicant', email, createdAt: expect.any(String), confirmedAt: expect.any(String) })
    const missing = await get('no-such-request')
    expect(missing.statusCode).toBe(404)
    expect(bodyOf(missing)['message']).toBe(RECORD_NOT_FOUND)
  })
})

describe('POST /approveAccessRequest', () => {
  it('creates an active subadmin with no password and Create User’s access rules, removes the request, audits the new admin', async () => {
    const email = uniqueEmail()
    const id = await requested(email)
    const res = await post('/approveAccessRequest', { _id: id, name: 'Jo Approved', email: email.toUpperCase(), accessLevel: 'Admin', restrictions: ['/cms'] })
    expect(bodyOf(res)).toEqual({ status: 'success', message: REQUEST_APPROVED })
    const admin = await adminOf(email)
    expect(admin).toMatchObject({ name: 'Jo Approved', email, role: 'subadmin', accessLevel: 'Admin', activate: 1, passwordHash: null, totpEnabled: false })
    // Admin adds the chosen parent's child pages (requirements R5.13).
    expect([...(admin?.restrictions ?? [])].sort()).toEqual(['/add-cms', '/cms', '/edit-cms', '/edit-token'])
    expect(await requestOf(email)).toBeUndefined()
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, admin?.id ?? ''))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, action: '/approveAccessRequest' })
    expect(audit?.detail).toMatch(new RegExp(`^request from ${email.replace(/[.+]/g, '\\$&')}, confirmed \\d{4}-\\d{2}-\\d{2}T`))
  })

  it('removes child pages for View Only', async () => {
    const email = uniqueEmail()
    const id = await requested(email)
    await post('/approveAccessRequest', { _id: id, name: 'Jo', email, accessLevel: 'View Only', restrictions: ['/cms', '/add-cms', '/brand', '/edit-brand'] })
    expect((await adminOf(email))?.restrictions).toEqual(['/cms', '/brand'])
  })

  it('refuses an email that became an admin’s with Create User’s message, keeping the request', async () => {
    const email = uniqueEmail()
    const id = await requested(email)
    await t.createAdmin({ email })
    const res = await post('/approveAccessRequest', { _id: id, name: 'Jo', email, accessLevel: 'Admin', restrictions: [] })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: EMAIL_TAKEN, errors: { email: EMAIL_TAKEN } })
    expect(await requestOf(email)).toBeDefined()
  })

  it('refuses a changed email, an unknown request and missing access, changing nothing', async () => {
    const email = uniqueEmail()
    const id = await requested(email)
    const changed = await post('/approveAccessRequest', { _id: id, name: 'Jo', email: uniqueEmail('other'), accessLevel: 'Admin', restrictions: [] })
    expect(bodyOf(changed)).toEqual({ status: 'failed', message: REQUEST_EMAIL_FIXED, errors: { email: REQUEST_EMAIL_FIXED } })
    const unknown = await post('/approveAccessRequest', { _id: 'no-such-request', name: 'Jo', email, accessLevel: 'Admin', restrictions: [] })
    expect(unknown.statusCode).toBe(404)
    expect(bodyOf(unknown)).toEqual({ status: 'failed', message: RECORD_NOT_FOUND, errors: { _id: RECORD_NOT_FOUND } })
    const noAccess = await post('/approveAccessRequest', { _id: id, name: 'Jo', email, accessLevel: 'View Only', restrictions: [] })
    expect(bodyOf(noAccess)).toEqual({ status: 'failed', message: 'Restrictions is required', errors: { restrictions: 'Restrictions is required' } })
    expect(await adminOf(email)).toBeUndefined()
    expect(await requestOf(email)).toBeDefined()
  })

  it('approves a request once when two approvals race', async () => {
    const email = uniqueEmail()
    const id = await requested(email)
    const payload = { _id: id, name: 'Jo', email, accessLevel: 'Admin', restrictions: [] }
    const answers = await Promise.all([post('/approveAccessRequest', payload), post('/approveAccessRequest', payload)])
    expect(answers.map((a) => bodyOf(a)['status']).sort()).toEqual(['failed', 'success'])
    expect(await t.handle.db.select().from(admins).where(eq(admins.email, email))).toHaveLength(1)
  })
})

describe('POST /declineAccessRequest', () => {
  it('deletes the request and audits it; an unknown id is 404', async () => {
    const email = uniqueEmail()
    const id = await requested(email)
    expect(bodyOf(await post('/declineAccessRequest', { id }))).toEqual({ status: 'success', message: REQUEST_DECLINED })
    expect(await requestOf(email)).toBeUndefined()
    expect(await adminOf(email)).toBeUndefined()
    const [audit] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.recordId, id), eq(auditLog.action, '/declineAccessRequest')))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, detail: expect.stringMatching(/^request from .*, confirmed /) })
    const again = await post('/declineAccessRequest', { id })
    expect(again.statusCode).toBe(404)
    expect(bodyOf(again)).toEqual({ status: 'failed', message: RECORD_NOT_FOUND, errors: { id: RECORD_NOT_FOUND } })
    // Declined, the address may ask again.
    await mailedLink(email)
    expect(await requestOf(email)).toBeDefined()
  })
})

describe('the set-password link', () => {
  async function approvedMember(): Promise<{ email: string; token: string }> {
    const email = uniqueEmail('member')
    const id = await requested(email)
    expect(bodyOf(await post('/approveAccessRequest', approval(id, email)))['message']).toBe(REQUEST_APPROVED)
    return { email, token: setPasswordTokenFrom(await smtp.next(email)) }
  }

  it('is mailed on approval, stored only as its digest, works once for 72 hours, with Forgot Password’s rules', async () => {
    const { email, token } = await approvedMember()
    const admin = await adminOf(email)
    const [setup] = await t.handle.db.select().from(passwordSetups).where(eq(passwordSetups.adminId, admin?.id ?? ''))
    expect(setup?.tokenHash).toMatch(/^[0-9a-f]{64}$/)
    expect(setup?.tokenHash).not.toBe(token)
    expect((setup?.expiresAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(71.9 * 3600_000)
    expect((setup?.expiresAt.getTime() ?? 0) - Date.now()).toBeLessThanOrEqual(72 * 3600_000)
    const weak = await setPassword(token, 'weak')
    expect(bodyOf(weak)).toEqual({ status: 'failed', message: 'Incorrect format', errors: { newPassword: 'Incorrect format' } })
    const mismatch = await setPassword(token, PASSWORD, 'Request#2027')
    expect(bodyOf(mismatch)).toEqual({ status: 'failed', message: 'Confirm password does not match', errors: { confirmPassword: 'Confirm password does not match' } })
    expect(bodyOf(await setPassword(token))).toEqual({ status: 'success', message: PASSWORD_SET })
    const [audit] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.recordId, admin?.id ?? ''), eq(auditLog.action, '/setFirstPassword')))
    expect(audit).toMatchObject({ adminId: null, ip: '10.60.0.1' })
    const again = await setPassword(token, 'Another#2026')
    expect(bodyOf(again)).toEqual({ status: 'failed', message: INVALID_SETUP_LINK, errors: { token: INVALID_SETUP_LINK } })
    expect(bodyOf(await login(email, 'Another#2026'))['message']).toBe(LOGIN_FAILED)
    expect(bodyOf(await login(email, PASSWORD))['status']).toBe('success')
  })

  it('expires', async () => {
    const { email, token } = await approvedMember()
    const admin = await adminOf(email)
    await t.handle.db.update(passwordSetups).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordSetups.adminId, admin?.id ?? ''))
    expect(bodyOf(await setPassword(token))).toEqual({ status: 'failed', message: EXPIRED_SETUP_LINK, errors: { token: EXPIRED_SETUP_LINK } })
    expect((await adminOf(email))?.passwordHash).toBeNull()
  })

  it('Send password link mails a new link that replaces the last, only for a member with no password', async () => {
    const { email, token } = await approvedMember()
    const admin = await adminOf(email)
    expect(bodyOf(await post('/sendPasswordLink', { id: admin?.id }))).toEqual({ status: 'success', message: PASSWORD_LINK_SENT })
    const newer = setPasswordTokenFrom(await smtp.next(email))
    expect(bodyOf(await setPassword(token))['message']).toBe(INVALID_SETUP_LINK)
    expect(bodyOf(await setPassword(newer))['message']).toBe(PASSWORD_SET)
    const refused = await post('/sendPasswordLink', { id: admin?.id })
    expect(bodyOf(refused)).toEqual({ status: 'failed', message: HAS_PASSWORD, errors: { id: HAS_PASSWORD } })
    expect((await post('/sendPasswordLink', { id: t.superadmin.id })).statusCode).toBe(404)
    const viewOnly = await t.createAdmin({ accessLevel: 'View Only', restrictions: [] })
    expect((await post('/sendPasswordLink', { id: admin?.id }, viewOnly)).statusCode).toBe(403)
  })

  it('refuses an approval whose set-password mail cannot be made, keeping the request', async () => {
    const email = uniqueEmail()
    const id = await requested(email)
    const off = eq(emailTemplates.identifier, 'password-setup')
    await t.handle.db.update(emailTemplates).set({ status: 'inactive' }).where(off)
    try {
      const res = await post('/approveAccessRequest', approval(id, email))
      expect(bodyOf(res)).toEqual({ status: 'failed', message: SETUP_MAIL_UNAVAILABLE })
      expect(await adminOf(email)).toBeUndefined()
      expect(await requestOf(email)).toBeDefined()
    } finally {
      await t.handle.db.update(emailTemplates).set({ status: 'active' }).where(off)
    }
  })
})
