/**
 * The Newsletter (contract/newsletter.ts).
 *
 * Subscribers are the leads with `subscribed` set. Send stores a `newsletter_sends` row and, in
 * the same transaction, its recipients (one row per subscribed lead chosen, frozen at that moment)
 * and a `newsletter.send` job. The job (feeder.ts) feeds the mail queue in small batches: per recipient, in
 * one transaction, it renders the `newsletter` template (name, the sanitised body, a signed
 * unsubscribe link), queues the mail under the group `newsletter:<id>` with the List-Unsubscribe
 * headers, and records the recipient as queued, or as left out with its reason when the
 * forecast's rules leave it out then (server/kit/rules/audience.ts: unsubscribed, restricted country...). Those per-recipient rows are the job's record: a job run again after a crash skips every
 * recipient already handled, so each lead gets one mail.
 *
 * The feeder keeps at most FEED_WINDOW of a send's mails waiting in the mail queue, which sends at
 * its own pace (MAIL_RATE_PER_SECOND). So other mail (an OTP) never waits behind a whole
 * newsletter. Pause marks the send paused and holds its queued mails in the mail queue (one being
 * handed to the SMTP server right then still goes); the job answers `{ retryInMs }` while paused.
 * Resume marks it sending again, and the job's next run lets the held mails go before feeding
 * more. Cancel cancels the queued mails and records the recipients not yet queued as cancelled.
 *
 * Four eyes (server/kit/rules/four-eyes.ts): a send to more recipients than FOUR_EYES_THRESHOLD is
 * stored with its recipients but without its job, status `awaiting`, until another administrator
 * approves it (the job is added then, as Send would have added it) or rejects it (its recipients
 * are recorded as cancelled; nothing is mailed).
 *
 * Progress comes from the mail queue's counts for the group (sent, failed, waiting) and the
 * recipients' own states (not yet queued, skipped, cancelled).
 */
import { Readable } from 'node:stream'
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { EXCLUSION_REASONS } from '#contract/forecast'
import * as newsletter from '#contract/newsletter'
import { newsletterBulk } from '#contract/bulk'
import { ALREADY_APPROVED, ALREADY_REJECTED } from '#contract/four-eyes'
import type { NewsletterSend, SendStatus } from '#contract/newsletter'
import type { Db } from '../../db/index.ts'
import { admins, leads, newsletterRecipients, newsletterSends } from '../../db/schema.ts'
import { FileAnswer, failure, notFound } from '../../kit/request/answers.ts'
import { handlers } from '../../kit/request/handlers.ts'
import { forecast, forecastCsv, forecastLeads, forecastMessage, rulesFor, type Audience } from '../../kit/rules/audience.ts'
import { announceRequest, approvalNeed, approvalsOf, decisionDetail, decisionOn, forgetRequest, requestSend } from '../../kit/rules/four-eyes.ts'
import { caseless, listPage } from '../../kit/request/paging.ts'
import { sanitizeRichText } from '../../kit/ground/sanitize.ts'
import { cancelMailGroup, mailGroupCounts, pauseMailGroup } from '../../kit/ground/mail/mail.ts'
import { leadSearch } from '../../kit/rules/leads-search.ts'
import { sendStatusWhere } from '../../kit/rules/newsletter-status.ts'
import { defineBulk } from '../../kit/request/bulk.ts'
import { NEWSLETTER_JOB, TEMPLATE_MISSING, groupOf, lockSend, newsletterTemplate, waitingMails } from './feeder.ts'
import { freezeRecipients, jobKey, scheduleStart, selectedChoice, subscribedChoice } from './scheduled.ts'
import { ALREADY_STARTED, SEND_AT_REQUIRED } from '#contract/send-later'
import { sendAtOf, utcWords } from '../../kit/rules/send-later.ts'
import { renderTemplate, sampleValues } from '../../kit/ground/mail/templates.ts'
import { testMailLimit, testMailSent, testSubject } from '../../kit/rules/mail/test-mail.ts'


/** The leads a Send with this choice would freeze, as the forecast judges them (server/kit/rules/audience.ts). */
async function choiceAudience(db: Db, all: boolean, ids: readonly string[]): Promise<Audience> {
  return {
    rows: sql`select ${leads.id} as lead_id, ${leads.name} as name, ${leads.email} as email, ${leads.country} as country, ${leads.subscribed} as subscribed
      from ${leads} where ${selectedChoice(all, ids)}`,
    rules: await rulesFor(db, 'newsletter'),
  }
}

