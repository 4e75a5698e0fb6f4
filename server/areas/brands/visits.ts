/**
 * The referral redirect (`/admin/app/:code`, requirements R2.35: "sends the browser to the mobile app
 * store listing with that referrer"), answered by the server: a 302 to the listing, no page and no
 * script, so an in-app browser or a slow phone goes straight to the store.
 *
 * Each visit is counted for the brand its code names, in memory, and written in one statement per
 * flush interval (REFERRAL_FLUSH_MS) rather than once per visit: a campaign's burst costs the
 * database a write a second, not a write a request. What is counted is written at a graceful stop
 * (the area's stop runs before the database closes); a crash loses at most one interval's visits.
 * The write goes in chunks of WRITE_CHUNK ids (one statement's bind parameters are bounded, 65,535
 * on PostgreSQL, 32,767 pairs here), and only the ids a chunk found as brands are done with: an
 * id that names no brand is dropped, not kept. A chunk that fails keeps its counts for the next
 * flush, up to RETRY_CAP ids waiting; past it the rest are dropped and counted in the metric
 * backoffice_referral_visits_dropped_total, so a database away for a while cannot grow the memory.
 *
 * Every code is redirected, one that names no brand too (the redirect of requirements R2.35 takes any code); only
 * codes that decode are counted, and a decoded id that names no brand updates nothing. Each
 * address (an IPv6 client by its /64, server/kit/ground/address-key.ts) counts at most
 * REFERRAL_VISITS_PER_ADDRESS visits per brand an hour: past it the redirect still answers, the
 * visit is not counted, so one client reloading a link cannot inflate a brand's visits.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { sql } from 'drizzle-orm'
import { Counter } from 'prom-client'
import { storeListing } from '#contract/brands'
import type { Config } from '../../config.ts'
import { addressKey } from '../../kit/ground/address-key.ts'
import type { Services } from '../../kit/ground/services.ts'
import type { Db } from '../../db/index.ts'
import { brands } from '../../db/schema.ts'
import { decodeReferral } from './referral.ts'
import { SUMMARISED } from '../../kit/ground/request-log.ts'

/** Distinct brands counted before a flush is started early: a flood of made-up ids cannot grow the memory past it. */
const MAX_PENDING = 10_000
/** The ids one statement writes: two bind parameters each, well inside either engine's limit. */
export const WRITE_CHUNK = 1000
/** The ids kept for the next flush after failed writes; the rest are dropped (and counted). */
export const RETRY_CAP = 10_000
/** The longest code read, as the PWA's route reads it. */
const MAX_CODE = 512
/** The longest brand id kept: ids are uuids as text; a longer decoded id names no brand and would only take memory. */
const MAX_ID = 64

export class VisitCounter {
  private pending = new Map<string, number>()
  private writing: Promise<void> = Promise.resolve()
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    everyMs: number,
    /** Told how many ids' visits were dropped because too many waited for a retry. */
    private readonly dropped: (ids: number) => void = () => {},
  ) {
    this.timer = setInterval(() => void this.flush(), everyMs)
    this.timer.unref()
  }

  add(brandId: string): void {
    if (brandId.length > MAX_ID) return
    this.pending.set(brandId, (this.pending.get(brandId) ?? 0) + 1)
    if (this.pending.size >= MAX_PENDING) void this.flush()
  }

  /** Writes what was counted so far; resolves when it (and any write before it) is done. */
  flush(): Promise<void> {
    const batch = this.pending
    if (batch.size > 0) {
      this.pending = new Map()
      // One write at a time, in order: a failed batch goes back before the next one is taken.
      this.writing = this.writing.then(() => this.write(batch))
    }
    return this.writing
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }

  private async write(batch: Map<string, number>): Promise<void> {
    const entries = [...batch]
    let failed: unknown = null
    const retry: [string, number][] = []
    for (let start = 0; start < entries.length; start += WRITE_CHUNK) {
      const chunk = entries.slice(start, start + WRITE_CHUNK)
      const rows = chunk.map(([id, n]) => sql`(${id}, ${n}::integer)`)
      try {
        // Ids that name no brand match no row and are gone with the batch.
        await this.db.execute(sql`update ${brands} set visits = ${brands.visits} + counted.n from (values ${sql.join(rows, sql`, `)}) as counted(id, n) where ${brands.id} = counted.id`)
      } catch (error) {
        failed = error
        retry.push(...chunk)
      }
    }
    if (failed === null) return
    let kept = 0
    for (const [id, n] of retry) {
      if (!this.pending.has(id) && this.pending.size >= RETRY_CAP) continue
      this.pending.set(id, (this.pending.get(id) ?? 0) + n)
      kept += 1
    }
    if (kept < retry.length) this.dropped(retry.length - kept)
    this.log.warn({ err: failed, brands: retry.length, kept }, 'referral visits not written yet; kept for the next flush')
  }
}

