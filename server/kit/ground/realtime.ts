/**
 * Real-time events (requirements R4.1, R4.3, R7.14): a signed-in PWA connects with its token, emits
 * CREATEROOM with its admin id and receives LOGOUT when its sessions are revoked. A socket joins
 * only the room of the admin its token names, so nobody can listen for another admin's events.
 * Each socket is also in the room of its own token, so Logout ends that session's sockets and
 * leaves the admin's other sessions (another browser) signed in. An administrator's socket (one
 * who may approve a mass send, contract/define.ts) is also in the approvers' room, and in a room of
 * its own admin joined at once, so a send's request reaches every approver but its requester.
 *
 * A socket lives no longer than its session: it is ended (LOGOUT, then closed) when its token
 * expires or its session goes idle (`#watch`), when Logout revokes its token, and when the admin
 * is logged out by force. With Redis every instance hears the last two; the first each instance
 * watches for its own sockets, checking the session in the shared database.
 */
import type { Server as HttpServer } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { createAdapter } from '@socket.io/redis-adapter'
import { Server, type Socket } from 'socket.io'
import { REALTIME_TRANSPORTS, SocketEvents } from '#contract/socket'
import { isAdministrator, sessionAccess } from '#contract/define'
import { mayOpen, screenPaths } from '#contract/routes'
import { PRESENCE_TTL_MS, PresenceClose, PresenceOpen, PresenceWatch, type PresenceAnswer, type PresenceState, type RecordSaved } from '#contract/presence'
import { checkSession } from './access/auth.ts'
import { MemoryPresence, presenceGroup, RedisPresence, type OpenRecord, type PresenceStore } from './presence.ts'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/index.ts'
import type { SharedRedis } from './redis.ts'

const room = (adminId: string): string => `admin:${adminId}`
const tokenRoom = (jti: string): string => `token:${jti}`
/** Sockets of admins who may open a screen (e.g. live delivery progress for /notificationlist). */
const screenRoom = (path: string): string => `screen:${path}`
/** Sockets of administrators, who may approve another Admin's mass send. */
const APPROVERS = 'approvers'
/** One approver's sockets, joined with APPROVERS at connection (not on CREATEROOM): a request leaves out its requester's. */
const approverRoom = (adminId: string): string => `approver:${adminId}`

/**
 * Every socket of one admin, joined at connection (CREATEROOM's room holds only those that asked):
 * a forced logout reaches them all.
 */
const sessionsRoom = (adminId: string): string => `sessions:${adminId}`
/** The sockets that have one record open (who is there, and word of its saves). */
const presenceRoom = (group: string, id: string): string => `presence:${group}\u0001${id}`
/** Lists watching who is on their screen's records. */
const presenceListRoom = (group: string): string => `presence-list:${group}`
/** Sockets with a record of this id open, on any screen: its saves are told to them. */
const recordRoom = (id: string): string => `record:${id}`
/** What one tab may have open at once: a page holds one record, a list watches one screen. */
const MAX_OPEN_RECORDS = 20
const MAX_WATCHED_LISTS = 10
/** A socket's session is checked this long after its end, so the check sees it ended. */
const END_MARGIN_MS = 100

export class Realtime {
  readonly #io: Server
  readonly #db: Db
  readonly #config: Config
  readonly #log: FastifyBaseLogger
  readonly #presence: PresenceStore

