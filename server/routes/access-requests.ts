/**
 * Access requests (contract/access-requests.ts): the spec's register screen, made a request that
 * a staff manager approves or declines instead of an open sign-up to a back-office.
 *
 * - `register` never tells who exists: it answers the same, in about the same time, for a new
 *   email, one already requested and an admin's. The password is hashed first in every case, then
 *   one statement stores the request only when neither an admin nor an earlier request has the
 *   email. An earlier request is kept, never overwritten: otherwise anyone could replace the
 *   password of someone else's pending request before it is approved.
 * - A request is no account: login reads admins only, so its credentials fail like a wrong password.
 * - Approval creates the admin (role subadmin, active, the requested email and password hash) with
 *   Create User's access rules and privilege ceiling (server/routes/staff.ts), and removes the
 *   request, in one transaction.
 */
import { desc, eq, sql } from 'drizzle-orm'
import * as requests from '#contract/access-requests'
import { ApiFailure, failure, handlers, notFound, type RateLimit } from '../kit/api.ts'
import { accessRequests, admins } from '../db/schema.ts'
import { listPage } from '../kit/paging.ts'
import { uniqueField } from '../kit/unique.ts'
import { EMAIL_TAKEN, grantCheck, grantedPages } from './staff.ts'

export const REQUEST_RECEIVED = 'Your request has been sent. You can log in once an administrator approves it.'
export const REQUEST_APPROVED = 'Access request approved successfully'
export const REQUEST_DECLINED = 'Access request declined successfully'
/** Approval keeps the email the requester asked with: the password they chose goes with it. */
export const REQUEST_EMAIL_FIXED = 'The email of an access request cannot be changed'

/** Per address, as the OTP sends are limited (server/routes/password.ts). */
const registerLimit: RateLimit = { max: () => 10, timeWindow: 15 * 60 * 1000 }

/** Create User's rule: one admin per (lower-cased) email, with its message. */
const adminEmails = uniqueField({ column: admins.email, id: admins.id, index: 'admins_email_key', field: 'email', message: EMAIL_TAKEN })

export const accessRequestRoutes = handlers(
  requests,
  {
    // The hash is made before the write's transaction opens (kit/api.ts, PreparedHandler): a public
    // call must not hold the database (PGlite's only connection) for argon2's time.
    register: {
      prepare: async ({ name, email, password }, outside) => {
        const address = email.toLowerCase()
        const passwordHash = await outside.passwords.hash(password)
        return async (ctx) => {
          // One statement whatever the case, so the three cases cost the same work too.
          await ctx.db.execute(sql`
            insert into access_requests (name, email, password_hash)
            select ${name}, ${address}, ${passwordHash}
            where not exists (select 1 from ${admins} where ${admins.email} = ${address})
            on conflict (email) do nothing`)
          return { status: 'success', message: REQUEST_RECEIVED }
        }
      },
    },

    listAccessRequests: async (query, ctx) => {
      const { rows, count } = await listPage(ctx.db, query, {
        // Never the password hash.
        rows: ctx.db
          .select({ _id: accessRequests.id, name: accessRequests.name, email: accessRequests.email, createdAt: accessRequests.createdAt })
          .from(accessRequests)
          .$dynamic(),
        search: [accessRequests.name, accessRequests.email],
        orderBy: [desc(accessRequests.createdAt), desc(accessRequests.id)],
      })
      return { status: 'success', message: 'Access requests fetched', result: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), count }
    },

    getAccessRequest: async ({ id }, ctx) => {
      const [row] = await ctx.db
        .select({ _id: accessRequests.id, name: accessRequests.name, email: accessRequests.email, createdAt: accessRequests.createdAt })
        .from(accessRequests)
        .where(eq(accessRequests.id, id))
        .limit(1)
      if (row === undefined) return notFound('id')
      return { status: 'success', message: 'Access request fetched', data: { ...row, createdAt: row.createdAt.toISOString() } }
    },

    approveAccessRequest: async ({ _id, name, email, accessLevel, restrictions }, ctx) => {
      const me = ctx.me()
      const granted = grantedPages(accessLevel, restrictions, false, 'Restrictions is required')
      if (granted instanceof ApiFailure) return granted
      const ceiling = grantCheck(me, accessLevel, granted)
      if (ceiling !== null) return ceiling
      const adminId = await ctx.transaction(async (tx) => {
        // Locked, so two approvals of one request cannot both create an admin.
        const [request] = await tx.select().from(accessRequests).where(eq(accessRequests.id, _id)).for('update')
        if (request === undefined) throw notFound('_id')
        if (email.toLowerCase() !== request.email) throw failure(REQUEST_EMAIL_FIXED, { email: REQUEST_EMAIL_FIXED })
        const taken = await adminEmails.check(tx, request.email)
        if (taken !== null) throw taken
        // guard: an admin created with that email by a racing Create User is the same answer.
        const [created] = await adminEmails.guard(() =>
          tx
            .insert(admins)
            .values({ name, email: request.email, passwordHash: request.passwordHash, role: 'subadmin', accessLevel, restrictions: granted, activate: 1 })
            .returning({ id: admins.id }),
        )
        if (created === undefined) throw new Error('the admin insert returned no row')
        await tx.delete(accessRequests).where(eq(accessRequests.id, request.id))
        return created.id
      })
      // The lasting record is the new admin; the request it came from no longer exists.
      ctx.audit(adminId)
      return { status: 'success', message: REQUEST_APPROVED }
    },

    declineAccessRequest: async ({ id }, ctx) => {
      const [removed] = await ctx.db.delete(accessRequests).where(eq(accessRequests.id, id)).returning({ id: accessRequests.id })
      if (removed === undefined) return notFound('id')
      ctx.audit(removed.id)
      return { status: 'success', message: REQUEST_DECLINED }
    },
  },
  { register: registerLimit },
)
