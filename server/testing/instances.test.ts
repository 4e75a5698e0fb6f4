/**
 * Two instances of the server on one PostgreSQL and one Redis (docs/operations.md, "Several instances"): what one
 * instance does, the other sees. Runs on the PostgreSQL suite when Redis answers; skipped with a
 * note elsewhere, and a failure in CI, where Redis is always started.
 */
import type { FastifyInstance } from 'fastify'
import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { SocketEvents } from '#contract/socket'
import { buildApp } from '../app.ts'
import { openDb } from '../db/index.ts'
import { eq } from 'drizzle-orm'
import { leads, linkChanges, links } from '../db/schema.ts'
import { verifyToken } from '../kit/ground/access/auth.ts'
import { revokeToken } from '../kit/ground/access/sessions.ts'
import { makeTestApp, testEngine, TEST_PASSWORD, type TestApp } from './test-app.ts'
import { SoftPasskey } from './soft-authenticator.ts'
import { redisAnswers, TEST_REDIS_URL } from './redis-probe.ts'

const REDIS_URL = TEST_REDIS_URL

const redisUp = testEngine() === 'pg' && (await redisAnswers(REDIS_URL))
if (testEngine() === 'pg' && !redisUp) {
  if (process.env['CI']) throw new Error(`Redis does not answer at ${REDIS_URL}: in CI the instance tests must run`)
  console.log(`SKIPPED: several-instance tests (no Redis answers at ${REDIS_URL}; set REDIS_URL or start redis-server)`)
}

