/**
 * Leaving the newsletter (contract/newsletter.ts, unsubscribeStatus and unsubscribe): the signed
 * token every newsletter mail carries, and the three ways it is used.
 *
 * - The link in the mail opens the PWA's public page `/admin/unsubscribe?token=...`, which shows
 *   whom the link is for and asks; only its button (POST /api/admin/unsubscribe) unsubscribes. A
 *   GET never changes anything: mail scanners and link previews follow links.
 * - The `List-Unsubscribe` header names the same address, and mail clients that offer one-click
 *   unsubscribing (RFC 8058) POST `List-Unsubscribe=One-Click` to it: `oneClickUnsubscribe`
 *   answers that POST on /admin/unsubscribe, beside the page's GET. A POST is never made by a
 *   link scanner, and the token alone names the lead, so the body is read but not required
 *   (clients send it form-encoded or as multipart).
 *
 * Unsubscribing also takes back the lead's newsletter mails already queued but not yet sent, so a
 * send running at that moment mails them no more; the send's job skips them from then on anyway.
 *
 * The token is `<lead id>.<expiry, unix seconds>.<HMAC-SHA256>`, keyed with a key derived from
 * JWT_SECRET by HKDF under its own label (so it is unrelated to the session-token key and the
 * sealed 2FA secrets' key). It names one lead, so it cannot unsubscribe another; it lasts a year,
 * long past any reader's delay. Changing JWT_SECRET ends the links in mails already sent: their
 * readers get the "not valid" message and can use the next newsletter's link.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import * as newsletter from '#contract/newsletter'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/index.ts'
import { leads, mailOutbox, newsletterRecipients, newsletterSends } from '../../db/schema.ts'
import { ApiFailure } from '../../kit/request/answers.ts'
import { handlers } from '../../kit/request/handlers.ts'

/** How long an unsubscribe link works after its mail was made. */
export const UNSUBSCRIBE_TOKEN_DAYS = 365
const HKDF_INFO = 'newsletter-unsubscribe/v1'

export const INVALID_LINK = 'This unsubscribe link is not valid. Please use the link from the newsletter mail exactly as it is.'
export const EXPIRED_LINK = 'This unsubscribe link has expired. Please use the link in a more recent newsletter.'
export const UNKNOWN_SUBSCRIBER = 'This subscription no longer exists.'
export const UNSUBSCRIBED = 'You have been unsubscribed from the newsletter.'
export const ALREADY_UNSUBSCRIBED = 'You were already unsubscribed from the newsletter.'

const keys = new WeakMap<Uint8Array, Buffer>()
function keyOf(config: Config): Buffer {
  let key = keys.get(config.jwtSecret)
  if (key === undefined) {
    key = Buffer.from(hkdfSync('sha256', config.jwtSecret, new Uint8Array(0), HKDF_INFO, 32))
    keys.set(config.jwtSecret, key)
  }
  return key
}

const signature = (config: Config, leadId: string, expires: number): Buffer =>
  createHmac('sha256', keyOf(config)).update(`unsubscribe\n${leadId}\n${expires}`).digest()

/** The token of a lead's unsubscribe link, valid for UNSUBSCRIBE_TOKEN_DAYS from `now`. */
export function unsubscribeToken(config: Config, leadId: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + UNSUBSCRIBE_TOKEN_DAYS * 24 * 3600
  return `${leadId}.${expires}.${signature(config, leadId, expires).toString('base64url')}`
}

/** The page a mail links to (and the one-click address of its List-Unsubscribe header). */
export const unsubscribeUrl = (config: Config, token: string): string => `${config.publicUrl}/admin/unsubscribe?token=${encodeURIComponent(token)}`

export type TokenCheck = { ok: true; leadId: string } | { ok: false; message: string }

/** The lead a token names, or why it names none. The signature is checked before the expiry. */
export function checkUnsubscribeToken(config: Config, token: string, now = Date.now()): TokenCheck {
  const match = /^([A-Za-z0-9-]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token.trim())
  if (match === null) return { ok: false, message: INVALID_LINK }
  const [, leadId = '', expiresText = '', sig = ''] = match
  const expires = Number(expiresText)
  // Compared as text, not as decoded bytes: the last of the 43 characters carries two unused bits,
  // and a decoder ignores them, so four spellings of one signature would pass (a link altered in
  // its last character could still work). Only the one the server writes does.
  const given = Buffer.from(sig)
  const wanted = Buffer.from(signature(config, leadId, expires).toString('base64url'))
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return { ok: false, message: INVALID_LINK }
  if (expires * 1000 < now) return { ok: false, message: EXPIRED_LINK }
  return { ok: true, leadId }
}

