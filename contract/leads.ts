import { z } from 'zod/mini'
import { COUNT_LATER_NOTE, CountAnswer, CountLater, Done, Id, PageQuery, calendarDay, integer, ok, optionalText, pageNumber, pageOf, providers, sortable, timeZone } from './common.ts'
import { endpoint, nameEndpoints, reads, writes } from './define.ts'
import { ExclusionReason } from './forecast.ts'
import * as self from './leads.ts'

export const Provider = z.enum(providers)

/** Requirements R3.2, Lead. */
export const Lead = z.object({
  _id: z.string(),
  createdAt: z.string(),
  name: z.string(),
  email: z.string(),
  operatingsystem: z.string(),
  walletaddress: z.string(),
  provider: z.string(),
  /** Ours: the lead's country as listCountry names it ('' when the wallet did not say). */
  country: z.string(),
})
export type Lead = z.output<typeof Lead>

/** Where staff are with an enquiry (ours): every enquiry arrives Open; an Admin marks it Resolved, or Open again. */
export const ENQUIRY_STATUSES = ['Open', 'Resolved'] as const
export const EnquiryStatus = z.enum(ENQUIRY_STATUSES, { error: `status must be one of: ${ENQUIRY_STATUSES.join(', ')}` })
export type EnquiryStatus = z.output<typeof EnquiryStatus>

/** Requirements R3.3, Contact enquiry; with when it arrived and its status (ours). */
export const ContactEnquiry = z.object({
  _id: z.string(),
  createdAt: z.string(),
  name: z.string(),
  email: z.string(),
  phonenumber: z.string(),
  message: z.string(),
  status: EnquiryStatus,
})
export type ContactEnquiry = z.output<typeof ContactEnquiry>

/** Leads page size is 50 (requirements R9.1). */
export const LEADS_PAGE_SIZE = 50

/** The leads' sortable columns; by default the newest first. */
export const leadSort = sortable(['createdAt', 'name', 'email'], { by: 'createdAt', order: 'desc' })

/** The operating systems the leads' filter offers (what the wallet app reports). */
export const LEAD_OPERATING_SYSTEMS = ['Android', 'ios'] as const

/**
 * The leads' filters beside the search, each '' for any: a provider, an operating system (any
 * text, matched whole and ignoring case), and the days created from and to, both included, as
 * calendar days in the time zone `tz` (an IANA name such as Europe/Lisbon; UTC when ''). The PWA
 * sends the admin's own zone, so a day means the admin's day.
 */
export const LeadFilter = z.object({
  provider: z._default(
    z.string().check(z.refine((v) => v === '' || providers.some((p) => p === v), `provider must be one of: ${providers.join(', ')}`)),
    '',
  ),
  operatingsystem: optionalText(50),
  /** A country as listCountry names it (any case); a name that is not one is refused. */
  country: optionalText(100),
  from: calendarDay,
  to: calendarDay,
  tz: timeZone,
})
export type LeadFilter = z.output<typeof LeadFilter>

/** Said when `country` is not a name listCountry offers (the filter offers only those). */
export const UNKNOWN_COUNTRY = 'country must be a country name as listCountry spells it'
/** Said when `to` is a day before `from`. */
export const DAYS_REVERSED = 'The to date must not be before the from date'

const LEAD_INPUTS_NOTE =
  'Optional inputs added (ours): sortBy (createdAt, name, email) and sortOrder (asc, desc); provider, operatingsystem, country (a name as listCountry spells it), and from and to (days, both included, in the IANA time zone tz, UTC when absent).'

export const getuser = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, { limit: pageNumber(1, 100, LEADS_PAGE_SIZE), ...leadSort.input, ...LeadFilter.shape, ...CountLater }),
  output: ok({ data: z.array(Lead), count: z.nullable(integer()) }),
  access: reads('/users'),
  sort: leadSort,
  ours: `${LEAD_INPUTS_NOTE} ${COUNT_LATER_NOTE}`,
})

/** The exact count of the leads getuser finds for a search and filters: what a getuser with `count: 'later'` left out. */
export const getuserCount = endpoint({
  method: 'GET',
  input: z.object({ search: PageQuery.shape.search, ...LeadFilter.shape }),
  output: CountAnswer,
  access: reads('/users'),
  ours: 'Not in the requirements: the exact number of leads getuser finds for search, provider, operatingsystem, country, from, to and tz (the same inputs), for a getuser called with count=later that answered count null.',
})

/**
 * Streams the leads as CSV, saved as user.csv: without inputs every lead (the export of requirements R2.10), with
 * a search, filters or an order exactly the rows the list shows for them, in its order.
 */
