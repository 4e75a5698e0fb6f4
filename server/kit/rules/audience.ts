/**
 * The rules that leave leads out of a mass send (requirements R2.37), shared by promotions and the
 * newsletter: the forecast before a send counts them in SQL over the whole audience, and each
 * delivery runs the same rules again for its own recipients (server/areas/promotions/delivery.ts,
 * server/areas/newsletter/feeder.ts), so that what was forecast is what is recorded.
 *
 * A lead is left out for the first reason of EXCLUSION_REASONS that applies:
 * - `invalid-address`: the address is empty or not an address (EMAIL_PATTERN);
 * - `restricted-country`: its country is on the Restriction List and not hidden, while the rule is
 *   on (Settings; on by default);
 * - `unsubscribed`: a newsletter's lead who is not subscribed;
 * - `suppressed`: its address is in `suppressed_addresses` (kept lower-cased);
 * - `frequency-cap`: while the cap is on (Settings; off by default), the lead was already sent its
 *   N messages, promotions and newsletters together, within the last D days: counted from what
 *   the delivery ledgers record as sent (`capReached`), read from the database each time the rules
 *   run, so every instance judges alike;
 * - `duplicate`: another lead of the same send, not left out for any other reason and with a
 *   smaller id, has the same address (whatever its case): one mail per address.
 */
