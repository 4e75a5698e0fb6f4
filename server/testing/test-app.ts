/**
 * Test support: `makeTestApp()` builds the real app on a fresh database (in-memory PGlite, or a
 * new database on the PostgreSQL server named by DATABASE_URL, dropped afterwards; both cloned from
 * one migrated template per run, see template-db.ts) and a temporary data folder, with cheap argon2
 * settings so a suite stays fast. Tests then call `app.inject`.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { z } from 'zod'
import { buildApp } from '../app.ts'
import { issueToken, type Passwords } from '../kit/ground/access/auth.ts'
import { openSession } from '../kit/ground/access/sessions.ts'
import { loadConfig, type Config } from '../config.ts'
import { openDb, type DbHandle } from '../db/index.ts'
import { admins, loginFailures, type AdminRow, type LoginFailureRow } from '../db/schema.ts'
import { lockoutKey } from '../kit/ground/access/lockout.ts'
import { openTotpSecret } from '../kit/ground/access/two-factor-secret.ts'
import { scratchDatabase } from './template-db.ts'

export { scratchDatabase }

/** Satisfies the login rule (6-18 chars, digit, upper, lower, special). */
export const TEST_PASSWORD = 'Test@1234'
export const SUPERADMIN_EMAIL = 'root@example.com'

export interface TestApp {
  app: FastifyInstance
  config: Config
  handle: DbHandle
  passwords: Passwords
  /** The superadmin created at start, with TEST_PASSWORD. */
  superadmin: AdminRow
  /** Inserts an admin (password TEST_PASSWORD unless given) and returns the row. */
  createAdmin(fields?: Partial<typeof admins.$inferInsert> & { password?: string }): Promise<AdminRow>
  /** A valid token for an admin, as the login call would issue it. */
  /** A token as login gives it (its session row written, the sign-in its step-up proof). */
  tokenFor(admin: AdminRow): Promise<string>
  /** `{ authorization: 'Bearer <token>' }` for an admin. */
  auth(admin: AdminRow): Promise<{ authorization: string }>
  /** The sign-in lockout row of an email (server/kit/ground/access/lockout.ts), if any. */
  lockoutOf(email: string): Promise<LoginFailureRow | undefined>
  /** An admin's stored TOTP secret as stored (sealed) and opened, for assertions. */
  totpSecretOf(adminId: string): Promise<{ stored: string | null; opened: string | null }>
  close(): Promise<void>
}

export interface TestAppOptions {
  env?: Record<string, string>
  /** Change the configuration after it is loaded (e.g. a short token life). */
  configure?: (config: Config) => Config
  /** Attach socket.io (the test then listens on a port to connect to it). */
  realtime?: boolean
  /** Where the app's log lines go (with `env: { LOG_LEVEL: 'info' }`, say). */
  logStream?: { write(line: string): void }
}

/** Where the suite runs: 'pg' when DATABASE_URL is set. */
export const testEngine = (): 'pg' | 'pglite' => (process.env['DATABASE_URL'] ? 'pg' : 'pglite')

