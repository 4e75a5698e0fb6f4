/**
 * The newsletter's feeder: the `newsletter.send` job that feeds a send's recipients into the mail
 * queue in small batches, keeping at most FEED_WINDOW of its mails waiting there and pacing its
 * next run on how many still wait (the mail queue sends at its own pace, so an OTP never waits
 * behind a whole newsletter). The send, its approval, pause, resume and cancel are the calls'
 * (routes.ts); what a run does per recipient and why it is safe to run again is told there too.
 */
import { and, count, eq, inArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import * as newsletter from '#contract/newsletter'
import type { Db } from '../../db/index.ts'
import { emailTemplates, leads, mailOutbox, newsletterRecipients, newsletterSends } from '../../db/schema.ts'
import { defineJob } from '../../kit/request/handlers.ts'
import { type Services } from '../../kit/ground/services.ts'
import type { JobResult } from '../../kit/ground/queue.ts'
import { newsletterGroupOf } from '../../kit/rules/newsletter-status.ts'
import { sanitizeRichText } from '../../kit/ground/sanitize.ts'
import { renderTemplate } from '../../kit/ground/mail/templates.ts'
import { ReasonColumn, duplicateOf, reasonOf, rulesFor } from '../../kit/rules/audience.ts'
import { unsubscribeToken, unsubscribeUrl } from './unsubscribe.ts'

export const NEWSLETTER_JOB = 'newsletter.send'
/** Recipients handled per job run (one transaction each). */
export const FEED_BATCH = 50
/** A send's mails waiting in the mail queue at most; the feeder tops the queue up to this. */
export const FEED_WINDOW = 200
/** How often a paused send looks again. */
export const RECHECK_MS = 1000
/**
 * How long a send whose mails fill the window (or are the last to go) waits before it looks at the
 * mail queue again: about half the time the mail queue needs for the mails waiting, within these
 * bounds (a mail retrying after a failure may keep a send open for minutes).
 */
export const WAIT_MS = { min: 250, max: 5000 }
const waitFor = (waiting: number, rate: number): number =>
  rate <= 0 ? WAIT_MS.min : Math.round(Math.min(WAIT_MS.max, Math.max(WAIT_MS.min, (waiting / rate) * 500)))

export const groupOf = newsletterGroupOf

/** The newsletter template as saved on Automated Emails, or a refusal naming the problem. */
export async function newsletterTemplate(db: Db): Promise<{ content: string } | undefined> {
  const [row] = await db
    .select({ content: emailTemplates.content })
    .from(emailTemplates)
    .where(and(eq(emailTemplates.identifier, newsletter.NEWSLETTER_TEMPLATE), eq(emailTemplates.status, 'active')))
    .limit(1)
  return row
}
export const TEMPLATE_MISSING = `The '${newsletter.NEWSLETTER_TEMPLATE}' email template is missing or inactive: check it on Automated Emails`

// ---------------------------------------------------------------------------------------------
// The mail queue's side of a send (server/kit/ground/mail/mail.ts): the group's counts.
// ---------------------------------------------------------------------------------------------

/**
 * A send's mails still to go: queued (or retrying) and paused. Counted on the mail queue's
 * (group, status) index, so the feeder's look before each batch costs the window, not the send.
 */
export async function waitingMails(db: Db, sendId: string): Promise<{ pending: number; paused: number }> {
  const rows = await db
    .select({ status: mailOutbox.status, n: count() })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.group, groupOf(sendId)), inArray(mailOutbox.status, ['pending', 'paused'])))
    .groupBy(mailOutbox.status)
  return { pending: rows.find((r) => r.status === 'pending')?.n ?? 0, paused: rows.find((r) => r.status === 'paused')?.n ?? 0 }
}

// ---------------------------------------------------------------------------------------------
// The job
// ---------------------------------------------------------------------------------------------

const Judged = z.object({
  rows: z.array(z.object({ lead_id: z.string(), name: z.string(), email: z.string(), why: ReasonColumn })),
})

/**
 * The send's next `room` pending recipients, each with the reason the forecast's rules leave it
 * out now, or null. A duplicate is a recipient of the same send whose address an earlier one
 * (smaller id) shares, that one left out for no other reason (leads_email_sort_idx).
 */
async function judgedBatch(tx: Db, sendId: string, room: number) {
  const rules = { ...(await rulesFor(tx, 'newsletter')), own: { newsletterId: sendId } }
  const lead = { id: sql`l.id`, email: sql`l.email`, country: sql`l.country`, subscribed: sql`l.subscribed` }
  const others = sql`
    select l2.id as lead_id, l2.email, l2.country, l2.subscribed from ${leads} l2
    join ${newsletterRecipients} r2 on r2.send_id = ${sendId} and r2.lead_id = l2.id
    where lower(l2.email) = lower(l.email) and l2.id < l.id`
  const { rows } = Judged.parse(
    await tx.execute(sql`
      select r.lead_id, l.name, l.email, coalesce(${reasonOf(lead, rules)}, case when ${duplicateOf(others, rules)} then 'duplicate' end) as why
      from ${newsletterRecipients} r join ${leads} l on l.id = r.lead_id
      where r.send_id = ${sendId} and r.state = 'pending'
      order by r.lead_id
      limit ${room}`),
  )
  return rows.map((r) => ({ leadId: r.lead_id, name: r.name, email: r.email, why: r.why }))
}

const JobPayload = z.object({ sendId: z.string() })

