/**
 * One-time codes mailed for the password flows: 6 digits from the crypto RNG,
 * stored only as a keyed hash, alive for 10 minutes, good once, void after 5 tries, voided by a
 * newer send, and at most a few sends per address in a window.
 *
 * The hash is an HMAC keyed from JWT_SECRET (a pepper): a leaked table of 6-digit hashes could be
 * reversed in a million guesses, but not without the key. argon2 would add nothing here, since the
 * 10^6 space is what a slow hash would have to protect and the pepper already does.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/index.ts'
import { otpCodes, otpGuesses } from '../../db/schema.ts'
import { claimAttempt, failAttempt, lockoutKey, releaseAttempt } from '../../kit/ground/access/lockout.ts'
import type { RenderedMail, TemplateIdentifier } from '#contract/emails'
import { renderMail } from '../../kit/ground/mail/templates.ts'

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

/** The window of the per-email guess cap (OTP_DAILY_GUESSES): it starts with the first check. */
export const OTP_GUESS_WINDOW_MS = 24 * 60 * 60 * 1000

/** The answer once an email's checks for the day are spent: the same whether or not it has an account. */
export const otpCapMessage = (retryMs: number): string => {
  const hours = Math.max(1, Math.ceil(retryMs / 3_600_000))
  return `Too many OTP attempts for this email. Please try again in ${hours} hour${hours === 1 ? '' : 's'}.`
}

/**
 * A code check's verdict: the matched code's id, or a refusal. `wrong` is the plain invalid-code
 * answer; `limited` carries its own message (429): the sign-in lock or wait of this email and
 * address, or the day's guesses spent.
 */
export type OtpCheck = { ok: true; id: string } | { ok: false; reason: 'wrong' } | { ok: false; reason: 'limited'; message: string }

/**
 * Checks a one-time code under every guessing limit. It is a sign-in attempt
 * for the email from `address` (server/kit/ground/access/lockout.ts): refused while that pair is locked or
 * the email waits, and a wrong code counts as a failure. And it takes one of the email's
 * OTP_DAILY_GUESSES checks of the day, right or wrong. Together with the 5 tries per code and 3
 * codes per 15 minutes, that bounds guesses per email per day by the cap, not by the send rate.
 * Run it in the transaction that answers (the registrar's), so the counts are taken atomically.
 */
export async function checkOtp(db: Db, config: Config, email: string, purpose: OtpPurpose, code: string, address: string, now = new Date()): Promise<OtpCheck> {
  const attempt = await claimAttempt(db, config.lockout, email, address, now)
  if (attempt.locked) return { ok: false, reason: 'limited', message: attempt.message }
  const guess = await takeOtpGuess(db, config.lockout.otpDailyGuesses, email, now)
  if (!guess.ok) {
    // Refused unchecked: no failure to count against the sign-in either.
    await releaseAttempt(db, attempt)
    return { ok: false, reason: 'limited', message: otpCapMessage(guess.retryMs) }
  }
  const id = await tryOtp(db, config, email, purpose, code, now)
  if (id === null) {
    await failAttempt(db, config.lockout, attempt, 'wrong one-time code', now)
    return { ok: false, reason: 'wrong' }
  }
  await releaseAttempt(db, attempt)
  return { ok: true, id }
}

/**
 * Takes one of the email's checks of the window, or says when the next one is allowed. One upsert,
 * so parallel checks cannot exceed the cap; the count stops one past it.
 */
async function takeOtpGuess(db: Db, cap: number, email: string, now: Date): Promise<{ ok: true } | { ok: false; retryMs: number }> {
  const key = lockoutKey(email)
  const g = otpGuesses
  const windowOver = sql`${g.windowStart} <= ${new Date(now.getTime() - OTP_GUESS_WINDOW_MS).toISOString()}::timestamptz`
  // Ended windows of other emails are pruned a few at a time, as the sign-in counts are.
  await db.execute(sql`
    delete from ${g} where ${g.email} in (
      select ${g.email} from ${g} where ${windowOver} and ${g.email} <> ${key}
      order by ${g.windowStart} limit 20 for update skip locked
    )`)
  const [row] = await db
    .insert(g)
    .values({ email: key, guesses: 1, windowStart: now })
    .onConflictDoUpdate({
      target: g.email,
      set: {
        guesses: sql`case when ${windowOver} then 1 else least(${g.guesses} + 1, ${cap + 1}) end`,
        windowStart: sql`case when ${windowOver} then ${now.toISOString()}::timestamptz else ${g.windowStart} end`,
      },
    })
    .returning({ guesses: g.guesses, windowStart: g.windowStart })
  if (row === undefined) throw new Error('otp_guesses upsert returned no row')
  if (row.guesses <= cap) return { ok: true }
  return { ok: false, retryMs: row.windowStart.getTime() + OTP_GUESS_WINDOW_MS - now.getTime() }
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

/** The template of each purpose's mail (contract/emails.ts). */
const OTP_TEMPLATES = { 'change-password': 'change-password-otp', 'forgot-password': 'forgot-password-otp' } as const satisfies Record<OtpPurpose, TemplateIdentifier>

/**
 * The mail that carries a code, rendered from its Automated Email template (the default says
 * "Your one-time code is: <code>" in short plain lines, so it reads the same in any client). Pass
 * the transaction that stores the code, so the mail is queued from the same snapshot.
 */
export async function otpMail(db: Db, to: string, code: string, purpose: OtpPurpose): Promise<{ to: string; template: TemplateIdentifier } & RenderedMail> {
  const template = OTP_TEMPLATES[purpose]
  const mail = await renderMail(db, template, { otp: code, minutes: String(OTP_LIFE_MS / 60_000) })
  return { to, template, ...mail }
}
