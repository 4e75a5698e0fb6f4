import { z } from 'zod/mini'
import { natural, ok } from './common.ts'
import { endpoint, nameEndpoints, sessionAccess } from './define.ts'
import * as self from './dashboard.ts'

/** The sign-ups chart covers this many UTC days, today included (the last bar). */
export const SIGNUP_DAYS = 30
/** "New" leads: those of the last this many UTC days, today included (the chart's last bars). */
export const NEW_LEADS_DAYS = 7

/** One bar of the sign-ups chart: a UTC day (YYYY-MM-DD) and the leads created on it. */
export const SignupDay = z.object({
  day: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)),
  count: natural(),
})
export type SignupDay = z.output<typeof SignupDay>

/** Leads (/users): every lead, the new ones, and sign-ups per day oldest first, zero-filled. */
export const UsersCard = z.object({
  total: natural(),
  newLeads: natural(),
  signups: z.array(SignupDay).check(z.length(SIGNUP_DAYS)),
})
export type UsersCard = z.output<typeof UsersCard>

/** Messaging (/notificationlist): promotions stored, when one last went out, deliveries still to make. */
export const PromotionsCard = z.object({
  count: natural(),
  /** ISO time of the newest delivery made, null before the first. */
  lastSentAt: z.nullable(z.string()),
  /** Recipients whose delivery is pending or running, across every promotion. */
  inFlight: natural(),
})
export type PromotionsCard = z.output<typeof PromotionsCard>

/** The link lists: each count present only when the admin may open that list. */
export const LinksCard = z.object({
  buy: z.optional(natural()),
  swapOut: z.optional(natural()),
  swapIn: z.optional(natural()),
})
export type LinksCard = z.output<typeof LinksCard>

/**
 * The work waiting (ours): each count present only when the admin may read the list it opens, by
 * the same rule as that list's own call. Sends "queued" are stored and not started yet; "sending"
 * have mails still to go; "awaiting" wait for a second Admin's approval (contract/four-eyes.ts).
 */
export const WorkCard = z.object({
  /** Contact Us enquiries still Open. */
  openEnquiries: z.optional(natural()),
  /** Confirmed access requests no staff manager has decided yet (Users and Access). */
  accessRequests: z.optional(natural()),
  promotionsAwaiting: z.optional(natural()),
  promotionsQueued: z.optional(natural()),
  promotionsSending: z.optional(natural()),
  newslettersAwaiting: z.optional(natural()),
  newslettersSending: z.optional(natural()),
  newslettersPaused: z.optional(natural()),
})
export type WorkCard = z.output<typeof WorkCard>

export const Dashboard = ok({
  /** Absent when the admin may read none of the lists it counts. */
  work: z.optional(WorkCard),
  users: z.optional(UsersCard),
  promotions: z.optional(PromotionsCard),
  links: z.optional(LinksCard),
})
export type Dashboard = z.output<typeof Dashboard>

/**
 * The dashboard's cards (ours: requirements R1.3 names the dashboard, R7 gives no call for it). Every
 * signed-in admin may ask; the answer holds only the cards of areas their access covers, so a
 * card outside it is absent from the answer, not only hidden by the screen.
 */
export const getDashboard = endpoint({
  method: 'GET',
  input: z.object({}),
  output: Dashboard,
  access: sessionAccess,
  ours: 'The dashboard call: work { openEnquiries, accessRequests, promotionsAwaiting, promotionsQueued, promotionsSending, newslettersAwaiting, newslettersSending, newslettersPaused }, users { total, newLeads, signups[30] }, promotions { count, lastSentAt, inFlight }, links { buy, swapOut, swapIn }; each card only for an admin whose access covers its area.',
})

/**
 * The side menu's counts: open contact enquiries beside Contact Us, pending (confirmed) access
 * requests beside Users and Access. Each is present only when the caller may read that screen's
 * list, by the same rule as the list's own call.
 */
export const MenuCounts = ok({
  counts: z.object({
    contactus: z.optional(natural()),
    accessRequests: z.optional(natural()),
    /** Link changes waiting for the caller's approval (link-changes.ts): another admin's, of a write the caller may make. */
    linkChanges: z.optional(natural()),
  }),
})
export type MenuCounts = z.output<typeof MenuCounts>

export const getMenuCounts = endpoint({
  method: 'GET',
  input: z.object({}),
  output: MenuCounts,
  access: sessionAccess,
  ours: 'Not in the requirements: the side menu counts, counts { contactus (open enquiries), accessRequests (pending requests), linkChanges (link changes the caller may approve) }, each only for an admin who may read that list.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