/**
 * How many visits each address has had counted per brand this hour: past `perAddress` the visit
 * is not counted. The hours are fixed windows (the map is emptied when one ends), and at most
 * MAX_BUDGET_KEYS pairs are kept: past that, a pair not seen yet this hour is not counted, so a
 * caller with many addresses can lower the count, never raise it.
 */
export class VisitBudget {
  private window = -1
  private readonly used = new Map<string, number>()

  constructor(
    private readonly perAddress: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether this visit of `brandId` from `ip` is counted (and takes one of its budget). */
  take(brandId: string, ip: string): boolean {
    const hour = Math.floor(this.now() / 3_600_000)
    if (hour !== this.window) {
      this.window = hour
      this.used.clear()
    }
    const key = `${brandId} ${addressKey(ip)}`
    const n = this.used.get(key) ?? 0
    if (n >= this.perAddress) return false
    if (n === 0 && this.used.size >= MAX_BUDGET_KEYS) return false
    this.used.set(key, n + 1)
    return true
  }
}
const MAX_BUDGET_KEYS = 100_000

/** One budget per server, shared by the redirect and the counting call (routes.ts). */
const budgets = new WeakMap<Config, VisitBudget>()
export function visitBudget(config: Config): VisitBudget {
  let budget = budgets.get(config)
  if (budget === undefined) {
    budget = new VisitBudget(config.referralVisitsPerAddress)
    budgets.set(config, budget)
  }
  return budget
}

/**
 * What a code leads to, kept: a campaign sends the same few codes again and again, and working one
 * out (a key derivation, a decryption, the listing's address) costs more than the rest of the
 * redirect.
 */
class KnownCodes {
  private readonly known = new Map<string, { brandId: string | null; location: string }>()
  constructor(
    private readonly passphrase: string,
    private readonly listing: string,
  ) {}

  of(code: string): { brandId: string | null; location: string } {
    const kept = this.known.get(code)
    if (kept !== undefined) return kept
    const found = { brandId: decodeReferral(code, this.passphrase), location: storeListing(this.listing, code) }
    // Bounded: a caller sending endless made-up codes only empties it now and then.
    if (this.known.size >= MAX_KNOWN_CODES) this.known.clear()
    this.known.set(code, found)
    return found
  }
}
const MAX_KNOWN_CODES = 10_000

/** The redirect route; answers the counter, stopped by the area before the database closes. */
export function serveReferralRedirect(app: FastifyInstance, services: Services): () => Promise<void> {
  const registry = app.metrics?.registry
  const dropped =
    registry === undefined
      ? null
      : new Counter({ name: 'backoffice_referral_visits_dropped_total', help: 'Brands whose counted referral visits were dropped because too many waited for a write the database refused', registers: [registry] })
  const counter = new VisitCounter(services.handle.db, app.log, services.config.referralFlushMs, (ids) => dropped?.inc(ids))
  const codes = new KnownCodes(services.config.referralKey, services.config.appStoreUrl)
  const budget = visitBudget(services.config)
  // Each visitor's redirect is counted in the request log's summary, not logged alone (server/kit/ground/request-log.ts).
  app.get<{ Params: { code: string } }>('/admin/app/:code', { config: SUMMARISED }, (request, reply) => {
    const { brandId, location } = codes.of(request.params.code.slice(0, MAX_CODE))
    if (brandId !== null && budget.take(brandId, request.ip)) counter.add(brandId)
    // Each visit must reach the server to be counted: no browser or proxy keeps the redirect.
    return reply.header('Cache-Control', 'no-store').redirect(location, 302)
  })
  return () => counter.stop()
}
