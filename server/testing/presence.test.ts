/**
 * Who else is there (contract/presence.ts), through real sockets. Two instances sharing Redis:
 * a tab on one is seen from the other, a closed tab goes at once and a silent one within 10 s,
 * and staff who may not open the screen neither see nor are seen. One instance without Redis
 * keeps the same promises in its own memory. The two-instance part runs when Redis answers
 * (always in CI); skipped with a note elsewhere.
 */
import type { FastifyInstance } from 'fastify'
import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PRESENCE_HEARTBEAT_MS, PRESENCE_TTL_MS, PresenceAnswer, PresenceState, RecordSaved, type PresenceMode } from '#contract/presence'
import { REALTIME_TRANSPORTS, SocketEvents } from '#contract/socket'
import { buildApp } from '../app.ts'
import { openDb } from '../db/index.ts'
import { categories, type AdminRow } from '../db/schema.ts'
import { makeTestApp, testEngine, type TestApp } from './test-app.ts'
import { redisAnswers, TEST_REDIS_URL } from './redis-probe.ts'

const redisUp = await redisAnswers(TEST_REDIS_URL)
if (!redisUp) {
  if (process.env['CI']) throw new Error(`Redis does not answer at ${TEST_REDIS_URL}: in CI the presence tests across instances must run`)
  console.log(`SKIPPED: presence across two instances (no Redis answers at ${TEST_REDIS_URL}; set REDIS_URL or start redis-server)`)
}

const EDIT = '/edit-category'
const LIST = '/category'

/** A tab: its socket on one instance, and every PRESENCE and RECORD_SAVED it heard. */
interface Tab {
  socket: Socket
  heard: PresenceState[]
  saves: RecordSaved[]
}

async function openTab(url: string, token: string, sockets: Socket[]): Promise<Tab> {
  const socket = io(url, { auth: { token: `Bearer ${token}` }, transports: [...REALTIME_TRANSPORTS], reconnection: false })
  sockets.push(socket)
  const tab: Tab = { socket, heard: [], saves: [] }
  socket.on(SocketEvents.presence, (payload: unknown) => tab.heard.push(PresenceState.parse(payload)))
  socket.on(SocketEvents.recordSaved, (payload: unknown) => tab.saves.push(RecordSaved.parse(payload)))
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve())
    socket.once('connect_error', reject)
  })
  return tab
}

/** Opens (or renews) a record on a tab, as the page's heartbeat does; the answer says who has it open. */
async function announce(tab: Tab, id: string, mode: PresenceMode = 'edit', screen = EDIT): Promise<PresenceAnswer> {
  return PresenceAnswer.parse(await tab.socket.timeout(2000).emitWithAck(SocketEvents.presenceOpen, { screen, id, mode }))
}

const namesIn = (answer: PresenceAnswer, id: string): string[] => (answer.ok ? (answer.records.find((r) => r.id === id)?.people.map((p) => p.name) ?? []) : [])
/** Who the last PRESENCE a tab heard about `id` names. */
const lastHeard = (tab: Tab, id: string): string[] | undefined => tab.heard.filter((s) => s.id === id).at(-1)?.people.map((p) => p.name)

