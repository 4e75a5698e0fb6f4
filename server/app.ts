/**
 * The server as a Fastify plugin chain: plugins (security headers, CORS, rate limit,
 * static files), then the API routes from the contract, then the PWA. `server/main.ts` only
 * listens; tests call `buildApp` and `app.inject`.
 */
import { mkdir } from 'node:fs/promises'
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import { sql } from 'drizzle-orm'
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'
import { ApiFailure } from './kit/request/answers.ts'
import { API_PREFIX, type Services } from './kit/ground/services.ts'
import { defineJob, type JobDefinition } from './kit/request/handlers.ts'
import { registerApi } from './kit/request/api.ts'
import { loadAreas } from './kit/request/areas.ts'
import { addressKey } from './kit/ground/address-key.ts'
import { Passwords, ensureSuperadmin } from './kit/ground/access/auth.ts'
import type { Config, TrustProxy } from './config.ts'
import { isConnectionError, isStatementTimeout, openDb, type DbHandle } from './db/index.ts'
import { MAIL_JOB, Mailer } from './kit/ground/mail/mail.ts'
import { Realtime } from './kit/ground/realtime.ts'
import { sealPlainTotpSecrets } from './kit/ground/access/two-factor-secret.ts'
import { ensureTemplates } from './kit/ground/mail/templates.ts'
import { scheduleSweeps } from './kit/ground/sweep.ts'
import { scheduleMaintenance } from './db/maintenance.ts'
import { purgeAtStart } from './kit/request/undo.ts'
import { openStorage } from './kit/ground/storage.ts'
import { serveUploads } from './kit/request/serve-uploads.ts'
import { PublicCache } from './kit/ground/public-cache.ts'
import { helmetHeaders, sendSecurityHeaders } from './kit/ground/security-headers.ts'
import { JobQueue } from './kit/ground/queue.ts'
import { openRedis } from './kit/ground/redis.ts'
import { holdDataDir, type DataDirHold } from './kit/ground/backup/data-dir.ts'
import { scheduleBackups, serverSnapshot } from './kit/ground/backup/schedule.ts'
import { removeStaleSnapshots } from './kit/ground/backup/snapshot.ts'
import { CSP_DIRECTIVES, registerPwa } from './pwa.ts'
import { registerMetrics, type Metrics } from './kit/ground/metrics.ts'
import { serveOpenApi } from './kit/request/openapi.ts'
import { RequestLog } from './kit/ground/request-log.ts'
import { logRequest } from './kit/ground/log-url.ts'
import packageJson from '../package.json' with { type: 'json' }

/**
 * The kit's own background jobs; each area declares its jobs beside its routes
 * (server/areas/<area>/index.ts), found by server/kit/request/areas.ts.
 */
const kitJobs: readonly JobDefinition[] = [
  // The durable mail queue (server/kit/ground/mail/mail.ts); its own failures (the database) retry with the queue's backoff.
  defineJob(MAIL_JOB, (payload, _job, services) => services.mailer.run(payload)),
]

export interface BuildOptions {
  /** An already open database (tests share one); otherwise the configured one is opened. */
  handle?: DbHandle
  /** Attach socket.io (off for inject-only tests that never listen). */
  realtime?: boolean
  /** Run background jobs in this instance (default true; a test may build an app that only serves). */
  jobs?: boolean
  /** Where the log lines go instead of stdout (a test reads them to show what is never logged). */
  logStream?: { write(line: string): void }
  /** Called with the first superadmin's credentials when they were just created. */
  onSuperadminCreated?: (credentials: { email: string; password: string; generated: boolean }) => void
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
    /** The Prometheus metrics (server/kit/ground/metrics.ts); null when METRICS_TOKEN is unset. */
    metrics: Metrics | null
  }
}

/** The 503 answer while the database cannot be reached (restarting, down, connections lost). */
export const DATABASE_UNAVAILABLE = 'The database is not available right now; please try again shortly'
export const DATABASE_TIMEOUT = 'The database took too long to answer; please try again'
/** A body over the limit; nginx in front answers the same past its own (deploy/nginx/back-office.conf). */
export const BODY_TOO_LARGE = 'Request body is too large'

