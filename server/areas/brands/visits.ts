/**
 * The referral redirect (`/admin/app/:code`, requirements R2.35: "sends the browser to the mobile app
 * store listing with that referrer"), answered by the server: a 302 to the listing, no page and no
 * script, so an in-app browser or a slow phone goes straight to the store.
 *
 * Each visit is counted for the brand its code names, in memory, and written in one statement per
 * flush interval (REFERRAL_FLUSH_MS) rather than once per visit: a campaign's burst costs the
 * database a write a second, not a write a request. What is counted is written at a graceful stop
 * (the area's stop runs before the database closes); a crash loses at most one interval's visits.
 * A write that fails keeps its counts for the next flush.
 *
 * Every code is redirected, one that names no brand too (the redirect of requirements R2.35 takes any code); only
 * codes that decode are counted, and a decoded id that names no brand updates nothing.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { sql } from 'drizzle-orm'
import { storeListing } from '#contract/brands'
import type { Services } from '../../kit/api.ts'
import type { Db } from '../../db/index.ts'
import { brands } from '../../db/schema.ts'
import { decodeReferral } from './referral.ts'
import { SUMMARISED } from '../../kit/request-log.ts'

/** Distinct brands counted before a flush is started early: a flood of made-up ids cannot grow the memory past it. */
const MAX_PENDING = 10_000
/** The longest code read, as the PWA's route reads it. */
const MAX_CODE = 512

export class VisitCounter {
  private pending = new Map<string, number>()
  private writing: Promise<void> = Promise.resolve()
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    everyMs: number,
  ) {
    this.timer = setInterval(() => void this.flush(), everyMs)
    this.timer.unref()
  }

  add(brandId: string): void {
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
    const rows = [...batch].map(([id, n]) => sql`(${id}, ${n}::integer)`)
    try {
      await this.db.execute(sql`update ${brands} set visits = ${brands.visits} + counted.n from (values ${sql.join(rows, sql`, `)}) as counted(id, n) where ${brands.id} = counted.id`)
    } catch (error) {
      this.log.warn({ err: error, brands: batch.size }, 'referral visits not written yet; kept for the next flush')
      for (const [id, n] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + n)
    }
  }
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
  const counter = new VisitCounter(services.handle.db, app.log, services.config.referralFlushMs)
  const codes = new KnownCodes(services.config.referralKey, services.config.appStoreUrl)
  // Each visitor's redirect is counted in the request log's summary, not logged alone (server/kit/request-log.ts).
  app.get<{ Params: { code: string } }>('/admin/app/:code', { config: SUMMARISED }, (request, reply) => {
    const { brandId, location } = codes.of(request.params.code.slice(0, MAX_CODE))
    if (brandId !== null) counter.add(brandId)
    // Each visit must reach the server to be counted: no browser or proxy keeps the redirect.
    return reply.header('Cache-Control', 'no-store').redirect(location, 302)
  })
  return () => counter.stop()
}
