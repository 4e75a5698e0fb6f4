/**
 * Outgoing mail: one durable queue over SMTP (docs/decisions/006-job-queue.md), used by the OTP
 * mails, template tests and newsletters alike.
 *
 * `enqueue` writes the mail's row to `mail_outbox` AND a `mail.send` job, both with the caller's
 * transaction: a rolled-back change sends nothing, a committed one is never lost (a restart finds
 * the job). The job's handler sends its mails one by one: each is claimed by a conditional UPDATE
 * (`FOR UPDATE SKIP LOCKED`, so two instances never take the same mail, and the claim is a lease:
 * a worker killed mid-send leaves the mail to be taken again once it expires), sent, and marked
 * sent in the statement right after the SMTP server accepted it. A failure is recorded on the
 * mail (attempts, next attempt, last error) and retried with exponential backoff; after
 * MAIL_MAX_ATTEMPTS tries the mail is marked failed. A permanent refusal of the recipient (an SMTP
 * 5xx) is not retried: the mail is marked failed and the address suppressed at once. The honest limit: SMTP has no idempotency
 * key, so a crash between the server's acceptance and the mark sends that mail twice.
 *
 * Pausing a group changes its mails' status only, never their lease: a mail a worker is sending
 * right then is still in that worker's hands after a Pause and a Resume, and no other worker may
 * take it (and send it again) before the lease ends.
 *
 * Bodies are never at rest in clear: subject, text, HTML and headers are sealed together
 * (AES-256-GCM, server/kit/ground/seal.ts, bound to the mail's id) and set to null once the mail is sent
 * or given up. Logs name the recipient and the template, never a body. Without SMTP_URL a mail is
 * held (kept sealed, status 'held', logged as "not sent: no SMTP_URL"), unless the development
 * switch MAIL_LOG_BODIES (set by `npm run demo`) prints it to the log instead.
 *
 * The send rate per SMTP server (MAIL_RATE_PER_SECOND) holds across instances: before each mail,
 * a worker reserves the next free slot in `mail_pace` (one row per server, moved on by 1 / rate)
 * and waits for it.
 */
import { randomUUID } from 'node:crypto'
import { and, count, eq, inArray, lte, sql } from 'drizzle-orm'
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core'
import type { FastifyBaseLogger } from 'fastify'
import nodemailer, { type Transporter } from 'nodemailer'
import { z } from 'zod'
import type { Config } from '../../../config.ts'
import type { Db } from '../../../db/index.ts'
import { mailOutbox, mailPace, type MailStatus } from '../../../db/schema.ts'
import { backoffDelay, type JobPayload, type JobQueue, type JobResult } from '../queue.ts'
import { seal, unseal, type SealKind } from '../seal.ts'
import { isPermanentRefusal, suppressAddress } from '../suppression.ts'

export interface MailMessage {
  to: string
  subject: string
  text: string
  html?: string
  /** The template identifier it was rendered from: in the outbox row and the logs (never the body). */
  template?: string
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058) on a newsletter. */
  headers?: Record<string, string>
  /** The send it belongs to, e.g. `newsletter:<id>`: counted, paused and cancelled together. */
  group?: string
}

export const MAIL_JOB = 'mail.send'
/** Mails per `mail.send` job: a large send is split so no payload grows without bound. */
const MAILS_PER_JOB = 500
/** Mails sent per run of a job when the rate is unlimited (with a rate: about two seconds' worth). */
const UNPACED_BATCH = 50
/**
 * How long a claimed mail is left to its worker before another may take it. Longer than the SMTP
 * timeouts below add up to, so a slow but live send is not taken twice.
 */
const MIN_CLAIM_MS = 120_000
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }

const MAIL_BODY: SealKind = { prefix: 'mb1:', info: 'mail-body-at-rest/v1' }
const bodyContext = (id: string): string => `mail_outbox.body\n${id}`
const Body = z.object({
  subject: z.string(),
  text: z.string(),
  html: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
})
type Body = z.infer<typeof Body>

const Payload = z.object({ ids: z.array(z.string()).min(1) })
const Num = z.coerce.number()

/** A header a caller may add: a plain field name, one line, and not one the mail itself sets. */
const RESERVED_HEADERS = new Set(['from', 'to', 'cc', 'bcc', 'subject', 'sender', 'reply-to', 'content-type', 'content-transfer-encoding', 'mime-version'])
function checkHeaders(headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[A-Za-z0-9-]+$/.test(name) || RESERVED_HEADERS.has(name.toLowerCase())) throw new Error(`mail header not allowed: ${name}`)
    if (/[\r\n]/.test(value)) throw new Error(`mail header ${name} spans lines`)
  }
}

