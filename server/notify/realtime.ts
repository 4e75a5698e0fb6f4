/**
 * Real-time events (spec sections 4 and 7): a signed-in PWA connects with its token, emits
 * CREATEROOM with its admin id and receives LOGOUT when its sessions are revoked. A socket joins
 * only the room of the admin its token names, so nobody can listen for another admin's events.
 */
import type { Server as HttpServer } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { Server } from 'socket.io'
import { SocketEvents } from '#contract/socket'
import { sessionAccess } from '#contract/define'
import { checkSession } from '../sign-in/auth.ts'
import type { Config } from '../config.ts'
import type { Db } from '../db/index.ts'

const room = (adminId: string): string => `admin:${adminId}`

export class Realtime {
  readonly #io: Server

  constructor(server: HttpServer, db: Db, config: Config, log: FastifyBaseLogger) {
    this.#io = new Server(server, {
      serveClient: false,
      ...(config.corsOrigins.length > 0 ? { cors: { origin: config.corsOrigins } } : {}),
    })
    // The handshake carries the stored value ('Bearer <jwt>') in auth.token, or the header.
    this.#io.use((socket, next) => {
      const fromAuth: unknown = socket.handshake.auth['token']
      const header = typeof fromAuth === 'string' ? fromAuth : socket.handshake.headers.authorization
      const withScheme = header !== undefined && !header.startsWith('Bearer ') ? `Bearer ${header}` : header
      checkSession(db, config, withScheme, sessionAccess).then(
        (check) => {
          if (!check.ok) return next(new Error(check.message))
          socket.data = { adminId: check.admin.id }
          next()
        },
        (error: unknown) => {
          log.warn({ err: error }, 'socket handshake failed')
          next(new Error('Service unavailable'))
        },
      )
    })
    this.#io.on('connection', (socket) => {
      const data: unknown = socket.data
      const adminId = typeof data === 'object' && data !== null && 'adminId' in data && typeof data.adminId === 'string' ? data.adminId : null
      socket.on(SocketEvents.createRoom, (id: unknown) => {
        if (adminId !== null && id === adminId) void socket.join(room(adminId))
      })
    })
  }

  /** Tells every open PWA of this admin to log out, then closes their sockets. */
  logout(adminId: string): void {
    this.#io.to(room(adminId)).emit(SocketEvents.logout)
    this.#io.in(room(adminId)).disconnectSockets(false)
  }

  close(): Promise<void> {
    return this.#io.close()
  }
}
