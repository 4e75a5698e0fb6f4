import { z } from 'zod/mini'
import { Done, Id, PageQuery, integer, ok, pageNumber, required, sortable } from './common.ts'
import { approves, endpoint, nameEndpoints, publicAccess, reads, writes } from './define.ts'
import { Approval, ApprovalNeed } from './four-eyes.ts'
import { EXCLUSION_REASONS, ExclusionReason, ForecastAnswer, ForecastLeadsAnswer, ForecastPage } from './forecast.ts'
import { placeholdersIn } from './emails.ts'
import { NewSendAt, SendAt } from './send-later.ts'
import * as self from './newsletter.ts'

/*
 * The Newsletter screen: a multi-select of subscribers and a Send button; its behaviour is not
 * given (requirements R2.22). Our definition: the subscribers are the leads who
 * subscribed (`subscribed` on the lead); /allUser lists them for the multi-select, searched and
 * paged by the server; Send mails them the Automated Email template whose identifier is
 * `newsletter`, filled with the subject and body written on the screen. A send is durable work:
 * its recipients are frozen when it is made, a job feeds their mails into the mail queue, and the
 * screen shows each send's progress, with Pause, Resume and Cancel for an Admin. Every mail
 * carries a signed unsubscribe link; an unsubscribed lead is never mailed again.
 */

/** The identifier of the template a newsletter is rendered with (its `{{content}}` is the body). */
export const NEWSLETTER_TEMPLATE = 'newsletter'

/** Rows per page of the subscriber multi-select (each further page comes with "Load more"). */
export const SUBSCRIBERS_PAGE_SIZE = 50

/** Chosen subscribers one send may name; more than this is what 'All subscribers' is for. */
export const MAX_CHOSEN_SUBSCRIBERS = 1000

export const Subscriber = z.object({ _id: z.string(), name: z.string(), email: z.string() })
export type Subscriber = z.output<typeof Subscriber>

/**
 * The subscribers, for the multi-select: newest first, searched by name, email or wallet address.
 * Requirements R7.3 gives no payload; the optional page, limit and search keep one answer small on a large
 * user base. `count` is the number the search matches; `total` every subscriber (what 'All
 * subscribers' means).
 */
export const allUser = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, { limit: pageNumber(1, 100, SUBSCRIBERS_PAGE_SIZE) }),
  output: ok({ result: z.array(Subscriber), count: integer(), total: integer() }),
  access: reads('/newsletter'),
  ours: 'Answer not shown: result (_id, name, email) of subscribed leads, count (matching the search) and total; optional page, limit, search.',
})

export const SELECT_A_SUBSCRIBER = 'Please select at least one subscriber'
export const SUBJECT_REQUIRED = 'Subject is required'
export const CONTENT_REQUIRED = 'Content is required'
export const NO_SUBSCRIBERS = 'None of the selected leads is subscribed to the newsletter'
/** The subject is filled in per subscriber, with their name only. */
export const SUBJECT_VARIABLES = 'The subject can only use {{name}}'

/** Who a send goes to: every subscriber (`all`, one choice however many there are), or those chosen. */
export const Recipients = z.object({
  all: z._default(z.boolean(), false),
  id: z._default(
    z
      .array(Id, { error: SELECT_A_SUBSCRIBER })
      .check(z.maxLength(MAX_CHOSEN_SUBSCRIBERS, `You can choose at most ${MAX_CHOSEN_SUBSCRIBERS} subscribers; choose All subscribers to reach everyone.`)),
    [],
  ),
})

const chosenSomeone = (v: { all: boolean; id: readonly string[] }): boolean => v.all || v.id.length > 0
/** The check that someone was chosen, under the subscribers' field. */
const someoneChosen = () => z.refine<{ all: boolean; id: readonly string[] }>(chosenSomeone, { message: SELECT_A_SUBSCRIBER, path: ['id'] })

