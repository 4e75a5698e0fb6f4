/**
 * The dashboard (contract/dashboard.ts): one call answering the cards of the areas the caller's
 * access covers, and the side menu's counts, each decided here by the same rule as the areas' own reads (`permits`), so a card
 * outside the caller's access is never computed, let alone sent.
 *
 * Leads may number a million: the total is the count the triggers keep (server/kit/ground/row-counts.ts),
 * and the last 30 days come from one
 * range over created_at, which leads_created_at_id_idx answers (see dashboard.test.ts), grouped by
 * UTC day. "New" leads are the last 7 of those days, so the card's number is the sum of the
 * chart's last 7 bars.
 */
import { count, eq, gte, inArray, isNotNull, max, sql } from 'drizzle-orm'
import { z } from 'zod'
import * as dashboard from '#contract/dashboard'
import { NEW_LEADS_DAYS, SIGNUP_DAYS, type LinksCard, type PromotionsCard, type SignupDay, type UsersCard, type WorkCard } from '#contract/dashboard'
import { reads, staffReads } from '#contract/define'
import { handlers } from '../../kit/request/handlers.ts'
import { visibleLinkChanges } from '../../kit/request/link-changes.ts'
import { linkFields } from '../../kit/request/outward-links.ts'
import { permits } from '../../kit/ground/access/auth.ts'
import type { Db } from '../../db/index.ts'
import { accessRequests, contactEnquiries, leads, links, newsletterSends, promotions, type AdminRow } from '../../db/schema.ts'
import { sendStatusWhere } from '../../kit/rules/newsletter-status.ts'
import { exactCount } from '../../kit/ground/row-counts.ts'

const DAY_MS = 86_400_000
const Today = z.object({ rows: z.array(z.object({ today: z.string() })) })

/** `YYYY-MM-DD` of a UTC day. */
const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/** The UTC midnight `days - 1` days before today's: the first day of a window of `days` days. */
const windowStart = (today: string, days: number): number => Date.parse(`${today}T00:00:00Z`) - (days - 1) * DAY_MS

/** The database's clock decides "today", so leads stamped by its now() fall on the right day. */
async function todayUtc(db: Db): Promise<string> {
  const answer = Today.parse(await db.execute(sql`select to_char(now() at time zone 'UTC', 'YYYY-MM-DD') as today`))
  const row = answer.rows[0]
  if (row === undefined) throw new Error('no clock answer')
  return row.today
}

/** Leads per UTC day from `from` on: one range of leads_created_at_id_idx. */
export function signupsSince(db: Db, from: Date) {
  const day = sql<string>`to_char(${leads.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`
  return db.select({ day, n: count() }).from(leads).where(gte(leads.createdAt, from)).groupBy(day)
}

async function usersCard(db: Db): Promise<UsersCard> {
  const today = await todayUtc(db)
  const from = new Date(windowStart(today, SIGNUP_DAYS))
  const [total, perDay] = await Promise.all([exactCount(db, leads, undefined), signupsSince(db, from)])
  const byDay = new Map(perDay.map((r) => [r.day, r.n]))
  const signups: SignupDay[] = Array.from({ length: SIGNUP_DAYS }, (_, i) => {
    const d = dayOf(from.getTime() + i * DAY_MS)
    return { day: d, count: byDay.get(d) ?? 0 }
  })
  const newLeads = signups.slice(-NEW_LEADS_DAYS).reduce((sum, d) => sum + d.count, 0)
  return { total, newLeads, signups }
}

/**
 * Promotions keep their current round's counters on their own row (server/areas/promotions/delivery.ts), so
 * deliveries in flight are a sum over the promotions, not a count over every delivery.
 */
async function promotionsCard(db: Db): Promise<PromotionsCard> {
  const [row] = await db
    .select({
      count: count(),
      lastSentAt: max(promotions.lastSentAt),
      inFlight: sql<number>`coalesce(sum(${promotions.total} - ${promotions.sent} - ${promotions.failed}) filter (where ${promotions.status} in ('queued', 'sending')), 0)::int`,
    })
    .from(promotions)
  return { count: row?.count ?? 0, lastSentAt: row?.lastSentAt?.toISOString() ?? null, inFlight: Number(row?.inFlight ?? 0) }
}

/** The three link lists, each counted only when the caller may open it. */
const linkLists = [
  { key: 'buy', route: '/buy_list', kind: 'buy' },
  { key: 'swapOut', route: '/swapout_list', kind: 'sell' },
  { key: 'swapIn', route: '/swapin_list', kind: 'bridge' },
] as const

async function linksCard(db: Db, admin: AdminRow): Promise<LinksCard | undefined> {
  const open = linkLists.filter((l) => permits(reads(l.route), admin))
  if (open.length === 0) return undefined
  const rows = await db.select({ kind: links.kind, n: count() }).from(links).groupBy(links.kind)
  const card: LinksCard = {}
  for (const list of open) card[list.key] = rows.find((r) => r.kind === list.kind)?.n ?? 0
  return card
}