  /** With `redis`, rooms span every instance: LOGOUT sent here reaches a socket held by another. */
  constructor(server: HttpServer, db: Db, config: Config, log: FastifyBaseLogger, redis: SharedRedis | null = null) {
    this.#db = db
    this.#config = config
    this.#log = log
    this.#presence = redis === null ? new MemoryPresence() : new RedisPresence(redis.client)
    this.#io = new Server(server, {
      serveClient: false,
      transports: [...REALTIME_TRANSPORTS],
      ...(config.corsOrigins.length > 0 ? { cors: { origin: config.corsOrigins } } : {}),
      ...(redis === null ? {} : { adapter: createAdapter(redis.client, redis.subscriber) }),
    })
    // The handshake carries the stored value ('Bearer <jwt>') in auth.token, or the header.
    this.#io.use((socket, next) => {
      const fromAuth: unknown = socket.handshake.auth['token']
      const header = typeof fromAuth === 'string' ? fromAuth : socket.handshake.headers.authorization
      const withScheme = header !== undefined && !header.startsWith('Bearer ') ? `Bearer ${header}` : header
      // A reconnect is no sign of the admin's activity: it does not keep an idle session alive.
      checkSession(db, config, withScheme, sessionAccess, { touch: false }).then(
        (check) => {
          if (!check.ok) return next(new Error(check.message))
          // The screens this admin may open now: an access change logs their sockets out, so a
          // reconnect picks up the new list.
          const screens = screenPaths.filter((path) => mayOpen(check.admin.restrictions, path))
          // While viewing as a staff member (View as) the screens are theirs; the rooms of the
          // session's own admin (LOGOUT, their sessions) stay the signed-in superadmin's.
          socket.data = { adminId: check.actor.id, name: check.actor.name, jti: check.token.jti, screens, approver: isAdministrator(check.admin), header: withScheme, endsAt: check.endsAt }
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
      const jti = typeof data === 'object' && data !== null && 'jti' in data && typeof data.jti === 'string' ? data.jti : null
      // Joined at once, not on CREATEROOM: Logout must reach the socket even before it asks for its room,
      // and a forced logout (deactivation, access change) every socket of the admin.
      if (jti !== null) void socket.join(tokenRoom(jti))
      if (adminId !== null) void socket.join(sessionsRoom(adminId))
      const header = typeof data === 'object' && data !== null && 'header' in data && typeof data.header === 'string' ? data.header : undefined
      const endsAt = typeof data === 'object' && data !== null && 'endsAt' in data && typeof data.endsAt === 'number' ? data.endsAt : Date.now()
      this.#watch(socket, header, endsAt)
      const screens: unknown = typeof data === 'object' && data !== null && 'screens' in data ? data.screens : []
      if (Array.isArray(screens)) for (const path of screens) if (typeof path === 'string') void socket.join(screenRoom(path))
      const approver = typeof data === 'object' && data !== null && 'approver' in data && data.approver === true
      if (approver && adminId !== null) void socket.join([APPROVERS, approverRoom(adminId)])
      const name = typeof data === 'object' && data !== null && 'name' in data && typeof data.name === 'string' ? data.name : ''
      if (adminId !== null) this.#presenceOf(socket, adminId, name, Array.isArray(screens) ? screens.filter((s): s is string => typeof s === 'string') : [])
      socket.on(SocketEvents.createRoom, (id: unknown, ack: unknown) => {
        const joined = adminId !== null && id === adminId
        if (joined) void socket.join(room(adminId))
        // Ours: a sender that asks for an acknowledgement learns whether it is in the room now.
        if (typeof ack === 'function') ack(joined)
      })
    })
  }

  /**
   * Who else is there (contract/presence.ts): a page announces its record, again every heartbeat,
   * and learns who else has it open; a list watches its screen. Both only on a screen this
   * socket's admin may open, so staff without access neither see nor are seen. A closed socket
   * takes its announcements back at once.
   */
  #presenceOf(socket: Socket, adminId: string, name: string, allowed: readonly string[]): void {
    const open = new Map<string, OpenRecord>()
    const watched = new Set<string>()
    const warn = (error: unknown) => this.#log.warn({ err: error }, 'presence store failed')
    const refuse = (ack: unknown, message: string) => {
      if (typeof ack === 'function') ack({ ok: false, message } satisfies PresenceAnswer)
    }
    const answer = (ack: unknown, records: PresenceState[]) => {
      if (typeof ack === 'function') ack({ ok: true, records } satisfies PresenceAnswer)
    }
    const failed = (ack: unknown) => (error: unknown) => {
      warn(error)
      refuse(ack, 'Who else is here is not available now')
    }
    const announce = (record: OpenRecord, state: PresenceState) => {
      this.#io.to([presenceRoom(record.group, record.id), presenceListRoom(record.group)]).emit(SocketEvents.presence, state)
    }
    const close = async (key: string) => {
      const record = open.get(key)
      if (record === undefined) return
      open.delete(key)
      void socket.leave(presenceRoom(record.group, record.id))
      if (![...open.values()].some((r) => r.id === record.id)) void socket.leave(recordRoom(record.id))
      await this.#presence.remove(record.group, record.id, socket.id)
      const [state] = await this.#presence.states(record.group, record.id)
      if (state !== undefined) announce(record, state)
    }
    socket.on(SocketEvents.presenceOpen, (payload: unknown, ack: unknown) => {
      const parsed = PresenceOpen.safeParse(payload)
      if (!parsed.success) return refuse(ack, 'Say which screen and record')
      const { screen, id, mode } = parsed.data
      if (!allowed.includes(screen)) return refuse(ack, 'You do not have access to this screen')
      const group = presenceGroup(screen)
      const key = `${screen}\u0001${id}`
      const before = open.get(key)
      if (before === undefined && open.size >= MAX_OPEN_RECORDS) return refuse(ack, 'Too many records open in this tab')
      const record: OpenRecord = { screen, group, id, mode, since: before?.since ?? new Date().toISOString() }
      open.set(key, record)
      void socket.join([presenceRoom(group, id), recordRoom(id)])
      const entry = { adminId, name, mode, since: record.since, expiresAt: Date.now() + PRESENCE_TTL_MS }
      this.#presence
        .put(group, id, socket.id, entry)
        .then(async () => {
          // Closed meanwhile (the page left it, or the socket closed): the renewal must not outlive it.
          if (!socket.connected || open.get(key)?.since !== record.since) {
            await this.#presence.remove(group, id, socket.id)
            return []
          }
          return this.#presence.states(group, id)
        })
        .then(([state]) => {
          if (state === undefined) return answer(ack, [])
          // Renewals are quiet: only a new arrival (or a change from reading to editing) is news.
          if (before === undefined || before.mode !== mode) announce(record, state)
          answer(ack, [state])
        }, failed(ack))
    })
    // Closing and unwatching answer true once done (false for a payload that does not parse), to a sender that asks.
    const done = (ack: unknown, value: boolean) => {
      if (typeof ack === 'function') ack(value)
    }
    socket.on(SocketEvents.presenceClose, (payload: unknown, ack: unknown) => {
      const parsed = PresenceClose.safeParse(payload)
      if (!parsed.success) return done(ack, false)
      close(`${parsed.data.screen}\u0001${parsed.data.id}`).then(
        () => done(ack, true),
        (error: unknown) => {
          warn(error)
          done(ack, false)
        },
      )
    })
    socket.on(SocketEvents.presenceWatch, (payload: unknown, ack: unknown) => {
      const parsed = PresenceWatch.safeParse(payload)
      if (!parsed.success) return refuse(ack, 'Say which screen')
      if (!allowed.includes(parsed.data.screen)) return refuse(ack, 'You do not have access to this screen')
      const group = presenceGroup(parsed.data.screen)
      if (!watched.has(group) && watched.size >= MAX_WATCHED_LISTS) return refuse(ack, 'Too many lists open in this tab')
      watched.add(group)
      void socket.join(presenceListRoom(group))
      this.#presence.states(group).then((states) => answer(ack, states), failed(ack))
    })
    socket.on(SocketEvents.presenceUnwatch, (payload: unknown, ack: unknown) => {
      const parsed = PresenceWatch.safeParse(payload)
      if (!parsed.success) return done(ack, false)
      const group = presenceGroup(parsed.data.screen)
      watched.delete(group)
      void socket.leave(presenceListRoom(group))
      done(ack, true)
    })
    socket.on('disconnect', () => {
      for (const key of [...open.keys()]) close(key).catch(warn)
    })
  }

  /**
   * Ends a socket when its session does, without waiting for a call that would be refused: at the
   * token's expiry or the end of its idle limit (sessionEndsAt), the session is checked again (an
   * HTTP call meanwhile, on any instance, may have pushed the idle end back: it is then watched
   * until the new end), and at least every `socketRecheckMs`, so a revocation or deactivation
   * whose LOGOUT broadcast did not arrive still ends the socket. A session no longer valid gets
   * LOGOUT, as a Logout elsewhere sends, and the socket is closed. The check does not count as
   * a use. While the database does not answer the socket is kept and checked again later.
   */
  #watch(socket: Socket, header: string | undefined, endsAt: number): void {
    let timer: NodeJS.Timeout | undefined
    const schedule = (at: number) => {
      // Just past the end (the idle limit is "more than"); never a busy loop on an end just passed.
      const wait = Math.min(Math.max(at - Date.now() + END_MARGIN_MS, END_MARGIN_MS), this.#config.socketRecheckMs)
      timer = setTimeout(check, wait)
    }
    const check = () => {
      checkSession(this.#db, this.#config, header, sessionAccess, { touch: false }).then(
        (result) => {
          if (!socket.connected) return
          if (result.ok) return schedule(result.endsAt)
          socket.emit(SocketEvents.logout)
          socket.disconnect(false)
        },
        (error: unknown) => {
          this.#log.warn({ err: error }, 'socket session check failed')
          if (socket.connected) schedule(Date.now() + this.#config.socketRecheckMs)
        },
      )
    }
    socket.on('disconnect', () => clearTimeout(timer))
    schedule(endsAt)
  }

  /** Tells every open PWA of this admin to log out, then closes their sockets. */
  logout(adminId: string): void {
    this.#io.to(sessionsRoom(adminId)).emit(SocketEvents.logout)
    this.#io.in(sessionsRoom(adminId)).disconnectSockets(false)
  }

  /** Ends one session's sockets (its token was revoked by Logout): LOGOUT, then close them. */
  logoutToken(jti: string): void {
    this.#io.to(tokenRoom(jti)).emit(SocketEvents.logout)
    this.#io.in(tokenRoom(jti)).disconnectSockets(false)
  }

  /** Sends an event to every open PWA of one admin (a bulk action's progress, to whoever applied it). */
  toAdmin(adminId: string, event: string, payload: unknown): void {
    this.#io.to(sessionsRoom(adminId)).emit(event, payload)
  }

  /** Sends an event to every open PWA whose admin may open `path` (a screen of contract/routes.ts). */
  toScreen(path: string, event: string, payload: unknown): void {
    this.#io.to(screenRoom(path)).emit(event, payload)
  }

  /** Sends an event to every open PWA of an administrator (who may approve a mass send) but `requesterId`'s. */
  toApprovers(event: string, payload: unknown, requesterId: string): void {
    this.#io.to(APPROVERS).except(approverRoom(requesterId)).emit(event, payload)
  }

  /** Tells the sockets that have record `id` open that it was saved (each leaves out its own admin's saves). */
  recordSaved(saved: RecordSaved): void {
    this.#io.to(recordRoom(saved.id)).emit(SocketEvents.recordSaved, saved)
  }

  /** Sockets open on this instance (each instance reports its own; the metrics add them up). */
  get openSockets(): number {
    return this.#io.of('/').sockets.size
  }

  close(): Promise<void> {
    return this.#io.close()
  }
}
