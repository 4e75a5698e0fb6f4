/**
 * The request log. Fastify writes two lines per request at info ("incoming request", "request
 * completed"); for the calls the public makes at its own rate (the referral redirect and the
 * public reads, marked with `SUMMARISED` in their route config) that halves what the server can
 * answer, and says nothing the counts do not. So, with LOG_REQUESTS=summary (the default), such a
 * call is counted by route and status, and one line a minute sums the counts up ("public calls");
 * the ones worth reading alone are still logged one line each at the default level: a server error
 * (5xx, at error), a refusal (4xx, at info; a 429 only counted, so a flood is not logged in full)
 * and an answer slower than LOG_SLOW_MS (at warn). Staff calls, and everything with
 * LOG_REQUESTS=all (what LOG_LEVEL debug or trace chooses when LOG_REQUESTS is unset,
 * server/config.ts), are logged as Fastify logs them. The same counts are in the metrics
 * (`backoffice_http_requests_total`, server/kit/ground/metrics.ts) when METRICS_TOKEN is set.
 */
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify'
import type { Config } from '../../config.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'summary': a public call whose log is summed up (see server/kit/ground/request-log.ts). */
    requestLog?: 'summary'
  }
}

/** The route config of a call the public makes at its own rate. */
export const SUMMARISED = { requestLog: 'summary' } as const

/** How often the summary line is written. */
export const SUMMARY_INTERVAL_MS = 60_000

/** Counts of the current period: route ("GET /api/admin/public-info") to status to count. */
type Counts = Map<string, Map<number, number>>

export class RequestLog extends LogController {
  private counts: Counts = new Map()
  private since = Date.now()
  private log: FastifyBaseLogger | null = null
  private timer: NodeJS.Timeout | null = null

  constructor(private readonly settings: Config['requestLog']) {
    super()
  }

  /** Starts the summary line; `stop` writes the last one (the counts since the last line). */
  start(log: FastifyBaseLogger, intervalMs = SUMMARY_INTERVAL_MS): void {
    this.log = log
    this.since = Date.now()
    this.timer = setInterval(() => this.flush(), intervalMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
    this.flush()
  }

  private summarised(request: FastifyRequest): boolean {
    return this.settings.mode === 'summary' && request.routeOptions.config.requestLog === 'summary'
  }

  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!this.summarised(request)) super.incomingRequest(request, reply, metadata)
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!this.summarised(request)) return super.requestCompleted(error, request, reply, metadata)
    const status = reply.statusCode
    const route = `${request.method} ${request.routeOptions.url ?? ''}`
    const byStatus = this.counts.get(route) ?? new Map<number, number>()
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
    this.counts.set(route, byStatus)
    // One line for the call, with what "incoming request" would have said (the request, its
    // address) and what "request completed" says.
    const responseTime = reply.elapsedTime
    const fields = { req: request, res: reply, responseTime }
    if (error !== null && error !== undefined) reply.log.error({ ...fields, err: error }, 'request errored')
    else if (status >= 500) reply.log.error(fields, 'request completed')
    else if (status >= 400 && status !== 429) reply.log.info(fields, 'request refused')
    else if (responseTime >= this.settings.slowMs) reply.log.warn(fields, 'slow request')
  }

  /** Writes the summary of the period now ending, if it had any call, and starts the next. */
  private flush(): void {
    const now = Date.now()
    const counts = this.counts
    const seconds = Math.round((now - this.since) / 1000)
    this.counts = new Map()
    this.since = now
    if (counts.size === 0 || this.log === null) return
    const publicCalls: Record<string, Record<string, number>> = {}
    let total = 0
    for (const [route, byStatus] of counts) {
      const row: Record<string, number> = {}
      for (const [status, n] of byStatus) {
        row[String(status)] = n
        total += n
      }
      publicCalls[route] = row
    }
    this.log.info({ publicCalls, total, seconds }, 'public calls')
  }
}