/** Enough of an address for its owner to recognise it, not enough to harvest it: "ol***@example.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  if (at <= 0) return '***'
  const local = email.slice(0, at)
  return `${local.slice(0, Math.min(2, local.length - 1))}***${email.slice(at)}`
}

const leadOf = (check: TokenCheck): string => {
  if (!check.ok) throw new ApiFailure(400, check.message, { token: check.message })
  return check.leadId
}

/**
 * Ends the subscription of the lead a token names (idempotent). Answers the message to show;
 * throws a 400 for a bad or expired token and a 404 for a lead that no longer exists.
 */
export async function unsubscribeWithToken(db: Db, config: Config, token: string): Promise<string> {
  const leadId = leadOf(checkUnsubscribeToken(config, token))
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(leads)
      .set({ subscribed: false, unsubscribedAt: sql`now()` })
      .where(and(eq(leads.id, leadId), eq(leads.subscribed, true)))
      .returning({ id: leads.id })
    await withdrawQueuedMails(tx, leadId)
    if (changed.length > 0) return UNSUBSCRIBED
    const [lead] = await tx.select({ id: leads.id }).from(leads).where(eq(leads.id, leadId)).limit(1)
    if (lead === undefined) throw new ApiFailure(404, UNKNOWN_SUBSCRIBER, { token: UNKNOWN_SUBSCRIBER })
    return ALREADY_UNSUBSCRIBED
  })
}

/**
 * The lead's newsletter mails already in the mail queue but not yet handed to the SMTP server are
 * taken back (cancelled, their sealed bodies purged, as cancelMailGroup does for a whole send), and
 * their recipients recorded as left out, unsubscribed: a send running when the lead leaves mails them no more.
 * Looked up per running send by its primary key (send, lead), so the cost does not grow with the
 * sends of the past.
 */
async function withdrawQueuedMails(tx: Db, leadId: string): Promise<void> {
  const running = tx.select({ id: newsletterSends.id }).from(newsletterSends).where(inArray(newsletterSends.status, ['sending', 'paused']))
  const queued = tx
    .select({ mailId: newsletterRecipients.mailId })
    .from(newsletterRecipients)
    .where(and(inArray(newsletterRecipients.sendId, running), eq(newsletterRecipients.leadId, leadId), eq(newsletterRecipients.state, 'queued')))
  const withdrawn = await tx
    .update(mailOutbox)
    .set({ status: 'cancelled', body: null })
    .where(and(inArray(mailOutbox.id, queued), inArray(mailOutbox.status, ['pending', 'paused'])))
    .returning({ id: mailOutbox.id })
  if (withdrawn.length === 0) return
  await tx
    .update(newsletterRecipients)
    .set({ state: 'excluded', reason: 'unsubscribed' })
    .where(
      and(
        eq(newsletterRecipients.leadId, leadId),
        inArray(
          newsletterRecipients.mailId,
          withdrawn.map((w) => w.id),
        ),
      ),
    )
}

export const unsubscribeRoutes = handlers(newsletter, {
  unsubscribeStatus: async ({ token }, ctx) => {
    const leadId = leadOf(checkUnsubscribeToken(ctx.config, token))
    const [lead] = await ctx.db.select({ email: leads.email, subscribed: leads.subscribed }).from(leads).where(eq(leads.id, leadId)).limit(1)
    if (lead === undefined) throw new ApiFailure(404, UNKNOWN_SUBSCRIBER, { token: UNKNOWN_SUBSCRIBER })
    return { status: 'success', message: lead.subscribed ? 'Subscribed' : 'Not subscribed', data: { email: maskEmail(lead.email), subscribed: lead.subscribed } }
  },
  unsubscribe: async ({ token }, ctx) => ({ status: 'success', message: await unsubscribeWithToken(ctx.db, ctx.config, token) }),
})

const OneClickQuery = z.object({ token: z.string().max(500).default('') })

/**
 * RFC 8058 one-click: the mail client POSTs to the List-Unsubscribe address itself. Registered in
 * a scope of its own, whose body parser takes any content type as text (bounded): the form body
 * `List-Unsubscribe=One-Click` arrives form-encoded or as multipart, and neither may be refused.
 */
export function oneClickUnsubscribe(app: FastifyInstance, db: Db, config: Config): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => done(null, body))
    scope.post('/admin/unsubscribe', async (request, reply) => {
      const query = OneClickQuery.safeParse(request.query ?? {})
      const message = await unsubscribeWithToken(db, config, query.success ? query.data.token : '')
      return reply.send({ status: 'success', message })
    })
  })
}
