/**
 * The mails that tell an admin what happened to their account (server/kit/rules/mail/account-notices.ts):
 * a sign-in from a new device, a password changed or reset, access changed by a manager. Spans the
 * auth, password, staff and emails areas. Read from the outbox: without SMTP_URL a mail is held
 * there, sealed, so each test counts exactly what was queued and opens the body to read it.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminDevices, emailTemplates, mailOutbox, type AdminRow } from '../db/schema.ts'
import { openMailBody } from '../kit/ground/mail/mail.ts'
import { normalizeRestrictions } from '../kit/rules/access/grants.ts'
import { describeAccessChange, noticeTime } from '../kit/rules/mail/account-notices.ts'
import { DEVICE_COOKIE } from '../kit/ground/access/device-cookie.ts'
import { TEST_PASSWORD, bodyOf, listOf, makeTestApp, type TestApp } from './test-app.ts'

let t: TestApp

// One proxy hop is trusted: the address mailed is the client's from X-Forwarded-For.
beforeAll(async () => {
  t = await makeTestApp({ env: { TRUST_PROXY: '1' } })
})
afterAll(async () => {
  await t.close()
})

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const NEW_PASSWORD = 'Fresh#2024'

let addressCount = 0
/** Each request from its own address, so the per-address limits never bite here. */
const nextAddress = (): string => `198.51.${Math.floor(++addressCount / 250)}.${addressCount % 250}`

/** A browser: its User-Agent, and the device cookie it keeps once a sign-in gave it one. */
interface Browser {
  userAgent: string
  cookie: string
}
const browser = (userAgent: string): Browser => ({ userAgent, cookie: '' })

/** Signs in from `from`, which keeps the device cookie the answer sets, as a browser would. */
async function login(admin: AdminRow, from: Browser, address = nextAddress(), password = TEST_PASSWORD) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/login',
    headers: { 'user-agent': from.userAgent, 'x-forwarded-for': address, ...(from.cookie === '' ? {} : { cookie: from.cookie }) },
    payload: { email: admin.email, password },
  })
  const device = res.cookies.find((c) => c.name === DEVICE_COOKIE)
  if (device !== undefined) from.cookie = `${device.name}=${device.value}`
  return res
}

