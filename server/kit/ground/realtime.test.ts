import type { Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SocketEvents } from '#contract/socket'
import { leads } from '../../db/schema.ts'
import type { AdminRow } from '../../db/schema.ts'
import { revokeSessions, signToken, verifyToken } from './access/auth.ts'
import { serverIdleMs, touchToken } from './access/sessions.ts'
import { bodyOf, multipart, type TestApp } from '../../testing/test-app.ts'
import { openLiveApp, type LiveApp } from '../../testing/live-app.ts'

/** Mass sends to more recipients than this wait for a second Admin (server/kit/rules/four-eyes.ts). */
const THRESHOLD = 2
let t: TestApp
let live: LiveApp

beforeAll(async () => {
  live = await openLiveApp({ env: { FOUR_EYES_THRESHOLD: String(THRESHOLD) } })
  t = live.t
})
afterAll(() => live.close())

const connectWith = (token: string): Promise<Socket> => live.connect(token)

describe('the transport', () => {
  it('is WebSocket only: a long-polling handshake is refused, so no session ever needs a sticky balancer', async () => {
    const staff = await t.createAdmin()
    const token = `Bearer ${await t.tokenFor(staff)}`
    const polled = await fetch(`${live.url}/socket.io/?EIO=4&transport=polling`, { headers: { authorization: token } })
    expect(polled.status).toBe(400)
    await expect(connectWith(token)).resolves.toBeDefined()
  })
})

describe('CREATEROOM', () => {
  it('acknowledges, when asked, whether the socket is in the room: true for its own id, false for another admin\'s', async () => {
    const staff = await t.createAdmin()
    const other = await t.createAdmin()
    const socket = await connectWith(`Bearer ${await t.tokenFor(staff)}`)
    expect(await socket.timeout(2000).emitWithAck(SocketEvents.createRoom, other.id)).toBe(false)
    expect(await socket.timeout(2000).emitWithAck(SocketEvents.createRoom, staff.id)).toBe(true)
    // In the room: LOGOUT for this admin reaches it at once.
    const loggedOut = new Promise<void>((resolve) => socket.once(SocketEvents.logout, () => resolve()))
    t.app.services.realtime?.logout(staff.id)
    await loggedOut
  })
})

describe('real-time LOGOUT', () => {
  it('reaches the admin whose sessions are revoked, and only them', async () => {
    const staff = await t.createAdmin()
    const bystander = await t.createAdmin()
    const mine = await connectWith(`Bearer ${await t.tokenFor(staff)}`)
    const theirs = await connectWith(`Bearer ${await t.tokenFor(bystander)}`)
    mine.emit(SocketEvents.createRoom, staff.id)
    // A socket cannot join someone else's room by naming their id.
    theirs.emit(SocketEvents.createRoom, staff.id)
    theirs.emit(SocketEvents.createRoom, bystander.id)
    await new Promise((r) => setTimeout(r, 100))
    let bystanderLoggedOut = false
    theirs.on(SocketEvents.logout, () => (bystanderLoggedOut = true))
    const loggedOut = new Promise<void>((resolve) => mine.once(SocketEvents.logout, () => resolve()))
    await revokeSessions(t.handle.db, staff.id)
    t.app.services.realtime?.logout(staff.id)
    await loggedOut
    await new Promise((r) => setTimeout(r, 100))
    expect(bystanderLoggedOut).toBe(false)
  })

  it('refuses a connection without a valid token', async () => {
    await expect(connectWith('Bearer not-a-token')).rejects.toThrow()
    const staff = await t.createAdmin()
    const old = await t.tokenFor(staff)
    await revokeSessions(t.handle.db, staff.id)
    await expect(connectWith(`Bearer ${old}`)).rejects.toThrow()
  })
})

describe('a socket lives no longer than its session', () => {
  /** Resolves with the time LOGOUT arrived, once the server has closed the socket too; -1 if that is not so within 6 s. */
  const endOf = (socket: Socket): Promise<number> =>
    new Promise((resolve) => {
      let at = 0
      socket.once(SocketEvents.logout, () => (at = Date.now()))
      socket.once('disconnect', (reason) => resolve(at > 0 && reason === 'io server disconnect' ? at : -1))
      setTimeout(() => resolve(-1), 6000)
    })
  /** A token of `staff`'s, and its claims, with its last use recorded `lastUsedAgo` ms ago. */
  async function sessionOf(staff: AdminRow, options: { issuedAgo?: number; lastUsedAgo: number }) {
    const token = await signToken(t.config, staff, Date.now() - (options.issuedAgo ?? 0))
    const claims = await verifyToken(t.config, token)
    if (claims === null) throw new Error('the token does not verify')
    await touchToken(t.handle.db, { jti: claims.jti, iat: claims.iat, exp: claims.exp }, staff.id, Date.now() - options.lastUsedAgo)
    return { token: `Bearer ${token}`, claims }
  }

  it('ends at the token expiry: LOGOUT, then disconnected, within a second of it', async () => {
    const staff = await t.createAdmin()
    // Issued a little less than its life ago: it expires in 2 to 3 seconds (claims are in whole seconds).
    const { token, claims } = await sessionOf(staff, { issuedAgo: t.config.tokenTtlSeconds * 1000 - 3000, lastUsedAgo: 0 })
    const socket = await connectWith(token)
    const ended = await endOf(socket)
    expect(ended).toBeGreaterThanOrEqual(claims.exp * 1000)
    expect(ended - claims.exp * 1000).toBeLessThan(1000)
  })

  it('ends when the session goes idle, and not before: a use meanwhile (on any instance) moves the end', async () => {
    const staff = await t.createAdmin()
    const idleMs = serverIdleMs(t.config)
    // Unused for all but 2 seconds of the idle limit.
    const idle = await sessionOf(staff, { lastUsedAgo: idleMs - 2000 })
    const used = await sessionOf(staff, { lastUsedAgo: idleMs - 2000 })
    const idleSocket = await connectWith(idle.token)
    const usedSocket = await connectWith(used.token)
    let usedEnded = false
    usedSocket.once('disconnect', () => (usedEnded = true))
    // The other session is used now (the keep-alive the PWA sends while its admin is active).
    const kept = await t.app.inject({ method: 'GET', url: '/api/admin/keep-alive', headers: { authorization: used.token } })
    expect(kept.statusCode).toBe(200)
    const ended = await endOf(idleSocket)
    expect(ended).toBeGreaterThan(0)
    await new Promise((r) => setTimeout(r, 500))
    expect(usedEnded).toBe(false)
    expect(usedSocket.connected).toBe(true)
  })

  it('a forced logout ends every socket of the admin, also one that never sent CREATEROOM', async () => {
    const staff = await t.createAdmin()
    const socket = await connectWith(`Bearer ${await t.tokenFor(staff)}`)
    const ended = endOf(socket)
    await revokeSessions(t.handle.db, staff.id)
    t.app.services.realtime?.logout(staff.id)
    expect(await ended).toBeGreaterThan(0)
  })
})

