/**
 * The sign-in lockout (issue 2, item 5; issue 4, item 4): five failures lock for ten minutes.
 *
 * Counts are kept per lower-cased email in `login_failures`, whether or not an admin has that
 * email. Kept on the admin row, an unknown email could never lock, and five wrong tries would tell
 * which emails exist. Wrong passwords, wrong 2FA codes at login, and wrong codes or passwords
 * asked of a signed-in admin (server/routes/two-factor.ts) all count towards the same lock.
 *
 * Every attempt first takes a slot with one atomic upsert, before any password or code is
 * checked, so attempts sent in parallel cannot get more than five checks in before the lock: the
 * sixth concurrent one finds the count full and locks. An attempt that turns out not to be a
 * failure (the password was right and a 2FA code is now asked for) gives its slot back; a
 * successful sign-in clears the row.
 *
 * The count follows the email, not the admin: an admin whose email is changed starts a new count.
 */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/index.ts'
import { loginFailures } from '../db/schema.ts'

export const MAX_FAILURES = 5
export const LOCK_MS = 10 * 60 * 1000
/**
 * A count untouched this long (and not locked) is forgotten, and its row pruned, so the table does
 * not keep every email ever typed into the login form (some are typos of real ones).
 */
export const FORGET_MS = 24 * 60 * 60 * 1000
/** Stale rows deleted per attempt: enough to keep up with any rate the per-address limit allows. */
const PRUNE_BATCH = 20

/** The key of an email in `login_failures` (admins.email is stored the same way). */
export const lockoutKey = (email: string): string => email.trim().toLowerCase()

/** An attempt's slot (1 to MAX_FAILURES), or `locked`: answer the lock and check nothing. */
export type Attempt = { locked: true } | { locked: false; email: string; slot: number }

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`

/**
 * Takes one attempt for an email. While a lock runs nothing changes. A stale count starts again
 * at 1. A full count (MAX_FAILURES attempts in flight or failed without the lock landing yet)
 * locks now. Otherwise the count goes up by one and the new count is this attempt's slot.
 */
export async function claimAttempt(db: Db, email: string, now = new Date()): Promise<Attempt> {
  const key = lockoutKey(email)
  const t = loginFailures
  const lockRuns = sql`${t.lockedUntil} is not null and ${t.lockedUntil} > ${at(now)}`
  const stale = sql`${t.updatedAt} < ${at(new Date(now.getTime() - FORGET_MS))}`
  const full = sql`${t.failures} >= ${MAX_FAILURES}`
  await pruneStale(db, now)
  const [row] = await db
    .insert(t)
    .values({ email: key, failures: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: t.email,
      set: {
        failures: sql`case when ${lockRuns} then ${t.failures} when ${stale} then 1 when ${full} then 0 else ${t.failures} + 1 end`,
        lockedUntil: sql`case when ${lockRuns} then ${t.lockedUntil} when ${stale} then null when ${full} then ${at(new Date(now.getTime() + LOCK_MS))} else null end`,
        updatedAt: sql`case when ${lockRuns} then ${t.updatedAt} else ${at(now)} end`,
      },
    })
    .returning({ failures: t.failures, lockedUntil: t.lockedUntil })
  if (row === undefined) throw new Error('login_failures upsert returned no row')
  if (row.lockedUntil !== null && row.lockedUntil.getTime() > now.getTime()) return { locked: true }
  return { locked: false, email: key, slot: row.failures }
}

/**
 * Records that the attempt failed. Its slot was counted when taken; the one that fills the count
 * starts the lock (and the count again, for after it). Returns whether this failure locked.
 */
export async function failAttempt(db: Db, attempt: Attempt & { locked: false }, now = new Date()): Promise<boolean> {
  if (attempt.slot < MAX_FAILURES) return false
  await db
    .update(loginFailures)
    .set({ failures: 0, lockedUntil: new Date(now.getTime() + LOCK_MS), updatedAt: now })
    .where(eq(loginFailures.email, attempt.email))
  return true
}

/** Gives the slot back: the attempt was neither a failure nor a sign-in (e.g. TWO_FA was answered). */
export async function releaseAttempt(db: Db, attempt: Attempt & { locked: false }): Promise<void> {
  await db
    .update(loginFailures)
    .set({ failures: sql`greatest(${loginFailures.failures} - 1, 0)` })
    .where(eq(loginFailures.email, attempt.email))
}

/** Forgets an email's failures and lock: after a sign-in, a password reset, or enrolling 2FA. */
export async function clearFailures(db: Db, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, lockoutKey(email)))
}

/** Deletes a few stale rows (no running lock, untouched for FORGET_MS), oldest first. */
async function pruneStale(db: Db, now: Date): Promise<void> {
  const t = loginFailures
  const cutoff = at(new Date(now.getTime() - FORGET_MS))
  await db.execute(sql`
    delete from ${t} where ${t.email} in (
      select ${t.email} from ${t}
      where ${t.updatedAt} < ${cutoff} and (${t.lockedUntil} is null or ${t.lockedUntil} <= ${at(now)})
      order by ${t.updatedAt} limit ${PRUNE_BATCH}
    )`)
}
