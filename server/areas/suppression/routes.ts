/**
 * Suppressed addresses (contract/suppression.ts): the list staff read and change by hand, and the
 * mail provider's signed events (bounce, complaint) that suppress an address the moment they
 * arrive. The list itself and its rules are server/kit/ground/suppression.ts's, which the mail queue
 * shares (a permanent SMTP refusal suppresses too).
 *
 * The webhook's signature is HMAC-SHA256 over the raw body, keyed with MAIL_EVENTS_SECRET, sent as
 * `X-Mail-Events-Signature: sha256=<hex>` and compared in constant time. It is checked before
 * the body is parsed (server/kit/request/api.ts, SignedBody), so a forged call changes nothing and learns
 * nothing of what a well-formed event would be. Each event's id is kept (`mail_events_seen`), in
 * the transaction that suppresses its address: a provider's retry of an event it already sent
 * changes nothing and is answered `duplicate: true`, so the provider stops retrying.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { asc, desc, eq } from 'drizzle-orm'
import * as suppression from '#contract/suppression'
import { MAIL_EVENTS_SIGNATURE_HEADER, type SuppressedAddress } from '#contract/suppression'
import { ApiFailure, failure, notFound } from '../../kit/request/answers.ts'
import { handlers } from '../../kit/request/handlers.ts'
import { caseless, listPage } from '../../kit/request/paging.ts'
import { suppressAddress } from '../../kit/ground/suppression.ts'
import type { Config } from '../../config.ts'
import { mailEventsSeen, suppressedAddresses, type SuppressedAddressRow } from '../../db/schema.ts'

export const ALREADY_SUPPRESSED = 'This address is suppressed already'
export const BAD_SIGNATURE = 'The signature does not match the body'
/** A provider event is a few hundred bytes; anything far larger is not one. */
const MAX_EVENT_BYTES = 16 * 1024

const toEntry = (row: SuppressedAddressRow): SuppressedAddress => ({
  _id: row.address,
  address: row.address,
  reason: row.reason,
  source: row.source,
  createdAt: row.createdAt.toISOString(),
})

/** The signature a body must carry: `sha256=` and the hex HMAC-SHA256 of its bytes. */
export const mailEventSignature = (secret: string, body: Buffer | string): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

/** The webhook's gate: off (404) without a secret, 401 unless the header signs these very bytes. */
function verifyMailEvent(raw: Buffer, headers: Record<string, string | string[] | undefined>, config: Config): ApiFailure | null {
  if (config.mailEventsSecret === null) return new ApiFailure(404, 'Not found')
  const header = headers[MAIL_EVENTS_SIGNATURE_HEADER.toLowerCase()]
  const given = Buffer.from(typeof header === 'string' ? header.trim() : '')
  const wanted = Buffer.from(mailEventSignature(config.mailEventsSecret, raw))
  // Lengths differ only for a malformed header (the wanted one's length is fixed): no secret in that.
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return new ApiFailure(401, BAD_SIGNATURE)
  return null
}

export const suppressionRoutes = handlers(
  suppression,
  {
    listSuppressedAddresses: async (query, ctx) => {
      const { rows, count } = await listPage(ctx.db, query, {
        rows: ctx.db.select().from(suppressedAddresses).$dynamic(),
        search: [suppressedAddresses.address, suppressedAddresses.source],
        orderBy: [desc(suppressedAddresses.createdAt), asc(suppressedAddresses.address)],
        sort: {
          address: suppressedAddresses.address,
          reason: suppressedAddresses.reason,
          createdAt: suppressedAddresses.createdAt,
          source: caseless(suppressedAddresses.source),
        },
      })
      return { status: 'success', message: 'Suppressed addresses fetched', result: rows.map(toEntry), count }
    },

    addSuppressedAddress: async ({ address }, ctx) => {
      const admin = ctx.me()
      const added = await suppressAddress(ctx.db, { address, reason: 'manual', source: admin.email, createdBy: admin.id })
      if (!added) throw failure(ALREADY_SUPPRESSED, { address: ALREADY_SUPPRESSED })
      ctx.audit(address)
      return { status: 'success', message: `${address} suppressed: mass sends leave it out` }
    },

    removeSuppressedAddress: async ({ address }, ctx) => {
      const removed = await ctx.db.delete(suppressedAddresses).where(eq(suppressedAddresses.address, address)).returning({ address: suppressedAddresses.address })
      if (removed.length === 0) return notFound('address')
      ctx.audit(address)
      return { status: 'success', message: `${address} is no longer suppressed` }
    },

    mailEvents: async (event, ctx) => {
      const seen = await ctx.db
        .insert(mailEventsSeen)
        .values({ eventId: event.id, type: event.type, address: event.email })
        .onConflictDoNothing({ target: mailEventsSeen.eventId })
        .returning({ eventId: mailEventsSeen.eventId })
      if (seen.length === 0) return { status: 'success', message: 'Event received before; nothing changed', duplicate: true }
      const added = await suppressAddress(ctx.db, { address: event.email, reason: event.type, source: event.id })
      return { status: 'success', message: added ? `${event.email} suppressed` : `${event.email} was suppressed already`, duplicate: false }
    },
  },
  { mailEvents: { verify: verifyMailEvent, maxBytes: MAX_EVENT_BYTES } },
)
