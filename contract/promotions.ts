import { z } from 'zod/mini'
import { Done, Id, PageQuery, boundedInt, integer, natural, ok, optionalText, pageNumber, pageOf, providers, required, sortable } from './common.ts'
import { approves, endpoint, nameEndpoints, reads, writes } from './define.ts'
import { Approval, ApprovalNeed } from './four-eyes.ts'
import { EXCLUSION_REASONS, ExclusionReason, ForecastAnswer, ForecastLeadsAnswer, ForecastPage } from './forecast.ts'
import { IMAGE_KIND_MESSAGE, formFlag, formList, imageFiles } from './multipart.ts'
import { Deleted } from './undo.ts'
import { NewSendAt, SendAt } from './send-later.ts'
import * as self from './promotions.ts'

/**
 * Where a promotion's delivery stands: `queued` (its round is stored, nothing delivered yet),
 * `sending` (some delivered, some pending), `done` (nothing pending: each recipient of the round
 * is sent or failed for good), `cancelled` (an Admin stopped it; the rest is not sent);
 * `awaiting` (the round goes to more recipients than the four-eyes threshold: nothing is sent
 * until a second Admin approves it, contract/four-eyes.ts) and `rejected` (that Admin said no;
 * nothing of the round was sent); `scheduled` (ours, "Send later": nothing is stored to send until
 * its time, contract/send-later.ts).
 */
export const PROMOTION_STATUSES = ['queued', 'sending', 'done', 'cancelled', 'awaiting', 'rejected', 'scheduled'] as const
export const PromotionStatus = z.enum(PROMOTION_STATUSES)
export type PromotionStatus = z.output<typeof PromotionStatus>

/** Messaging's filter beside the search (ours): one status, '' for any; the Dashboard's counts open the list with it. */
export const PromotionFilter = z.object({
  status: z._default(z.enum(['', ...PROMOTION_STATUSES], { error: `status must be one of: ${PROMOTION_STATUSES.join(', ')}` }), ''),
})
export type PromotionFilter = z.output<typeof PromotionFilter>

/**
 * A delivery round's progress: the counts are of the current round (`round`; 1 for Submit, one
 * more per Resend). `total` = `sent` + `failed` + `excluded` + `pending` while it runs; after a
 * cancel, `pending` is 0 and `total` - `sent` - `failed` - `excluded` were never sent.
 */
export const PromotionProgress = z.object({
  /** The promotion's id. */
  id: z.string(),
  round: z.number().check(z.int(), z.gte(1)),
  total: natural(),
  sent: natural(),
  failed: natural(),
  /** Left out when their delivery was due, by the rules of the forecast (requirements R2.37). */
  excluded: natural(),
  pending: natural(),
  status: PromotionStatus,
  /** ISO time of the round's latest delivery, null before the first. */
  lastSentAt: z.nullable(z.string()),
})
export type PromotionProgress = z.output<typeof PromotionProgress>

/** Requirements R3.6, Promotion, as the list shows it: `image` is a URL, '' when none. */
export const Promotion = z.extend(z.omit(PromotionProgress, { id: true }), {
  _id: z.string(),
  title: z.string(),
  content: z.string(),
  image: z.string(),
  selectall: z.boolean(),
  createdAt: z.string(),
  /** The recipients frozen at Submit (every round goes to these or some of them); listnotfiyuser lists them. */
  recipientCount: integer(),
  /** Ours: the name of the admin who submitted it ('' when that account was removed). */
  createdBy: z.string(),
  /** The current round's four-eyes approval (who asked, who decided), null when it needed none. */
  approval: z.nullable(Approval),
  /** Ours ("Send later"): the ISO time it starts or started at, null for one sent at once. */
  scheduledAt: z.nullable(z.string()),
})
export type Promotion = z.output<typeof Promotion>

/** A user in the promotion's filter step (and a recipient of a promotion). */
export const PromotionUser = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  provider: z.string(),
  country: z.string(),
})
export type PromotionUser = z.output<typeof PromotionUser>

/** Requirements R9.3: the user filter list shows 100 per page; recipients load 100 at a time. */
export const PROMOTION_PAGE_SIZE = 100