function sharedBehaviour(setup: () => { one: TestApp; urlOne: string; urlTwo: string; sockets: Socket[] }) {
  let category = ''
  let ann: AdminRow
  let bob: AdminRow
  let outsider: AdminRow

  beforeAll(async () => {
    const { one } = setup()
    const [row] = await one.handle.db.insert(categories).values({ categoryName: `Presence ${Math.random().toString(36).slice(2, 8)}`, image: 'fixture.png' }).returning({ id: categories.id })
    if (row === undefined) throw new Error('category insert returned no row')
    category = row.id
    ann = await one.createAdmin({ name: 'Ann Presence', restrictions: [LIST, EDIT] })
    bob = await one.createAdmin({ name: 'Bob Presence', restrictions: [LIST, EDIT] })
    // May open Games but not Category List: the category's presence is none of their business.
    outsider = await one.createAdmin({ name: 'Olga Outside', restrictions: ['/cms', '/edit-cms'] })
  })

  it('a tab on one instance sees, within 2 s, a tab that opens the same record on the other; the list marks it', async () => {
    const { one, urlOne, urlTwo, sockets } = setup()
    const annTab = await openTab(urlOne, await one.tokenFor(ann), sockets)
    const listTab = await openTab(urlOne, await one.tokenFor(ann), sockets)
    const watch = PresenceAnswer.parse(await listTab.socket.timeout(2000).emitWithAck(SocketEvents.presenceWatch, { screen: LIST }))
    expect(watch.ok).toBe(true)
    expect(namesIn(await announce(annTab, category), category)).toEqual(['Ann Presence'])
    const bobTab = await openTab(urlTwo, await one.tokenFor(bob), sockets)
    const started = Date.now()
    const answer = await announce(bobTab, category)
    // Bob learns at once who was there before him ...
    expect(namesIn(answer, category)).toEqual(['Ann Presence', 'Bob Presence'])
    // ... and Ann, on the other instance, hears of him; so does the list.
    await expect.poll(() => lastHeard(annTab, category), { timeout: 2000, interval: 20 }).toEqual(['Ann Presence', 'Bob Presence'])
    expect(Date.now() - started).toBeLessThan(2000)
    await expect.poll(() => lastHeard(listTab, category), { timeout: 2000, interval: 20 }).toEqual(['Ann Presence', 'Bob Presence'])
    const person = answer.ok ? answer.records[0]?.people.find((p) => p.name === 'Bob Presence') : undefined
    expect(person).toMatchObject({ adminId: bob.id, mode: 'edit' })
    expect(Date.parse(person?.since ?? '')).toBeGreaterThan(started - 5000)

    // Closing the tab takes Bob away at once, for both.
    bobTab.socket.close()
    await expect.poll(() => lastHeard(annTab, category), { timeout: 2000, interval: 20 }).toEqual(['Ann Presence'])
    await expect.poll(() => lastHeard(listTab, category), { timeout: 2000, interval: 20 }).toEqual(['Ann Presence'])
    annTab.socket.close()
    listTab.socket.close()
  })

  it('a tab that falls silent without closing (a frozen browser) is gone within 10 s', async () => {
    const { one, urlOne, urlTwo, sockets } = setup()
    const annTab = await openTab(urlOne, await one.tokenFor(ann), sockets)
    const silent = await openTab(urlTwo, await one.tokenFor(bob), sockets)
    await announce(silent, category)
    const started = Date.now()
    expect(namesIn(await announce(annTab, category), category)).toContain('Bob Presence')
    // Ann's page renews every heartbeat; Bob's never again, and his socket stays open.
    let gone = Infinity
    while (Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, PRESENCE_HEARTBEAT_MS))
      if (!namesIn(await announce(annTab, category), category).includes('Bob Presence')) {
        gone = Date.now() - started
        break
      }
    }
    expect(silent.socket.connected).toBe(true)
    expect(gone).toBeGreaterThanOrEqual(PRESENCE_TTL_MS - 100)
    expect(gone).toBeLessThan(10_000)
    silent.socket.close()
    annTab.socket.close()
  }, 20_000)

  it('staff who may not open the screen neither see who is there nor are seen, and hear of no save', async () => {
    const { one, urlOne, urlTwo, sockets } = setup()
    const annTab = await openTab(urlOne, await one.tokenFor(ann), sockets)
    await announce(annTab, category)
    const outside = await openTab(urlTwo, await one.tokenFor(outsider), sockets)
    expect(await announce(outside, category)).toEqual({ ok: false, message: 'You do not have access to this screen' })
    // Not through another screen's path they may open either: the screen named must be theirs and hold the record's list.
    expect(PresenceAnswer.parse(await outside.socket.timeout(2000).emitWithAck(SocketEvents.presenceWatch, { screen: LIST }))).toEqual({ ok: false, message: 'You do not have access to this screen' })
    expect(namesIn(await announce(annTab, category), category)).toEqual(['Ann Presence'])
    // A save of the record reaches Ann, never the outsider.
    const res = await one.app.inject({ method: 'POST', url: '/api/admin/editCategoryData', headers: await one.auth(one.superadmin), payload: { id: category, categoryName: `Saved ${Date.now()}`, preference: 1 } })
    expect(res.statusCode, res.body).toBe(200)
    await expect.poll(() => annTab.saves.map((s) => [s.id, s.name, s.adminId]), { timeout: 2000, interval: 20 }).toEqual([[category, one.superadmin.name, one.superadmin.id]])
    await new Promise((r) => setTimeout(r, 300))
    expect(outside.heard).toEqual([])
    expect(outside.saves).toEqual([])
    outside.socket.close()
    annTab.socket.close()
  })

  it('a save made on the other instance reaches the tab that has the record open, naming who saved it', async () => {
    const { one, urlOne, urlTwo, sockets } = setup()
    void urlOne
    const bobTab = await openTab(urlTwo, await one.tokenFor(bob), sockets)
    await announce(bobTab, category)
    const res = await one.app.inject({ method: 'POST', url: '/api/admin/editCategoryData', headers: await one.auth(ann), payload: { id: category, categoryName: `By Ann ${Date.now()}`, preference: 2 } })
    expect(res.statusCode, res.body).toBe(200)
    await expect.poll(() => bobTab.saves.map((s) => [s.name, s.action]), { timeout: 2000, interval: 20 }).toEqual([['Ann Presence', '/editCategoryData']])
    bobTab.socket.close()
  })

  it('a payload that does not parse is refused with a reason, and the tab stays open', async () => {
    const { one, urlOne, sockets } = setup()
    const annTab = await openTab(urlOne, await one.tokenFor(ann), sockets)
    expect(PresenceAnswer.parse(await annTab.socket.timeout(2000).emitWithAck(SocketEvents.presenceOpen, { screen: EDIT, id: '', mode: 'stare' }))).toEqual({ ok: false, message: 'Say which screen and record' })
    expect(annTab.socket.connected).toBe(true)
    annTab.socket.close()
  })
}

describe.runIf(redisUp)('presence across two instances sharing Redis', () => {
  let a: TestApp
  let b: FastifyInstance
  let urlA = ''
  let urlB = ''
  const sockets: Socket[] = []

  beforeAll(async () => {
    a = await makeTestApp({ realtime: true, configure: (c) => ({ ...c, redisUrl: TEST_REDIS_URL }) })
    // B: the same configuration, one database and one Redis, its own process state (and its own store of nothing).
    b = await buildApp(a.config, { handle: testEngine() === 'pg' ? await openDb(a.config.database) : a.handle, realtime: true })
    urlA = await a.app.listen({ port: 0, host: '127.0.0.1' })
    urlB = await b.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    for (const s of sockets) s.close()
    await b.close()
    if (testEngine() === 'pg') await b.services.handle.close()
    await a.close()
  })

  sharedBehaviour(() => ({ one: a, urlOne: urlA, urlTwo: urlB, sockets }))
})

describe('presence on one instance without Redis (kept in its memory)', () => {
  let a: TestApp
  let url = ''
  const sockets: Socket[] = []

  beforeAll(async () => {
    a = await makeTestApp({ realtime: true, configure: (c) => ({ ...c, redisUrl: null }) })
    url = await a.app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    for (const s of sockets) s.close()
    await a.close()
  })

  sharedBehaviour(() => ({ one: a, urlOne: url, urlTwo: url, sockets }))
})
