/**
 * Prometheus metrics at /metrics (docs/operations.md, "Metrics"), for the operators' scraper only:
 * served with `Authorization: Bearer <METRICS_TOKEN>`, refused 401 otherwise, and absent (404)
 * when METRICS_TOKEN is unset. METRICS_PORT serves the same on a port of its own, so the scrape
 * can stay off the public listener.
 *
 * What lives in the database (the job queue, the mail outbox, promotion and newsletter
 * deliveries) is read when scraped, as gauges: every instance reports the same numbers, and a
 * restart loses nothing. One scrape runs one snapshot of a few grouped counts, which scrapes
 * arriving together share. What lives in the process (requests,
 * latency, the pool, open sockets, the event loop, memory) is this instance's own.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { z } from 'zod'
import type { MetricsSettings } from '../../config.ts'
import { MAIL_STATUSES, jobs, mailOutbox, promotions } from '../../db/schema.ts'
import { API_PREFIX, type Services } from './services.ts'

/** The label of a request that matched no route: every unknown address counts as one, never by its URL. */
export const UNMATCHED = 'unmatched'

/** Buckets of the request latency, in seconds: a list call is ~10 ms, an upload or an export may take seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/** The outcomes a promotion's deliveries are counted under (of each promotion's current round). */
const PROMOTION_OUTCOMES = ['sent', 'failed', 'pending', 'cancelled'] as const
const JOB_STATES = ['queued', 'running', 'failed'] as const

const Count = z.coerce.number()
const JobRows = z.object({ rows: z.array(z.object({ kind: z.string(), queued: Count, running: Count, failed: Count })) })
const MailRows = z.object({ rows: z.array(z.object({ status: z.string(), newsletter: z.boolean(), n: Count })) })
const PromotionRows = z.object({ rows: z.array(z.object({ sent: Count, failed: Count, pending: Count, cancelled: Count })) })

interface Snapshot {
  jobs: z.output<typeof JobRows>['rows']
  mail: z.output<typeof MailRows>['rows']
  promotions: Record<(typeof PROMOTION_OUTCOMES)[number], number>
}

/** The database's counts for one scrape: four grouped counts, each over a small table or an index. */
async function readSnapshot(services: Services): Promise<Snapshot> {
  const { db } = services.handle
  // Done jobs are deleted, so the table holds only waiting, running and given-up jobs.
  const jobRows = JobRows.parse(
    await db.execute(sql`
      select ${jobs.kind} as kind,
        count(*) filter (where ${jobs.failedAt} is null and (${jobs.lockedUntil} is null or ${jobs.lockedUntil} < now())) as queued,
        count(*) filter (where ${jobs.failedAt} is null and ${jobs.lockedUntil} >= now()) as running,
        count(*) filter (where ${jobs.failedAt} is not null) as failed
      from ${jobs} group by ${jobs.kind}`),
  ).rows
  // An index-only scan of mail_outbox_status_idx (status, send_group): the outbox keeps every
  // mail, so this grows with it (docs/operations.md, "Metrics", says what it costs).
  const mailRows = MailRows.parse(
    await db.execute(sql`
      select ${mailOutbox.status} as status, coalesce(${mailOutbox.group} like 'newsletter:%', false) as newsletter, count(*) as n
      from ${mailOutbox} group by 1, 2`),
  ).rows
  // The promotions carry their current round's counters (server/areas/promotions/delivery.ts):
  // no delivery row is counted.
  const [promotionRow] = PromotionRows.parse(
    await db.execute(sql`
      select coalesce(sum(${promotions.sent}), 0) as sent, coalesce(sum(${promotions.failed}), 0) as failed,
        coalesce(sum(greatest(${promotions.total} - ${promotions.sent} - ${promotions.failed}, 0)) filter (where ${promotions.status} not in ('cancelled', 'rejected')), 0) as pending,
        coalesce(sum(greatest(${promotions.total} - ${promotions.sent} - ${promotions.failed}, 0)) filter (where ${promotions.status} in ('cancelled', 'rejected')), 0) as cancelled
      from ${promotions}`),
  ).rows
  return { jobs: jobRows, mail: mailRows, promotions: promotionRow ?? { sent: 0, failed: 0, pending: 0, cancelled: 0 } }
}

