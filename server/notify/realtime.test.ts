import { io, type Socket } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SocketEvents } from '#contract/socket'
import { revokeSessions } from '../sign-in/auth.ts'
import { makeTestApp, type TestApp } from '../testing/test-app.ts'

let t: TestApp
let url: string
const sockets: Socket[] = []

beforeAll(async () => {
  t = await makeTestApp({ realtime: true })
  url = await t.app.listen({ port: 0, host: '127.0.0.1' })
})
afterAll(async () => {
  for (const s of sockets) s.close()
  await t.close()
})

function connectWith(token: string): Promise<Socket> {
  const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false })
  sockets.push(socket)
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}

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