/** A stored send's recipients as they stand now, or a 404. */
async function storedAudience(db: Db, id: string): Promise<Audience> {
  const [row] = await db.select({ id: newsletterSends.id }).from(newsletterSends).where(eq(newsletterSends.id, id))
  if (row === undefined) throw notFound('id')
  return {
    rows: sql`select l.id as lead_id, l.name, l.email, l.country, l.subscribed
      from ${newsletterRecipients} r join ${leads} l on l.id = r.lead_id where r.send_id = ${id}`,
    rules: await rulesFor(db, 'newsletter'),
  }
}

const audienceOf = (db: Db, input: { all: boolean; id: readonly string[]; send: string }): Promise<Audience> =>
  input.send === '' ? choiceAudience(db, input.all, input.id) : storedAudience(db, input.send)

/** A send still marked as sending whose every recipient is handled and every mail gone: done. */
const isFinished = (status: SendStatus, pending: number): boolean => status === 'sending' && pending === 0

/** The recipients of a send still to go: not yet queued, or queued and not yet sent. */
async function pendingOf(db: Db, sendId: string): Promise<number> {
  const mails = await waitingMails(db, sendId)
  const unqueued = await db.$count(newsletterRecipients, and(eq(newsletterRecipients.sendId, sendId), eq(newsletterRecipients.state, 'pending')))
  return unqueued + mails.pending + mails.paused
}

// ---------------------------------------------------------------------------------------------
// The calls
// ---------------------------------------------------------------------------------------------

type Progress = Pick<NewsletterSend, 'sent' | 'failed' | 'held' | 'skipped' | 'excluded' | 'excludedBy' | 'cancelled' | 'pending'>

/** A send's progress from its recipients' states and its mails' counts. */
async function progressOf(db: Db, totals: ReadonlyMap<string, number>): Promise<Map<string, Progress>> {
  const out = new Map<string, Progress>()
  const sendIds = [...totals.keys()]
  if (sendIds.length === 0) return out
  const states = await db
    .select({ sendId: newsletterRecipients.sendId, state: newsletterRecipients.state, reason: newsletterRecipients.reason, n: count() })
    .from(newsletterRecipients)
    .where(inArray(newsletterRecipients.sendId, [...sendIds]))
    .groupBy(newsletterRecipients.sendId, newsletterRecipients.state, newsletterRecipients.reason)
  for (const id of sendIds) {
    const mails = await mailGroupCounts(db, groupOf(id))
    const of = (state: string): number => states.filter((s) => s.sendId === id && s.state === state).reduce((sum, s) => sum + s.n, 0)
    const excludedBy = EXCLUSION_REASONS.flatMap((reason) => {
      const n = states.find((s) => s.sendId === id && s.state === 'excluded' && s.reason === reason)?.n ?? 0
      return n === 0 ? [] : [{ reason, count: n }]
    })
    const excluded = of('excluded')
    // Printed to the log instead (MAIL_LOG_BODIES, development) counts as gone out.
    const sent = mails.sent + mails.logged
    const pending = of('pending') + mails.pending + mails.paused
    const skipped = of('skipped')
    // The rest of the total was not sent because the send was cancelled: recipients never queued,
    // and queued mails taken back (those of leads who unsubscribed meanwhile count as left out).
    const cancelled = Math.max(0, (totals.get(id) ?? 0) - sent - mails.failed - mails.held - skipped - excluded - pending)
    out.set(id, { sent, failed: mails.failed, held: mails.held, skipped, excluded, excludedBy, cancelled, pending })
  }
  return out
}

/** Why a send that is not running cannot be paused or cancelled. */
const notRunning = (status: SendStatus, wanted: 'paused' | 'cancelled'): string =>
  status === 'scheduled'
    ? 'This newsletter is scheduled: nothing is being sent yet'
    : status === 'cancelled' || status === 'paused' || status === 'rejected'
    ? `This newsletter is ${status} already`
    : status === 'awaiting'
      ? 'This newsletter is awaiting approval: nothing is being sent yet'
      : `This newsletter has been sent; it can no longer be ${wanted}`

/** The send, locked for this transaction, or a 404. */
async function sendToChange(tx: Db, id: string): Promise<{ status: SendStatus }> {
  const send = await lockSend(tx, id)
  if (send === undefined) throw notFound()
  return send
}

