/**
 * The one durable job queue (docs/decisions/006-job-queue.md): a `jobs` table claimed with
 * `FOR UPDATE SKIP LOCKED`, the same on PGlite and PostgreSQL. Work that must survive a restart
 * (mail, promotion deliveries, newsletter sends) is a job, added in the same transaction as the
 * write that asks for it, so a rolled-back write queues nothing and a committed one is never lost.
 *
 * A claim is a short transaction that leases jobs (`locked_until`, `locked_by`); the handler runs
 * outside any transaction (on PGlite a long one would hold the only connection). A worker killed
 * mid-job leaves its lease to expire, and any instance takes the job again: handlers must be
 * idempotent (record per item what is done, in the transaction that does it). A running job's
 * lease is renewed while it runs, so a slow batch is not taken twice.
 *
 * Attempts are counted at the claim, so a job that kills its process (each claim ends in a lease
 * that expires, never in a throw) still uses them up: a claim past `maxAttempts` marks the job
 * failed instead of running it again, or it would be leased forever. A failed job is kept for an
 * operator but no longer holds its key: the key means "one pending or running at a time", and a
 * send whose job gave up must be able to start again (a newsletter's Resume adds its job anew).
 *
 *     queue.handle('promotion.deliver', async (payload, job) => { ...one batch...; return 'again' })
 *     await queue.add(tx, 'promotion.deliver', { promotionId }, { key: `promotion:${id}` })
 */
import { randomUUID } from 'node:crypto'
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { z } from 'zod'
import type { Db } from '../../db/index.ts'
import { jobs } from '../../db/schema.ts'

export type JobPayload = Record<string, unknown>

export interface JobInfo {
  id: string
  kind: string
  /** 1 on the first run; counts runs since the job was added or last returned 'again'. */
  attempt: number
}

/**
 * A handler resolves when the job is done ('again' to run it again at once: one batch per run),
 * or `{ retryInMs }` to look again later without counting a failure (e.g. a paused send); it
 * throws to fail this attempt (retried with backoff until `maxAttempts`).
 */
export type JobResult = void | 'again' | { retryInMs: number }
export type JobHandler = (payload: JobPayload, job: JobInfo) => Promise<JobResult>

export interface HandlerOptions {
  /** Runs before the job is given up and kept as failed (default 8). */
  maxAttempts?: number
  /** Backoff after a failed attempt n: base * 2^(n-1), capped, with jitter (defaults 1 s, 5 min). */
  backoffBaseMs?: number
  backoffMaxMs?: number
}

export interface QueueOptions {
  /** Jobs run at once by this instance (default 4). */
  concurrency?: number
  /** How often an idle worker looks for due jobs (default 1000 ms). */
  pollMs?: number
  /** How long a claim holds a job before another instance may take it (default 60 s). */
  leaseMs?: number
}

export interface AddOptions {
  /** Not before this time. */
  runAt?: Date
  /**
   * While a job with this key is pending or running, adding another is a no-op. A job kept as
   * failed gives its key up to the new one (the failed row stays, without its key, for an operator).
   */
  key?: string
}

const Claimed = z.object({ id: z.string(), kind: z.string(), payload: z.record(z.string(), z.unknown()), attempts: z.coerce.number() })
const Rows = z.object({ rows: z.array(Claimed) })