export const DownloadFile = endpoint({
  method: 'GET',
  input: z.object({ search: PageQuery.shape.search, ...leadSort.input, ...LeadFilter.shape }),
  output: z.string(),
  answer: 'csv',
  access: reads('/users'),
  sort: leadSort,
  stepUp: true,
  ours: `${LEAD_INPUTS_NOTE} With any of them (or a search), the rows the list shows for the same inputs, all of them, in its order.`,
})

/** The enquiries' sortable columns; by default the newest first. */
export const contactSort = sortable(['createdAt', 'name', 'email'], { by: 'createdAt', order: 'desc' })

/** The enquiries' filter beside the search: a status, '' for any. */
export const ContactFilter = z.object({
  status: z._default(z.enum(['', ...ENQUIRY_STATUSES], { error: `status must be one of: ${ENQUIRY_STATUSES.join(', ')}` }), ''),
})
export type ContactFilter = z.output<typeof ContactFilter>

/**
 * A row of the Contact Us list: the enquiry and the id of the lead with its address, so staff go
 * from an enquiry to the person (null when no lead has it, or the admin may not read Leads).
 */
export const ContactRow = z.extend(ContactEnquiry, { leadId: z.nullable(z.string()) })
export type ContactRow = z.output<typeof ContactRow>

export const getContactUS = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, { ...contactSort.input, ...ContactFilter.shape }),
  output: pageOf(ContactRow),
  access: reads('/contactus'),
  sort: contactSort,
  ours: `Answer shape not given in the requirements: paged like every other list (result, count), each enquiry with createdAt, status (Open or Resolved) and leadId (the lead with its address, null when none or when the admin may not read Leads). Optional input status (Open, Resolved) keeps those only. ${contactSort.note}`,
})

/** Marks an enquiry Open or Resolved (Admin on Contact Us); audited like every write. */
export const setContactStatus = endpoint({
  logAs: 'Enquiry status changed',
  method: 'POST',
  input: z.object({ _id: Id, status: EnquiryStatus }),
  output: Done,
  access: writes('/contactus'),
  ours: 'Not in the requirements: sets the status (Open or Resolved) of one contact enquiry by _id.',
})

/** Deliveries shown on a lead's page: the latest first. */
export const LEAD_DELIVERIES_SHOWN = 100
/** Enquiries shown on a lead's page: the latest first. */
export const LEAD_ENQUIRIES_SHOWN = 50

/** One promotion round's delivery to a lead, as its page shows it. */
export const LeadDelivery = z.object({
  promotionId: z.string(),
  title: z.string(),
  round: integer(),
  status: z.enum(['pending', 'sent', 'failed', 'cancelled', 'excluded']),
  /** Why an `excluded` delivery was left out (requirements R2.37), '' otherwise. */
  reason: z.union([ExclusionReason, z.literal('')]),
  /** When it was sent ('' until then). */
  sentAt: z.string(),
  attempts: integer(),
})

/**
 * The parts of a lead's page read from another screen, each with that screen: a caller who may
 * not open it gets the part empty and its name in `withheld` (the page then says so).
 */
export const leadPageParts = { enquiries: '/contactus', deliveries: '/notificationlist' } as const
export type LeadPagePart = keyof typeof leadPageParts

/**
 * One lead as its own page shows it: every field, the brand it came through, its contact
 * enquiries (by its email), each promotion delivery with its outcome, and the newsletter.
 */
export const getLead = endpoint({
  method: 'GET',
  input: z.object({ id: Id }),
  output: ok({
    record: z.extend(Lead, {
      country: z.string(),
      brand: z.nullable(z.object({ _id: z.string(), brandname: z.string() })),
      subscribed: z.boolean(),
      /** When the lead last subscribed or unsubscribed ('' never). */
      subscribedAt: z.string(),
      unsubscribedAt: z.string(),
    }),
    enquiries: z.array(ContactEnquiry),
    deliveries: z.array(LeadDelivery),
    /** All of the lead's deliveries, of which the latest LEAD_DELIVERIES_SHOWN are listed. */
    deliveryCount: integer(),
    /** The parts the caller may not read (leadPageParts), answered empty. */
    withheld: z.array(z.enum(['enquiries', 'deliveries'])),
  }),
  access: reads('/users'),
  ours: `Not in the requirements: one lead's page (every field, its brand, its contact enquiries by email, the latest ${LEAD_DELIVERIES_SHOWN} promotion deliveries with their outcome, the newsletter); 404 'Record not found' for an unknown id. The enquiries need read access to Contact Us and the deliveries to Messaging: without it the part is empty (deliveryCount 0) and named in withheld.`,
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