describe('real-time APPROVAL_REQUESTED (four eyes on mass sends)', () => {
  /** Every event of `name` a socket receives, from now on. */
  const heard = (socket: Socket, name: string): unknown[] => {
    const got: unknown[] = []
    socket.on(name, (payload: unknown) => got.push(payload))
    return got
  }
  const post = async (path: string, payload: Record<string, unknown>, headers: { authorization: string }) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
    expect(res.statusCode, res.body).toBe(200)
    return bodyOf(res)
  }

  it('reaches the sessions of the other administrators, not the requester, restricted or View Only staff; below the threshold nothing is told', async () => {
    const ann = await t.createAdmin({ name: 'Ann Asker', accessLevel: 'Admin', restrictions: [] })
    const bob = await t.createAdmin({ name: 'Bob Approver', accessLevel: 'Admin', restrictions: [] })
    // Allowed both screens of sends, but an approver needs every screen; View Only never approves.
    const restricted = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/notificationlist', '/newsletter'] })
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: [] })
    /** What each one's socket hears of the event from now on. */
    const listen = async (admin: typeof ann) => heard(await connectWith(`Bearer ${await t.tokenFor(admin)}`), SocketEvents.approvalRequested)
    const annHeard = await listen(ann)
    const bobHeard = await listen(bob)
    const rootHeard = await listen(t.superadmin)
    const restrictedHeard = await listen(restricted)
    const viewerHeard = await listen(viewer)
    const ids = (
      await t.handle.db
        .insert(leads)
        .values(Array.from({ length: THRESHOLD + 1 }, (_, i) => ({ name: `Reader ${i}`, email: `reader${i}-${Date.now()}@example.com`, subscribed: true, subscribedAt: new Date() })))
        .returning({ id: leads.id })
    ).map((r) => r.id)

    // A newsletter to THRESHOLD subscribers goes at once: nobody is told.
    await post('/sendNewsletter', { all: false, id: ids.slice(0, THRESHOLD), subject: 'Small news', content: '<p>Hi</p>' }, await t.auth(ann))
    // One over it waits, and the administrators' sockets hear of it.
    const sent = await post('/sendNewsletter', { all: false, id: ids, subject: 'Big news', content: '<p>Hi all</p>' }, await t.auth(ann))
    const sendId = String((sent['data'] as Record<string, unknown>)['_id'])
    await expect.poll(() => bobHeard.length).toBe(1)
    await expect.poll(() => rootHeard.length).toBe(1)
    expect(bobHeard[0]).toEqual({ kind: 'newsletter', id: sendId, title: 'Big news', total: THRESHOLD + 1, requestedBy: 'Ann Asker', requestedById: ann.id })

    // A promotion's Submit over the threshold, asked by Bob this time: Ann hears of it, Bob does not.
    const form = await multipart({ title: 'Big drop', content: 'For everyone', id: JSON.stringify(ids) }, [])
    const submitted = await t.app.inject({ method: 'POST', url: '/api/admin/addNotification', headers: { ...(await t.auth(bob)), ...form.headers }, payload: form.payload })
    expect(bodyOf(submitted)).toMatchObject({ awaitingApproval: true })
    await expect.poll(() => annHeard.length).toBe(1)
    await expect.poll(() => rootHeard.length).toBe(2)
    expect(annHeard[0]).toEqual({ kind: 'promotion', id: bodyOf(submitted)['_id'], title: 'Big drop', total: THRESHOLD + 1, requestedBy: 'Bob Approver', requestedById: bob.id })

    // Time for a stray event to arrive: none does.
    await new Promise((r) => setTimeout(r, 200))
    expect(bobHeard).toHaveLength(1)
    expect(restrictedHeard).toEqual([])
    expect(viewerHeard).toEqual([])
  })
})