/** What a newsletter says: its subject (filled in per reader, with their name only) and rich-text body. */
const mailFields = {
  subject: required(SUBJECT_REQUIRED, 200).check(z.refine((v) => placeholdersIn(v).every((name) => name === 'name'), SUBJECT_VARIABLES)),
  content: required(CONTENT_REQUIRED, 100_000),
}

/**
 * "Send a test to me": the newsletter as written (subject and body, not yet sent) mailed to the
 * signed-in admin's own address only, rendered with the newsletter template as a reader gets it:
 * `{{name}}` is the first lead of the choice (by id, the order a send mails them in), or the
 * template's sample reader when nobody is chosen; the unsubscribe link is the sample's, so the test
 * cannot unsubscribe anyone. It goes to nobody else, is in no send's ledger (so no frequency cap
 * counts it), needs no second Admin, and is audited.
 */
export const sendTestNewsletter = endpoint({
  logAs: 'Newsletter test sent',
  method: 'POST',
  input: z.extend(Recipients, mailFields),
  output: Done,
  access: writes('/newsletter'),
  ours: `Not in the requirements: the Send inputs (all or the chosen ids, optional here; subject and content); mails the '${NEWSLETTER_TEMPLATE}' template to the signed-in admin only, filled in for the first chosen lead or a sample. The answer names the address and the reader. Counted in no ledger, no four eyes.`,
})

/**
 * The exact number of subscribers a send to this choice would reach now (the confirmation asks
 * with it). A read made by POST, since the chosen ids may not fit in a query string.
 */
export const countNewsletterRecipients = endpoint({
  method: 'POST',
  input: Recipients.check(someoneChosen()),
  /** `mailRate`: the mail queue's pace (MAIL_RATE_PER_SECOND, mails per second; 0 is unpaced). */
  output: ok({ count: integer(), mailRate: z.number(), ...ApprovalNeed }),
  access: reads('/newsletter'),
  ours: 'Not in the requirements: how many subscribed leads the choice reaches, the mail pace, and whether a second Admin must approve the send (four eyes), for the confirmation.',
})

/**
 * Send: stores the send with its recipients frozen at this moment (only leads still subscribed,
 * whatever was chosen) and starts the durable job that mails them. `content` is rich text,
 * sanitised by the server before it is stored and again when each mail is rendered.
 */
export const sendNewsletter = endpoint({
  logAs: 'Newsletter sent',
  method: 'POST',
  input: z.extend(Recipients, { ...mailFields, sendAt: SendAt }).check(someoneChosen()),
  output: ok({ data: z.object({ _id: z.string(), total: integer(), awaitingApproval: z.boolean(), scheduledAt: z.nullable(z.string()) }) }),
  access: writes('/newsletter'),
  ours: `Path, payload and answer not shown: all or the chosen lead ids, subject and content; mails the '${NEWSLETTER_TEMPLATE}' template. Over the four-eyes threshold the send waits for another Admin's approval (awaitingApproval). Optional sendAt ("Send later": an ISO time with its offset, in the future) stores it as scheduled: its recipients are frozen, and four eyes applied, at that time (total 0 until then).`,
})

/** "Send later": a scheduled send's new time, before it starts. */
export const rescheduleNewsletter = endpoint({
  logAs: 'Newsletter rescheduled',
  method: 'POST',
  input: z.object({ id: Id, sendAt: NewSendAt }),
  output: ok({ scheduledAt: z.string() }),
  access: writes('/newsletter'),
  ours: 'Not in the requirements ("Send later"): moves a scheduled send to another time in the future; refused once it has started.',
})

/**
 * `awaiting`: more recipients than the four-eyes threshold, nothing is mailed until a second
 * Admin approves (contract/four-eyes.ts); `rejected`: that Admin said no, nothing was mailed;
 * `scheduled`: "Send later", nothing is frozen or mailed before its time (contract/send-later.ts).
 */
export const SEND_STATUSES = ['sending', 'paused', 'done', 'cancelled', 'awaiting', 'rejected', 'scheduled'] as const
export const SendStatus = z.enum(SEND_STATUSES)
export type SendStatus = z.output<typeof SendStatus>