describe.runIf(redisUp)('two instances sharing PostgreSQL and Redis', () => {
  let a: TestApp
  let b: FastifyInstance
  let urlB: string
  const sockets: Socket[] = []
  const LIMIT = 4
  /** How often each instance checks its sockets' sessions again (60 s in production). */
  const RECHECK_MS = 500

  beforeAll(async () => {
    a = await makeTestApp({ realtime: true, env: { LOGIN_RATE_LIMIT: String(LIMIT), FOUR_EYES_THRESHOLD: '1' }, configure: (c) => ({ ...c, redisUrl: REDIS_URL, socketRecheckMs: RECHECK_MS }) })
    // B: the same configuration (one JWT secret, one database, one Redis), its own process state.
    b = await buildApp(a.config, { handle: await openDb(a.config.database), realtime: true })
    await a.app.listen({ port: 0, host: '127.0.0.1' })
    urlB = await b.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    for (const s of sockets) s.close()
    await b.close()
    await b.services.handle.close()
    await a.close()
  })

  it('a token issued by A works on B', async () => {
    // An address of its own: logins from 127.0.0.1 by other suites sharing this Redis count against LIMIT too.
    const login = await a.app.inject({ method: 'POST', url: '/api/admin/login', remoteAddress: '10.250.0.1', payload: { email: a.superadmin.email, password: TEST_PASSWORD } })
    const { token } = z.object({ token: z.string() }).parse(login.json())
    expect(token).not.toBe('')
    const onB = await b.inject({ method: 'GET', url: '/api/admin/getuser', headers: { authorization: `Bearer ${token}` } })
    expect(onB.statusCode).toBe(200)
  })

  it('deactivating an admin through A logs out the socket that admin holds on B within 2 s', async () => {
    const staff = await a.createAdmin()
    const socket = io(urlB, { auth: { token: `Bearer ${await a.tokenFor(staff)}` }, transports: ['websocket'], reconnection: false })
    sockets.push(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    socket.emit(SocketEvents.createRoom, staff.id)
    await new Promise((r) => setTimeout(r, 200))
    const started = Date.now()
    const loggedOut = new Promise<number>((resolve) => socket.once(SocketEvents.logout, () => resolve(Date.now() - started)))
    const res = await a.app.inject({ method: 'POST', url: '/api/admin/ActivateSubadminStatusUpdate', headers: await a.auth(a.superadmin), payload: { id: staff.id, activate: 0 } })
    expect(res.statusCode).toBe(200)
    const elapsed = await Promise.race([loggedOut, new Promise<number>((r) => setTimeout(() => r(Infinity), 2000))])
    expect(elapsed).toBeLessThan(2000)
  })

  /** A socket on B with a fresh token of `admin`'s (no CREATEROOM), and when it ended: LOGOUT, then closed. */
  async function socketOnB(token: string): Promise<{ socket: Socket; ended: Promise<number> }> {
    const socket = io(urlB, { auth: { token: `Bearer ${token}` }, transports: ['websocket'], reconnection: false })
    sockets.push(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    const ended = new Promise<number>((resolve) => {
      let loggedOut = false
      socket.once(SocketEvents.logout, () => (loggedOut = true))
      socket.once('disconnect', (reason) => resolve(loggedOut && reason === 'io server disconnect' ? Date.now() : -1))
    })
    return { socket, ended }
  }
  const within = (ended: Promise<number>, ms: number): Promise<number> => Promise.race([ended, new Promise<number>((r) => setTimeout(() => r(Infinity), ms))])

  it('Logout through A ends that session\'s socket on B', async () => {
    const staff = await a.createAdmin()
    const token = await a.tokenFor(staff)
    const { ended } = await socketOnB(token)
    const started = Date.now()
    const res = await a.app.inject({ method: 'POST', url: '/api/admin/logout', headers: { authorization: `Bearer ${token}` } })
    expect(res.statusCode).toBe(200)
    expect((await within(ended, 2000)) - started).toBeLessThan(2000)
  })

  it('a session revoked while no LOGOUT reaches B (the broadcast lost) still ends its socket on B', async () => {
    const staff = await a.createAdmin()
    const token = await a.tokenFor(staff)
    const { ended } = await socketOnB(token)
    const claims = await verifyToken(a.config, token)
    if (claims === null) throw new Error('the token does not verify')
    // Revoked in the shared database only, as Logout on an instance cut off from Redis would.
    const started = Date.now()
    await revokeToken(a.handle.db, { jti: claims.jti, iat: claims.iat, exp: claims.exp }, staff.id)
    expect((await within(ended, 2000)) - started).toBeLessThan(RECHECK_MS + 1000)
  })

  it('a mass send asked for through A is announced within 2 s to an approver whose socket is on B', async () => {
    const requester = await a.createAdmin({ name: 'Asker on A', accessLevel: 'Admin', restrictions: [] })
    const approver = await a.createAdmin({ accessLevel: 'Admin', restrictions: [] })
    const socket = io(urlB, { auth: { token: `Bearer ${await a.tokenFor(approver)}` }, transports: ['websocket'], reconnection: false })
    sockets.push(socket)
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    const tag = Math.random().toString(36).slice(2, 8)
    const ids = (
      await a.handle.db
        .insert(leads)
        .values([1, 2].map((i) => ({ name: `Reader ${i}`, email: `reader${i}-${tag}@example.com`, subscribed: true, subscribedAt: new Date() })))
        .returning({ id: leads.id })
    ).map((r) => r.id)
    const started = Date.now()
    const announced = new Promise<{ payload: unknown; elapsed: number }>((resolve) =>
      socket.once(SocketEvents.approvalRequested, (payload: unknown) => resolve({ payload, elapsed: Date.now() - started })),
    )
    const res = await a.app.inject({
      method: 'POST',
      url: '/api/admin/sendNewsletter',
      headers: await a.auth(requester),
      payload: { all: false, id: ids, subject: `Across ${tag}`, content: '<p>Hello</p>' },
    })
    expect(res.statusCode, res.body).toBe(200)
    const heard = await Promise.race([announced, new Promise<null>((r) => setTimeout(() => r(null), 2000))])
    expect(heard?.payload).toMatchObject({ kind: 'newsletter', title: `Across ${tag}`, total: 2, requestedBy: 'Asker on A', requestedById: requester.id })
  })

  it('per-address login limits count across both instances', async () => {
    // A fresh address per run, so keys left in Redis by an earlier run do not count.
    const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`
    const statuses: number[] = []
    for (let i = 0; i < LIMIT + 1; i++) {
      const app = i % 2 === 0 ? a.app : b
      const res = await app.inject({ method: 'POST', url: '/api/admin/login', remoteAddress: address, payload: { email: 'nobody@example.com', password: 'Wrong@1234' } })
      statuses.push(res.statusCode)
    }
    // Each instance alone saw at most 3 of the 5: only a shared count reaches the limit of 4.
    expect(statuses.at(-1)).toBe(429)
  })

  it('a public read kept in memory on B is forgotten when A writes', async () => {
    const names = async (app: FastifyInstance) =>
      z.object({ result: z.array(z.object({ country: z.string() })) }).parse((await app.inject({ method: 'GET', url: '/api/admin/restricted-countries' })).json()).result.map((c) => c.country)
    const headers = await a.auth(a.superadmin)
    const before = await names(b)
    const country = ['Iceland', 'Norway'].find((c) => !before.includes(c))
    if (country === undefined) throw new Error('both countries already listed')
    // B keeps its answer; a row written behind both instances' backs does not change it.
    expect(await names(b)).toEqual(before)
    const res = await a.app.inject({ method: 'POST', url: '/api/admin/AddRestrictions', headers, payload: { country: [country] } })
    expect(res.statusCode).toBe(200)
    await expect.poll(() => names(b), { timeout: 2000, interval: 50 }).toContain(country)
  })

  it('/readyz on each instance reports the database and Redis', async () => {
    expect((await a.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
    expect((await b.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
  })

  it('a passkey ceremony started on one instance finishes on the other, once', async () => {
    const staff = await a.createAdmin()
    const auth = { authorization: `Bearer ${await a.tokenFor(staff)}` }
    const key = new SoftPasskey({ origin: 'http://localhost', rpId: 'localhost' })
    // Addresses of their own: the passkey calls are limited per address as login is (LIMIT, through Redis).
    const from = (n: number) => `10.250.7.${n}`
    const Options = z.object({ options: z.object({ challenge: z.string(), rp: z.object({ id: z.string().optional() }), user: z.object({ id: z.string() }) }) })
    const creation = Options.parse((await a.app.inject({ method: 'POST', url: '/api/admin/passkeyRegistrationOptions', headers: auth, remoteAddress: from(1), payload: {} })).json())
    const added = await b.inject({ method: 'POST', url: '/api/admin/addPasskey', headers: auth, remoteAddress: from(2), payload: { name: 'Shared', response: key.register(creation.options) } })
    expect(added.statusCode).toBe(200)
    const request = z.object({ options: z.object({ challenge: z.string() }) }).parse((await b.inject({ method: 'POST', url: '/api/admin/passkeySignInOptions', remoteAddress: from(3), payload: {} })).json())
    const answer = key.assert({ challenge: request.options.challenge })
    const signedIn = await a.app.inject({ method: 'POST', url: '/api/admin/passkeySignIn', remoteAddress: from(4), payload: { response: answer } })
    expect(signedIn.statusCode).toBe(200)
    // The challenge is spent for both instances.
    const replay = await b.inject({ method: 'POST', url: '/api/admin/passkeySignIn', remoteAddress: from(5), payload: { response: answer } })
    expect(replay.statusCode).toBe(400)
  })
  it('View as started on one instance holds on the other (read as the member, writes refused) and ends there for both', async () => {
    const member = await a.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const auth = { authorization: `Bearer ${await a.tokenFor(a.superadmin)}` }
    const started = await a.app.inject({ method: 'POST', url: '/api/admin/startViewAs', headers: auth, payload: { id: member.id } })
    expect(started.statusCode, started.body).toBe(200)
    const list = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/admin/FetchSubAdminUsers', headers: auth, query: { page: '1', limit: '10' } })
    expect((await list(b)).statusCode).toBe(403)
    expect((await b.inject({ method: 'GET', url: '/api/admin/getuser', headers: auth, query: { page: '1', limit: '10' } })).statusCode).toBe(200)
    const write = await b.inject({ method: 'POST', url: '/api/admin/edit-profile', headers: auth, payload: { name: 'Renamed on B' } })
    expect(write.statusCode).toBe(403)
    expect(z.object({ code: z.string() }).parse(write.json()).code).toBe('view-as-read-only')
    expect((await b.inject({ method: 'POST', url: '/api/admin/endViewAs', headers: auth, payload: {} })).statusCode).toBe(200)
    expect((await list(a.app)).statusCode).toBe(200)
    expect((await list(b)).statusCode).toBe(200)
  })

  it('a buy link held for a second admin on A is read as before on B until another admin approves it there', async () => {
    const [link] = await a.handle.db.insert(links).values({ kind: 'buy', url: 'https://old.example/two-instances', preference: 1 }).returning({ id: links.id })
    if (link === undefined) throw new Error('no link')
    const superadmin = { authorization: `Bearer ${await a.tokenFor(a.superadmin)}` }
    const requester = await a.createAdmin({ accessLevel: 'Admin', restrictions: [] })
    const asRequester = { authorization: `Bearer ${await a.tokenFor(requester)}` }
    const turn = async (on: boolean) => expect((await a.app.inject({ method: 'POST', url: '/api/admin/setTwoAdminLinks', headers: superadmin, payload: { on } })).statusCode).toBe(200)
    await turn(true)
    try {
      const held = await a.app.inject({ method: 'POST', url: '/api/admin/editBuylink', headers: asRequester, payload: { _id: link.id, buyLink: 'https://new.example/two-instances', preference: 1 } })
      expect(held.statusCode, held.body).toBe(202)
      const read = async (app: FastifyInstance) => (await app.inject({ method: 'GET', url: '/api/admin/getbuyLink', headers: superadmin, query: { _id: link.id } })).body
      expect(await read(b)).toContain('https://old.example/two-instances')
      expect(await read(b)).not.toContain('https://new.example/two-instances')
      expect(await read(a.app)).not.toContain('https://new.example/two-instances')
      const [pending] = await a.handle.db.select({ id: linkChanges.id }).from(linkChanges).where(eq(linkChanges.recordId, link.id))
      if (pending === undefined) throw new Error('the change was not kept')
      const approved = await b.inject({ method: 'POST', url: '/api/admin/approveLinkChange', headers: superadmin, payload: { id: pending.id } })
      expect(approved.statusCode, approved.body).toBe(200)
      expect(await read(a.app)).toContain('https://new.example/two-instances')
      expect(await read(b)).toContain('https://new.example/two-instances')
    } finally {
      await turn(false)
    }
  })
})

describe('the configuration of several instances', () => {
  it('refuses to start with REDIS_URL but without JWT_SECRET and DATABASE_URL, naming both', async () => {
    const { loadConfig } = await import('../config.ts')
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', DATA_DIR: '.tmp/instances-config' })).toThrow(/JWT_SECRET[\s\S]*DATABASE_URL/)
  })
})