/** Locks the send's row for the rest of the transaction: pause, resume, cancel and a batch take turns. */
export async function lockSend(tx: Db, sendId: string) {
  const [row] = await tx.select({ status: newsletterSends.status, subject: newsletterSends.subject, content: newsletterSends.content }).from(newsletterSends).where(eq(newsletterSends.id, sendId)).for('update')
  return row
}

/** One run of a send's job: one batch of recipients into the mail queue, or a look at where it stands. */
export async function feedNewsletter(payload: Record<string, unknown>, services: Services): Promise<JobResult> {
  const { sendId } = JobPayload.parse(payload)
  const db = services.handle.db
  const [send] = await db.select({ status: newsletterSends.status }).from(newsletterSends).where(eq(newsletterSends.id, sendId))
  // A send awaiting approval has no job; one rejected or withdrawn meanwhile needs none.
  if (send === undefined || send.status === 'done' || send.status === 'cancelled' || send.status === 'awaiting' || send.status === 'rejected') return undefined
  if (send.status === 'paused') return { retryInMs: RECHECK_MS }

  const waiting = await waitingMails(db, sendId)
  if (waiting.paused > 0) {
    // Resumed: the mails Pause held go first (under the send's lock, so a new Pause cannot slip between).
    const resumed = await db.transaction(async (tx) => ((await lockSend(tx, sendId))?.status === 'sending' ? services.mailer.resumeGroup(tx, groupOf(sendId)) : 0))
    if (resumed > 0) services.mailer.wake()
    return 'again'
  }
  const room = Math.min(FEED_BATCH, FEED_WINDOW - waiting.pending)
  if (room <= 0) return { retryInMs: waitFor(waiting.pending, services.config.mail.ratePerSecond) }
  // A send keeps the template it was requested with. Only one made while no template was active
  // (kept by the migration that froze templates) reads the current one.
  const [frozen] = await db.select({ content: newsletterSends.templateContent }).from(newsletterSends).where(eq(newsletterSends.id, sendId))
  const templateContent = frozen !== undefined && frozen.content !== '' ? frozen.content : (await newsletterTemplate(db))?.content
  // Thrown, so the attempt fails and is retried with backoff: an admin can switch the template back on.
  if (templateContent === undefined) throw new Error(TEMPLATE_MISSING)

  const handled = await db.transaction(async (tx) => {
    const locked = await lockSend(tx, sendId)
    if (locked?.status !== 'sending') return -1
    // The forecast's rules, read now and not at Send (server/kit/rules/audience.ts): whoever is left out
    // since, or was already, is recorded with the reason, whatever was selected.
    const batch = await judgedBatch(tx, sendId, room)
    const mailed = batch.filter((r) => r.why === null)
    const excluded = batch.filter((r) => r.why !== null)
    // The body was sanitised when it was stored; it is sanitised again on its way out, and the
    // whole mail once more by the rendering.
    const content = sanitizeRichText(locked.content)
    const mails = mailed.map((r) => {
      const link = unsubscribeUrl(services.config, unsubscribeToken(services.config, r.leadId))
      const mail = renderTemplate({ subject: locked.subject, content: templateContent }, newsletter.NEWSLETTER_TEMPLATE, { name: r.name, content, unsubscribeUrl: link })
      return {
        to: r.email,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        template: newsletter.NEWSLETTER_TEMPLATE,
        group: groupOf(sendId),
        headers: {
          // RFC 2369 and RFC 8058: mail clients offer Unsubscribe and POST to the https address.
          'List-Unsubscribe': `<${link}>, <mailto:${services.config.supportEmail}?subject=unsubscribe>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      }
    })
    const mailIds = await services.mailer.enqueueMany(tx, mails)
    if (mailed.length > 0) {
      const pairs = sql.join(
        mailed.map((r, i) => sql`(${r.leadId}, ${mailIds[i] ?? null})`),
        sql`, `,
      )
      await tx.execute(sql`
        update ${newsletterRecipients} set state = 'queued', mail_id = v.mail_id
        from (values ${pairs}) as v(lead_id, mail_id)
        where ${newsletterRecipients.sendId} = ${sendId} and ${newsletterRecipients.leadId} = v.lead_id`)
    }
    if (excluded.length > 0) {
      const pairs = sql.join(
        excluded.map((r) => sql`(${r.leadId}, ${r.why})`),
        sql`, `,
      )
      await tx.execute(sql`
        update ${newsletterRecipients} set state = 'excluded', reason = v.reason
        from (values ${pairs}) as v(lead_id, reason)
        where ${newsletterRecipients.sendId} = ${sendId} and ${newsletterRecipients.leadId} = v.lead_id`)
    }
    return batch.length
  })
  if (handled === -1) return { retryInMs: RECHECK_MS }
  if (handled > 0) {
    services.mailer.wake()
    return 'again'
  }
  // Every recipient is handled, and the job has nothing more to feed: it ends. The send is done
  // once the mail queue has none of its mails left to go; when some still are, the list reads
  // that from the mail queue's counts and shows the send done when they have gone (isFinished).
  const left = await waitingMails(db, sendId)
  if (left.pending + left.paused === 0) {
    await db
      .update(newsletterSends)
      .set({ status: 'done', finishedAt: sql`now()` })
      .where(and(eq(newsletterSends.id, sendId), eq(newsletterSends.status, 'sending')))
  }
  return undefined
}

/**
 * A failing run (the database away, the template switched off) is retried with the queue's backoff,
 * capped at five minutes: fifty tries keep a send alive for about four hours before it is given up.
 */
export const newsletterJobs = [defineJob(NEWSLETTER_JOB, (payload, _job, services) => feedNewsletter(payload, services), { maxAttempts: 50 })]