/**
 * The filter step's fields (requirements R2.20): each optional, '' for any. `email` matches a part of
 * an address (case-insensitive), so it has no email pattern; `country` is a name as listCountry
 * spells it (contract/restrictions.ts: the ISO 3166 list), and a name that is not one is refused.
 */
export const UserFilter = z.object({
  email: optionalText(254),
  provider: z._default(z.union([z.enum(providers), z.literal('')], { error: 'Incorrect format' }), ''),
  country: optionalText(100),
})
export type UserFilter = z.output<typeof UserFilter>

const page = pageNumber(1, 1_000_000, 1)
const limit = pageNumber(1, PROMOTION_PAGE_SIZE, PROMOTION_PAGE_SIZE)

export const SELECT_A_USER = 'Please select at least one user'

/**
 * Add promotion's Submit. Recipients are the checked users (`id`), or with selectall 'true'
 * every user matching the filter step's email, provider and country (all users when those are
 * empty). Multipart: `id` may be repeated or one JSON array.
 */
export const AddPromotionInput = z
  .extend(UserFilter, {
    id: z._default(formList(Id, SELECT_A_USER), []),
    title: required('Title is required', 200),
    content: required('content is required', 5000),
    selectall: formFlag(),
    sendAt: SendAt,
  })
  .check(
    z.superRefine(
      (v, ctx) => {
        if (!v.selectall && v.id.length === 0) ctx.addIssue({ code: 'custom', path: ['id'], message: SELECT_A_USER })
      },
      // Checked beside the other fields' messages, but only on an object whose id and selectall parsed
      // (a body that is not an object at all has an issue at the root, with an empty path).
      { when: (p) => p.issues.every((i) => i.path !== undefined && i.path.length > 0 && i.path[0] !== 'id' && i.path[0] !== 'selectall') },
    ),
  )

export const addNotification = endpoint({
  logAs: 'Promotion added',
  method: 'POST',
  input: AddPromotionInput,
  files: { image: imageFiles({ max: 1, required: false, kind: IMAGE_KIND_MESSAGE, tooMany: IMAGE_KIND_MESSAGE }) },
  output: ok({ _id: z.string(), total: integer(), awaitingApproval: z.boolean(), scheduledAt: z.nullable(z.string()) }),
  access: writes('/notificationlist'),
  ours: `Answers the new promotion's _id, total (its recipients) and awaitingApproval (over the four-eyes threshold: nothing is sent until another Admin approves). With selectall the filter fields (email, provider, country) are also sent, so "select all" means all matching users; '${SELECT_A_USER}' is ours. Optional sendAt (ours, "Send later": an ISO time with its offset, in the future) stores it as scheduled instead (total 0 until it starts; scheduledAt echoes the time).`,
})

const promotionSort = sortable(['title'])

export const listNotification = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, { ...promotionSort.input, ...PromotionFilter.shape }),
  output: pageOf(Promotion),
  access: reads('/notificationlist'),
  sort: promotionSort,
  ours: `Optional input status (${PROMOTION_STATUSES.join(', ')}) keeps the promotions whose current round stands there. ${promotionSort.note}`,
})

export const DeletePromotion = endpoint({
  logAs: 'Promotion deleted',
  method: 'POST',
  input: z.object({ id: Id }),
  output: Deleted,
  access: writes('/notificationlist'),
})

/**
 * One recipient's delivery: `cancelled` when a cancel or delete stopped it before it was sent,
 * `excluded` when the forecast's rules left it out as it was due (its reason beside it).
 */
export const DeliveryStatus = z.enum(['pending', 'sent', 'failed', 'cancelled', 'excluded'])
export type DeliveryStatus = z.output<typeof DeliveryStatus>

/**
 * A recipient as the view modal lists it: the lead's id, the email frozen at Submit, and the
 * status of its latest delivery (the current round's, or an earlier one when a failed-only
 * resend left it out).
 */
export const Recipient = z.object({ _id: z.string(), email: z.string(), status: DeliveryStatus, reason: z.union([ExclusionReason, z.literal('')]) })
export type Recipient = z.output<typeof Recipient>

