/**
 * Sign-in guessing limits.
 *
 * - Per (email, address) pair: LOGIN_LOCK_FAILURES failures lock that pair for LOGIN_LOCK_MINUTES
 *   (`login_pair_failures`). Locking per pair, not per email, means nobody can lock an admin out
 *   (the superadmin included) by failing five times with their email from somewhere else.
 * - Per email, from any address: past LOGIN_SLOW_AFTER failures, each further attempt makes the
 *   next one wait, twice as long each time, up to LOGIN_SLOW_MAX_SECONDS (`login_failures`). A
 *   guesser spread over many addresses gets one checked guess per wait; the owner is slowed down,
 *   never locked out.
 *
 * Counts are kept per lower-cased email whether or not an admin has that email: kept on the admin
 * row, an unknown email could never lock, and the answers would tell which emails exist. Wrong
 * passwords, wrong 2FA codes, wrong one-time codes (otp.ts) and wrong codes or passwords asked of a
 * signed-in admin (server/areas/two-factor/routes.ts) all count.
 *
 * Every attempt takes a slot in both counts before its result is answered, with the rows locked
 * for the caller's transaction, so attempts sent in parallel cannot get more answers than the
 * limits allow. An attempt that turns out not to be a failure (the password was right and a 2FA
 * code is now asked for) gives its slots back; a successful sign-in clears the email's count and
 * its own pair. Each failure and each lockout is recorded in the audit log (events.ts);
 * the superadmin can lift every lock and wait of an email (`unlockEmail`, /unlockAdmin).
 *
 * The counts follow the email, not the admin: an admin whose email is changed starts new counts.
 */
import { and, eq, sql } from 'drizzle-orm'
import { plural } from '#contract/common'
import type { LockoutSettings } from '../../../config.ts'
import { addressKey } from '../address-key.ts'
import type { Db } from '../../../db/index.ts'
import { loginFailures, loginPairFailures, otpGuesses } from '../../../db/schema.ts'
import { recordFailedSignIn, recordLockout, type FailureReason } from './events.ts'

/** The defaults of LOGIN_LOCK_FAILURES, LOGIN_LOCK_MINUTES, LOGIN_SLOW_AFTER and LOGIN_SLOW_MAX_SECONDS. */
export const MAX_FAILURES = 5
export const LOCK_MS = 10 * 60 * 1000
export const SLOW_AFTER = 10
export const SLOW_MAX_MS = 60 * 1000
/** The first wait of the slow-down; each further failure doubles it, up to slowMaxMs. */
export const SLOW_BASE_MS = 1000
/**
 * A count untouched this long (and not locked or waiting) is forgotten, and its row pruned, so the
 * tables do not keep every email ever typed into the login form (some are typos of real ones).
 */
export const FORGET_MS = 24 * 60 * 60 * 1000
/** Stale rows deleted per attempt: enough to keep up with any rate the per-address limit allows. */
const PRUNE_BATCH = 20

/** The key of an email in the counts (admins.email is stored the same way). */
export const lockoutKey = (email: string): string => email.trim().toLowerCase()


/** The answer while a pair is locked: with the default ten minutes, "Try again in 10 minutes." */
export const lockedMessage = (lockMs: number): string => `Too many failed attempts. Try again in ${plural(Math.ceil(lockMs / 60_000), 'minute')}.`

/** The answer while an email's slow-down wait runs: the same for an unknown email. */
export const slowedMessage = (waitMs: number): string => `Too many failed attempts for this email. Try again in ${plural(Math.max(1, Math.ceil(waitMs / 1000)), 'second')}.`

/** The wait the n-th failure past the threshold imposes on the next attempt. */
export const slowDelayMs = (settings: LockoutSettings, pastThreshold: number): number =>
  pastThreshold <= 0 ? 0 : Math.min(settings.slowMaxMs, SLOW_BASE_MS * 2 ** Math.min(pastThreshold - 1, 30))

/**
 * An attempt: `locked` means answer `message` (429) and check nothing. Otherwise its slots: the
 * pair's count and the email's count including this attempt, and whether taking it started the
 * email's wait (given back with the slot).
 */
export type Attempt =
  | { locked: true; message: string }
  | { locked: false; email: string; address: string; pairSlot: number; emailSlot: number; startedWait: boolean }