/** Whether `header` is `Bearer <token>`; both sides are hashed first, so the comparison takes the same time whatever is sent. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = header?.startsWith('Bearer ') === true ? header.slice('Bearer '.length).trim() : ''
  const digest = (value: string): Buffer => createHash('sha256').update(value).digest()
  return timingSafeEqual(digest(sent), digest(token)) && sent !== ''
}

export interface Metrics {
  readonly registry: Registry
  /** The metrics port's address once it listens (null without METRICS_PORT). */
  readonly portAddress: () => AddressInfo | null
}

/**
 * Registers the metrics on `app` (the request hooks, /metrics) when METRICS_TOKEN is set; call it
 * before the routes, so the hooks see every request. Returns null when metrics are off.
 */
export function registerMetrics(app: FastifyInstance, services: Services): Metrics | null {
  const settings = services.config.metrics
  if (settings === null) return null
  const registry = new Registry()
  // Process memory, CPU, handles, GC and the event loop's lag (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry })

  // The contract's calls by name; every other route by its pattern (a few: /healthz, /uploads/:name).
  const names = new Map(services.contract.endpoints.map((e) => [`${e.method} ${API_PREFIX}${e.path}`, e.name]))
  const requests = new Counter({ name: 'backoffice_http_requests_total', help: 'HTTP requests answered, by endpoint (the contract name) and status', labelNames: ['endpoint', 'method', 'status'], registers: [registry] })
  const latency = new Histogram({ name: 'backoffice_http_request_duration_seconds', help: 'Time to answer an HTTP request, by endpoint', labelNames: ['endpoint', 'method'], buckets: LATENCY_BUCKETS, registers: [registry] })
  app.addHook('onResponse', async (request, reply) => {
    const pattern = request.routeOptions.url
    const endpoint = pattern === undefined ? UNMATCHED : (names.get(`${request.method} ${pattern}`) ?? pattern)
    requests.inc({ endpoint, method: request.method, status: String(reply.statusCode) })
    latency.observe({ endpoint, method: request.method }, reply.elapsedTime / 1000)
  })

  const { handle } = services
  new Gauge({ name: 'backoffice_db_engine_info', help: 'The database engine: pg (a pool of connections to PostgreSQL) or pglite (embedded, one connection)', labelNames: ['engine'], registers: [registry] }).set({ engine: handle.kind }, 1)
  if (handle.kind === 'pg') {
    const pool = handle.pool
    new Gauge({
      name: 'backoffice_db_pool_connections',
      help: 'PostgreSQL pool connections by state (in_use, idle); the leads export holds connections of its own besides',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount)
        this.set({ state: 'idle' }, pool.idleCount)
      },
    })
    new Gauge({ name: 'backoffice_db_pool_waiting', help: 'Queries waiting for a pooled PostgreSQL connection', registers: [registry], collect() { this.set(pool.waitingCount) } })
    new Gauge({ name: 'backoffice_db_pool_max', help: 'The PostgreSQL pool size', registers: [registry] }).set(pool.options.max)
  }

  // One snapshot per scrape, shared by the gauges below and by scrapes running at the same time;
  // a failed one is reported (backoffice_database_up 0), never thrown.
  const read = (): Promise<Snapshot | null> =>
    readSnapshot(services).catch((error: unknown) => {
      app.log.warn({ err: error }, 'metrics: could not read the database counts')
      return null
    })
  let current: { value: Promise<Snapshot | null>; scrapes: number } | null = null
  const snapshot = (): Promise<Snapshot | null> => current?.value ?? read()
  const scrape = async (): Promise<string> => {
    const mine = (current ??= { scrapes: 0, value: read() })
    mine.scrapes += 1
    try {
      return await registry.metrics()
    } finally {
      mine.scrapes -= 1
      if (mine.scrapes === 0 && current === mine) current = null
    }
  }

  new Gauge({
    name: 'backoffice_database_up',
    help: '1 when the database answered this scrape\'s counts, 0 when it did not (the database gauges are then absent)',
    registers: [registry],
    async collect() {
      this.set((await snapshot()) === null ? 0 : 1)
    },
  })
  new Gauge({
    name: 'backoffice_jobs',
    help: 'Durable jobs by kind and state: queued (waiting, due or scheduled), running (leased by an instance), failed (given up, kept for an operator)',
    labelNames: ['kind', 'state'],
    registers: [registry],
    async collect() {
      this.reset()
      const found = await snapshot()
      if (found === null) return
      for (const kind of services.jobs.kinds) for (const state of JOB_STATES) this.set({ kind, state }, 0)
      for (const row of found.jobs) for (const state of JOB_STATES) this.set({ kind: row.kind, state }, row[state])
    },
  })
  new Gauge({
    name: 'backoffice_mail_outbox',
    help: 'Mails in the outbox by status (every mail is kept: sent and failed grow with the mail sent)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset()
      const found = await snapshot()
      if (found === null) return
      for (const status of MAIL_STATUSES) this.set({ status }, 0)
      for (const row of found.mail) this.inc({ status: row.status }, row.n)
    },
  })
  new Gauge({
    name: 'backoffice_newsletter_deliveries',
    help: 'Newsletter mails by outcome (their status in the mail outbox)',
    labelNames: ['outcome'],
    registers: [registry],
    async collect() {
      this.reset()
      const found = await snapshot()
      if (found === null) return
      for (const status of MAIL_STATUSES) this.set({ outcome: status }, 0)
      for (const row of found.mail) if (row.newsletter) this.inc({ outcome: row.status }, row.n)
    },
  })
  new Gauge({
    name: 'backoffice_promotion_deliveries',
    help: 'Promotion deliveries of each promotion\'s current round by outcome (a Resend starts a new round)',
    labelNames: ['outcome'],
    registers: [registry],
    async collect() {
      this.reset()
      const found = await snapshot()
      if (found === null) return
      for (const outcome of PROMOTION_OUTCOMES) this.set({ outcome }, found.promotions[outcome])
    },
  })
  new Gauge({
    name: 'backoffice_sockets_open',
    help: 'socket.io connections open on this instance',
    registers: [registry],
    collect() {
      this.set(services.realtime?.openSockets ?? 0)
    },
  })

  app.get('/metrics', async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, settings.token)) {
      return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').type('text/plain; charset=utf-8').send('Unauthorized')
    }
    const text = await scrape()
    return reply.header('Cache-Control', 'no-store').type(registry.contentType).send(text)
  })

  const server = settings.port === null ? null : metricsServer(scrape, registry.contentType, settings)
  if (server !== null) {
    // When the app is ready (listen waits for it): a port already taken stops the start, as PORT's would.
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(settings.port ?? 0, services.config.host, () => {
          server.off('error', reject)
          resolve()
        })
      })
    })
    app.addHook('onClose', async () => {
      if (!server.listening) return
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    })
  }
  return {
    registry,
    portAddress: () => {
      const address = server?.address()
      return address !== null && typeof address === 'object' ? address : null
    },
  }
}

/** The metrics port: /metrics with the same token rule, 404 for anything else. */
function metricsServer(scrape: () => Promise<string>, contentType: string, settings: MetricsSettings): Server {
  const send = (response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void => {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers })
    response.end(body)
  }
  return createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0]
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) return send(response, 404, 'Not found')
    if (!bearerMatches(request.headers.authorization, settings.token)) return send(response, 401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer realm="metrics"' })
    scrape().then(
      (text) => send(response, 200, text, { 'Content-Type': contentType }),
      () => send(response, 500, 'Could not collect the metrics'),
    )
  })
}