/** The view modal's recipient emails, 100 at a time (Load More asks for the next page). */
export const listnotfiyuser = endpoint({
  method: 'POST',
  input: z.object({ id: Id, page, limit }),
  output: ok({ result: z.array(Recipient), count: integer() }),
  access: reads('/notificationlist'),
  ours: 'Payload and answer not shown: the promotion id with page and limit; result (_id, email, status) and count.',
})

/** Which recipients a Resend reaches: all of them (the plain resend of requirements R2.19), or those whose delivery failed. */
export const ResendOnly = z.enum(['all', 'failed'], { error: 'Incorrect format' })

/**
 * Starts a new delivery round of the promotion. `round` is the round the admin saw (the row's
 * `round`): the server starts round `round + 1` only while `round` is still the current one, under
 * a lock on the promotion, so a double click or a retried request starts one round; the repeat
 * answers success with `started: false`. While the current round still has pending deliveries
 * the call is refused ('This promotion is still being sent'): cancel it first.
 */
export const ResendData = endpoint({
  logAs: 'Promotion resent',
  method: 'POST',
  input: z.object({
    id: Id,
    round: boundedInt('Incorrect format', 1, 1_000_000),
    only: z._default(ResendOnly, 'all'),
  }),
  output: ok({ started: z.boolean(), round: integer(), total: integer(), awaitingApproval: z.boolean() }),
  access: writes('/notificationlist'),
  ours: "Payload and answer not shown: {id, round (the round the admin saw), only: 'all' | 'failed'}; status, message, started (false for a repeat), round (now current), total (its deliveries), awaitingApproval (a round over the four-eyes threshold waits for another Admin, as a Submit does).",
})

/** Stops the current round: pending deliveries are not sent (a scheduled promotion never starts). Answers how many already were. */
export const cancelPromotion = endpoint({
  logAs: 'Promotion cancelled',
  method: 'POST',
  input: z.object({ id: Id }),
  output: ok({ sent: integer(), failed: integer(), total: integer() }),
  access: writes('/notificationlist'),
  ours: 'Ours: cancels the running send; message says how many were already sent.',
})

/** Ours ("Send later"): a scheduled promotion's new time, before it starts. */
export const reschedulePromotion = endpoint({
  logAs: 'Promotion rescheduled',
  method: 'POST',
  input: z.object({ id: Id, sendAt: NewSendAt }),
  output: ok({ scheduledAt: z.string() }),
  access: writes('/notificationlist'),
  ours: 'Ours ("Send later"): moves a scheduled promotion to another time in the future; refused once it has started.',
})

/**
 * Four eyes (contract/four-eyes.ts): a second administrator approves the current round of a
 * promotion awaiting approval, which then starts exactly as its Submit or Resend would have.
 * `round` is the round the admin saw; approving it again (a double click, a retried request)
 * starts nothing more and answers `started: false`. The admin who asked for the round is refused.
 */
const Decision = z.object({
  id: Id,
  round: boundedInt('Incorrect format', 1, 1_000_000),
})

export const approvePromotion = endpoint({
  logAs: 'Promotion approved',
  method: 'POST',
  input: Decision,
  output: ok({ started: z.boolean(), total: integer() }),
  access: approves('/notificationlist'),
  stepUp: true,
  ours: 'Ours (four eyes): starts a round awaiting approval; started is false for a repeat. Only another administrator.',
})

/** Rejects the current round awaiting approval: nothing of it is sent. */
export const rejectPromotion = endpoint({
  logAs: 'Promotion rejected',
  method: 'POST',
  input: Decision,
  output: Done,
  access: approves('/notificationlist'),
  ours: 'Ours (four eyes): ends a round awaiting approval unsent. Only another administrator.',
})

/**
 * The exact number of users a Submit with this selection would reach (checked ids that exist, or
 * with selectall every user matching the filter), shown by the modal before Submit.
 */