/** Open enquiries: one range of contact_enquiries_status_idx. */
async function openEnquiries(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(contactEnquiries).where(eq(contactEnquiries.status, 'Open'))
  return row?.n ?? 0
}

/** Pending access requests as Users and Access lists them: those whose address was confirmed. */
async function pendingRequests(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(accessRequests).where(isNotNull(accessRequests.confirmedAt))
  return row?.n ?? 0
}

/** Promotions per status of their current round, for the statuses that are work still to happen. */
async function promotionWork(db: Db): Promise<Pick<WorkCard, 'promotionsAwaiting' | 'promotionsQueued' | 'promotionsSending'>> {
  const rows = await db
    .select({ status: promotions.status, n: count() })
    .from(promotions)
    .where(inArray(promotions.status, ['awaiting', 'queued', 'sending']))
    .groupBy(promotions.status)
  const of = (status: string): number => rows.find((r) => r.status === status)?.n ?? 0
  return { promotionsAwaiting: of('awaiting'), promotionsQueued: of('queued'), promotionsSending: of('sending') }
}

/** Newsletter sends waiting for approval, sending (mails still to go, as the list shows them) and paused. */
async function newsletterWork(db: Db): Promise<Pick<WorkCard, 'newslettersAwaiting' | 'newslettersSending' | 'newslettersPaused'>> {
  const [row] = await db
    .select({
      awaiting: sql<number>`count(*) filter (where ${newsletterSends.status} = 'awaiting')::int`,
      sending: sql<number>`count(*) filter (where ${sendStatusWhere('sending')})::int`,
      paused: sql<number>`count(*) filter (where ${newsletterSends.status} = 'paused')::int`,
    })
    .from(newsletterSends)
    .where(inArray(newsletterSends.status, ['awaiting', 'sending', 'paused']))
  return { newslettersAwaiting: Number(row?.awaiting ?? 0), newslettersSending: Number(row?.sending ?? 0), newslettersPaused: Number(row?.paused ?? 0) }
}

/**
 * The work waiting, each count only for an admin who may read the list it opens (the same rules
 * as getMenuCounts and the lists' own calls); undefined when none is theirs.
 */
async function workCard(db: Db, admin: AdminRow): Promise<WorkCard | undefined> {
  const [enquiries, requests, promotionCounts, newsletterCounts] = await Promise.all([
    permits(reads('/contactus'), admin) ? openEnquiries(db) : undefined,
    permits(staffReads('/sub-admin'), admin) ? pendingRequests(db) : undefined,
    permits(reads('/notificationlist'), admin) ? promotionWork(db) : undefined,
    permits(reads('/newsletter'), admin) ? newsletterWork(db) : undefined,
  ])
  if (enquiries === undefined && requests === undefined && promotionCounts === undefined && newsletterCounts === undefined) return undefined
  return {
    ...(enquiries === undefined ? {} : { openEnquiries: enquiries }),
    ...(requests === undefined ? {} : { accessRequests: requests }),
    ...promotionCounts,
    ...newsletterCounts,
  }
}

export const dashboardRoutes = handlers(dashboard, {
  getDashboard: async (_input, ctx) => {
    const admin = ctx.me()
    const [work, users, promotionCounts, linkCounts] = await Promise.all([
      workCard(ctx.db, admin),
      permits(reads('/users'), admin) ? usersCard(ctx.db) : undefined,
      permits(reads('/notificationlist'), admin) ? promotionsCard(ctx.db) : undefined,
      linksCard(ctx.db, admin),
    ])
    return {
      status: 'success',
      message: 'Dashboard fetched',
      ...(work === undefined ? {} : { work }),
      ...(users === undefined ? {} : { users }),
      ...(promotionCounts === undefined ? {} : { promotions: promotionCounts }),
      ...(linkCounts === undefined ? {} : { links: linkCounts }),
    }
  },

  // The side menu's counts, each decided by the rule of the list it counts (contract/leads.ts
  // getContactUS, contract/access-requests.ts listAccessRequests), so a count is never sent to
  // someone who may not read that list.
  getMenuCounts: async (_input, ctx) => {
    const admin = ctx.me()
    const [contactus, requests, pendingLinks] = await Promise.all([
      permits(reads('/contactus'), admin) ? openEnquiries(ctx.db) : undefined,
      permits(staffReads('/sub-admin'), admin) ? pendingRequests(ctx.db) : undefined,
      visibleLinkChanges(ctx.db, ctx.contract.endpoints, admin),
    ])
    // The changes waiting for this admin: another's, of a write they may make (the requester only
    // withdraws); counted for an admin who may make some write that stores a link.
    const decides = ctx.contract.endpoints.some((e) => linkFields(e).length > 0 && permits(e.access, admin))
    const linkChanges = decides ? pendingLinks.filter((p) => p.row.requestedBy !== admin.id).length : undefined
    return {
      status: 'success',
      message: 'Counts fetched',
      counts: {
        ...(contactus === undefined ? {} : { contactus }),
        ...(requests === undefined ? {} : { accessRequests: requests }),
        ...(linkChanges === undefined ? {} : { linkChanges }),
      },
    }
  },
})