export async function makeTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bo-test-'))
  let config = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_EMAIL: SUPERADMIN_EMAIL,
    ADMIN_PASSWORD: TEST_PASSWORD,
    LOG_LEVEL: 'silent',
    LOGIN_RATE_LIMIT: '1000',
    ...options.env,
  })
  const scratch = await scratchDatabase()
  config = { ...config, database: scratch.database, hashCost: { memoryCost: 1024, timeCost: 1, parallelism: 1 } }
  if (options.configure) config = options.configure(config)

  const handle = await openDb(config.database, undefined, { statementTimeoutMs: config.statementTimeoutMs })
  const app = await buildApp(config, { handle, realtime: options.realtime === true, ...(options.logStream === undefined ? {} : { logStream: options.logStream }) })
  await app.ready()
  const passwords = app.services.passwords
  const [superadmin] = await handle.db.select().from(admins).limit(1)
  if (superadmin === undefined) throw new Error('the superadmin was not created')

  let counter = 0
  // A token as login gives it: its session row is written, and the sign-in counts as the proof a
  // step-up call needs (server/kit/ground/access/sessions.ts, openSession).
  const signedIn = async (admin: AdminRow): Promise<string> => {
    const issued = await issueToken(config, admin)
    await openSession(handle.db, issued.ref, admin.id, { device: 'Test client', address: '127.0.0.1' })
    return issued.token
  }
  return {
    app,
    config,
    handle,
    passwords,
    superadmin,
    async createAdmin(fields = {}) {
      counter += 1
      const { password = TEST_PASSWORD, ...rest } = fields
      const [row] = await handle.db
        .insert(admins)
        .values({
          name: `Staff ${counter}`,
          email: `staff${counter}-${randomBytes(3).toString('hex')}@example.com`,
          role: 'subadmin',
          accessLevel: 'Admin',
          restrictions: [],
          ...rest,
          passwordHash: await passwords.hash(password),
        })
        .returning()
      if (row === undefined) throw new Error('insert returned no row')
      return row
    },
    tokenFor: (admin) => signedIn(admin),
    async auth(admin) {
      return { authorization: `Bearer ${await signedIn(admin)}` }
    },
    async lockoutOf(email) {
      const [row] = await handle.db.select().from(loginFailures).where(eq(loginFailures.email, lockoutKey(email)))
      return row
    },
    async totpSecretOf(adminId) {
      const [row] = await handle.db.select({ stored: admins.totpSecret }).from(admins).where(eq(admins.id, adminId))
      const stored = row?.stored ?? null
      return { stored, opened: stored === null ? null : (openTotpSecret(config, adminId, stored)?.secret ?? null) }
    },
    async close() {
      await app.close()
      // An outage test may have closed the database already.
      const open = handle.kind === 'pglite' ? !handle.client.closed : !handle.pool.ended
      if (open) await handle.close()
      await scratch.drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** The JSON body of an injected answer, parsed loosely for assertions. */
export function bodyOf(response: LightMyRequestResponse): Record<string, unknown> {
  const parsed = z.record(z.string(), z.unknown()).safeParse(response.json())
  if (!parsed.success) throw new Error(`not a JSON object: ${response.body.slice(0, 200)}`)
  return parsed.data
}

export interface UploadFile {
  field: string
  name: string
  type: string
  content: Buffer
}

/** A multipart body for `app.inject`: text fields (arrays repeat the field) and files. */
export async function multipart(
  fields: Record<string, string | string[]>,
  files: readonly UploadFile[] = [],
): Promise<{ payload: Buffer; headers: { 'content-type': string } }> {
  const form = new FormData()
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) form.append(key, v)
  }
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.content)], { type: f.type }), f.name)
  const encoded = new Response(form)
  const type = encoded.headers.get('content-type')
  if (type === null) throw new Error('FormData gave no content type')
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': type } }
}

/** The list under `key` of an answer body (e.g. `data` or `result`), for assertions. */
export function listOf(body: Record<string, unknown>, key: string): Record<string, unknown>[] {
  return z.array(z.record(z.string(), z.unknown())).parse(body[key])
}

/**
 * A TCP forwarder to a database server that a test can cut and restore, to show the API answers
 * 503 while the database is unreachable and recovers once it is back.
 */
export interface TcpProxy {
  port: number
  /** Drops every connection and stops listening: the database is "down". */
  stop(): Promise<void>
  /** Listens again on the same port: the database is "back". */
  start(): Promise<void>
}

export async function tcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let server: Server | null = null
  let port = 0
  const track = (socket: Socket): void => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const proxy: TcpProxy = {
    get port() {
      return port
    },
    start: () =>
      new Promise<void>((resolve, reject) => {
        const s = createServer((client) => {
          const upstream = connect(targetPort, targetHost)
          track(client)
          track(upstream)
          client.on('close', () => upstream.destroy())
          upstream.on('close', () => client.destroy())
          client.pipe(upstream).pipe(client)
        })
        s.once('error', reject)
        s.listen(port, '127.0.0.1', () => {
          const address = s.address()
          if (address !== null && typeof address === 'object') port = address.port
          server = s
          resolve()
        })
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        if (server === null) return resolve()
        server.close(() => resolve())
        server = null
      }),
  }
  await proxy.start()
  return proxy
}