export const PromotionAudience = z.extend(UserFilter, {
  id: z._default(z.array(Id, { error: SELECT_A_USER }).check(z.maxLength(100_000, 'Incorrect format')), []),
  selectall: z._default(z.boolean({ error: 'Incorrect format' }), false),
})
export type PromotionAudience = z.output<typeof PromotionAudience>

export const countRecipients = endpoint({
  method: 'POST',
  input: PromotionAudience,
  output: ok({ count: integer(), ...ApprovalNeed }),
  access: reads('/notificationlist'),
  ours: 'Ours: the recipients count of Add promotion, asked before Submit, and whether a second Admin must approve it (four eyes).',
})

/**
 * The filter step: users matching `data` (email contains, provider, country), 100 per page.
 * With `selectall: true` the filter is ignored and every user is listed, as "data ...
 * or selectall" of requirements R7.3 reads.
 */
export const FilterOption = endpoint({
  method: 'POST',
  input: z.object({
    page,
    limit,
    data: z._default(UserFilter, { email: '', provider: '', country: '' }),
    selectall: z._default(z.boolean({ error: 'Incorrect format' }), false),
  }),
  output: ok({ data: z.array(PromotionUser), count: integer() }),
  access: reads('/notificationlist'),
})

/**
 * The send forecast of a promotion (requirements R2.37): of the users this selection names (the
 * inputs of Submit), how many it reaches and how many are left out, per reason.
 */
export const forecastPromotion = endpoint({
  method: 'POST',
  input: PromotionAudience,
  output: ForecastAnswer,
  access: reads('/notificationlist'),
  ours: `Ours: the forecast before Submit, with Submit's audience inputs (checked ids, or selectall with email, provider and country); selected, recipients and excluded [{reason, count}] with reason one of ${EXCLUSION_REASONS.join(', ')}; restrictedCountryRule says whether that rule is on.`,
})

/** The forecast of a promotion's current round as it was stored (the approver's screen). */
export const forecastPromotionRound = endpoint({
  method: 'POST',
  input: z.object({ id: Id }),
  output: ForecastAnswer,
  access: reads('/notificationlist'),
  ours: "Ours: the forecast of a stored promotion's recipients as they stand now, for the four-eyes approver.",
})

/** Whose leads: the audience of a Submit, or with `promotion` the recipients of a stored promotion. */
const ForecastScope = z.extend(PromotionAudience, { promotion: z._default(z.union([Id, z.literal('')]), '') })

/** One reason's leads of a forecast, paged. */
export const forecastPromotionLeads = endpoint({
  method: 'POST',
  input: z.extend(ForecastScope, ForecastPage.shape),
  output: ForecastLeadsAnswer,
  access: reads('/notificationlist'),
  ours: "Ours: the leads a promotion's forecast leaves out for one reason (the audience inputs, or promotion: a stored promotion's id), paged by page and limit: result (_id, name, email, country) and count.",
})

/** One reason's leads of a forecast as CSV, streamed; exporting lead addresses asks for a recent proof. */
export const forecastPromotionCsv = endpoint({
  method: 'POST',
  input: z.extend(ForecastScope, { reason: ExclusionReason }),
  output: z.string(),
  answer: 'csv',
  access: reads('/notificationlist'),
  stepUp: true,
  ours: "Ours: the leads a promotion's forecast leaves out for one reason, as CSV (left-out.csv: id, name, email, country, reason).",
})

/**
 * "Send a test to me" on the promotion's form: the promotion as written (title and content, not
 * yet saved) mailed to the signed-in admin's own address only, as recipients would read it. It goes
 * to nobody else, is in no delivery ledger (so no frequency cap counts it), needs no second Admin,
 * and is audited. The image is not in the test: it is stored only at Submit.
 */
export const sendTestPromotion = endpoint({
  logAs: 'Promotion test sent',
  method: 'POST',
  input: z.object({ title: AddPromotionInput.shape.title, content: AddPromotionInput.shape.content }),
  output: Done,
  access: writes('/notificationlist'),
  ours: "Not in the requirements: mails the promotion's title and content, as written on the form, to the signed-in admin only; the answer names the address. Counted in no ledger, no four eyes.",
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