/** The send, locked for a four-eyes decision, or a 404. */
async function sendToDecide(tx: Db, id: string) {
  const [send] = await tx
    .select({ status: newsletterSends.status, total: newsletterSends.total, approvalRequestedBy: newsletterSends.approvalRequestedBy, approvalDecidedBy: newsletterSends.approvalDecidedBy })
    .from(newsletterSends)
    .where(eq(newsletterSends.id, id))
    .for('update')
  if (send === undefined) throw notFound()
  return send
}

/**
 * Bulk Cancel of scheduled sends (contract/bulk.ts), by the list's search and status filter: a
 * scheduled send has no recipients or mails yet, so calling it off is its status (its start job
 * then finds it no longer scheduled); its undo schedules again only those whose time has not come.
 */
defineBulk({
  calls: newsletterBulk,
  list: newsletter.listNewsletterSends,
  table: newsletterSends,
  id: newsletterSends.id,
  name: newsletterSends.subject,
  order: [desc(newsletterSends.createdAt), desc(newsletterSends.id)],
  search: [newsletterSends.subject],
  filter: ({ status }) => sendStatusWhere(status),
  actions: {
    cancel: {
      set: { column: newsletterSends.status, to: 'cancelled' },
      also: [{ column: newsletterSends.finishedAt, to: sql`now()`, back: sql`null` }],
      skip: [{ when: sql`${newsletterSends.status} <> 'scheduled'`, reason: 'notScheduled' }],
      undoIf: sql`${newsletterSends.scheduledAt} > now()`,
    },
  },
})