/** The body of an outbox row, opened with the server's key (tests and support tools; never logged). */
export function openMailBody(config: Config, id: string, stored: string | null): Body | null {
  if (stored === null) return null
  const plain = unseal(config, MAIL_BODY, bodyContext(id), stored)
  if (plain === null) return null
  try {
    const parsed = Body.safeParse(JSON.parse(plain))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

interface Claimed {
  id: string
  to: string
  template: string | null
  body: string | null
  attempts: number
}

export class Mailer {
  readonly #transport: Transporter | null
  /** The SMTP server as host:port: the key of its send rate in `mail_pace`. */
  readonly #server: string | null
  readonly #from: string
  readonly #settings: Config['mail']
  readonly #claimMs: number

  constructor(
    private readonly config: Config,
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly jobs: JobQueue,
  ) {
    this.#transport = config.smtpUrl === null ? null : nodemailer.createTransport({ url: config.smtpUrl, pool: true, maxConnections: 2, ...SMTP_TIMEOUTS })
    this.#server = config.smtpUrl === null ? null : serverOf(config.smtpUrl)
    this.#from = config.supportEmail
    this.#settings = config.mail
    this.#claimMs = Math.max(config.jobs.leaseMs, MIN_CLAIM_MS)
  }

  /**
   * Queues a mail with `db` (pass the transaction of the write it belongs to); returns its id.
   * Call `wake()` after commit so it goes out without waiting for the queue's next poll.
   */
  async enqueue(db: Db, message: MailMessage): Promise<string> {
    const [id] = await this.enqueueMany(db, [message])
    if (id === undefined) throw new Error('mail_outbox insert returned no row')
    return id
  }

  /** Queues several mails (e.g. a batch of a newsletter) with one job per MAILS_PER_JOB; returns their ids. */
  async enqueueMany(db: Db, messages: readonly MailMessage[]): Promise<string[]> {
    if (messages.length === 0) return []
    const rows = messages.map((m) => {
      if (m.headers !== undefined) checkHeaders(m.headers)
      const id = randomUUID()
      const body: Body = { subject: m.subject, text: m.text, ...(m.html === undefined ? {} : { html: m.html }), ...(m.headers === undefined ? {} : { headers: m.headers }) }
      return { id, to: m.to, template: m.template ?? null, group: m.group ?? null, body: seal(this.config, MAIL_BODY, bodyContext(id), JSON.stringify(body)) }
    })
    await db.insert(mailOutbox).values(rows)
    const ids = rows.map((r) => r.id)
    await this.#addJobs(db, ids)
    return ids
  }

  /** Starts queued mail now (after the commit that queued it) rather than at the next poll. */
  wake(): void {
    this.jobs.wake()
  }

  /**
   * Lets a paused group's mails go again (with `db`, a transaction or the database); returns how many.
   * `next_attempt_at` only moves earlier to now, never later than it is: a mail a worker was
   * sending when the group was paused keeps its claim's lease, so no other worker takes it (and
   * sends it a second time) while the first is still in the SMTP exchange; one waiting after a
   * failed try keeps its backoff.
   */
  async resumeGroup(db: Db, group: string): Promise<number> {
    const resumed = await db
      .update(mailOutbox)
      .set({ status: 'pending', nextAttemptAt: sql`greatest(${mailOutbox.nextAttemptAt}, now())` })
      .where(and(eq(mailOutbox.group, group), eq(mailOutbox.status, 'paused')))
      .returning({ id: mailOutbox.id })
    await this.#addJobs(
      db,
      resumed.map((r) => r.id),
    )
    return resumed.length
  }

  async #addJobs(db: Db, ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += MAILS_PER_JOB) await this.jobs.add(db, MAIL_JOB, { ids: ids.slice(i, i + MAILS_PER_JOB) })
  }

  /**
   * The `mail.send` job: sends a bounded batch of its due mails, then answers 'again' while more
   * are due, `{ retryInMs }` while some wait for a retry, and nothing once every mail is settled.
   */
  async run(payload: JobPayload): Promise<JobResult> {
    const { ids } = Payload.parse(payload)
    const rate = this.#settings.ratePerSecond
    const batch = rate > 0 ? Math.max(1, Math.ceil(rate * 2)) : UNPACED_BATCH
    for (let i = 0; i < batch; i++) {
      // The slot is taken before the claim, so waiting for it never eats into the claim's lease
      // (at a low rate with many workers the wait could be long); a look first spares the slot
      // when nothing is due.
      if (this.#paced()) {
        if (!(await this.#anyDue(ids))) break
        await this.#pace()
      }
      const mail = await this.#claim(ids)
      if (mail === undefined) break
      await this.#deliver(mail)
    }
    return this.#next(ids)
  }

  #paced(): boolean {
    return this.#transport !== null && this.#server !== null && this.#settings.ratePerSecond > 0
  }

  async #anyDue(ids: readonly string[]): Promise<boolean> {
    const due = await this.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.id, [...ids]), eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .limit(1)
    return due.length > 0
  }

  /** Waits for the next slot of the SMTP server's rate, shared with every instance. */
  async #pace(): Promise<void> {
    const rate = this.#settings.ratePerSecond
    if (!this.#paced() || this.#server === null) return
    const step = sql`${`${1000 / rate} milliseconds`}::interval`
    const [slot] = await this.db
      .insert(mailPace)
      .values({ server: this.#server, nextSlotAt: sql`now() + ${step}` })
      .onConflictDoUpdate({ target: mailPace.server, set: { nextSlotAt: sql`greatest(${mailPace.nextSlotAt}, now()) + ${step}` } })
      .returning({ waitMs: sql`greatest(0, extract(epoch from (${mailPace.nextSlotAt} - ${step} - now())) * 1000)::float8` })
    const waitMs = Num.parse(slot?.waitMs ?? 0)
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs))
  }

  /** Takes one due mail of `ids` for this worker: the try is counted and the mail leased. */
  async #claim(ids: readonly string[]): Promise<Claimed | undefined> {
    const due = this.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.id, [...ids]), eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, sql`now()`)))
      .orderBy(mailOutbox.nextAttemptAt)
      .limit(1)
      .for('update', { skipLocked: true })
    const [mail] = await this.db
      .update(mailOutbox)
      .set({ attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: sql`now() + ${`${this.#claimMs} milliseconds`}::interval` })
      .where(inArray(mailOutbox.id, due))
      .returning({ id: mailOutbox.id, to: mailOutbox.to, template: mailOutbox.template, body: mailOutbox.body, attempts: mailOutbox.attempts })
    return mail
  }

  async #deliver(mail: Claimed): Promise<void> {
    const who = { mailTo: mail.to, template: mail.template }
    const body = openMailBody(this.config, mail.id, mail.body)
    if (body === null) {
      this.log.error(who, 'mail given up: its sealed body does not open (was JWT_SECRET changed?)')
      await this.#settle(mail.id, { status: 'failed', body: null, error: 'the sealed body does not open with this JWT_SECRET' })
      return
    }
    if (this.#transport === null) {
      if (this.#settings.logBodies) {
        // Development only (MAIL_LOG_BODIES, set by npm run demo): the body, OTPs included, goes to the log.
        this.log.info(who, `Mail printed, not sent (MAIL_LOG_BODIES, no SMTP_URL)\nTo: ${mail.to}\nSubject: ${body.subject}\n\n${body.text}`)
        await this.#settle(mail.id, { status: 'logged', body: null, error: null })
      } else {
        this.log.warn(who, 'mail not sent: no SMTP_URL (held in the outbox, sealed)')
        await this.#settle(mail.id, { status: 'held', error: 'not sent: no SMTP_URL' })
      }
      return
    }
    try {
      await this.#transport.sendMail({
        from: this.#from,
        to: mail.to,
        subject: body.subject,
        text: body.text,
        ...(body.html === undefined ? {} : { html: body.html }),
        ...(body.headers === undefined ? {} : { headers: body.headers }),
      })
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (isPermanentRefusal(error)) {
        await this.#refused(mail, message)
        return
      }
      await this.#failed(mail, message)
      return
    }
    // Right after the server accepted it; whatever its status now (a group cancelled meanwhile), it went.
    await this.db.update(mailOutbox).set({ status: 'sent', sentAt: sql`now()`, body: null, error: null }).where(eq(mailOutbox.id, mail.id))
    this.log.info(who, 'mail sent')
  }

  /**
   * The receiving server refused the recipient for good (a 5xx): another try would be refused the
   * same way and count against the sender's reputation, so the mail is given up at once and the
   * address suppressed (server/kit/ground/suppression.ts), in one transaction.
   */
  async #refused(mail: Claimed, message: string): Promise<void> {
    this.log.warn({ mailTo: mail.to, template: mail.template, error: message }, 'mail refused for good; address suppressed')
    await this.db.transaction(async (tx) => {
      await suppressAddress(tx, { address: mail.to, reason: 'bounce', source: 'smtp' })
      await tx
        .update(mailOutbox)
        .set({ status: 'failed', body: null, error: message })
        .where(and(eq(mailOutbox.id, mail.id), inArray(mailOutbox.status, ['pending', 'paused'])))
    })
  }

  async #failed(mail: Claimed, message: string): Promise<void> {
    const who = { mailTo: mail.to, template: mail.template, attempts: mail.attempts }
    if (mail.attempts >= this.#settings.maxAttempts) {
      this.log.error({ ...who, error: message }, 'mail given up after its last try')
      await this.#settle(mail.id, { status: 'failed', body: null, error: message })
      return
    }
    const retryInMs = backoffDelay(mail.attempts, this.#settings.retryBaseMs, this.#settings.retryMaxMs)
    this.log.warn({ ...who, retryInMs, error: message }, 'mail not sent; retrying')
    await this.#settle(mail.id, { nextAttemptAt: sql`now() + ${`${retryInMs} milliseconds`}::interval`, error: message })
  }

  /**
   * Records what became of a try. A mail cancelled meanwhile stays cancelled. One whose group was
   * paused during the try gets the outcome all the same (held, logged, given up, or its backoff
   * after a failure), and when the try is to be retried it stays paused until the group resumes.
   */
  async #settle(id: string, values: PgUpdateSetSource<typeof mailOutbox>): Promise<void> {
    await this.db
      .update(mailOutbox)
      .set(values)
      .where(and(eq(mailOutbox.id, id), inArray(mailOutbox.status, ['pending', 'paused'])))
  }

  async #next(ids: readonly string[]): Promise<JobResult> {
    const [row] = await this.db
      .select({
        pending: count(),
        due: sql`count(*) filter (where ${mailOutbox.nextAttemptAt} <= now())`,
        waitMs: sql`coalesce(extract(epoch from (min(${mailOutbox.nextAttemptAt}) - now())) * 1000, 0)::float8`,
      })
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.id, [...ids]), eq(mailOutbox.status, 'pending')))
    if (row === undefined || row.pending === 0) return undefined
    if (Num.parse(row.due) > 0) return 'again'
    return { retryInMs: Math.max(10, Math.ceil(Num.parse(row.waitMs))) }
  }

  close(): void {
    this.#transport?.close()
  }
}

