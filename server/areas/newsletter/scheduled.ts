/**
 * A newsletter sent later (server/kit/rules/send-later.ts): stored as `scheduled` with its choice of
 * leads (`audience`) and a `newsletter.start` job due at its time. The job claims the row and, in
 * that transaction, does what Send does at once: freezes the recipients chosen as they stand then,
 * records the request against its admin's four-eyes window, and either queues the feeder job or
 * leaves the send awaiting another Admin. The forecast's rules run again as each mail is due.
 */
import { and, eq, inArray, lte, sql } from 'drizzle-orm'
import { z } from 'zod'
import * as newsletter from '#contract/newsletter'
import type { Db } from '../../db/index.ts'
import { admins, leads, newsletterRecipients, newsletterSends } from '../../db/schema.ts'
import { defineJob } from '../../kit/request/handlers.ts'
import { type Services } from '../../kit/ground/services.ts'
import { announceRequestOf, requestSendAs } from '../../kit/rules/four-eyes.ts'
import type { JobQueue } from '../../kit/ground/queue.ts'
import { auditStart } from '../../kit/rules/send-later.ts'
import { NEWSLETTER_JOB, groupOf, newsletterTemplate } from './feeder.ts'

export const START_JOB = 'newsletter.start'

/** The feeder job's key: one feeder job per send. */
export const jobKey = (sendId: string): string => `newsletter:${sendId}`

export const subscribedChoice = (all: boolean, ids: readonly string[]) =>
  all ? eq(leads.subscribed, true) : and(eq(leads.subscribed, true), inArray(leads.id, [...new Set(ids)]))

/**
 * The leads a choice selects: every subscriber, or the chosen leads whether subscribed or not (a
 * chosen lead who is not is left out by the forecast's rules, and recorded so).
 */
export const selectedChoice = (all: boolean, ids: readonly string[]) => (all ? eq(leads.subscribed, true) : inArray(leads.id, [...new Set(ids)]))

/**
 * Freezes a send's recipients: every lead selected, those the forecast's rules leave out recorded
 * so as their mail is due (sent, failed and left out then add up to the selection). Answers how many.
 */
export async function freezeRecipients(tx: Db, sendId: string, all: boolean, ids: readonly string[]): Promise<number> {
  await tx.execute(sql`
    insert into ${newsletterRecipients} (send_id, lead_id)
    select ${sendId}, ${leads.id} from ${leads} where ${selectedChoice(all, ids)}`)
  return tx.$count(newsletterRecipients, eq(newsletterRecipients.sendId, sendId))
}

/** Adds the start job of a send scheduled for `at` with `db` (the write's transaction). */
export async function scheduleStart(db: Db, jobs: JobQueue, sendId: string, at: Date): Promise<void> {
  await jobs.add(db, START_JOB, { sendId }, { runAt: at })
}

const Payload = z.object({ sendId: z.string() })
const Audience = z.object({ all: z.boolean(), id: z.array(z.string()) })

/** What a start did, for the words after its commit. */
type Started = { kind: 'none' } | { kind: 'sending' } | { kind: 'awaiting'; sendId: string; subject: string; total: number; requester: { id: string; name: string } }

/** Starts a scheduled send whose time has come; a send cancelled, started, deleted or moved later is left alone. */
export async function startScheduled(services: Services, sendId: string): Promise<Started> {
  const { config, jobs } = services
  return services.handle.db.transaction(async (tx): Promise<Started> => {
    const [row] = await tx
      .update(newsletterSends)
      .set({ status: 'sending' })
      .where(and(eq(newsletterSends.id, sendId), eq(newsletterSends.status, 'scheduled'), lte(newsletterSends.scheduledAt, sql`now()`)))
      .returning()
    if (row === undefined) return { kind: 'none' }
    const audience = Audience.parse(row.audience ?? { all: false, id: [] })
    const [requester] = row.createdBy === null ? [] : await tx.select({ id: admins.id, name: admins.name }).from(admins).where(eq(admins.id, row.createdBy))
    const total = await freezeRecipients(tx, sendId, audience.all, audience.id)
    const subscribed = await tx.$count(leads, subscribedChoice(audience.all, audience.id))
    // No one to send it to, or no admin left to answer for it: it ends unsent, as Send would refuse it.
    if (requester === undefined || total === 0 || subscribed === 0) {
      await tx.update(newsletterRecipients).set({ state: 'cancelled' }).where(eq(newsletterRecipients.sendId, sendId))
      await tx.update(newsletterSends).set({ status: 'cancelled', total, finishedAt: sql`now()` }).where(eq(newsletterSends.id, sendId))
      const why = requester === undefined ? 'the admin who scheduled it is no longer listed' : newsletter.NO_SUBSCRIBERS
      await auditStart(tx, { adminId: row.createdBy, action: '/sendNewsletter', recordId: sendId, detail: `not sent: ${why}` })
      return { kind: 'none' }
    }
    // The template as it is at the start, as Send takes it; the one seen when scheduling if none is active now.
    const template = await newsletterTemplate(tx)
    if (template !== undefined) await tx.update(newsletterSends).set({ templateContent: template.content }).where(eq(newsletterSends.id, sendId))
    const request = await requestSendAs(tx, config, requester.id, groupOf(sendId), total)
    if (request.waits) {
      await tx.update(newsletterSends).set({ total, status: 'awaiting', approvalRequestedBy: requester.id }).where(eq(newsletterSends.id, sendId))
      await auditStart(tx, { adminId: requester.id, action: '/sendNewsletter', recordId: sendId, detail: request.detail })
      return { kind: 'awaiting', sendId, subject: row.subject, total, requester }
    }
    await tx.update(newsletterSends).set({ total }).where(eq(newsletterSends.id, sendId))
    await jobs.add(tx, NEWSLETTER_JOB, { sendId }, { key: jobKey(sendId) })
    await auditStart(tx, { adminId: requester.id, action: '/sendNewsletter', recordId: sendId, detail: `on its way to ${total} recipients` })
    return { kind: 'sending' }
  })
}

export const newsletterStartJobs = [
  defineJob(START_JOB, async (payload, _job, services) => {
    const started = await startScheduled(services, Payload.parse(payload).sendId)
    if (started.kind === 'sending') services.jobs.wake()
    if (started.kind === 'awaiting') announceRequestOf(services.realtime, started.requester, { kind: 'newsletter', id: started.sendId, title: started.subject, total: started.total })
  }),
]