export const newsletterRoutes = handlers(newsletter, {
  allUser: async (query, ctx) => {
    const { rows, count: matched } = await listPage(ctx.db, query, {
      rows: ctx.db.select({ id: leads.id, name: leads.name, email: leads.email }).from(leads).$dynamic(),
      search: leadSearch,
      filter: eq(leads.subscribed, true),
      orderBy: [desc(leads.createdAt), desc(leads.id)],
    })
    const total = query.search === '' ? matched : await ctx.db.$count(leads, eq(leads.subscribed, true))
    return { status: 'success', message: 'Subscribers', result: rows.map((r) => ({ _id: r.id, name: r.name, email: r.email })), count: matched, total }
  },

  countNewsletterRecipients: async ({ all, id }, ctx) => {
    const reached = await ctx.db.$count(leads, subscribedChoice(all, id))
    // Four eyes weighs the send as it is stored: every lead selected.
    const selected = all ? reached : await ctx.db.$count(leads, selectedChoice(all, id))
    return { status: 'success', message: `${reached} ${reached === 1 ? 'subscriber' : 'subscribers'}`, count: reached, mailRate: ctx.config.mail.ratePerSecond, ...(await approvalNeed(ctx, selected)) }
  },

  forecastNewsletter: async ({ all, id }, ctx) => {
    const answer = await forecast(ctx.db, await choiceAudience(ctx.db, all, id))
    return { status: 'success', message: forecastMessage(answer), ...answer }
  },

  forecastNewsletterSend: async ({ id }, ctx) => {
    const answer = await forecast(ctx.db, await storedAudience(ctx.db, id))
    return { status: 'success', message: forecastMessage(answer), ...answer }
  },

  forecastNewsletterLeads: async (input, ctx) => {
    const { result, count: total } = await forecastLeads(ctx.db, await audienceOf(ctx.db, input), input.reason, input.page, input.limit)
    return { status: 'success', message: 'Leads left out', result, count: total }
  },

  forecastNewsletterCsv: async (input, ctx) => {
    const audience = await audienceOf(ctx.db, input)
    return new FileAnswer('left-out.csv', 'text/csv; charset=utf-8', Readable.from(forecastCsv(ctx.handle.db, audience, input.reason), { objectMode: false }))
  },

  sendNewsletter: async ({ all, id, subject, content, sendAt }, ctx) => {
    const admin = ctx.me()
    const clean = sanitizeRichText(content)
    // Sanitising may leave nothing (a body of script alone): that is no newsletter to send.
    if (clean.replace(/<[^>]*>/g, '').trim() === '' && !/<img\s/i.test(clean)) throw failure(newsletter.CONTENT_REQUIRED, { content: newsletter.CONTENT_REQUIRED })
    const template = await newsletterTemplate(ctx.db)
    if (template === undefined) throw failure(TEMPLATE_MISSING, { content: TEMPLATE_MISSING }, 409)
    const later = sendAtOf(sendAt)
    if (later !== null) {
      // Refused now as it would be then, though the subscribers are counted again at its time.
      if ((await ctx.db.$count(leads, subscribedChoice(all, id))) === 0) throw failure(newsletter.NO_SUBSCRIBERS, { id: newsletter.NO_SUBSCRIBERS })
      const row = await ctx.transaction(async (tx) => {
        const [stored] = await tx
          .insert(newsletterSends)
          .values({ subject, content: clean, templateContent: template.content, createdBy: admin.id, total: 0, status: 'scheduled', scheduledAt: later, audience: { all, id: [...new Set(id)] } })
          .returning({ id: newsletterSends.id })
        if (stored === undefined) throw new Error('newsletter_sends insert returned no row')
        await scheduleStart(tx, ctx.jobs, stored.id, later)
        return stored
      })
      ctx.audit(row.id)
      ctx.auditDetail(`Scheduled for ${utcWords(later)}`)
      return { status: 'success', message: `The newsletter is scheduled for ${utcWords(later)}`, data: { _id: row.id, total: 0, awaitingApproval: false, scheduledAt: later.toISOString() } }
    }
    const sent = await ctx.transaction(async (tx) => {
      // The template as it is now goes with the send: an approver sees, and readers get, this one.
      const [row] = await tx.insert(newsletterSends).values({ subject, content: clean, templateContent: template.content, createdBy: admin.id, total: 0 }).returning({ id: newsletterSends.id })
      if (row === undefined) throw new Error('newsletter_sends insert returned no row')
      const total = await freezeRecipients(tx, row.id, all, id)
      // Thrown, not returned: the send and its rows go back with the call's transaction.
      if (total === 0 || (await tx.$count(leads, subscribedChoice(all, id))) === 0) throw failure(newsletter.NO_SUBSCRIBERS, { id: newsletter.NO_SUBSCRIBERS })
      const request = await requestSend(ctx, groupOf(row.id), total)
      if (request.waits) {
        await tx.update(newsletterSends).set({ total, status: 'awaiting', approvalRequestedBy: admin.id }).where(eq(newsletterSends.id, row.id))
        return { id: row.id, total, awaitingApproval: true, detail: request.detail }
      }
      await tx.update(newsletterSends).set({ total }).where(eq(newsletterSends.id, row.id))
      await ctx.jobs.add(tx, NEWSLETTER_JOB, { sendId: row.id }, { key: jobKey(row.id) })
      return { id: row.id, total, awaitingApproval: false, detail: '' }
    })
    ctx.audit(sent.id)
    const subscribers = `${sent.total} ${sent.total === 1 ? 'subscriber' : 'subscribers'}`
    if (sent.awaitingApproval) {
      ctx.auditDetail(sent.detail)
      announceRequest(ctx, { kind: 'newsletter', id: sent.id, title: subject, total: sent.total })
      return { status: 'success', message: `The newsletter to ${subscribers} waits for another Admin's approval`, data: { _id: sent.id, total: sent.total, awaitingApproval: true, scheduledAt: null } }
    }
    ctx.afterSuccess(() => ctx.jobs.wake())
    return { status: 'success', message: `The newsletter is on its way to ${subscribers}`, data: { _id: sent.id, total: sent.total, awaitingApproval: false, scheduledAt: null } }
  },

  rescheduleNewsletter: async ({ id, sendAt }, ctx) => {
    const send = await sendToChange(ctx.db, id)
    if (send.status !== 'scheduled') throw failure(ALREADY_STARTED, { id: ALREADY_STARTED }, 409)
    const at = sendAtOf(sendAt)
    if (at === null) throw failure(SEND_AT_REQUIRED, { sendAt: SEND_AT_REQUIRED })
    await ctx.db.update(newsletterSends).set({ scheduledAt: at }).where(eq(newsletterSends.id, id))
    await scheduleStart(ctx.db, ctx.jobs, id, at)
    ctx.audit(id)
    ctx.auditDetail(`Scheduled for ${utcWords(at)}`)
    return { status: 'success', message: `The newsletter is now scheduled for ${utcWords(at)}`, scheduledAt: at.toISOString() }
  },

  listNewsletterSends: async (query, ctx) => {
    const { rows, count: total } = await listPage(ctx.db, query, {
      rows: ctx.db.select().from(newsletterSends).$dynamic(),
      search: [newsletterSends.subject],
      filter: sendStatusWhere(query.status),
      orderBy: [desc(newsletterSends.createdAt), desc(newsletterSends.id)],
      sort: { createdAt: newsletterSends.createdAt, subject: caseless(newsletterSends.subject) },
    })
    const authors = [...new Set(rows.flatMap((r) => (r.createdBy === null ? [] : [r.createdBy])))]
    const names = authors.length === 0 ? [] : await ctx.db.select({ id: admins.id, name: admins.name }).from(admins).where(inArray(admins.id, authors))
    const progress = await progressOf(ctx.db, new Map(rows.map((r) => [r.id, r.total])))
    const approval = await approvalsOf(ctx.db, rows)
    const result = rows.map((r) => {
      const counts = progress.get(r.id) ?? { sent: 0, failed: 0, held: 0, skipped: 0, excluded: 0, excludedBy: [], cancelled: 0, pending: 0 }
      return {
        _id: r.id,
        createdAt: r.createdAt.toISOString(),
        subject: r.subject,
        status: isFinished(r.status, counts.pending) ? ('done' as const) : r.status,
        createdBy: names.find((n) => n.id === r.createdBy)?.name ?? '',
        total: r.total,
        ...counts,
        approval: approval(r),
        scheduledAt: r.scheduledAt === null ? null : r.scheduledAt.toISOString(),
      }
    })
    return { status: 'success', message: 'Newsletters', result, count: total }
  },

  pauseNewsletter: async ({ id }, ctx) => {
    const send = await sendToChange(ctx.db, id)
    if (send.status !== 'sending' || isFinished(send.status, await pendingOf(ctx.db, id))) throw failure(notRunning(send.status, 'paused'), { id: 'Not being sent' }, 409)
    await ctx.db.update(newsletterSends).set({ status: 'paused' }).where(eq(newsletterSends.id, id))
    // Its mails not yet handed to the SMTP server wait; one being sent right now still goes.
    await pauseMailGroup(ctx.db, groupOf(id))
    ctx.audit(id)
    return { status: 'success', message: 'The newsletter is paused' }
  },

  resumeNewsletter: async ({ id }, ctx) => {
    const send = await sendToChange(ctx.db, id)
    if (send.status !== 'paused') throw failure(`This newsletter is ${send.status}; only a paused newsletter can be resumed`, { id: 'Not paused' }, 409)
    await ctx.db.update(newsletterSends).set({ status: 'sending' }).where(eq(newsletterSends.id, id))
    // The job looks again within RECHECK_MS and lets the held mails go first; this adds one only
    // if it is gone (a no-op while it exists).
    await ctx.jobs.add(ctx.db, NEWSLETTER_JOB, { sendId: id }, { key: jobKey(id) })
    ctx.audit(id)
    ctx.afterSuccess(() => ctx.jobs.wake())
    return { status: 'success', message: 'The newsletter is being sent again' }
  },

  cancelNewsletter: async ({ id }, ctx) => {
    const send = await sendToChange(ctx.db, id)
    // A send awaiting approval may be withdrawn (cancelled), a scheduled one called off before its
    // time (its start job then finds it no longer scheduled); a rejected one is over already.
    if (send.status === 'done' || send.status === 'cancelled' || send.status === 'rejected' || isFinished(send.status, await pendingOf(ctx.db, id))) throw failure(notRunning(send.status, 'cancelled'), { id: 'Not being sent' }, 409)
    await ctx.db.update(newsletterSends).set({ status: 'cancelled', finishedAt: sql`now()` }).where(eq(newsletterSends.id, id))
    await cancelMailGroup(ctx.db, groupOf(id))
    await ctx.db.update(newsletterRecipients).set({ state: 'cancelled' }).where(and(eq(newsletterRecipients.sendId, id), eq(newsletterRecipients.state, 'pending')))
    const mails = await mailGroupCounts(ctx.db, groupOf(id))
    const gone = mails.sent + mails.logged
    ctx.audit(id)
    return { status: 'success', message: `The newsletter is cancelled; ${gone} ${gone === 1 ? 'mail had' : 'mails had'} gone out` }
  },

  approveNewsletter: async ({ id }, ctx) => {
    const send = await sendToDecide(ctx.db, id)
    const me = ctx.me()
    ctx.audit(id)
    if (decisionOn(send, me, 'approve') === 'repeat') return { status: 'success', message: ALREADY_APPROVED, started: false, total: send.total }
    await ctx.db.update(newsletterSends).set({ status: 'sending', approvalDecidedBy: me.id, approvalDecidedAt: sql`now()` }).where(eq(newsletterSends.id, id))
    await ctx.jobs.add(ctx.db, NEWSLETTER_JOB, { sendId: id }, { key: jobKey(id) })
    ctx.auditDetail(await decisionDetail(ctx.db, send.approvalRequestedBy, 'approve', send.total))
    ctx.afterSuccess(() => ctx.jobs.wake())
    return { status: 'success', message: `Approved: the newsletter is on its way to ${send.total} ${send.total === 1 ? 'subscriber' : 'subscribers'}`, started: true, total: send.total }
  },

  // To the admin only, in no send's group: no ledger, no progress, no frequency cap, no four eyes.
  sendTestNewsletter: async ({ all, id, subject, content }, ctx) => {
    const me = ctx.me()
    const template = await newsletterTemplate(ctx.db)
    if (template === undefined) throw failure(TEMPLATE_MISSING, { content: TEMPLATE_MISSING }, 409)
    // The first lead of the choice, in the order a send mails them; the template's sample reader
    // when nobody is chosen. The unsubscribe link is always the sample's: a click on the test
    // must not unsubscribe a real lead.
    const [first] = all || id.length > 0 ? await ctx.db.select({ name: leads.name, email: leads.email }).from(leads).where(selectedChoice(all, id)).orderBy(asc(leads.id)).limit(1) : []
    const sample = sampleValues(newsletter.NEWSLETTER_TEMPLATE)
    const name = first?.name ?? sample['name'] ?? ''
    const mail = renderTemplate({ subject, content: template.content }, newsletter.NEWSLETTER_TEMPLATE, {
      name,
      content: sanitizeRichText(content),
      unsubscribeUrl: sample['unsubscribeUrl'] ?? '',
    })
    // The audit row names the mail: no other record was touched.
    ctx.audit(await ctx.sendMail({ to: me.email, template: newsletter.NEWSLETTER_TEMPLATE, ...mail, subject: testSubject(mail.subject) }))
    const reader = first === undefined ? `${name} (a sample reader)` : first.name === '' ? first.email : first.name
    ctx.auditDetail(`To ${me.email}, as ${reader} would receive it`)
    return { status: 'success', message: `${testMailSent(me.email)}, as ${reader} would receive it` }
  },

  getNewsletterMail: async ({ id }, ctx) => {
    const [send] = await ctx.db
      .select({ subject: newsletterSends.subject, content: newsletterSends.content, templateContent: newsletterSends.templateContent })
      .from(newsletterSends)
      .where(eq(newsletterSends.id, id))
    if (send === undefined) throw notFound('id')
    const templateContent = send.templateContent !== '' ? send.templateContent : (await newsletterTemplate(ctx.db))?.content
    if (templateContent === undefined) throw failure(TEMPLATE_MISSING, { id: TEMPLATE_MISSING }, 409)
    // The feeder's own rendering, with the sample reader the template editor's preview uses.
    const sample = sampleValues(newsletter.NEWSLETTER_TEMPLATE)
    const sampleName = sample['name'] ?? ''
    const mail = renderTemplate({ subject: send.subject, content: templateContent }, newsletter.NEWSLETTER_TEMPLATE, {
      name: sampleName,
      content: sanitizeRichText(send.content),
      unsubscribeUrl: sample['unsubscribeUrl'] ?? '',
    })
    return { status: 'success', message: 'Newsletter mail', data: { subject: mail.subject, html: mail.html, sampleName } }
  },

  rejectNewsletter: async ({ id }, ctx) => {
    const send = await sendToDecide(ctx.db, id)
    const me = ctx.me()
    ctx.audit(id)
    if (decisionOn(send, me, 'reject') === 'repeat') return { status: 'success', message: ALREADY_REJECTED }
    await ctx.db.update(newsletterSends).set({ status: 'rejected', finishedAt: sql`now()`, approvalDecidedBy: me.id, approvalDecidedAt: sql`now()` }).where(eq(newsletterSends.id, id))
    await ctx.db.update(newsletterRecipients).set({ state: 'cancelled' }).where(and(eq(newsletterRecipients.sendId, id), eq(newsletterRecipients.state, 'pending')))
    await forgetRequest(ctx.db, groupOf(id))
    ctx.auditDetail(await decisionDetail(ctx.db, send.approvalRequestedBy, 'reject', send.total))
    return { status: 'success', message: `Rejected: the newsletter is not sent to its ${send.total} ${send.total === 1 ? 'subscriber' : 'subscribers'}` }
  },
}, { sendTestNewsletter: testMailLimit })