/**
 * The sends' filter beside the search: one status, '' for any. It keeps the sends the list shows
 * with that status: a send whose mails have all gone is done, whatever its stored state says.
 */
export const SendFilter = z.object({
  status: z._default(z.enum(['', ...SEND_STATUSES], { error: `status must be one of: ${SEND_STATUSES.join(', ')}` }), ''),
})
export type SendFilter = z.output<typeof SendFilter>

/**
 * One send and its progress. `total` recipients were frozen at Send; of them `sent` and `failed`
 * come from the mail queue, `held` are kept unsent because the server has no SMTP server set,
 * `skipped` unsubscribed before their mail was made (sends made before the forecast's rules),
 * `excluded` were left out by those rules as their mail was due, `cancelled` were not mailed because the send
 * was cancelled, and `pending` are still on their way.
 */
export const NewsletterSend = z.object({
  _id: z.string(),
  createdAt: z.string(),
  subject: z.string(),
  status: SendStatus,
  /** The admin who sent it ('' once that admin is gone). */
  createdBy: z.string(),
  total: integer(),
  sent: integer(),
  failed: integer(),
  held: integer(),
  skipped: integer(),
  /** Left out when their mail was due, by the rules of the forecast, per reason (requirements R2.37). */
  excluded: integer(),
  excludedBy: z.array(z.object({ reason: ExclusionReason, count: integer() })),
  cancelled: integer(),
  pending: integer(),
  /** Who asked for a send over the four-eyes threshold and who decided; null when it needed no approval. */
  approval: z.nullable(Approval),
  /** "Send later": the ISO time it starts or started at, null for one sent at once. */
  scheduledAt: z.nullable(z.string()),
})
export type NewsletterSend = z.output<typeof NewsletterSend>

/** The sends, newest first (searched by subject), with their progress. */
const sendSort = sortable(['createdAt', 'subject'], { by: 'createdAt', order: 'desc' })

export const listNewsletterSends = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, { ...sendSort.input, ...SendFilter.shape }),
  output: ok({ result: z.array(NewsletterSend), count: integer() }),
  access: reads('/newsletter'),
  sort: sendSort,
  ours: `Not in the requirements: the newsletters sent, with their progress (sent, failed, skipped, pending of total); optional status (${SEND_STATUSES.join(', ')}) keeps the sends shown with it. ${sendSort.note}`,
})

const sendId = z.object({ id: Id })

export const pauseNewsletter = endpoint({
  logAs: 'Newsletter paused',
  method: 'POST',
  input: sendId,
  output: Done,
  access: writes('/newsletter'),
  ours: 'Not in the requirements: holds a running send; mails not yet handed to the SMTP server wait.',
})

export const resumeNewsletter = endpoint({
  logAs: 'Newsletter resumed',
  method: 'POST',
  input: sendId,
  output: Done,
  access: writes('/newsletter'),
  ours: 'Not in the requirements: carries on with a paused send.',
})

export const cancelNewsletter = endpoint({
  logAs: 'Newsletter cancelled',
  method: 'POST',
  input: sendId,
  output: Done,
  access: writes('/newsletter'),
  ours: 'Not in the requirements: stops a send for good; the answer says how many mails had gone out.',
})

/**
 * A send's mail as its readers get it: the template frozen when the send was requested, filled
 * with the send's subject and body and a sample reader's name. What an approver looks at is what
 * goes out; a template saved since changes neither.
 */
export const getNewsletterMail = endpoint({
  method: 'GET',
  input: sendId,
  output: ok({ data: z.object({ subject: z.string(), html: z.string(), sampleName: z.string() }) }),
  access: reads('/newsletter'),
  ours: 'Not in the requirements: the rendered mail of a send, for the approver and anyone reading the list.',
})

