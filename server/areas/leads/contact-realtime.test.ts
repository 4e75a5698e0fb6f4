import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Socket } from 'socket.io-client'
import { SocketEvents } from '#contract/socket'
import { contactEnquiries } from '../../db/schema.ts'
import { testEngine, type TestApp } from '../../testing/test-app.ts'
import { openLiveApp, type LiveApp } from '../../testing/live-app.ts'

let t: TestApp
let live: LiveApp

beforeAll(async () => {
  live = await openLiveApp()
  t = live.t
})
afterAll(() => live.close())

const connect = (token: string): Promise<Socket> => live.connect(token)

describe(`the menu's count of open enquiries (${testEngine()})`, () => {
  it('is announced on the socket to admins who may open Contact Us after a status change, and to no one else', async () => {
    const reader = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/contactus'] })
    const outsider = await t.createAdmin({ restrictions: ['/users'] })
    const readerSeen: unknown[] = []
    const outsiderSeen: unknown[] = []
    ;(await connect(`Bearer ${await t.tokenFor(reader)}`)).on(SocketEvents.countsChanged, (p: unknown) => readerSeen.push(p))
    ;(await connect(`Bearer ${await t.tokenFor(outsider)}`)).on(SocketEvents.countsChanged, (p: unknown) => outsiderSeen.push(p))
    await new Promise((r) => setTimeout(r, 50))

    const [row] = await t.handle.db.insert(contactEnquiries).values({ name: 'Live' }).returning()
    if (row === undefined) throw new Error('no enquiry')
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/setContactStatus', headers: await t.auth(t.superadmin), payload: { _id: row.id, status: 'Resolved' } })
    expect(res.statusCode, res.body).toBe(200)
    const deadline = Date.now() + 5000
    while (readerSeen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(readerSeen).toEqual([{ screen: '/contactus' }])
    expect(outsiderSeen).toEqual([])
  })
})