import { sql, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import { EXCLUSION_REASONS, FORECAST_CSV_COLUMNS, type ExclusionReason, type ForecastAnswer, type ForecastLead } from '#contract/forecast'
import type { Db } from '../../db/index.ts'
import { mailOutbox, newsletterRecipients, promotionDeliveries, restrictedCountries, suppressedAddresses } from '../../db/schema.ts'
import { COUNTRIES } from './countries.ts'
import { csvLine, neutralise } from '../ground/csv.ts'
import { offsetOf } from '../request/paging.ts'
import { readSiteRecord } from '../ground/site-settings.ts'

/** EMAIL_PATTERN of contract/common.ts as a PostgreSQL regular expression. */
export const ADDRESS_PATTERN = '^[^[:space:]@]+@[^[:space:]@]+\\.[^[:space:]@]{2,}$'

/** What a send's rules look at, as they stand when the rules run. */
export interface AudienceRules {
  /** The restricted-country rule (Settings). */
  countryRule: boolean
  /** A newsletter: a lead who is not subscribed is left out. */
  newsletter: boolean
  /** The frequency cap (Settings), null while it is off. */
  cap: Cap | null
  /**
   * At delivery, the send being delivered: what it sent already is not counted by the frequency
   * cap. Else the first of two leads sharing an address, once sent, would be capped by this very
   * send, and the second would no longer be its duplicate: it would be mailed too.
   */
  own?: OwnSend
}

/** A promotion's round, or a newsletter send. */
export type OwnSend = { promotionId: string; round: number } | { newsletterId: string }

/** At most `messages` sends per lead in `days` days. */
export interface Cap {
  messages: number
  days: number
}

/** One lead's facts as SQL expressions over the row being judged. */
export interface LeadFacts {
  /** The lead's id (the frequency cap counts what was sent to it). */
  id: SQL
  email: SQL
  country: SQL
  subscribed: SQL
}

/**
 * The rules of a send of this kind, as they stand now in Settings: the restricted-country rule is
 * on unless a superadmin turned it off, the frequency cap off unless one turned it on.
 */
export async function rulesFor(db: Db, kind: 'promotion' | 'newsletter'): Promise<AudienceRules> {
  const site = await readSiteRecord(db)
  return {
    countryRule: site?.restrictedCountryRule ?? true,
    newsletter: kind === 'newsletter',
    cap: site?.frequencyCapOn === true ? { messages: site.frequencyCapMessages, days: site.frequencyCapDays } : null,
  }
}

/**
 * The leads at the cap, as one set (`lead_id`): the same count as `capReached`, made once over the
 * sends of the last `cap.days` days instead of once per lead. The forecast judges a whole audience
 * (a million leads) in one statement, where two index probes per lead took longer than the
 * statement may run; a delivery judges a batch of its own recipients and keeps `capReached`.
 */
export function cappedLeads(cap: Cap, own?: OwnSend): SQL {
  const since = sql`now() - make_interval(days => ${cap.days}::int)`
  const notOwnRound = own !== undefined && 'promotionId' in own ? sql` and not (cd.promotion_id = ${own.promotionId} and cd.round = ${own.round})` : sql``
  const notOwnSend = own !== undefined && 'newsletterId' in own ? sql` and cr.send_id <> ${own.newsletterId}` : sql``
  return sql`select sent.lead_id from (
      select cd.lead_id from ${promotionDeliveries} cd where cd.status = 'sent' and cd.sent_at > ${since}${notOwnRound}
      union all
      select cr.lead_id from ${newsletterRecipients} cr join ${mailOutbox} cm on cm.id = cr.mail_id
        where cr.state = 'queued'${notOwnSend} and (cm.status = 'sent' and cm.sent_at > ${since} or cm.status = 'logged' and cm.created_at > ${since})
    ) sent group by sent.lead_id having count(*) >= ${cap.messages}::int`
}

/**
 * Whether the lead was sent `cap.messages` or more promotions and newsletters within the last
 * `cap.days` days: its promotion deliveries marked sent (promotion_deliveries_sent_idx) and its
 * newsletter mails the mail queue sent (newsletter_recipients_lead_idx, then each mail by the
 * outbox's key). A mail queued but not yet sent does not count: the cap counts what went out (a
 * mail printed to the log in development, MAIL_LOG_BODIES, counts as gone out, as the send's
 * progress counts it, from when it was queued: such a row has no send time).
 * Each side stops at `cap.messages` rows, so a lead sent a great deal costs no more than one at
 * the cap. Test mails ("Send a test to me") are in no ledger and never count.
 */
export function capReached(leadId: SQL, cap: Cap, own?: OwnSend): SQL {
  const since = sql`now() - make_interval(days => ${cap.days}::int)`
  const n = sql`${cap.messages}::int`
  const notOwnRound = own !== undefined && 'promotionId' in own ? sql` and not (cd.promotion_id = ${own.promotionId} and cd.round = ${own.round})` : sql``
  const notOwnSend = own !== undefined && 'newsletterId' in own ? sql` and cr.send_id <> ${own.newsletterId}` : sql``
  return sql`((select count(*) from (
      (select 1 from ${promotionDeliveries} cd
        where cd.lead_id = ${leadId} and cd.status = 'sent' and cd.sent_at > ${since}${notOwnRound} limit ${n})
      union all
      (select 1 from ${newsletterRecipients} cr join ${mailOutbox} cm on cm.id = cr.mail_id
        where cr.lead_id = ${leadId} and cr.state = 'queued'${notOwnSend} and (cm.status = 'sent' and cm.sent_at > ${since} or cm.status = 'logged' and cm.created_at > ${since}) limit ${n})
    ) capped) >= ${n})`
}

/**
 * Each reason's condition (a duplicate needs the other leads of the send: see `duplicateOf`).
 * `capped`: a relation of the leads at the cap (`cappedLeads`) that the statement holds, read
 * instead of counting each lead's sends.
 */
function conditions(lead: LeadFacts, rules: AudienceRules, capped?: SQL): Partial<Record<ExclusionReason, SQL>> {
  return {
    'invalid-address': sql`(${lead.email} is null or ${lead.email} !~ ${ADDRESS_PATTERN})`,
    ...(rules.countryRule ? { 'restricted-country': sql`${lead.country} in (select ${restrictedCountries.code} from ${restrictedCountries} where not ${restrictedCountries.hide})` } : {}),
    ...(rules.newsletter ? { unsubscribed: sql`not coalesce(${lead.subscribed}, false)` } : {}),
    suppressed: sql`lower(${lead.email}) in (select ${suppressedAddresses.address} from ${suppressedAddresses})`,
    ...(rules.cap === null ? {} : { 'frequency-cap': capped === undefined ? capReached(lead.id, rules.cap, rules.own) : sql`${lead.id} in (select lead_id from ${capped})` }),
  }
}

/**
 * The first reason, other than `duplicate`, that leaves this lead out, or null: a CASE whose
 * branches follow EXCLUSION_REASONS, so the order of the list is the precedence.
 */
export function reasonOf(lead: LeadFacts, rules: AudienceRules, capped?: SQL): SQL {
  const rule = conditions(lead, rules, capped)
  const branches = EXCLUSION_REASONS.flatMap((reason) => {
    const when = rule[reason]
    return when === undefined ? [] : [sql`when ${when} then ${reason}`]
  })
  return sql`(case ${sql.join(branches, sql` `)} else null end)`
}

/**
 * The precedence as a function of which reasons apply, the same order the SQL follows (its tests
 * compare the two on every combination).
 */
export function firstReason(applies: ReadonlySet<ExclusionReason>): ExclusionReason | null {
  return EXCLUSION_REASONS.find((reason) => applies.has(reason)) ?? null
}

/**
 * A whole audience for the forecast: a query answering one row per selected lead with the columns
 * `lead_id`, `name`, `email`, `country`, `subscribed` (a lead named twice is one row).
 */
export interface Audience {
  rows: SQL
  rules: AudienceRules
}

const leadOf = (alias: string): LeadFacts => {
  const a = sql.raw(alias)
  return { id: sql`${a}.lead_id`, email: sql`${a}.email`, country: sql`${a}.country`, subscribed: sql`${a}.subscribed` }
}

/** The relation of the leads at the cap the statement holds (`ruled`), while the cap is on. */
const capped = (rules: AudienceRules): SQL | undefined => (rules.cap === null ? undefined : sql.raw('capped'))

/**
 * The start of a statement over every selected lead: `audience` (the rows as selected; planned
 * in place wherever it is read, never stored) and `ruled`, each lead (`lead_id`, `name`, `email`,
 * `country`) with `address`, its lower-cased address, and `reason`: the first rule other than
 * `duplicate` that leaves it out, or null. The duplicates are told from these rows by the
 * callers: among the leads of one address whose reason is null, every one but the smallest id is
 * a duplicate, whatever the leads table holds now (a stored promotion's audience keeps the
 * addresses frozen at Submit).
 */
function ruled(audience: Audience): SQL {
  const { rules } = audience
  return sql`
    with audience as not materialized (${audience.rows}),
    ${rules.cap === null ? sql`` : sql`capped as materialized (${cappedLeads(rules.cap, rules.own)}),`}
    ruled as (
      select a.lead_id, a.name, a.email, a.country, lower(a.email) as address, ${reasonOf(leadOf('a'), rules, capped(rules))} as reason
      from audience a
    )`
}

/**
 * A statement's start (`ruled`) with `left_out`, the leads `reason` leaves out. For `duplicate`:
 * the addresses more than one kept lead has, each with its smallest id, by grouping the addresses
 * (a hash aggregate, never a sort of every lead by address); then the audience is read again for
 * the other leads of those addresses alone, and only they are judged a second time.
 */
function leftOut(audience: Audience, reason: ExclusionReason): SQL {
  if (reason !== 'duplicate') return sql`${ruled(audience)}, left_out as (select lead_id, name, email, country from ruled where reason = ${reason})`
  return sql`${ruled(audience)},
    firsts as (select address, min(lead_id) as first from ruled where reason is null group by address having count(*) > 1),
    left_out as (
      select b.lead_id, b.name, b.email, b.country from audience b join firsts f on f.address = lower(b.email) and b.lead_id > f.first
      where ${reasonOf(leadOf('b'), audience.rules, capped(audience.rules))} is null
    )`
}

const Counts = z.object({ rows: z.array(z.object({ why: z.string().nullable(), n: z.coerce.number(), addresses: z.coerce.number() })) })

/**
 * The forecast of an audience: counted by the database, the leads never leave it. One pass over
 * the audience: each lead's reason by the rules, then the leads grouped by reason and address (a
 * hash aggregate). Of the leads no rule leaves out, one per address is a recipient and the rest
 * are duplicates: n leads on one address are n - 1 duplicates, as the smallest id is the one kept.
 */
export async function forecast(db: Db, audience: Audience): Promise<Omit<ForecastAnswer, 'status' | 'message'>> {
  const { rows } = Counts.parse(
    await db.execute(sql`${ruled(audience)}
      select reason as why, sum(n) as n, count(*) as addresses
      from (select reason, address, count(*) as n from ruled group by reason, address) per_address
      group by reason`),
  )
  let selected = 0
  let recipients = 0
  const by = new Map<string, number>()
  for (const row of rows) {
    selected += row.n
    if (row.why === null) {
      recipients = row.addresses
      by.set('duplicate', row.n - row.addresses)
    } else by.set(row.why, row.n)
  }
  const excluded = EXCLUSION_REASONS.flatMap((reason) => {
    const count = by.get(reason) ?? 0
    return count === 0 ? [] : [{ reason, count }]
  })
  return { selected, recipients, excluded, restrictedCountryRule: audience.rules.countryRule }
}

/** The forecast's words: how many it reaches, how many are left out, and the country rule's state. */
export function forecastMessage(f: Omit<ForecastAnswer, 'status' | 'message'>): string {
  const left = f.selected - f.recipients
  const rule = f.restrictedCountryRule ? '' : '; the restricted-country rule is off'
  return `${f.recipients.toLocaleString('en-US')} of ${f.selected.toLocaleString('en-US')} selected will receive it, ${left.toLocaleString('en-US')} left out${rule}`
}

const countryNames = new Map(COUNTRIES.map((c) => [c.code, c.name]))
const Lead = z.object({ lead_id: z.string(), name: z.string().nullable(), email: z.string().nullable(), country: z.string().nullable() })
const LeadRows = z.object({ rows: z.array(Lead) })
const Count = z.object({ rows: z.array(z.object({ n: z.coerce.number() })) })
const toLead = (row: z.output<typeof Lead>): ForecastLead => ({
  _id: row.lead_id,
  name: row.name ?? '',
  email: row.email ?? '',
  country: countryNames.get(row.country ?? '') ?? row.country ?? '',
})

/** One page of the leads a forecast leaves out for `reason`, by id, and how many there are. */
export async function forecastLeads(db: Db, audience: Audience, reason: ExclusionReason, page: number, limit: number): Promise<{ result: ForecastLead[]; count: number }> {
  const from = leftOut(audience, reason)
  const [rows, counted] = await Promise.all([
    db.execute(sql`${from} select lead_id, name, email, country from left_out order by lead_id limit ${limit} offset ${offsetOf(page, limit)}`),
    db.execute(sql`${from} select count(*) as n from left_out`),
  ])
  return { result: LeadRows.parse(rows).rows.map(toLead), count: Count.parse(counted).rows[0]?.n ?? 0 }
}

/** Leads per CSV batch. */
const CSV_BATCH = 5000

/**
 * The leads a forecast leaves out for `reason` as CSV, a batch at a time by id (each batch one
 * short query awaited only when the client wants more, so a slow reader holds no connection).
 */
export async function* forecastCsv(db: Db, audience: Audience, reason: ExclusionReason): AsyncGenerator<string> {
  yield csvLine(FORECAST_CSV_COLUMNS)
  let after = ''
  for (;;) {
    const { rows } = LeadRows.parse(
      await db.execute(sql`${leftOut(audience, reason)} select lead_id, name, email, country from left_out where lead_id > ${after} order by lead_id limit ${CSV_BATCH}`),
    )
    if (rows.length > 0) yield rows.map((row) => toLead(row)).map((l) => csvLine([l._id, l.name, l.email, l.country, reason].map(neutralise))).join('')
    const last = rows[rows.length - 1]
    if (last === undefined || rows.length < CSV_BATCH) return
    after = last.lead_id
  }
}

/**
 * At delivery: whether an earlier lead of the same send (`others`: a query of the send's leads with
 * the columns `lead_id`, `email`, `country`, `subscribed`, already narrowed to this lead's address
 * and to smaller ids by the caller) is not left out for any other reason, which makes this one a
 * duplicate.
 */
export function duplicateOf(others: SQL, rules: AudienceRules): SQL {
  const o = { id: sql`o.lead_id`, email: sql`o.email`, country: sql`o.country`, subscribed: sql`o.subscribed` }
  return sql`exists (select 1 from (${others}) o where ${reasonOf(o, rules)} is null)`
}

/** A reason as the database answers it (null: none). */
export const ReasonColumn = z.enum(EXCLUSION_REASONS).nullable()