/**
 * Browser features a back-office never uses, switched off for the page and anything it embeds.
 * Fullscreen stays for the page itself (a game's video may go fullscreen); clipboard writes need no
 * policy ('Link copy successfully' works). Passkeys (WebAuthn get and create) are the page's own
 * only: signing in, adding one on Profile, the step-up question; never in an embedded frame. Only names Chromium knows, so it logs no warning
 * (it warns about 'bluetooth', for one).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'encrypted-media=()',
  'fullscreen=(self)',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'picture-in-picture=()',
  'publickey-credentials-create=(self)',
  'publickey-credentials-get=(self)',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ')

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  // The public calls' requests are counted and summed up rather than logged each (LOG_REQUESTS).
  const requestLog = new RequestLog(config.requestLog)
  const app = Fastify({
    logger: { level: config.logLevel, serializers: { req: logRequest }, ...(options.logStream === undefined ? {} : { stream: options.logStream }) },
    logController: requestLog,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // While it closes, an instance still answers the requests that reach it (on a balancer's
    // kept-alive connection, or before it stops listening), each with "Connection: close": the
    // database stays open until the last one is done. Fastify's default would answer them 503 in
    // a shape of its own, which a balancer hands to the browser instead of trying the next instance.
    return503OnClosing: false,
    // Keeps a hostile JSON body from reaching handlers with __proto__ / constructor tricks.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  })

  requestLog.start(app.log)
  app.addHook('onClose', async () => requestLog.stop())

  // PGlite has no lock of its own: the data folder is taken first, so no second server, backup or
  // restore opens it meanwhile (server/kit/ground/backup/data-dir.ts). A start while one runs is refused.
  const hold: DataDirHold | null = options.handle === undefined && config.database.kind === 'pglite' && config.database.dir !== null ? await holdDataDir(config.dataDir, 'server') : null
  let handle: DbHandle
  try {
    handle =
      options.handle ??
      (await openDb(config.database, (error) => app.log.warn({ err: error }, 'database connection lost; a new one is opened on the next query'), { statementTimeoutMs: config.statementTimeoutMs }))
  } catch (error) {
    await hold?.release()
    throw error
  }
  let stopBackups = (): void => {}
  if (hold !== null && handle.kind === 'pglite') {
    const client = handle.client
    // `npm run backup` asks this process for a copy of its database rather than opening it.
    hold.onSnapshot(() => serverSnapshot(client, config))
    await removeStaleSnapshots(config.dataDir)
    if (config.backups !== null) stopBackups = await scheduleBackups(client, config, config.backups, app.log)
  }
  await mkdir(config.tmpDir, { recursive: true })
  const storage = await openStorage(config)
  // Leftovers of a crash (staging files, uploads no row names) are removed before serving.
  const stopSweeps = await scheduleSweeps(handle.db, { tmpDir: config.tmpDir, storage, sweep: config.sweep }, app.log)
  // PGlite has no autovacuum: changed tables are vacuumed here, a bulk load before serving.
  const stopMaintenance = await scheduleMaintenance(handle, config.vacuumIntervalMs, app.log)
  const passwords = new Passwords(config.hashCost)
  const redis = config.redisUrl === null ? null : await openRedis(config.redisUrl, app.log)
  const realtime = options.realtime === true ? new Realtime(app.server, handle.db, config, app.log, redis) : null
  const jobs = new JobQueue(handle.db, app.log, config.jobs)
  const mailer = new Mailer(config, handle.db, app.log, jobs)
  const areas = await loadAreas()
  const publicCache = new PublicCache(redis?.client ?? null, app.log)
  await publicCache.start()
  const services: Services = { contract: areas.index, handle, config, passwords, mailer, realtime, jobs, storage, publicCache, finders: areas.finders, log: app.log }
  app.decorate('services', services)
  // From the first moment of a close (before the hooks below), so a balancer that watches /readyz stops sending.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('preClose', async () => {
    // Open sockets would keep the HTTP server from closing; running jobs finish or are left to their lease.
    await Promise.all([realtime?.close(), jobs.stop()])
  })
  /** What the areas' own routes hold in memory (counted referral visits): written before the database closes. */
  const areaStops: (() => Promise<void>)[] = []
  app.addHook('onClose', async () => {
    await Promise.all(areaStops.map((stop) => stop()))
    await publicCache.close()
    await redis?.close()
    stopSweeps()
    stopMaintenance()
    stopBackups()
    mailer.close()
    if (options.handle === undefined) await handle.close()
    await hold?.release()
  })

  const created = await ensureSuperadmin(handle.db, config, passwords)
  if (created !== null) options.onSuperadminCreated?.(created)
  // 2FA secrets stored before they were sealed at rest (server/kit/ground/access/two-factor-secret.ts explains why here).
  const sealed = await sealPlainTotpSecrets(handle.db, config)
  if (sealed > 0) app.log.info({ sealed }, 'sealed plain 2FA secrets')
  // The server's own mails are rendered from templates: a database without them (a fresh one) gets the defaults.
  const installed = await ensureTemplates(handle.db)
  if (installed > 0) app.log.info({ installed }, 'installed the default email templates')

  sendSecurityHeaders(
    app,
    await helmetHeaders({
      // The policy and its style nonce are the PWA's concern: server/pwa.ts says what each directive allows and why.
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      referrerPolicy: { policy: 'no-referrer' },
      // A PWA on another origin (CORS configured) must still be able to show uploaded images.
      crossOriginResourcePolicy: { policy: config.corsOrigins.length > 0 ? 'cross-origin' : 'same-origin' },
    }),
  )
  if (config.corsOrigins.length > 0) {
    await app.register(cors, { origin: config.corsOrigins, methods: ['GET', 'POST'], allowedHeaders: ['Authorization', 'Content-Type'] })
  }
  await app.register(rateLimit, {
    global: false,
    // Shared by every instance when Redis is there. If Redis is away a request is not refused for
    // it: the sign-in lockout (in the database) still holds, and availability matters more.
    ...(redis === null ? {} : { redis: redis.client, skipOnError: true, nameSpace: 'bo-rate:' }),
    errorResponseBuilder: () => new ApiFailure(429, 'Too many attempts, please try again later'),
    // The key every per-address limit uses (kit/ground/address-key.ts): an IPv6 client by its /64, which it
    // could otherwise walk through; the sign-in lock keys its pairs the same way.
    keyGenerator: (request) => addressKey(request.ip),
  })
  // Multipart is registered by kit/request/api.ts for the endpoints that declare files, and only for them.

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Permissions-Policy', PERMISSIONS_POLICY)
  })
  // Before every route, so its request hook counts them all (server/kit/ground/metrics.ts).
  app.decorate('metrics', registerMetrics(app, services))

  app.addHook('onSend', async (request, reply) => {
    // API answers are per-session data: never kept by a browser, proxy or service worker. A
    // public read that may be kept (an endpoint's maxAge) has set its own header already.
    if (request.url.startsWith('/api/') && !reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store')
  })

  app.setErrorHandler((error: FastifyError | ApiFailure | Error, request, reply) => {
    if (error instanceof ApiFailure) return reply.code(error.statusCode).send(error.body())
    if (isConnectionError(error)) {
      request.log.warn({ err: error }, 'database unavailable')
      return reply.code(503).send({ status: 'failed', message: DATABASE_UNAVAILABLE })
    }
    if (isStatementTimeout(error)) {
      // STATEMENT_TIMEOUT_MS passed: the statement was cancelled (and its transaction rolled back).
      request.log.warn({ err: error }, 'statement timeout')
      return reply.code(503).send({ status: 'failed', message: DATABASE_TIMEOUT })
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500
    if (status >= 400 && status < 500) {
      const code = clientStatus(error, status, request.headers['content-type'])
      return reply.code(code).send({ status: 'failed', message: clientMessage(error, code) })
    }
    request.log.error({ err: error }, 'unhandled error')
    return reply.code(500).send({ status: 'failed', message: 'Something went wrong' })
  })

  // /healthz: the process answers (a load balancer restarts it otherwise). /readyz: it can serve
  // now: the database answers and it is not shutting down (a load balancer stops sending to it).
  app.get('/healthz', async (_request, reply) => reply.send({ status: 'success', message: 'ok' }))
  app.get('/readyz', async (_request, reply) => {
    if (closing) return reply.code(503).send({ status: 'failed', message: 'Shutting down' })
    await handle.db.execute(sql`select 1`)
    if (redis !== null && !(await redis.ping())) return reply.code(503).send({ status: 'failed', message: 'Redis does not answer' })
    return reply.send({ status: 'success', message: 'ready' })
  })

  registerApi(app, services, [areas.routes])
  // The API described as OpenAPI 3.1, from the same contract (docs/api.md).
  serveOpenApi(app, services, packageJson.version)
  for (const definition of [...kitJobs, ...areas.jobs]) jobs.handle(definition.kind, (payload, job) => definition.run(payload, job, services), definition.options)
  if (options.jobs !== false) {
    app.addHook('onReady', async () => {
      jobs.start()
      // Undo entries that expired while no server ran go now (server/kit/request/undo.ts).
      await purgeAtStart(services)
    })
  }

  serveUploads(app, storage)

  // Routes an area keeps outside the contract (the newsletter's RFC 8058 one-click unsubscribe).
  for (const { area } of areas.areas) {
    const stop = area.serve?.(app, services)
    if (stop !== undefined) areaStops.push(stop)
  }
  registerPwa(app, config.distDir)
  return app
}

/**
 * TRUST_PROXY as Fastify takes it. A hop count is a function: this Fastify trusts nothing for a
 * plain number (a client that reaches the server directly could claim any address with enough
 * hops), so a count is for a server only the proxies can reach; the address list is safer.
 */
export function trustProxyOption(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust
  // proxy-addr asks hop by hop from the socket inwards: the nearest `trust` hops are proxies.
  return (_address, hop) => hop < trust
}

/**
 * The status of a client error. A multipart body sent to an endpoint without files is a real 415
 * (kit/request/api.ts registers the multipart parser only where an endpoint declares files). Any other
 * unknown content type stays 400, the bad-input answer that clients already handle.
 */
function clientStatus(error: Error, status: number, contentType: string | undefined): number {
  const code = 'code' in error && typeof error.code === 'string' ? error.code : ''
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return 413
  if (status !== 415) return status
  return /^\s*multipart\//i.test(contentType ?? '') ? 415 : 400
}

function clientMessage(error: Error, status: number): string {
  const code = 'code' in error && typeof error.code === 'string' ? error.code : ''
  if (status === 404) return 'Not found'
  if (status === 403) return 'Forbidden'
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Malformed JSON body'
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return BODY_TOO_LARGE
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'Unsupported content type'
    default:
      return 'Bad request'
  }
}

export { API_PREFIX }