export class JobQueue {
  readonly #handlers = new Map<string, { run: JobHandler; options: Required<HandlerOptions> }>()
  readonly #running = new Set<Promise<void>>()
  readonly #worker = randomUUID()
  readonly #concurrency: number
  readonly #pollMs: number
  readonly #leaseMs: number
  #timer: NodeJS.Timeout | null = null
  #started = false
  #ticking = false
  /** The claim on its way to the database, if any: its jobs start when it answers. */
  #claiming: Promise<number> | null = null
  #again = false

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    options: QueueOptions = {},
  ) {
    this.#concurrency = options.concurrency ?? 4
    this.#pollMs = options.pollMs ?? 1000
    this.#leaseMs = options.leaseMs ?? 60_000
  }

  /** Registers the handler of a kind; a kind without one is left for an instance that has it. */
  handle(kind: string, run: JobHandler, options: HandlerOptions = {}): void {
    if (this.#handlers.has(kind)) throw new Error(`Two handlers for job kind ${kind}`)
    this.#handlers.set(kind, {
      run,
      options: { maxAttempts: options.maxAttempts ?? 8, backoffBaseMs: options.backoffBaseMs ?? 1000, backoffMaxMs: options.backoffMaxMs ?? 300_000 },
    })
  }

  /**
   * Adds a job with `db` (pass the transaction of the write that asks for it). Call `wake()` after
   * commit to start it without waiting for the next poll. Answers whether a job was added.
   */
  async add(db: Db, kind: string, payload: JobPayload, options: AddOptions = {}): Promise<boolean> {
    // In the same transaction as the insert, so of two adds with the key exactly one inserts (the
    // unique index still decides; the failed row's lock orders them on PostgreSQL).
    if (options.key !== undefined) await db.update(jobs).set({ key: null }).where(and(eq(jobs.key, options.key), isNotNull(jobs.failedAt)))
    const rows = await db
      .insert(jobs)
      .values({ kind, payload, key: options.key ?? null, runAt: options.runAt ?? sql`now()` })
      .onConflictDoNothing()
      .returning({ id: jobs.id })
    return rows.length > 0
  }

  /** Looks for due jobs now (after a commit that added one) instead of at the next poll. */
  wake(): void {
    if (!this.#started) return
    if (this.#ticking) {
      this.#again = true
      return
    }
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = setTimeout(() => void this.#tick(), 0)
  }

  start(): void {
    if (this.#started) return
    this.#started = true
    this.wake()
  }

  /** Stops taking jobs and waits for those running (their leases are released as they finish). */
  async stop(): Promise<void> {
    this.#started = false
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
    // A claim already sent starts the jobs it leased when it answers; waited for first, so those
    // jobs are among the ones waited for, and none runs on after a close has ended the database.
    await this.#claiming?.catch(() => 0)
    await Promise.allSettled([...this.#running])
  }

  /** The kinds this instance has handlers for (the metrics report each, at 0 when none waits). */
  get kinds(): readonly string[] {
    return [...this.#handlers.keys()]
  }

  /** Whether this instance runs jobs now (for tests and /readyz). */
  get busy(): number {
    return this.#running.size
  }

  async #tick(): Promise<void> {
    this.#timer = null
    if (!this.#started) return
    this.#ticking = true
    this.#again = false
    let claimed = 0
    try {
      const free = this.#concurrency - this.#running.size
      if (free > 0 && this.#handlers.size > 0) {
        this.#claiming = this.#claim(free)
        claimed = await this.#claiming
      }
    } catch (error) {
      this.log.warn({ err: error }, 'job queue: could not claim jobs')
    } finally {
      this.#ticking = false
      this.#claiming = null
    }
    if (!this.#started) return
    // More may be due right away when this claim was full; otherwise wait for a poll or a wake.
    const soon = this.#again || (claimed > 0 && this.#running.size < this.#concurrency)
    this.#timer = setTimeout(() => void this.#tick(), soon ? 0 : this.#pollMs)
  }

  async #claim(limit: number): Promise<number> {
    const kinds = [...this.#handlers.keys()]
    const lease = `${this.#leaseMs} milliseconds`
    const result = await this.db.execute(sql`
      update ${jobs} set locked_until = now() + ${lease}::interval, locked_by = ${this.#worker}, attempts = ${jobs.attempts} + 1
      where ${jobs.id} in (
        select ${jobs.id} from ${jobs}
        where ${jobs.kind} in (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})
          and ${jobs.failedAt} is null and ${jobs.runAt} <= now()
          and (${jobs.lockedUntil} is null or ${jobs.lockedUntil} < now())
        order by ${jobs.runAt}
        limit ${limit}
        for update skip locked
      )
      returning ${jobs.id} as id, ${jobs.kind} as kind, ${jobs.payload} as payload, ${jobs.attempts} as attempts`)
    const claimed = Rows.parse(result).rows
    for (const job of claimed) {
      const running = this.#run(job)
        // Recording how the job ended failed (the database went away): its lease passes and the
        // job is claimed again, as after a crash. Said, never left as an unhandled rejection.
        .catch((error: unknown) => this.log.error({ err: error, job: job.id, kind: job.kind }, 'job queue: could not record how a job ended; it runs again once its lease passes'))
        .finally(() => {
          this.#running.delete(running)
          this.wake()
        })
      this.#running.add(running)
    }
    return claimed.length
  }

  async #run(job: z.output<typeof Claimed>): Promise<void> {
    const handler = this.#handlers.get(job.kind)
    if (handler === undefined) return
    const mine = and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.#worker))
    const { maxAttempts, backoffBaseMs, backoffMaxMs } = handler.options
    if (job.attempts > maxAttempts) {
      // Its attempts are used up, the last (at least) ended with its lease expiring: the process
      // died mid-run, perhaps killed by this very job. Running it again may crash again, and no
      // throw would ever count it as failed.
      const message = `gave up after ${maxAttempts} attempts: the last stopped without finishing (its lease expired: the process crashed or was killed)`
      this.log.error({ job: job.id, kind: job.kind, attempts: maxAttempts }, `job failed for good: ${message}`)
      await this.db.update(jobs).set({ failedAt: new Date(), lockedUntil: null, lockedBy: null, attempts: maxAttempts, lastError: message }).where(mine)
      return
    }
    // Renew the lease while the handler runs, so a slow batch is not taken by another instance.
    const renew = setInterval(() => {
      void this.db
        .update(jobs)
        .set({ lockedUntil: sql`now() + ${`${this.#leaseMs} milliseconds`}::interval` })
        .where(mine)
        .catch((error: unknown) => this.log.warn({ err: error, job: job.id }, 'job queue: could not renew a lease'))
    }, Math.max(50, Math.floor(this.#leaseMs / 3)))
    try {
      const result = await handler.run(job.payload, { id: job.id, kind: job.kind, attempt: job.attempts })
      if (result === 'again') {
        await this.db.update(jobs).set({ runAt: sql`now()`, lockedUntil: null, lockedBy: null, attempts: 0, lastError: null }).where(mine)
      } else if (typeof result === 'object') {
        await this.db
          .update(jobs)
          .set({ runAt: sql`now() + ${`${result.retryInMs} milliseconds`}::interval`, lockedUntil: null, lockedBy: null, attempts: sql`greatest(${jobs.attempts} - 1, 0)` })
          .where(mine)
      } else {
        await this.db.delete(jobs).where(mine)
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (job.attempts >= maxAttempts) {
        this.log.error({ err: error, job: job.id, kind: job.kind, attempts: job.attempts }, 'job failed for good')
        await this.db.update(jobs).set({ failedAt: new Date(), lockedUntil: null, lockedBy: null, lastError: message }).where(mine)
      } else {
        const delay = backoffDelay(job.attempts, backoffBaseMs, backoffMaxMs)
        this.log.warn({ err: error, job: job.id, kind: job.kind, attempts: job.attempts, retryInMs: delay }, 'job failed; retrying')
        await this.db.update(jobs).set({ runAt: sql`now() + ${`${delay} milliseconds`}::interval`, lockedUntil: null, lockedBy: null, lastError: message }).where(mine)
      }
    } finally {
      clearInterval(renew)
    }
  }
}

/** Exponential backoff with jitter (75-100% of the step), so failed jobs do not retry in lockstep. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.round(step * (0.75 + Math.random() * 0.25))
}