const post = async (path: string, payload: Record<string, unknown>, as?: AdminRow, userAgent = CHROME, address = nextAddress()) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin${path}`,
    payload,
    headers: { 'user-agent': userAgent, 'x-forwarded-for': address, ...(as === undefined ? {} : await t.auth(as)) },
  })

/** The mails queued to `to` from `template`, bodies opened. */
async function mailsTo(to: string, template: string): Promise<{ subject: string; text: string }[]> {
  const rows = await t.handle.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, to), eq(mailOutbox.template, template)))
  return rows.map((r) => {
    const body = openMailBody(t.config, r.id, r.body)
    if (body === null) throw new Error(`mail ${r.id} has no body to read`)
    // One line: the plain text is wrapped at 78 columns.
    return { subject: body.subject, text: body.text.replace(/\s+/g, ' ') }
  })
}

/** Every account notice queued to `to`, whatever its template. */
const noticesTo = async (to: string): Promise<number> =>
  (await t.handle.db.select().from(mailOutbox).where(eq(mailOutbox.to, to))).filter((r) => ['new-device-sign-in', 'password-changed', 'access-changed'].includes(r.template ?? '')).length

/** The code of the latest OTP mail of `template` to `to`, read from its sealed body. */
async function codeFrom(to: string, template: string): Promise<string> {
  const mails = await mailsTo(to, template)
  const code = /\b(\d{6})\b/.exec(mails.at(-1)?.text ?? '')?.[1]
  if (code === undefined) throw new Error(`no code mailed to ${to}`)
  return code
}

async function setTemplateStatus(identifier: string, status: 'active' | 'inactive'): Promise<void> {
  await t.handle.db.update(emailTemplates).set({ status }).where(eq(emailTemplates.identifier, identifier))
}

describe('a sign-in from a new device', () => {
  it('mails nothing on the first sign-in, nothing again from the same device, and once from a new one', async () => {
    const FIREFOX_WINDOWS = browser(FIREFOX), SAFARI_IPHONE = browser(SAFARI)
    const staff = await t.createAdmin({ name: 'Nia Device' })
    expect((await login(staff, FIREFOX_WINDOWS)).statusCode).toBe(200)
    // The first sign-in of an account: every device is new to it, so no mail.
    expect(await mailsTo(staff.email, 'new-device-sign-in')).toHaveLength(0)
    expect((await login(staff, FIREFOX_WINDOWS)).statusCode).toBe(200)
    expect(await mailsTo(staff.email, 'new-device-sign-in')).toHaveLength(0)

    expect((await login(staff, SAFARI_IPHONE, '203.0.113.9')).statusCode).toBe(200)
    const mails = await mailsTo(staff.email, 'new-device-sign-in')
    expect(mails).toHaveLength(1)
    const [mail] = mails
    expect(mail?.subject).toBe('New sign-in to your back-office account')
    expect(mail?.text).toContain('Hello Nia Device')
    expect(mail?.text).toMatch(/Device: Safari 17 on iOS/)
    expect(mail?.text).toContain('Address: 203.0.113.9')
    expect(mail?.text).toMatch(/When: \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/)
    expect(mail?.text).toContain('Forgot Password')
    expect(mail?.text).not.toContain(TEST_PASSWORD)

    // Both devices are known now: signing in from either again mails nothing more.
    expect((await login(staff, SAFARI_IPHONE)).statusCode).toBe(200)
    expect((await login(staff, FIREFOX_WINDOWS)).statusCode).toBe(200)
    expect(await mailsTo(staff.email, 'new-device-sign-in')).toHaveLength(1)
  })

  it('mails nothing, and learns no device, for a refused sign-in', async () => {
    const FIREFOX_WINDOWS = browser(FIREFOX), SAFARI_IPHONE = browser(SAFARI)
    const staff = await t.createAdmin()
    expect((await login(staff, FIREFOX_WINDOWS)).statusCode).toBe(200)
    expect((await login(staff, SAFARI_IPHONE, nextAddress(), 'Wrong#pass1')).statusCode).toBe(400)
    const devices = await t.handle.db.select({ device: adminDevices.device }).from(adminDevices).where(eq(adminDevices.adminId, staff.id))
    expect(devices.map((d) => d.device)).toEqual([expect.stringMatching(/^cookie:/)])
    // The right password from that device afterwards is its first real sign-in there: mailed once.
    expect((await login(staff, SAFARI_IPHONE)).statusCode).toBe(200)
    expect(await mailsTo(staff.email, 'new-device-sign-in')).toHaveLength(1)
  })

  it('still signs in, without the mail, while its template is switched off', async () => {
    const FIREFOX_WINDOWS = browser(FIREFOX), CHROME_LINUX = browser(CHROME)
    const staff = await t.createAdmin()
    expect((await login(staff, FIREFOX_WINDOWS)).statusCode).toBe(200)
    await setTemplateStatus('new-device-sign-in', 'inactive')
    try {
      expect((await login(staff, CHROME_LINUX)).statusCode).toBe(200)
    } finally {
      await setTemplateStatus('new-device-sign-in', 'active')
    }
    expect(await mailsTo(staff.email, 'new-device-sign-in')).toHaveLength(0)
  })

  it('knows a device by the cookie it keeps, not by its User-Agent: a copied User-Agent is mailed, a browser update is not', async () => {
    const owner = browser(FIREFOX)
    const staff = await t.createAdmin({ name: 'Ode Cookie' })
    const first = await login(staff, owner)
    expect(first.statusCode).toBe(200)
    const cookie = first.cookies.find((c) => c.name === DEVICE_COOKIE)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/admin', maxAge: 400 * 24 * 3600 })
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // Over plain http the cookie cannot be Secure; behind the https proxy it is.
    expect(cookie?.secure).toBeUndefined()
    // An intruder with the password and the owner's exact User-Agent, but not the browser: mailed.
    expect((await login(staff, browser(FIREFOX))).statusCode).toBe(200)
    expect(await mailsTo(staff.email, 'new-device-sign-in')).toHaveLength(1)
    // The owner's browser, updated to a new major version, keeps its cookie: known, no mail.
    owner.userAgent = FIREFOX.replace(/133\.0/g, '140.0')
    expect((await login(staff, owner)).statusCode).toBe(200)
    expect(await mailsTo(staff.email, 'new-device-sign-in')).toHaveLength(1)
    // A value that is no device id of ours is a new device, and gets an id of its own.
    const forged = { userAgent: FIREFOX, cookie: `${DEVICE_COOKIE}=guess` }
    const answer = await login(staff, forged)
    expect(answer.cookies.find((c) => c.name === DEVICE_COOKIE)?.value).not.toBe('guess')
    expect(await mailsTo(staff.email, 'new-device-sign-in')).toHaveLength(2)
  })

  it('sets the cookie Secure when the call came over https', async () => {
    const staff = await t.createAdmin()
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/login', headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': nextAddress() }, payload: { email: staff.email, password: TEST_PASSWORD } })
    expect(res.statusCode).toBe(200)
    expect(res.cookies.find((c) => c.name === DEVICE_COOKIE)).toMatchObject({ secure: true, httpOnly: true })
  })
})

describe('a password change', () => {
  it('Reset Password mails the admin once, with the device and address; a refused change mails nothing', async () => {
    const staff = await t.createAdmin({ name: 'Pat Change' })
    expect(bodyOf(await post('/send-mail', {}, staff)).status).toBe('success')
    const code = await codeFrom(staff.email, 'change-password-otp')
    const change = (oldPassword: string, address?: string) =>
      post('/change-password', { otp: code, oldPassword, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email: staff.email }, staff, SAFARI, address)

    expect((await change('Wrong#old1')).statusCode).toBe(400)
    expect(await mailsTo(staff.email, 'password-changed')).toHaveLength(0)

    expect((await change(TEST_PASSWORD, '203.0.113.44')).statusCode).toBe(200)
    const mails = await mailsTo(staff.email, 'password-changed')
    expect(mails).toHaveLength(1)
    expect(mails[0]?.subject).toBe('Your back-office password was changed')
    expect(mails[0]?.text).toContain('changed with Reset Password while signed in')
    expect(mails[0]?.text).toMatch(/Device: Safari 17 on iOS/)
    expect(mails[0]?.text).toContain('Address: 203.0.113.44')
    expect(mails[0]?.text).not.toContain(NEW_PASSWORD)
    expect(mails[0]?.text).not.toContain(code)
    expect(await noticesTo(staff.email)).toBe(1)
  })

  it('a Forgot Password reset mails the admin once; a wrong code mails nothing', async () => {
    const staff = await t.createAdmin()
    expect(bodyOf(await post('/ForgotSend-mail', { email: staff.email })).status).toBe('success')
    const code = await codeFrom(staff.email, 'forgot-password-otp')
    const reset = (otp: string) => post('/forgot-password', { otp, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email: staff.email, twoFACode: '' }, undefined, FIREFOX)

    expect((await reset(code === '000000' ? '111111' : '000000')).statusCode).toBe(400)
    expect(await mailsTo(staff.email, 'password-changed')).toHaveLength(0)

    expect((await reset(code)).statusCode).toBe(200)
    const mails = await mailsTo(staff.email, 'password-changed')
    expect(mails).toHaveLength(1)
    expect(mails[0]?.text).toContain('reset with Forgot Password')
    expect(mails[0]?.text).toMatch(/Device: Firefox 133 on Windows/)
    // The code was used up by the reset: trying it again changes nothing and mails nothing.
    expect((await reset(code)).statusCode).toBe(400)
    expect(await mailsTo(staff.email, 'password-changed')).toHaveLength(1)
  })
})

describe('a password reset raced with the same code', () => {
  it('changes the password once and mails once: the loser rolls back with its mail', async () => {
    const staff = await t.createAdmin()
    expect(bodyOf(await post('/ForgotSend-mail', { email: staff.email })).status).toBe('success')
    const code = await codeFrom(staff.email, 'forgot-password-otp')
    const reset = () => post('/forgot-password', { otp: code, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email: staff.email, twoFACode: '' })
    const answers = await Promise.all([reset(), reset(), reset()])
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1)
    expect(await mailsTo(staff.email, 'password-changed')).toHaveLength(1)
  })
})

describe('access changed by a staff manager', () => {
  const update = (staff: AdminRow, fields: Record<string, unknown>) =>
    post('/UpdateSubAdminUsers', { _id: staff.id, name: staff.name, email: staff.email, accessLevel: staff.accessLevel, restrictions: staff.restrictions, ...fields }, t.superadmin)

  it('mails the member once what changed and who changed it; a name-only edit mails nothing', async () => {
    // Stored as an edit stores them (the access rules applied), so re-saving the same choice changes nothing.
    const staff = await t.createAdmin({ name: 'Ace Member', accessLevel: 'View Only', restrictions: normalizeRestrictions('View Only', ['/users', '/cms'], true) })
    expect((await update(staff, { name: 'Ace Renamed' })).statusCode).toBe(200)
    expect(await mailsTo(staff.email, 'access-changed')).toHaveLength(0)

    expect((await update(staff, { name: 'Ace Renamed', accessLevel: 'Admin', restrictions: ['/users', '/newsletter'] })).statusCode).toBe(200)
    const mails = await mailsTo(staff.email, 'access-changed')
    expect(mails).toHaveLength(1)
    expect(mails[0]?.subject).toBe('Your back-office access was changed')
    expect(mails[0]?.text).toContain('Hello Ace Renamed')
    expect(mails[0]?.text).toContain(`${t.superadmin.name} changed your access`)
    expect(mails[0]?.text).toContain('Access level: View Only → Admin.')
    expect(mails[0]?.text).toContain('Screens added: Newsletter.')
    expect(mails[0]?.text).toContain('Screens removed: Games.')
    expect(mails[0]?.text).toContain('contact an administrator')
  })

  it('a change of sign-in email is mailed to the new address and the old one', async () => {
    const staff = await t.createAdmin()
    const address = `moved-${staff.email}`
    expect((await update(staff, { email: address })).statusCode).toBe(200)
    for (const to of [address, staff.email]) {
      const mails = await mailsTo(to, 'access-changed')
      expect(mails).toHaveLength(1)
      expect(mails[0]?.text).toContain(`Sign-in email: ${staff.email} → ${address}.`)
    }
  })

  it('a refused or stale change mails nothing', async () => {
    const staff = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    // An edit made from a form loaded at an older version is a conflict: nothing is written.
    const stale = await update(staff, { accessLevel: 'Admin', version: staff.version - 1 })
    expect(stale.statusCode).toBe(409)
    // The superadmin is nobody's to change.
    const refused = await post('/UpdateSubAdminUsers', { _id: t.superadmin.id, name: 'X', email: t.superadmin.email, accessLevel: 'View Only', restrictions: ['/users'] }, t.superadmin)
    expect(refused.statusCode).toBe(403)
    expect(await mailsTo(staff.email, 'access-changed')).toHaveLength(0)
    expect(await mailsTo(t.superadmin.email, 'access-changed')).toHaveLength(0)
  })

  it('deactivation and activation are each mailed once; asking for the state it has mails nothing', async () => {
    const staff = await t.createAdmin()
    const toggle = (activate?: 0 | 1) => post('/ActivateSubadminStatusUpdate', { id: staff.id, ...(activate === undefined ? {} : { activate }) }, t.superadmin)
    expect((await toggle(1)).statusCode).toBe(200)
    expect(await mailsTo(staff.email, 'access-changed')).toHaveLength(0)
    expect((await toggle(0)).statusCode).toBe(200)
    expect((await toggle(0)).statusCode).toBe(200)
    let mails = await mailsTo(staff.email, 'access-changed')
    expect(mails).toHaveLength(1)
    expect(mails[0]?.text).toContain('Your account was deactivated: you can no longer sign in.')
    expect((await toggle()).statusCode).toBe(200)
    mails = await mailsTo(staff.email, 'access-changed')
    expect(mails).toHaveLength(2)
    expect(mails.some((m) => m.text.includes('Your account was activated: you can sign in again.'))).toBe(true)
  })
})

describe('the templates in Automated Emails', () => {
  const NOTICES = ['new-device-sign-in', 'password-changed', 'access-changed', 'passkey-added', 'passkey-removed']

  it('are listed by getemail and edited like the others; the next mail uses the edit', async () => {
    const list = listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/getemail', query: { page: '1', limit: '50' }, headers: await t.auth(t.superadmin) })), 'result')
    const listed = new Map(list.map((row) => [String(row['identifier']), String(row['id'])]))
    for (const identifier of NOTICES) expect(listed.has(identifier)).toBe(true)

    const id = listed.get('password-changed') ?? ''
    const edit = (content: string) => post('/editTemplate', { id, subject: 'Password changed on {{time}}', identifier: 'password-changed', content }, t.superadmin)
    // {{time}} is required: a template that drops it is refused.
    expect((await edit('<p>Hi {{name}}</p>')).statusCode).toBe(400)
    expect((await edit('<p>Hi {{name}}, your password was {{how}} at {{time}}. Not you? Tell an administrator.</p>')).statusCode).toBe(200)

    const staff = await t.createAdmin({ name: 'Edda Edited' })
    expect(bodyOf(await post('/ForgotSend-mail', { email: staff.email })).status).toBe('success')
    const code = await codeFrom(staff.email, 'forgot-password-otp')
    expect((await post('/forgot-password', { otp: code, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email: staff.email, twoFACode: '' })).statusCode).toBe(200)
    const [mail] = await mailsTo(staff.email, 'password-changed')
    expect(mail?.subject).toMatch(/^Password changed on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/)
    expect(mail?.text).toContain('Hi Edda Edited, your password was reset with Forgot Password')
  })
})

describe('describeAccessChange and noticeTime', () => {
  it('words a change of level and screens, and every-screen lists', () => {
    expect(describeAccessChange({ accessLevel: 'Admin', restrictions: [] }, { accessLevel: 'Admin', restrictions: ['/users'] })).toBe('Screens: every screen → Leads.')
    expect(describeAccessChange({ accessLevel: 'Admin', restrictions: ['/users'] }, { accessLevel: 'Admin', restrictions: [] })).toBe('Screens: you can now open every screen.')
    expect(describeAccessChange({ accessLevel: 'Admin', restrictions: ['/users'] }, { accessLevel: 'Admin', restrictions: ['/users'] })).toBe('')
    expect(noticeTime(new Date(Date.UTC(2026, 10, 6, 8, 5)))).toBe('6 Nov 2026, 08:05 UTC')
  })
})
