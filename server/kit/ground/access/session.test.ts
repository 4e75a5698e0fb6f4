/**
 * Logout revokes this token on the server (later calls 401, its sockets get
 * LOGOUT, the admin's other sessions stay), and a token unused past the idle limit is refused.
 */
import { eq } from 'drizzle-orm'
import { SignJWT, decodeJwt } from 'jose'
import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SocketEvents } from '#contract/socket'
import { sessionTokens, type AdminRow } from '../../../db/schema.ts'
import { IDLE_GRACE_MS, TOUCH_EVERY_MS, serverIdleMs } from './sessions.ts'
import { TEST_PASSWORD, bodyOf, type TestApp } from '../../../testing/test-app.ts'
import { openLiveApp, type LiveApp } from '../../../testing/live-app.ts'

let t: TestApp
let live: LiveApp

beforeAll(async () => {
  live = await openLiveApp({ env: { IDLE_TIMEOUT_MINUTES: '20' } })
  t = live.t
})
afterAll(() => live.close())

/** A token from the real login call, as the PWA gets it. */
async function loginAs(admin: AdminRow): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: admin.email, password: TEST_PASSWORD } })
  expect(res.statusCode).toBe(200)
  return String(bodyOf(res)['token'])
}

const call = (token: string, method: 'GET' | 'POST', path: string) =>
  t.app.inject({ method, url: `/api/admin${path}`, headers: { authorization: `Bearer ${token}` }, ...(method === 'POST' ? { payload: {} } : {}) })
const profile = (token: string) => call(token, 'GET', '/get-profile')
const rowOf = async (token: string) => (await t.handle.db.select().from(sessionTokens).where(eq(sessionTokens.jti, String(decodeJwt(token).jti))))[0]

const connectWith = (token: string): Promise<Socket> => live.connect(`Bearer ${token}`)

describe('POST /logout', () => {
  it('revokes the token it was sent with: every later call with it is 401, the other session goes on', async () => {
    const staff = await t.createAdmin()
    const mine = await loginAs(staff)
    const other = await loginAs(staff)
    expect((await profile(mine)).statusCode).toBe(200)

    const out = await call(mine, 'POST', '/logout')
    expect(out.statusCode).toBe(200)
    expect(bodyOf(out)).toEqual({ status: 'success', message: 'Logged out successfully' })

    for (const res of [await profile(mine), await call(mine, 'GET', '/keep-alive'), await call(mine, 'POST', '/logout')]) {
      expect(res.statusCode).toBe(401)
      expect(bodyOf(res)['status']).toBe('failed')
    }
    expect((await profile(other)).statusCode).toBe(200)
    expect((await rowOf(mine))?.revokedAt).toBeInstanceOf(Date)
    expect((await rowOf(other))?.revokedAt).toBeNull()
  })

  it('sends LOGOUT to the sockets of that token only, and a revoked token opens no socket', async () => {
    const staff = await t.createAdmin()
    const mine = await loginAs(staff)
    const other = await loginAs(staff)
    const mySocket = await connectWith(mine)
    const otherSocket = await connectWith(other)
    // Joined by its token, before (and without) CREATEROOM.
    let otherLoggedOut = false
    otherSocket.on(SocketEvents.logout, () => (otherLoggedOut = true))
    const loggedOut = new Promise<void>((resolve) => mySocket.once(SocketEvents.logout, () => resolve()))
    expect((await call(mine, 'POST', '/logout')).statusCode).toBe(200)
    await loggedOut
    await new Promise((r) => setTimeout(r, 100))
    expect(otherLoggedOut).toBe(false)
    expect(otherSocket.connected).toBe(true)
    await expect(connectWith(mine)).rejects.toThrow()
  })

  it('drops the rows of expired tokens at the next login', async () => {
    const staff = await t.createAdmin()
    await t.handle.db.insert(sessionTokens).values({ jti: 'long-gone', adminId: staff.id, expiresAt: new Date(Date.now() - 1000), revokedAt: new Date() })
    await loginAs(staff)
    expect(await t.handle.db.select().from(sessionTokens).where(eq(sessionTokens.jti, 'long-gone'))).toEqual([])
  })
})

