/**
 * Access requests (contract/access-requests.ts): the register screen of requirements R2.5, made a request that
 * a staff manager approves or declines instead of an open sign-up to a back-office.
 *
 * - A request proves its mailbox before anyone sees it. `register` mails a single-use link to the
 *   address (through the mail queue, template `access-request-confirm`), alive for 24 hours; only
 *   requests whose link was opened are listed to staff managers, and the server refuses to approve
 *   any other. Otherwise an outsider could ask in a new colleague's name, be approved by someone
 *   who recognises the name, and sign in as them.
 * - A new request for an address whose request is still unconfirmed replaces it (a new id, a new
 *   link; the old link stops working): the mailbox's owner always wins over someone who typed
 *   their address, by confirming. A confirmed request is kept until it is decided.
 * - `register` never tells who exists: it answers the same, in about the same time, for a new
 *   email, one already requested (confirmed or not) and an admin's. The password is hashed first
 *   in every case, then one statement stores the request only when no admin and no confirmed
 *   request has the email; only a stored request is mailed, in the same transaction, and the mail
 *   leaves from the queue later, so SMTP's time never shows in the answer.
 * - The link's secret is stored only as its SHA-256, like a password reset token: a read of the
 *   table cannot confirm anything. Used once, it is cleared; a second use says the link is spent.
 * - A request is no account: login reads admins only, so its credentials fail like a wrong password.
 * - Approval creates the admin (role subadmin, active, the requested email and password hash) with
 *   Create User's access rules and privilege ceiling (server/areas/staff/routes.ts), and removes the
 *   request, in one transaction. Confirmation, approval and decline are each in the audit log.
 */
import { and, desc, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import { z } from 'zod'
import * as requests from '#contract/access-requests'
import { SocketEvents } from '#contract/socket'
import { ApiFailure, failure, notFound } from '../../kit/request/answers.ts'
import { handlers, type Ctx, type RateLimit } from '../../kit/request/handlers.ts'
import { accessRequests, admins } from '../../db/schema.ts'
import { caseless, listPage } from '../../kit/request/paging.ts'
import { uniqueField } from '../../kit/request/unique.ts'
import { renderMail, TemplateUnavailable } from '../../kit/ground/mail/templates.ts'
import type { Config } from '../../config.ts'
import { EMAIL_TAKEN, grantCheck, grantedPages } from '../../kit/rules/access/grants.ts'
import { secondFactor } from '../../kit/rules/access/second-factor.ts'
import { newConfirmToken, tokenHash } from './link-token.ts'
import { mailPasswordSetup, sendPasswordLink, setFirstPassword } from './password-setup.ts'

export const REQUEST_RECEIVED = 'Your request has been received. Open the link we sent to your email to confirm it; an administrator reviews it after that.'
export const REQUEST_CONFIRMED = 'Your email address is confirmed. An administrator will review your request; you can log in once it is approved.'
export const REQUEST_ALREADY_CONFIRMED = 'This link has already been used: your email address is confirmed and your request is waiting for review.'
export const INVALID_CONFIRM_LINK = 'This confirmation link is not valid. It may have been replaced by a newer request for the same address: use the link in the latest mail, or request access again.'
export const EXPIRED_CONFIRM_LINK = 'This confirmation link has expired. Please request access again to get a new one.'
export const REQUEST_UNCONFIRMED = 'This access request has not been confirmed from its email address yet, so it cannot be approved'
export const REQUEST_APPROVED = 'Access request approved successfully'
export const REQUEST_DECLINED = 'Access request declined successfully'
/** Approval keeps the email the requester asked with: the password they chose goes with it. */
export const REQUEST_EMAIL_FIXED = 'The email of an access request cannot be changed'

/** How long a confirmation link works after its mail was made. */
export const CONFIRM_LINK_HOURS = 24

/** Per address, as the OTP sends are limited (server/areas/password/routes.ts). */
const registerLimit: RateLimit = { max: () => 10, timeWindow: 15 * 60 * 1000 }
/** The link's secret is 256 bits, so this only keeps a flood of guesses off the database. */
const confirmLimit: RateLimit = { max: () => 30, timeWindow: 15 * 60 * 1000 }

/** Create User's rule: one admin per (lower-cased) email, with its message. */
const adminEmails = uniqueField({ column: admins.email, id: admins.id, index: 'admins_email_key', field: 'email', message: EMAIL_TAKEN })

export { newConfirmToken }

/** The public page the mail links to; its button confirms (a GET changes nothing: mail scanners follow links). */
export const confirmUrl = (config: Config, token: string): string => `${config.publicUrl}/admin/confirm-request?token=${encodeURIComponent(token)}`

const StoredId = z.object({ rows: z.array(z.object({ id: z.string() })) })

/** The columns staff see: never the password hash nor the link's. */
const shown = { _id: accessRequests.id, name: accessRequests.name, email: accessRequests.email, createdAt: accessRequests.createdAt, confirmedAt: accessRequests.confirmedAt }
const confirmed = isNotNull(accessRequests.confirmedAt)
const asAnswer = (row: { _id: string; name: string; email: string; createdAt: Date; confirmedAt: Date | null }): requests.AccessRequest => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  confirmedAt: row.confirmedAt?.toISOString() ?? '',
})

