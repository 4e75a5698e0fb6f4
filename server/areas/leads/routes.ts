/**
 * Leads and contact enquiries (contract/leads.ts): paged, searchable lists and the CSV export.
 */
import { Readable } from 'node:stream'
import { and, desc, eq, getTableColumns, gte, lt, sql, type SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { z } from 'zod'
import pgCopy from 'pg-copy-streams'
import { contactBulk } from '#contract/bulk'
import * as leadsContract from '#contract/leads'
import { DAYS_REVERSED, UNKNOWN_COUNTRY, type ContactFilter, type LeadFilter } from '#contract/leads'
import { reads } from '#contract/define'
import { EXCLUSION_REASONS } from '#contract/forecast'
import { SocketEvents } from '#contract/socket'
import { FileAnswer, failure, notFound } from '../../kit/request/answers.ts'
import { handlers } from '../../kit/request/handlers.ts'
import { defineBulk } from '../../kit/request/bulk.ts'
import { permits } from '../../kit/ground/access/auth.ts'
import { keyedOrderOf, rowsAfter, type KeyedOrder } from '../../kit/ground/anchors.ts'
import { csvCellSql, csvLine, neutraliseSql } from '../../kit/ground/csv.ts'
import { exportGate } from '../../kit/rules/export-gate.ts'
import type { Db, DbHandle } from '../../db/index.ts'
import { brands, contactEnquiries, leads, promotionDeliveries, promotions, type LeadRow } from '../../db/schema.ts'
import { caseless, listCount, listPage, listPageRowsFirst, searchWhere, sortedOrder, type ListOrder, type SortInput } from '../../kit/request/paging.ts'
import { leadSearch } from '../../kit/rules/leads-search.ts'
import { addDays, startOfDay } from '../../kit/ground/zoned-day.ts'
import { countryName, countryNamed } from '../../kit/rules/countries.ts'

const toLead = (row: LeadRow) => ({
  _id: row.id,
  createdAt: row.createdAt.toISOString(),
  name: row.name,
  email: row.email,
  operatingsystem: row.operatingsystem,
  walletaddress: row.walletaddress,
  provider: row.provider,
  country: countryName(row.country),
})

/** What each sortable column of the leads (contract/leads.ts leadSort) sorts by; each has its index (schema.ts). */
const LEAD_SORT = { createdAt: leads.createdAt, name: caseless(leads.name), email: caseless(leads.email) } as const
/** Newest first: the list's order when none is asked for. */
const NEWEST_FIRST = [desc(leads.createdAt), desc(leads.id)] as const

/** The rows the filters keep (undefined: every row); a `to` before `from` is refused. */
function leadFilterWhere(filter: LeadFilter): SQL | undefined {
  if (filter.from !== '' && filter.to !== '' && filter.to < filter.from) throw failure(DAYS_REVERSED, { to: DAYS_REVERSED })
  const parts: SQL[] = []
  if (filter.provider !== '') parts.push(eq(leads.provider, filter.provider))
  if (filter.operatingsystem !== '') parts.push(sql`lower(${leads.operatingsystem}) = ${filter.operatingsystem.toLowerCase()}`)
  if (filter.country !== '') {
    // Stored as its code (leads_country_provider_idx); the list offers names, as listCountry spells them.
    const country = countryNamed(filter.country)
    if (country === undefined) throw failure(UNKNOWN_COUNTRY, { country: UNKNOWN_COUNTRY })
    parts.push(eq(leads.country, country.code))
  }
  // Instants past the years a date can be written in (a day at the calendar's ends, moved by a
  // zone) bound nothing, or everything.
  if (filter.from !== '') {
    const start = startOfDay(filter.from, filter.tz)
    if (start.getUTCFullYear() > 9999) parts.push(sql`false`)
    else if (start.getUTCFullYear() >= 1) parts.push(gte(leads.createdAt, start))
  }
  if (filter.to !== '') {
    const end = startOfDay(addDays(filter.to, 1), filter.tz)
    if (end.getUTCFullYear() < 1) parts.push(sql`false`)
    else if (end.getUTCFullYear() <= 9999) parts.push(lt(leads.createdAt, end))
  }
  return parts.length === 0 ? undefined : and(...parts)
}

/** The enquiries the status filter keeps (undefined: every one). */
const contactFilterWhere = (filter: ContactFilter): SQL | undefined =>
  filter.status === '' ? undefined : eq(contactEnquiries.status, filter.status)

const CONTACT_SEARCH = [contactEnquiries.name, contactEnquiries.email, contactEnquiries.message]

/** Bulk actions on Contact Us (contract/bulk.ts): the list's own search and status filter choose the rows. */
defineBulk({
  calls: contactBulk,
  list: leadsContract.getContactUS,
  table: contactEnquiries,
  id: contactEnquiries.id,
  // An enquiry has no title: the sender and the address, as the list shows them.
  name: sql`${contactEnquiries.name} || ' <' || ${contactEnquiries.email} || '>'`,
  order: [desc(contactEnquiries.createdAt), desc(contactEnquiries.id)],
  search: CONTACT_SEARCH,
  filter: contactFilterWhere,
  actions: {
    resolve: { set: { column: contactEnquiries.status, to: 'Resolved' } },
    reopen: { set: { column: contactEnquiries.status, to: 'Open' } },
  },
  // The menu's count of open enquiries, in every open PWA that shows it.
  changed: (realtime) => realtime?.toScreen('/contactus', SocketEvents.countsChanged, { screen: '/contactus' }),
})

/**
 * The export's text columns, after createdAt (which both SQL forms write as an ISO date): one list
 * for the header and the two SQL forms of a line, so a column cannot be in one and not the others.
 */
const TEXT_COLUMNS = ['name', 'email', 'operatingsystem', 'walletaddress', 'provider'] as const

/** Why a delivery was left out (requirements R2.37), '' for one that was not. */
const DeliveryReason = z.union([z.enum(EXCLUSION_REASONS), z.literal('')])

export const CSV_COLUMNS = ['createdAt', ...TEXT_COLUMNS] as const

/** The export's columns for COPY: text cells neutralised in SQL, dates as ISO UTC (as toISOString). */
const COPY_COLUMNS = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt", ${TEXT_COLUMNS.map((c) => `${neutraliseSql(c)} AS ${c}`).join(', ')}`

/**
 * The whole export's query for COPY. No ORDER BY: walking the created_at index costs about a
 * third of the export's time on a million rows, and a spreadsheet sorts in a click, so rows come
 * in storage order.
 */
const COPY_SQL = `COPY (SELECT ${COPY_COLUMNS} FROM leads) TO STDOUT WITH (FORMAT csv, HEADER true)`

/** The leads a list shows: its where clause (search and filters) and its order. */
interface Shown {
  where: SQL | undefined
  order: ListOrder
}

const dialect = new PgDialect()

/**
 * The export of the rows a list shows, for COPY, which takes no parameters: the values are written
 * into the statement as literals (drizzle's inlining doubles quotes; the connection sets
 * standard_conforming_strings, so a backslash is only a backslash).
 */
function shownCopySql(shown: Shown): string {
  const select = sql`SELECT ${sql.raw(COPY_COLUMNS)} FROM ${leads}${shown.where === undefined ? sql`` : sql` WHERE ${shown.where}`} ORDER BY ${sql.join([...shown.order.orderBy], sql`, `)}`
  const query = dialect.sqlToQuery(select.inlineParams())
  if (query.params.length > 0) throw new Error('the export query kept a parameter COPY cannot take')
  return `COPY (${query.sql}) TO STDOUT WITH (FORMAT csv, HEADER true)`
}

/**
 * Rows per batch of the PGlite export. Each batch arrives as one string, and V8 keeps a string over
 * 128 KiB in its large-object space, which only a full collection empties: with 10,000 rows
 * (about 1.2 MB) a million-row export grew the server by 68-70 MiB before one came (45-48 MiB
 * with 2,000-5,000). 800 rows (about 100 KB at the seeded rows' length) stay in the young
 * generation and go as they are sent: 6-20 MiB of growth, at 121,000-124,000 rows/s instead of
 * 144,000 (the target, docs/benchmarks.md: at least 100,000 rows/s under 400 MB).
 */
const EXPORT_BATCH = 800

/**
 * One CSV line per lead, built in SQL as COPY ... CSV would write it (the same neutralising and
 * quoting as csvLine), so PGlite hands over one string per batch instead of ten thousand rows.
 */
const LINE_SQL = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ',' || ${TEXT_COLUMNS.map(csvCellSql)
  .join(` || ',' || `)} || E'\\n'`
/**
 * Streams every lead as CSV without holding them all: COPY on PostgreSQL, keyset pages on PGlite.
 *
 * On PostgreSQL the COPY runs on a connection of its own, outside the pool: it lasts as long as
 * the download and a slow client holds it back, so on a pooled connection a few slow readers took
 * the whole pool and every other call (the session check first) waited for a connection until it
 * failed. Their number is bounded by the export gate (server/kit/rules/export-gate.ts), and the
 * connection is closed when the stream ends, fails or is cut off (the client went away, or read
 * nothing for EXPORT_IDLE_TIMEOUT_SECONDS). The pool's statement_timeout is not set on it: the
 * COPY would be cut halfway through a long download.
 *
 * On PGlite each batch is one short query awaited only when the client wants more, so a slow
 * reader holds no connection (and no transaction) between batches; the gate bounds its memory.
 */
async function exportLeads(handle: DbHandle, shown: Shown | null): Promise<Readable> {
  if (handle.kind === 'pg') {
    const { connectionString, host, port, user, password, database, ssl, application_name } = handle.pool.options
    const client = new pg.Client({ connectionString, host, port, user, password, database, ssl, application_name, connectionTimeoutMillis: 5000 })
    // An 'error' without a listener would end the process (a backend terminated mid-COPY).
    client.on('error', () => {})
    let closed = false
    const close = (): void => {
      if (closed) return
      closed = true
      void client.end().catch(() => {})
    }
    try {
      await client.connect()
      // The shown rows' COPY carries its values as literals (shownCopySql).
      if (shown !== null) await client.query('SET standard_conforming_strings = on')
    } catch (error) {
      close()
      throw error
    }
    const stream = client.query(pgCopy.to(shown === null ? COPY_SQL : shownCopySql(shown)))
    // Ended, failed or cut off: the connection goes (mid-COPY it is unusable anyway).
    stream.once('close', close)
    stream.once('error', close)
    return stream
  }
  return Readable.from(shown === null ? keysetCsv(handle.db) : shownCsv(handle.db, shown), { objectMode: false })
}

/** Pages through the primary key, so each batch is an index range and memory stays flat. */
async function* keysetCsv(db: Db): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS)
  let after = ''
  for (;;) {
    const [batch] = await db
      .select({ csv: sql<string | null>`string_agg(line, '' order by id)`, last: sql<string | null>`max(id)`, rows: sql<number>`count(*)::int` })
      .from(sql`(select id, ${sql.raw(LINE_SQL)} as line from leads where id > ${after} order by id limit ${EXPORT_BATCH}) as batch`)
    if (batch === undefined || batch.csv === null || batch.last === null) return
    yield batch.csv
    if (batch.rows < EXPORT_BATCH) return
    after = batch.last
  }
}

/**
 * The rows a list shows, in its order, a batch at a time: each batch goes on after the last key
 * of the one before (its order's keys, as the deep pages' anchors do), so it is an index range
 * whatever the depth.
 */
async function* shownCsv(db: Db, shown: Shown): AsyncGenerator<string> {
  const order: KeyedOrder | null = shown.order.keyed ?? keyedOrderOf(shown.order.orderBy)
  if (order === null) throw new Error('the leads export needs an order of plain keys')
  const orderBy = sql.join([...shown.order.orderBy], sql`, `)
  const keyTexts = sql.join(
    order.keys.map((k) => sql`(${k.value})::text`),
    sql`, `,
  )
  yield csvLine(CSV_COLUMNS)
  let last: string[] | null = null
  for (;;) {
    const where = and(shown.where, last === null ? undefined : rowsAfter(order, last))
    const [batch] = await db
      // The last key as JSON text: an array of arrays cannot be indexed down to one of them.
      .select({ csv: sql<string | null>`string_agg(line, '' order by n)`, last: sql<string | null>`(array_agg(array_to_json(k)::text order by n desc))[1]`, rows: sql<number>`count(*)::int` })
      .from(
        sql`(select ${sql.raw(LINE_SQL)} as line, array[${keyTexts}] as k, row_number() over (order by ${orderBy}) as n from ${leads}${where === undefined ? sql`` : sql` where ${where}`} order by ${orderBy} limit ${EXPORT_BATCH}) as batch`,
      )
    if (batch === undefined || batch.csv === null || batch.last === null) return
    yield batch.csv
    if (batch.rows < EXPORT_BATCH) return
    last = z.array(z.string()).parse(JSON.parse(batch.last))
  }
}

/** Whether a DownloadFile call asks for nothing but the whole export (the call of requirements R7.3). */
const asksForEverything = (input: { search: string } & SortInput<string> & LeadFilter): boolean =>
  input.search === '' && input.sortBy === undefined && input.sortOrder === undefined && input.provider === '' && input.operatingsystem === '' && input.country === '' && input.from === '' && input.to === ''

export const leadsRoutes = handlers(leadsContract, {
  getuser: async (query, ctx) => {
    const spec = { rows: ctx.db.select().from(leads).$dynamic(), search: leadSearch, filter: leadFilterWhere(query), orderBy: NEWEST_FIRST, sort: LEAD_SORT }
    const { rows, count } = query.count === 'later' ? await listPageRowsFirst(ctx.db, query, spec) : await listPage(ctx.db, query, spec)
    return { status: 'success', message: 'Users fetched', data: rows.map(toLead), count }
  },

  getuserCount: async (query, ctx) => {
    const count = await listCount(ctx.db, query, { rows: ctx.db.select().from(leads).$dynamic(), search: leadSearch, filter: leadFilterWhere(query) })
    return { status: 'success', message: 'Users counted', count }
  },

  DownloadFile: async (input, ctx) => {
    // Refused inputs (a reversed date range, sortOrder alone) answer before an export slot is taken.
    const shown = asksForEverything(input) ? null : { where: searchWhere(leadSearch, input.search, leadFilterWhere(input)), order: sortedOrder(input, LEAD_SORT, leads, NEWEST_FIRST) }
    return new FileAnswer('user.csv', 'text/csv; charset=utf-8', await exportGate(ctx.handle, ctx.config.exports).run(ctx.me().id, () => exportLeads(ctx.handle, shown)))
  },

  getContactUS: async (query, ctx) => {
    // The lead is named only to staff who may open its page (its existence is Leads' data).
    const leadId = permits(reads('/users'), ctx.me())
      ? // Spelled out with its tables: drizzle leaves a column unqualified in a one-table select.
        sql<string | null>`(select l.id from leads l where contact_enquiries.email <> '' and lower(l.email) = lower(contact_enquiries.email) order by l.id limit 1)`
      : sql<string | null>`null::uuid`
    const { rows, count } = await listPage(ctx.db, query, {
      rows: ctx.db.select({ ...getTableColumns(contactEnquiries), leadId }).from(contactEnquiries).$dynamic(),
      search: CONTACT_SEARCH,
      filter: contactFilterWhere(query),
      orderBy: [desc(contactEnquiries.createdAt), desc(contactEnquiries.id)],
      sort: { createdAt: contactEnquiries.createdAt, name: caseless(contactEnquiries.name), email: caseless(contactEnquiries.email) },
    })
    return {
      status: 'success',
      message: 'Enquiries fetched',
      result: rows.map((r) => ({
        _id: r.id,
        createdAt: r.createdAt.toISOString(),
        name: r.name,
        email: r.email,
        phonenumber: r.phonenumber,
        message: r.message,
        status: r.status,
        leadId: r.leadId,
      })),
      count,
    }
  },

  getLead: async ({ id }, ctx) => {
    const [row] = await ctx.db
      .select({ lead: leads, brandname: brands.brandname })
      .from(leads)
      .leftJoin(brands, eq(brands.id, leads.brandId))
      .where(eq(leads.id, id))
      .limit(1)
    if (row === undefined) return notFound('id')
    const { lead } = row
    // Each part read from another screen needs that screen's access, as its own list would.
    const me = ctx.me()
    const withheld = (Object.keys(leadsContract.leadPageParts) as leadsContract.LeadPagePart[]).filter((part) => !permits(reads(leadsContract.leadPageParts[part]), me))
    const shows = (part: leadsContract.LeadPagePart) => !withheld.includes(part)
    const [enquiries, deliveries, [counted]] = await Promise.all([
      lead.email === '' || !shows('enquiries')
        ? []
        : ctx.db
            .select()
            .from(contactEnquiries)
            .where(sql`lower(${contactEnquiries.email}) = ${lead.email.toLowerCase()}`)
            .orderBy(desc(contactEnquiries.createdAt), desc(contactEnquiries.id))
            .limit(leadsContract.LEAD_ENQUIRIES_SHOWN),
      !shows('deliveries')
        ? []
        : ctx.db
            .select({ promotionId: promotionDeliveries.promotionId, title: promotions.title, round: promotionDeliveries.round, status: promotionDeliveries.status, reason: promotionDeliveries.reason, sentAt: promotionDeliveries.sentAt, attempts: promotionDeliveries.attempts, createdAt: promotions.createdAt })
            .from(promotionDeliveries)
            .innerJoin(promotions, eq(promotions.id, promotionDeliveries.promotionId))
            .where(eq(promotionDeliveries.leadId, id))
            .orderBy(desc(promotions.createdAt), desc(promotionDeliveries.round))
            .limit(leadsContract.LEAD_DELIVERIES_SHOWN),
      !shows('deliveries') ? [] : ctx.db.select({ n: sql<number>`count(*)::int` }).from(promotionDeliveries).where(eq(promotionDeliveries.leadId, id)),
    ])
    const iso = (d: Date | null) => d?.toISOString() ?? ''
    return {
      status: 'success',
      message: 'Lead fetched',
      record: {
        ...toLead(lead),
        country: lead.country,
        brand: lead.brandId === null || row.brandname === null ? null : { _id: lead.brandId, brandname: row.brandname },
        subscribed: lead.subscribed,
        subscribedAt: iso(lead.subscribedAt),
        unsubscribedAt: iso(lead.unsubscribedAt),
      },
      enquiries: enquiries.map((r) => ({ _id: r.id, createdAt: r.createdAt.toISOString(), name: r.name, email: r.email, phonenumber: r.phonenumber, message: r.message, status: r.status })),
      deliveries: deliveries.map((d) => ({ promotionId: d.promotionId, title: d.title, round: d.round, status: d.status, reason: DeliveryReason.parse(d.reason ?? ''), sentAt: iso(d.sentAt), attempts: d.attempts })),
      deliveryCount: counted?.n ?? 0,
      withheld,
    }
  },

  setContactStatus: async ({ _id, status }, ctx) => {
    const [row] = await ctx.db.update(contactEnquiries).set({ status }).where(eq(contactEnquiries.id, _id)).returning({ id: contactEnquiries.id })
    if (row === undefined) return notFound('_id')
    ctx.audit(row.id)
    ctx.auditDetail(`status ${status}`)
    // The menu's count of open enquiries, in every open PWA that shows it.
    ctx.afterSuccess(() => ctx.realtime?.toScreen('/contactus', SocketEvents.countsChanged, { screen: '/contactus' }))
    return { status: 'success', message: status === 'Resolved' ? 'Enquiry marked Resolved' : 'Enquiry marked Open' }
  },
})
