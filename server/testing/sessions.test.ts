/**
 * Sessions an admin can see and end (contract/auth.ts listSessions, endSession, endOtherSessions)
 * and a staff manager's Sign out everywhere (contract/staff.ts signOutStaff): every ending makes
 * that token 401 at once and sends LOGOUT to its sockets. Spans the auth and staff areas.
 */
import { and, eq } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SocketEvents } from '#contract/socket'
import { auditLog, type AdminRow } from '../db/schema.ts'
import { TEST_PASSWORD, bodyOf, listOf, type TestApp } from './test-app.ts'
import { openLiveApp, type LiveApp } from './live-app.ts'

let t: TestApp
let live: LiveApp

// One proxy hop is trusted: the address recorded is the client's from X-Forwarded-For.
beforeAll(async () => {
  live = await openLiveApp({ env: { TRUST_PROXY: '1' } })
  t = live.t
})
afterAll(() => live.close())

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

/** A token from the real login, from a browser and an address of our choosing. */
async function loginAs(admin: AdminRow, userAgent = FIREFOX_WINDOWS, address = '203.0.113.7'): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/login',
    headers: { 'user-agent': userAgent, 'x-forwarded-for': address },
    payload: { email: admin.email, password: TEST_PASSWORD },
  })
  expect(res.statusCode).toBe(200)
  return String(bodyOf(res)['token'])
}

const jtiOf = (token: string): string => String(decodeJwt(token).jti)
const call = (token: string, method: 'GET' | 'POST', path: string, payload: Record<string, unknown> = {}) =>
  t.app.inject({ method, url: `/api/admin${path}`, headers: { authorization: `Bearer ${token}` }, ...(method === 'POST' ? { payload } : {}) })
const profile = (token: string) => call(token, 'GET', '/get-profile')
const sessionsOf = async (token: string) => {
  const res = await call(token, 'GET', '/listSessions')
  expect(res.statusCode).toBe(200)
  return listOf(bodyOf(res), 'data')
}

const connectWith = (token: string): Promise<Socket> => live.connect(`Bearer ${token}`)
/** Resolves when the socket hears LOGOUT; rejects after 2 s. */
const logoutHeard = (socket: Socket): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no LOGOUT within 2 s')), 2000)
    socket.once(SocketEvents.logout, () => {
      clearTimeout(timer)
      resolve()
    })
  })

describe('GET /listSessions', () => {
  it('lists each sign-in with its device, address, sign-in time and last activity, this one marked first', async () => {
    const staff = await t.createAdmin()
    const laptop = await loginAs(staff, FIREFOX_WINDOWS, '203.0.113.7')
    const phone = await loginAs(staff, SAFARI_IPHONE, '198.51.100.20')
    const list = await sessionsOf(phone)
    expect(list).toHaveLength(2)
    const [first, second] = list
    expect(first).toMatchObject({ _id: jtiOf(phone), current: true, address: '198.51.100.20' })
    expect(String(first?.['device'])).toMatch(/^Safari 17 on iOS/)
    expect(second).toMatchObject({ _id: jtiOf(laptop), current: false, address: '203.0.113.7', device: 'Firefox 133 on Windows 10' })
    for (const row of list) {
      expect(Number.isNaN(Date.parse(String(row['signedInAt'])))).toBe(false)
      expect(Number.isNaN(Date.parse(String(row['lastActiveAt'])))).toBe(false)
    }
    // Another admin's sessions are not listed.
    const other = await t.createAdmin()
    expect((await sessionsOf(await loginAs(other))).map((r) => r['_id'])).not.toContain(jtiOf(laptop))
  })

  it('leaves out a session ended by Logout or by a forced logout', async () => {
    const staff = await t.createAdmin()
    const a = await loginAs(staff)
    const b = await loginAs(staff)
    expect((await call(a, 'POST', '/logout')).statusCode).toBe(200)
    expect((await sessionsOf(b)).map((r) => r['_id'])).toEqual([jtiOf(b)])
    const root = await t.auth(t.superadmin)
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/signOutStaff', headers: root, payload: { id: staff.id } })).statusCode).toBe(200)
    const c = await loginAs(staff)
    expect((await sessionsOf(c)).map((r) => r['_id'])).toEqual([jtiOf(c)])
  })
})

