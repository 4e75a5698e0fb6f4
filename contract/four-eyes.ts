import { z } from 'zod/mini'
import { natural } from './common.ts'

/*
 * Four eyes on mass sends (ours). A promotion round (Submit or Resend) or a
 * newsletter to more recipients than the server's threshold (FOUR_EYES_THRESHOLD) is stored
 * awaiting approval and nothing is sent until a second administrator approves it: the superadmin,
 * or staff with the Admin access level on every screen, never the admin who asked for it. Reject
 * ends it unsent. Below the threshold nothing changes. The approve and reject calls live in the
 * areas they act on (contract/promotions.ts, contract/newsletter.ts); this module holds what they
 * share.
 */

/** Who asked for a send that needed approval, and who decided; null on sends below the threshold. */
export const Approval = z.object({
  /** The admin who asked for the send (Submit, Resend or Send); '' once that admin is gone. */
  requestedBy: z.string(),
  requestedById: z.string(),
  /** The admin who approved or rejected it, '' while it waits. */
  decidedBy: z.string(),
})
export type Approval = z.output<typeof Approval>

/** What a count call adds for the question before a send: whether a second Admin must approve it. */
export const ApprovalNeed = {
  /** The send would go to more recipients than the threshold: it waits for another Admin. */
  needsApproval: z.boolean(),
  /** FOUR_EYES_THRESHOLD (0: four eyes are off). */
  approvalThreshold: natural(),
}

export const AWAITING_APPROVAL = 'Awaiting approval'
/** Said to the requester before Submit or Send when the count is over the threshold. */
export const secondAdminNeeded = (count: number, threshold: number): string =>
  `This goes to ${count} recipients, more than ${threshold}: a second Admin must approve it before it is sent.`
/** The requester's own row. */
export const WAITS_FOR_ANOTHER_ADMIN = 'Waiting for another Admin to approve it'
/** The refusal when the requester tries to approve (or reject) their own send. */
export const OWN_REQUEST = 'You asked for this send: another Admin must approve or reject it'
export const NOT_AWAITING = 'This send is not awaiting approval'
export const ALREADY_APPROVED = 'This send has already been approved'
export const ALREADY_REJECTED = 'This send has already been rejected'

/** The kinds of send that may wait for approval, and the screen each is decided on. */
export const SEND_SCREENS = { promotion: '/notificationlist', newsletter: '/newsletter' } as const
export type SendKind = keyof typeof SEND_SCREENS

/**
 * A send that has just started to wait for approval (the socket event APPROVAL_REQUESTED,
 * contract/socket.ts), told to the open sessions of every administrator but its requester.
 */
export const ApprovalRequest = z.object({
  kind: z.enum(['promotion', 'newsletter']),
  /** The promotion's or the newsletter send's id. */
  id: z.string(),
  /** The promotion's title or the newsletter's subject. */
  title: z.string(),
  /** Its recipients. */
  total: natural(),
  requestedBy: z.string(),
  requestedById: z.string(),
})
export type ApprovalRequest = z.output<typeof ApprovalRequest>

/** What the other administrators read when a send starts to wait for them. */
export const sendWaits = (r: Pick<ApprovalRequest, 'kind' | 'title' | 'total' | 'requestedBy'>): string =>
  `A ${r.kind} waits for your approval: “${r.title}” to ${r.total} recipient${r.total === 1 ? '' : 's'}, requested by ${r.requestedBy}`