/** What an approval's or decline's audit row says of the request it decided. */
/** The side menu's count of pending requests changed: every open Users and Access asks for it again. */
const countsChanged = (ctx: Ctx): void =>
  ctx.afterSuccess(() => ctx.realtime?.toScreen('/sub-admin', SocketEvents.countsChanged, { screen: '/sub-admin' }))

const requestDetail = (email: string, confirmedAt: Date | null): string =>
  `request from ${email}, ${confirmedAt === null ? 'unconfirmed' : `confirmed ${confirmedAt.toISOString()}`}`

export const accessRequestRoutes = handlers(
  requests,
  {
    register: {
      prepare: async ({ name, email }) => {
        const address = email.toLowerCase()
        const link = newConfirmToken()
        return async (ctx) => {
          const expires = new Date(Date.now() + CONFIRM_LINK_HOURS * 3600 * 1000)
          // Requests whose link can no longer be opened are dead weight: gone at the next request,
          // whoever makes it (the table stays as small as the rate limit keeps the requests).
          await ctx.db.delete(accessRequests).where(and(isNull(accessRequests.confirmedAt), or(isNull(accessRequests.confirmExpiresAt), lt(accessRequests.confirmExpiresAt, new Date()))))
          // One statement whatever the case, so the cases cost the same work too. An unconfirmed
          // request for the address is replaced whole (a new id), its link with it.
          const stored = StoredId.parse(
            await ctx.db.execute(sql`
              insert into access_requests (name, email, confirm_token_hash, confirm_expires_at)
              select ${name}, ${address}, ${link.hash}, ${expires.toISOString()}::timestamptz
              where not exists (select 1 from ${admins} where ${admins.email} = ${address})
              on conflict (email) do update set
                id = gen_random_uuid()::text, created_at = now(), name = excluded.name,
                confirm_token_hash = excluded.confirm_token_hash, confirm_expires_at = excluded.confirm_expires_at
              where access_requests.confirmed_at is null
              returning id`),
          ).rows
          // Rendered in every case, so only the queueing of a mail differs between them (two inserts;
          // bench/trust.ts measures the four cases).
          const mail = await renderMail(ctx.db, 'access-request-confirm', { name, confirmUrl: confirmUrl(ctx.config, link.token), hours: String(CONFIRM_LINK_HOURS) }).catch((error: unknown) => {
            // A template switched off must not turn into an answer that differs by email: the
            // request is kept (its sender can ask again once the template is back) and the log says why.
            if (!(error instanceof TemplateUnavailable)) throw error
            ctx.log.error({ template: error.identifier }, 'access request stored but its confirmation mail not sent: the template is missing or inactive')
            return null
          })
          if (stored.length > 0 && mail !== null) await ctx.sendMail({ to: address, template: 'access-request-confirm', ...mail })
          return { status: 'success', message: REQUEST_RECEIVED }
        }
      },
    },

    getRequestToConfirm: async ({ token }, ctx) => {
      const [request] = await ctx.db
        .select({ name: accessRequests.name, email: accessRequests.email, createdAt: accessRequests.createdAt, expires: accessRequests.confirmExpiresAt, confirmedAt: accessRequests.confirmedAt })
        .from(accessRequests)
        .where(eq(accessRequests.confirmTokenHash, tokenHash(token)))
        .limit(1)
      if (request === undefined) return failure(INVALID_CONFIRM_LINK, { token: INVALID_CONFIRM_LINK })
      if (request.confirmedAt !== null) return failure(REQUEST_ALREADY_CONFIRMED, { token: REQUEST_ALREADY_CONFIRMED })
      if (request.expires === null || request.expires.getTime() < Date.now()) return failure(EXPIRED_CONFIRM_LINK, { token: EXPIRED_CONFIRM_LINK })
      return { status: 'success', message: 'Access request fetched', data: { name: request.name, email: request.email, createdAt: request.createdAt.toISOString() } }
    },

    confirmAccessRequest: async ({ token }, ctx) => {
      const [request] = await ctx.db
        .select({ id: accessRequests.id, expires: accessRequests.confirmExpiresAt, confirmedAt: accessRequests.confirmedAt })
        .from(accessRequests)
        .where(eq(accessRequests.confirmTokenHash, tokenHash(token)))
        .for('update')
        .limit(1)
      if (request === undefined) return failure(INVALID_CONFIRM_LINK, { token: INVALID_CONFIRM_LINK })
      if (request.confirmedAt !== null) return failure(REQUEST_ALREADY_CONFIRMED, { token: REQUEST_ALREADY_CONFIRMED })
      if (request.expires === null || request.expires.getTime() < Date.now()) return failure(EXPIRED_CONFIRM_LINK, { token: EXPIRED_CONFIRM_LINK })
      await ctx.db.update(accessRequests).set({ confirmedAt: new Date(), confirmExpiresAt: null }).where(eq(accessRequests.id, request.id))
      // Nobody is signed in: the row names the request, and the address that opened the link.
      ctx.auditAnonymous(request.id)
      countsChanged(ctx)
      return { status: 'success', message: REQUEST_CONFIRMED }
    },

    listAccessRequests: async (query, ctx) => {
      const { rows, count } = await listPage(ctx.db, query, {
        rows: ctx.db.select(shown).from(accessRequests).$dynamic(),
        filter: confirmed,
        search: [accessRequests.name, accessRequests.email],
        orderBy: [desc(accessRequests.createdAt), desc(accessRequests.id)],
        sort: { name: caseless(accessRequests.name), email: caseless(accessRequests.email), createdAt: accessRequests.createdAt, confirmedAt: accessRequests.confirmedAt },
      })
      return { status: 'success', message: 'Access requests fetched', result: rows.map(asAnswer), count }
    },

    getAccessRequest: async ({ id }, ctx) => {
      const [row] = await ctx.db
        .select(shown)
        .from(accessRequests)
        .where(and(eq(accessRequests.id, id), confirmed))
        .limit(1)
      if (row === undefined) return notFound('id')
      return { status: 'success', message: 'Access request fetched', data: asAnswer(row) }
    },

    approveAccessRequest: async ({ _id, name, email, accessLevel, restrictions, twoFACode }, ctx) => {
      const me = ctx.me()
      const granted = grantedPages(accessLevel, restrictions, false, 'Restrictions is required')
      if (granted instanceof ApiFailure) return granted
      const ceiling = grantCheck(me, accessLevel, granted)
      if (ceiling !== null) return ceiling
      // Create User's second factor: approving makes staff just as creating does.
      const second = await secondFactor(ctx, me, twoFACode, 'twoFACode', true)
      if (!second.ok) return second.answer
      const approved = await ctx.transaction(async (tx) => {
        // Locked, so two approvals of one request cannot both create an admin.
        const [request] = await tx.select().from(accessRequests).where(eq(accessRequests.id, _id)).for('update')
        if (request === undefined) throw notFound('_id')
        // Staff never see an unconfirmed request, but an id can still be sent by hand.
        if (request.confirmedAt === null) throw failure(REQUEST_UNCONFIRMED, { _id: REQUEST_UNCONFIRMED })
        if (email.toLowerCase() !== request.email) throw failure(REQUEST_EMAIL_FIXED, { email: REQUEST_EMAIL_FIXED })
        const taken = await adminEmails.check(tx, request.email)
        if (taken !== null) throw taken
        // guard: an admin created with that email by a racing Create User is the same answer.
        const [created] = await adminEmails.guard(() =>
          tx
            .insert(admins)
            .values({ name, email: request.email, passwordHash: null, role: 'subadmin', accessLevel, restrictions: granted, activate: 1 })
            .returning({ id: admins.id }),
        )
        if (created === undefined) throw new Error('the admin insert returned no row')
        await tx.delete(accessRequests).where(eq(accessRequests.id, request.id))
        // The member's only way in: a password they set from their own mailbox.
        await mailPasswordSetup(ctx, tx, { id: created.id, name, email: request.email })
        return { id: created.id, detail: requestDetail(request.email, request.confirmedAt) }
      })
      // The lasting record is the new admin; the request it came from no longer exists, so the
      // row says what it was.
      ctx.audit(approved.id)
      ctx.auditDetail(approved.detail)
      countsChanged(ctx)
      return { status: 'success', message: REQUEST_APPROVED }
    },

    declineAccessRequest: async ({ id }, ctx) => {
      const [removed] = await ctx.db.delete(accessRequests).where(eq(accessRequests.id, id)).returning({ id: accessRequests.id, email: accessRequests.email, confirmedAt: accessRequests.confirmedAt })
      if (removed === undefined) return notFound('id')
      ctx.audit(removed.id)
      ctx.auditDetail(requestDetail(removed.email, removed.confirmedAt))
      countsChanged(ctx)
      return { status: 'success', message: REQUEST_DECLINED }
    },

    setFirstPassword,
    sendPasswordLink,
  },
  { register: registerLimit, confirmAccessRequest: confirmLimit, getRequestToConfirm: confirmLimit, setFirstPassword: confirmLimit },
)