type Taken = Attempt & { locked: false }

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`

/**
 * Takes one attempt for an email from an address. While the pair's lock or the email's wait runs
 * nothing changes and the attempt is refused. A stale count starts again at 1. A full pair count
 * (the limit reached without the lock landing yet) locks now. Run it in the transaction that
 * records the attempt's result: the rows stay locked until then, so parallel attempts queue.
 */
export async function claimAttempt(db: Db, settings: LockoutSettings, email: string, address: string, now = new Date()): Promise<Attempt> {
  const key = lockoutKey(email)
  await pruneStale(db, now)
  // A savepoint when the caller already has a transaction: the row locks below need one.
  return db.transaction(async (tx) => {
    const pair = await lockPair(tx, key, address)
    const pairRuns = pair.lockedUntil !== null && pair.lockedUntil > now
    if (pairRuns) return { locked: true, message: lockedMessage(settings.lockMs) }
    const pairStale = pair.updatedAt.getTime() < now.getTime() - FORGET_MS
    const pairSlot = pairStale || pair.lockedUntil !== null ? 1 : pair.failures + 1
    if (!pairStale && pair.lockedUntil === null && pair.failures >= settings.pairFailures) {
      // The count is full with no lock yet (attempts still being answered): lock now.
      await tx.update(loginPairFailures).set({ failures: 0, lockedUntil: new Date(now.getTime() + settings.lockMs), updatedAt: now }).where(pairIs(key, address))
      return { locked: true, message: lockedMessage(settings.lockMs) }
    }

    const mail = await lockEmail(tx, key)
    if (mail.slowUntil !== null && mail.slowUntil > now) return { locked: true, message: slowedMessage(mail.slowUntil.getTime() - now.getTime()) }
    const emailStale = mail.updatedAt.getTime() < now.getTime() - FORGET_MS
    const emailSlot = emailStale ? 1 : mail.failures + 1
    const wait = slowDelayMs(settings, emailSlot - settings.slowAfter)
    await tx
      .update(loginFailures)
      .set({ failures: emailSlot, slowUntil: wait > 0 ? new Date(now.getTime() + wait) : null, updatedAt: now })
      .where(eq(loginFailures.email, key))
    await tx.update(loginPairFailures).set({ failures: pairSlot, lockedUntil: null, updatedAt: now }).where(pairIs(key, address))
    return { locked: false, email: key, address, pairSlot, emailSlot, startedWait: wait > 0 }
  })
}

/**
 * Records that the attempt failed: a failed sign-in in the audit log, written alike for every
 * email (events.ts). Its slots were counted when taken; the one that fills the pair's count starts
 * the pair's lock (and records it in the audit log). Returns whether this failure locked.
 */
export async function failAttempt(db: Db, settings: LockoutSettings, attempt: Taken, reason: FailureReason, now = new Date()): Promise<boolean> {
  await recordFailedSignIn(db, attempt.email, attempt.address, reason)
  if (attempt.pairSlot < settings.pairFailures) return false
  await db
    .update(loginPairFailures)
    .set({ failures: 0, lockedUntil: new Date(now.getTime() + settings.lockMs), updatedAt: now })
    .where(pairIs(attempt.email, attempt.address))
  // Recorded for unknown emails too: the same work either way, and the operator sees the attack.
  await recordLockout(db, attempt.email, attempt.address)
  return true
}

/** Gives the slots back: the attempt was neither a failure nor a sign-in (e.g. TWO_FA was answered). */
export async function releaseAttempt(db: Db, attempt: Taken): Promise<void> {
  await db
    .update(loginPairFailures)
    .set({ failures: sql`greatest(${loginPairFailures.failures} - 1, 0)` })
    .where(pairIs(attempt.email, attempt.address))
  await db
    .update(loginFailures)
    .set({
      failures: sql`greatest(${loginFailures.failures} - 1, 0)`,
      // The wait this attempt started goes with it: the owner's next step (the 2FA code) must not wait.
      ...(attempt.startedWait ? { slowUntil: null } : {}),
    })
    .where(eq(loginFailures.email, attempt.email))
}

/**
 * Forgets an email's count and wait, and the lock of the pair `address` names, after a sign-in or
 * enrolling 2FA from there. Locks of other addresses stay: the owner signing in says nothing
 * about who failed elsewhere. Without `address` every pair of the email goes too (a password reset).
 */
export async function clearFailures(db: Db, email: string, address?: string): Promise<void> {
  const key = lockoutKey(email)
  await db.delete(loginFailures).where(eq(loginFailures.email, key))
  await db.delete(loginPairFailures).where(address === undefined ? eq(loginPairFailures.email, key) : pairIs(key, address))
}

/** Lifts every lock, wait and one-time-code cap of an email (the superadmin's Unlock). */
export async function unlockEmail(db: Db, email: string): Promise<void> {
  const key = lockoutKey(email)
  await clearFailures(db, key)
  await db.delete(otpGuesses).where(eq(otpGuesses.email, key))
}

/** Whether any lock or wait runs for an email now (the staff list's Unlock shows it). */
export async function isLocked(db: Db, email: string, now = new Date()): Promise<boolean> {
  const key = lockoutKey(email)
  const [pair] = await db
    .select({ email: loginPairFailures.email })
    .from(loginPairFailures)
    .where(and(eq(loginPairFailures.email, key), sql`${loginPairFailures.lockedUntil} > ${at(now)}`))
    .limit(1)
  if (pair !== undefined) return true
  const [mail] = await db
    .select({ email: loginFailures.email })
    .from(loginFailures)
    .where(and(eq(loginFailures.email, key), sql`${loginFailures.slowUntil} > ${at(now)}`))
    .limit(1)
  return mail !== undefined
}

/**
 * A pair's row: the address counts by its limit key (an IPv6 client by its /64, kit/ground/address-key.ts),
 * so a host cannot start a fresh count with each address of its network. The audit log keeps the
 * full address the attempt came from.
 */
const pairIs = (email: string, address: string) => and(eq(loginPairFailures.email, email), eq(loginPairFailures.address, addressKey(address)))

/** The pair's row, created when missing, locked until the transaction ends. */
async function lockPair(tx: Db, email: string, address: string): Promise<{ failures: number; lockedUntil: Date | null; updatedAt: Date }> {
  await tx.insert(loginPairFailures).values({ email, address: addressKey(address), failures: 0 }).onConflictDoNothing()
  const [row] = await tx
    .select({ failures: loginPairFailures.failures, lockedUntil: loginPairFailures.lockedUntil, updatedAt: loginPairFailures.updatedAt })
    .from(loginPairFailures)
    .where(pairIs(email, address))
    .for('update')
  if (row === undefined) throw new Error('login_pair_failures row missing after insert')
  return row
}

/** The email's row, created when missing, locked until the transaction ends. */
async function lockEmail(tx: Db, email: string): Promise<{ failures: number; slowUntil: Date | null; updatedAt: Date }> {
  await tx.insert(loginFailures).values({ email, failures: 0 }).onConflictDoNothing()
  const [row] = await tx
    .select({ failures: loginFailures.failures, slowUntil: loginFailures.slowUntil, updatedAt: loginFailures.updatedAt })
    .from(loginFailures)
    .where(eq(loginFailures.email, email))
    .for('update')
  if (row === undefined) throw new Error('login_failures row missing after insert')
  return row
}

/**
 * Deletes a few stale rows of both counts (no running lock or wait, untouched for FORGET_MS),
 * oldest first. Rows another attempt holds are skipped, never waited for.
 */
async function pruneStale(db: Db, now: Date): Promise<void> {
  const cutoff = at(new Date(now.getTime() - FORGET_MS))
  const e = loginFailures
  await db.execute(sql`
    delete from ${e} where ${e.email} in (
      select ${e.email} from ${e}
      where ${e.updatedAt} < ${cutoff} and (${e.slowUntil} is null or ${e.slowUntil} <= ${at(now)})
      order by ${e.updatedAt} limit ${PRUNE_BATCH} for update skip locked
    )`)
  const p = loginPairFailures
  await db.execute(sql`
    delete from ${p} where (${p.email}, ${p.address}) in (
      select ${p.email}, ${p.address} from ${p}
      where ${p.updatedAt} < ${cutoff} and (${p.lockedUntil} is null or ${p.lockedUntil} <= ${at(now)})
      order by ${p.updatedAt} limit ${PRUNE_BATCH} for update skip locked
    )`)
}