describe('idle limit on the server', () => {
  it('puts the idle time in the token for the PWA', async () => {
    const token = await loginAs(await t.createAdmin())
    expect(decodeJwt(token)['idle']).toBe(20 * 60)
    expect(serverIdleMs(t.config)).toBe(20 * 60_000 + IDLE_GRACE_MS)
  })

  it('refuses a token unused for longer than the limit, and keeps one used within it', async () => {
    const staff = await t.createAdmin()
    const idle = await loginAs(staff)
    const active = await loginAs(staff)
    expect((await profile(idle)).statusCode).toBe(200)
    expect((await profile(active)).statusCode).toBe(200)
    const limit = serverIdleMs(t.config)
    const setSeen = (token: string, ago: number) =>
      t.handle.db.update(sessionTokens).set({ lastSeenAt: new Date(Date.now() - ago) }).where(eq(sessionTokens.jti, String(decodeJwt(token).jti)))
    await setSeen(idle, limit + 5_000)
    await setSeen(active, limit - 30_000)
    expect((await profile(idle)).statusCode).toBe(401)
    expect((await call(idle, 'GET', '/keep-alive')).statusCode).toBe(401)
    // Used just before the limit: allowed, and the use moves the limit on.
    expect((await call(active, 'GET', '/keep-alive')).statusCode).toBe(200)
    const seen = (await rowOf(active))?.lastSeenAt?.getTime() ?? 0
    expect(Date.now() - seen).toBeLessThan(5_000)
  })

  it('counts a token never used from its issue time', async () => {
    const staff = await t.createAdmin()
    const issued = Math.floor((Date.now() - serverIdleMs(t.config) - 10_000) / 1000)
    const claims = { _id: staff.id, email: staff.email, role: staff.role, accessLevel: staff.accessLevel, restrictions: staff.restrictions, tv: staff.tokenVersion }
    const sign = (iat: number) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(iat).setJti(`never-used-${iat}`).setExpirationTime(iat + 3600).sign(t.config.jwtSecret)
    expect((await profile(await sign(issued))).statusCode).toBe(401)
    expect((await profile(await sign(Math.floor(Date.now() / 1000) - 60))).statusCode).toBe(200)
  })

  it('writes the last use at most once a minute per token', async () => {
    const token = await loginAs(await t.createAdmin())
    expect((await profile(token)).statusCode).toBe(200)
    const first = (await rowOf(token))?.lastSeenAt?.getTime()
    expect(first).toBeDefined()
    expect((await profile(token)).statusCode).toBe(200)
    expect((await rowOf(token))?.lastSeenAt?.getTime()).toBe(first)
    // Once the last write is a minute old, the next use writes again.
    await t.handle.db
      .update(sessionTokens)
      .set({ lastSeenAt: new Date(Date.now() - TOUCH_EVERY_MS - 1000) })
      .where(eq(sessionTokens.jti, String(decodeJwt(token).jti)))
    expect((await profile(token)).statusCode).toBe(200)
    expect(Date.now() - ((await rowOf(token))?.lastSeenAt?.getTime() ?? 0)).toBeLessThan(5_000)
  })

  it('does not count a refused call or a socket connection as a use', async () => {
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const token = await loginAs(viewer)
    // Login wrote the row; its last use is set a minute back, so that any use would write it again.
    const before = new Date(Date.now() - TOUCH_EVERY_MS - 1000)
    await t.handle.db.update(sessionTokens).set({ lastSeenAt: before }).where(eq(sessionTokens.jti, String(decodeJwt(token).jti)))
    // A write the viewer may not make: 403, and the use not written.
    const refused = await t.app.inject({ method: 'POST', url: '/api/admin/deleteCategory', headers: { authorization: `Bearer ${token}` }, payload: { id: 'x' } })
    expect(refused.statusCode).toBe(403)
    expect((await rowOf(token))?.lastSeenAt?.getTime()).toBe(before.getTime())
    await connectWith(token)
    expect((await rowOf(token))?.lastSeenAt?.getTime()).toBe(before.getTime())
  })
})
