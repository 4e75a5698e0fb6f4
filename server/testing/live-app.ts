/**
 * A test app listening on a free port, for tests of its Socket.IO side: clients connect to it
 * as the PWA does (WebSocket only, no reconnection), and closing it closes them first.
 */
import { io, type Socket } from 'socket.io-client'
import { makeTestApp, type TestApp, type TestAppOptions } from './test-app.ts'

export interface LiveApp {
  t: TestApp
  /** The server's origin (http://127.0.0.1:port). */
  url: string
  /** A client connected with this handshake token ('Bearer …' as the PWA sends it); rejects when the server refuses it. */
  connect: (token: string) => Promise<Socket>
  /** Closes every client, then the app. */
  close: () => Promise<void>
}

export async function openLiveApp(options: Omit<TestAppOptions, 'realtime'> = {}): Promise<LiveApp> {
  const t = await makeTestApp({ ...options, realtime: true })
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' })
  const sockets: Socket[] = []
  const connect = (token: string): Promise<Socket> => {
    const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false })
    sockets.push(socket)
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket))
      socket.once('connect_error', reject)
    })
  }
  const close = async () => {
    for (const socket of sockets) socket.close()
    await t.close()
  }
  return { t, url, connect, close }
}
