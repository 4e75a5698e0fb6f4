/**
 * One-time codes mailed for the password flows (issue 4, item 3): 6 digits from the crypto RNG,
 * stored only as a keyed hash, alive for 10 minutes, good once, void after 5 tries, voided by a
 * newer send, and at most a few sends per address in a window.
 *
 * The hash is an HMAC keyed from JWT_SECRET (a pepper): a leaked table of 6-digit hashes could be
 * reversed in a million guesses, but not without the key. argon2 would add nothing here, since the
 * 10^6 space is what a slow hash would have to protect and the pepper already does.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import type { Config } from '../config.ts'
import type { Db } from '../db/index.ts'
import { otpCodes } from '../db/schema.ts'

export const OTP_LIFE_MS = 10 * 60 * 1000
/** Tries per code; every check spends one, right or wrong, so guesses are bounded even when sent in parallel. */
export const OTP_MAX_TRIES = 5
/** Sends per email and purpose within OTP_SEND_WINDOW_MS. */
export const OTP_MAX_SENDS = 3
export const OTP_SEND_WINDOW_MS = 15 * 60 * 1000
/** Rows older than this are deleted when the same address asks again (they only serve the send limit). */
const KEEP_MS = 24 * 60 * 60 * 1000

export type OtpPurpose = 'change-password' | 'forgot-password'

const pepper = (config: Config): Buffer => createHmac('sha256', config.jwtSecret).update('otp-pepper/v1').digest()

/** The stored form of a code: bound to its address and purpose, so a row cannot serve another flow. */
function digest(config: Config, email: string, purpose: OtpPurpose, code: string): string {
  return createHmac('sha256', pepper(config)).update(`${purpose}\n${email}\n${code}`).digest('hex')
}

/** A uniformly random 6-digit code (leading zeros kept). */
export const newOtpCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0')

/** Whether another code may be sent to this address for this purpose now. */
export async function otpSendAllowed(db: Db, email: string, purpose: OtpPurpose, now = new Date()): Promise<boolean> {
  const since = new Date(now.getTime() - OTP_SEND_WINDOW_MS)
  const [row] = await db
    .select({ n: count() })
    .from(otpCodes)
    .where(and(eq(otpCodes.email, email), eq(otpCodes.purpose, purpose), gt(otpCodes.createdAt, since)))
  return (row?.n ?? 0) < OTP_MAX_SENDS
}

/**
 * Makes a new code for an address, voiding every earlier one of the same purpose, and returns it
 * for mailing. Run it in the transaction that queues the mail, so a failed send leaves no live code.
 */
export async function issueOtp(db: Db, config: Config, email: string, purpose: OtpPurpose, now = new Date()): Promise<string> {
  const code = newOtpCode()
  const mine = and(eq(otpCodes.email, email), eq(otpCodes.purpose, purpose))
  await db.update(otpCodes).set({ usedAt: now }).where(and(mine, isNull(otpCodes.usedAt)))
  await db.delete(otpCodes).where(and(mine, lt(otpCodes.createdAt, new Date(now.getTime() - KEEP_MS))))
  // createdAt and expiresAt both come from this clock, so the send window and the life agree
  // even when the database server's clock differs.
  await db.insert(otpCodes).values({
    email,
    purpose,
    codeHash: digest(config, email, purpose, code),
    createdAt: now,
    expiresAt: new Date(now.getTime() + OTP_LIFE_MS),
  })
  return code
}

/**
 * Spends one try of the address's live code and returns the code's row id when `code` matches,
 * else null. The try is taken by a conditional UPDATE before comparing, so parallel guesses
 * cannot get past OTP_MAX_TRIES; the last wrong try voids the code. A match is not yet used up:
 * the caller calls `consumeOtp` in the transaction that makes the change.
 */
export async function tryOtp(db: Db, config: Config, email: string, purpose: OtpPurpose, code: string, now = new Date()): Promise<string | null> {
  const [live] = await db
    .select({ id: otpCodes.id })
    .from(otpCodes)
    .where(
      and(
        eq(otpCodes.email, email),
        eq(otpCodes.purpose, purpose),
        isNull(otpCodes.usedAt),
        gt(otpCodes.expiresAt, now),
        lt(otpCodes.attempts, OTP_MAX_TRIES),
      ),
    )
    .orderBy(desc(otpCodes.createdAt))
    .limit(1)
  if (live === undefined) return null
  const [spent] = await db
    .update(otpCodes)
    .set({ attempts: sql`${otpCodes.attempts} + 1` })
    .where(and(eq(otpCodes.id, live.id), isNull(otpCodes.usedAt), lt(otpCodes.attempts, OTP_MAX_TRIES)))
    .returning({ codeHash: otpCodes.codeHash, attempts: otpCodes.attempts })
  if (spent === undefined) return null
  const expected = Buffer.from(spent.codeHash, 'hex')
  const given = Buffer.from(digest(config, email, purpose, code), 'hex')
  const match = expected.length === given.length && timingSafeEqual(expected, given)
  if (match) return live.id
  if (spent.attempts >= OTP_MAX_TRIES) await db.update(otpCodes).set({ usedAt: now }).where(eq(otpCodes.id, live.id))
  return null
}

/** Uses up a matched code; false when another request used it first (the caller then changes nothing). */
export async function consumeOtp(db: Db, id: string, now = new Date()): Promise<boolean> {
  const used = await db
    .update(otpCodes)
    .set({ usedAt: now })
    .where(and(eq(otpCodes.id, id), isNull(otpCodes.usedAt)))
    .returning({ id: otpCodes.id })
  return used.length > 0
}

/** The mail that carries a code. Plain ASCII in short lines, so it reads the same in any client. */
export function otpMail(to: string, code: string, purpose: OtpPurpose): { to: string; subject: string; text: string } {
  const what = purpose === 'forgot-password' ? 'reset your password' : 'change your password'
  return {
    to,
    subject: 'Your one-time code',
    text: [
      `Your one-time code is: ${code}`,
      '',
      `Use it to ${what}. It expires in ${OTP_LIFE_MS / 60_000} minutes and works once.`,
      'If you did not ask for it, you can ignore this mail.',
    ].join('\n'),
  }
}