/** Four eyes: another administrator starts a send awaiting approval (a repeat starts nothing more). */
export const approveNewsletter = endpoint({
  logAs: 'Newsletter approved',
  method: 'POST',
  input: sendId,
  output: ok({ started: z.boolean(), total: integer() }),
  access: approves('/newsletter'),
  stepUp: true,
  ours: 'Not in the requirements (four eyes): starts a send awaiting approval; started is false for a repeat. Only another administrator.',
})

export const rejectNewsletter = endpoint({
  logAs: 'Newsletter rejected',
  method: 'POST',
  input: sendId,
  output: Done,
  access: approves('/newsletter'),
  ours: 'Not in the requirements (four eyes): ends a send awaiting approval unsent. Only another administrator.',
})

/*
 * Unsubscribing (public: the reader of a mail has no session). The link in every mail opens the
 * PWA's public page /admin/unsubscribe?token=..., which reads the token's state and asks before
 * anything changes (a GET never unsubscribes: mail scanners follow links); its button posts the
 * token. The same address answers the RFC 8058 one-click POST that mail clients send from the
 * List-Unsubscribe header (server/areas/newsletter/routes.ts).
 */

/** The token from the link; its lead, expiry and signature are checked by the server. */
const UnsubscribeToken = z.object({
  token: z.string().check(z.trim(), z.minLength(1, 'This unsubscribe link is not valid'), z.maxLength(500, 'This unsubscribe link is not valid')),
})

export const unsubscribeStatus = endpoint({
  method: 'GET',
  path: '/unsubscribe-status',
  input: UnsubscribeToken,
  output: ok({ data: z.object({ email: z.string(), subscribed: z.boolean() }) }),
  access: publicAccess,
  ours: 'Not in the requirements: what the unsubscribe page shows (the masked address, and whether it is still subscribed); changes nothing.',
})

export const unsubscribe = endpoint({
  logAs: 'Newsletter unsubscribed',
  method: 'POST',
  input: UnsubscribeToken,
  output: Done,
  access: publicAccess,
  ours: 'Not in the requirements: the unsubscribe page\'s button; ends the subscription of the lead the token names.',
})

/**
 * The send forecast of a newsletter (requirements R2.37): of the leads this choice names (the
 * inputs of Send: every subscriber, or the chosen leads), how many it reaches and how many are
 * left out, per reason.
 */
export const forecastNewsletter = endpoint({
  method: 'POST',
  input: Recipients.check(someoneChosen()),
  output: ForecastAnswer,
  access: reads('/newsletter'),
  ours: `Not in the requirements: the forecast before Send, with Send's audience inputs (all, or the chosen ids); selected, recipients and excluded [{reason, count}] with reason one of ${EXCLUSION_REASONS.join(', ')}; restrictedCountryRule says whether that rule is on.`,
})

/** The forecast of a stored send's recipients as they stand now (the approver's screen). */
export const forecastNewsletterSend = endpoint({
  method: 'POST',
  input: sendId,
  output: ForecastAnswer,
  access: reads('/newsletter'),
  ours: "Not in the requirements: the forecast of a stored send's recipients, for the four-eyes approver.",
})

/** Whose leads: the choice of a Send, or with `send` the recipients of a stored send. */
const ForecastScope = z.extend(Recipients, { send: z._default(z.union([Id, z.literal('')]), '') })

export const forecastNewsletterLeads = endpoint({
  method: 'POST',
  input: z.extend(ForecastScope, ForecastPage.shape),
  output: ForecastLeadsAnswer,
  access: reads('/newsletter'),
  ours: "Not in the requirements: the leads a newsletter's forecast leaves out for one reason (all or the chosen ids, or send: a stored send's id), paged: result (_id, name, email, country) and count.",
})

export const forecastNewsletterCsv = endpoint({
  method: 'POST',
  input: z.extend(ForecastScope, { reason: ExclusionReason }),
  output: z.string(),
  answer: 'csv',
  access: reads('/newsletter'),
  stepUp: true,
  ours: "Not in the requirements: the leads a newsletter's forecast leaves out for one reason, as CSV (left-out.csv: id, name, email, country, reason).",
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