/** host:port of an SMTP URL, without its credentials. */
function serverOf(url: string): string {
  const parsed = new URL(url)
  return `${parsed.hostname}:${parsed.port || (parsed.protocol === 'smtps:' ? '465' : '587')}`
}

/** How many mails of a group are in each status (a newsletter's sent / failed / pending). */
export async function mailGroupCounts(db: Db, group: string): Promise<Record<MailStatus, number>> {
  const counts: Record<MailStatus, number> = { pending: 0, paused: 0, sent: 0, failed: 0, held: 0, logged: 0, cancelled: 0 }
  const rows = await db.select({ status: mailOutbox.status, n: count() }).from(mailOutbox).where(eq(mailOutbox.group, group)).groupBy(mailOutbox.status)
  for (const row of rows) counts[row.status] = row.n
  return counts
}

/**
 * Cancels a group's mails not sent yet (pending or paused), purging their bodies; returns how many.
 * A mail already in the hands of the SMTP server when this runs is still recorded as sent.
 */
export async function cancelMailGroup(db: Db, group: string): Promise<number> {
  const cancelled = await db
    .update(mailOutbox)
    .set({ status: 'cancelled', body: null })
    .where(and(eq(mailOutbox.group, group), inArray(mailOutbox.status, ['pending', 'paused'])))
    .returning({ id: mailOutbox.id })
  return cancelled.length
}

/**
 * Holds a group's pending mails until `Mailer.resumeGroup`; returns how many. One being sent right
 * now still goes, and is recorded as sent. Only the status changes: `next_attempt_at` (a worker's
 * lease on a mail it is sending, or a retry's backoff) is left as it is, so resuming cannot hand a
 * mail still in a worker's SMTP exchange to another worker.
 */
export async function pauseMailGroup(db: Db, group: string): Promise<number> {
  const paused = await db
    .update(mailOutbox)
    .set({ status: 'paused' })
    .where(and(eq(mailOutbox.group, group), eq(mailOutbox.status, 'pending')))
    .returning({ id: mailOutbox.id })
  return paused.length
}