describe('POST /endSession', () => {
  it('ends one of my sessions: its token is 401 at once and its socket hears LOGOUT; mine goes on', async () => {
    const staff = await t.createAdmin()
    const mine = await loginAs(staff)
    const other = await loginAs(staff)
    const socket = await connectWith(other)
    const heard = logoutHeard(socket)
    const res = await call(mine, 'POST', '/endSession', { id: jtiOf(other) })
    expect(res.statusCode).toBe(200)
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'Session signed out' })
    expect((await profile(other)).statusCode).toBe(401)
    await heard
    expect((await profile(mine)).statusCode).toBe(200)
    expect((await sessionsOf(mine)).map((r) => r['_id'])).toEqual([jtiOf(mine)])
    const [row] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, '/endSession'), eq(auditLog.adminId, staff.id)))
    expect(row?.detail).toBe(jtiOf(other))
  })

  it("cannot end another admin's session by its id: 404, and that session goes on", async () => {
    const victim = await t.createAdmin()
    const victims = await loginAs(victim)
    const attacker = await loginAs(await t.createAdmin({ accessLevel: 'Admin', restrictions: [] }))
    const res = await call(attacker, 'POST', '/endSession', { id: jtiOf(victims) })
    expect(res.statusCode).toBe(404)
    expect((await profile(victims)).statusCode).toBe(200)
    // The superadmin neither: staff are signed out with signOutStaff, audited as such.
    const root = await loginAs(t.superadmin)
    expect((await call(root, 'POST', '/endSession', { id: jtiOf(victims) })).statusCode).toBe(404)
    expect((await profile(victims)).statusCode).toBe(200)
  })

  it('refuses to end its own session (Logout does that)', async () => {
    const mine = await loginAs(await t.createAdmin())
    const res = await call(mine, 'POST', '/endSession', { id: jtiOf(mine) })
    expect(res.statusCode).toBe(400)
    expect((await profile(mine)).statusCode).toBe(200)
  })
})

describe('POST /endOtherSessions', () => {
  it('ends every other session of mine (401 and LOGOUT), keeps this one and says how many ended', async () => {
    const staff = await t.createAdmin()
    const mine = await loginAs(staff)
    const others = [await loginAs(staff), await loginAs(staff, SAFARI_IPHONE)]
    const socket = await connectWith(others[0] ?? '')
    const heard = logoutHeard(socket)
    const bystander = await loginAs(await t.createAdmin())
    const res = await call(mine, 'POST', '/endOtherSessions')
    expect(res.statusCode).toBe(200)
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'Signed out of all other sessions', count: 2 })
    for (const token of others) expect((await profile(token)).statusCode).toBe(401)
    await heard
    expect((await profile(mine)).statusCode).toBe(200)
    expect((await profile(bystander)).statusCode).toBe(200)
    expect((await sessionsOf(mine)).map((r) => r['_id'])).toEqual([jtiOf(mine)])
  })
})

describe('POST /signOutStaff', () => {
  it('a staff manager signs a member out everywhere: every token 401, every socket LOGOUT, audited', async () => {
    const staff = await t.createAdmin()
    const tokens = [await loginAs(staff), await loginAs(staff, SAFARI_IPHONE)]
    const socket = await connectWith(tokens[1] ?? '')
    const heard = logoutHeard(socket)
    const root = await loginAs(t.superadmin)
    const res = await call(root, 'POST', '/signOutStaff', { id: staff.id })
    expect(res.statusCode).toBe(200)
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'User signed out everywhere' })
    for (const token of tokens) expect((await profile(token)).statusCode).toBe(401)
    await heard
    const rows = await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, staff.id))
    expect(rows.find((r) => r.action === '/signOutStaff')?.adminId).toBe(t.superadmin.id)
    expect(rows.find((r) => r.action === 'forced-logout')).toMatchObject({ adminId: t.superadmin.id, detail: 'signed out everywhere' })
    // They sign in again as usual.
    expect((await profile(await loginAs(staff))).statusCode).toBe(200)
  })

  it('refuses a non-manager (403) and changes nothing', async () => {
    const staff = await t.createAdmin()
    const token = await loginAs(staff)
    const admin = await loginAs(await t.createAdmin({ accessLevel: 'Admin', restrictions: [] }))
    const res = await call(admin, 'POST', '/signOutStaff', { id: staff.id })
    expect(res.statusCode).toBe(403)
    expect((await profile(token)).statusCode).toBe(200)
  })

  it('refuses to sign out the superadmin', async () => {
    const root = await loginAs(t.superadmin)
    const res = await call(root, 'POST', '/signOutStaff', { id: t.superadmin.id })
    expect(res.statusCode).toBe(403)
    expect((await profile(root)).statusCode).toBe(200)
  })
})
