/**
 * The sign-in events of the audit log (contract/audit.ts, AUDIT_EVENTS) that are not an endpoint's
 * own write row: failed sign-ins, lockouts and forced logouts. A successful sign-in is the
 * registrar's row of /login (named "Signed in" in the log).
 *
 * A failed sign-in answers with a failure, which the registrar commits without a row of its own
 * (server/kit/request/api.ts): the counts of the lockout must stand. Its event row is written here, in that
 * same transaction, by the one statement every failure path runs alike: the admin the email
 * belongs to is looked up inside the insert, so an unknown email costs the same work as a known
 * one and the answer's timing says nothing about which emails exist.
 */
import { sql } from 'drizzle-orm'
import type { AUDIT_EVENTS } from '#contract/audit'
import type { Db } from '../../../db/index.ts'
import { admins, auditLog } from '../../../db/schema.ts'

type AuditEvent = keyof typeof AUDIT_EVENTS

/** The events a refused attempt writes, by design: without them guessing would leave no trace. */
export const REFUSAL_EVENTS: ReadonlySet<string> = new Set<AuditEvent>(['sign-in-failed', 'lockout'])

/** Why an attempt failed, as the row's detail says it. A wrong password and an unknown email read alike. */
export type FailureReason = 'wrong password' | 'wrong 2FA code' | 'wrong one-time code' | 'account deactivated' | 'passkey refused'

/** Why an admin's sessions were ended. */
export type LogoutReason = 'deactivated' | 'access changed' | 'password changed' | 'password reset' | 'locked after wrong codes' | 'signed out everywhere'

/** An email as typed (already trimmed and lower-cased by the lockout key): kept, but never more than an address can be. */
export const MAX_EMAIL_DETAIL = 254
const cappedEmail = (email: string): string => email.slice(0, MAX_EMAIL_DETAIL)

/** The id of the admin holding `email`, or null: read inside the insert, the same for every email. */
const adminOfEmail = (email: string) => sql`(select ${admins.id} from ${admins} where ${admins.email} = ${email} limit 1)`

/** One failed sign-in (or a wrong code asked of a signed-in admin): the email named, never a password. */
export async function recordFailedSignIn(db: Db, email: string, address: string, reason: FailureReason): Promise<void> {
  const key = cappedEmail(email)
  await db.insert(auditLog).values({ adminId: null, action: 'sign-in-failed' satisfies AuditEvent, recordId: adminOfEmail(key), ip: address, detail: `${key} (${reason})` })
}

/** A pair that just locked (server/kit/ground/access/lockout.ts): recorded for unknown emails too. */
export async function recordLockout(db: Db, email: string, address: string): Promise<void> {
  const key = cappedEmail(email)
  await db.insert(auditLog).values({ adminId: null, action: 'lockout' satisfies AuditEvent, recordId: adminOfEmail(key), ip: address, detail: key })
}

/**
 * Every session of `adminId` ended by someone else's act or by the server: `actorId` is who did it
 * (null when the server did, e.g. a lock after wrong codes). Logout by the admin is /logout's own row.
 */
export async function recordForcedLogout(db: Db, adminId: string, actorId: string | null, address: string | null, reason: LogoutReason): Promise<void> {
  await db.insert(auditLog).values({ adminId: actorId, action: 'forced-logout' satisfies AuditEvent, recordId: adminId, ip: address, detail: reason })
}
