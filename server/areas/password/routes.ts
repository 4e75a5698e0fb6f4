/**
 * The password flows (contract/password.ts): Reset Password for the signed-in admin (/send-mail,
 * then /change-password) and Forgot for an admin who cannot sign in (/ForgotSend-mail, then
 * /forgot-password). Codes come from server/areas/password/otp.ts; mail goes through the outbox (SMTP when
 * SMTP_URL is set).
 *
 * Both changes bump the token version, so every older token stops working at once, and emit
 * LOGOUT to the admin's room. The forgot flow says the same, in about the same time, whether or
 * not the email has an account: a code row is stored either way (never mailed for an unknown
 * address), so the send limit and the database work are alike, and the mail is sent in the
 * background so SMTP latency does not tell the two apart.
 */
import { eq, sql } from 'drizzle-orm'
import * as password from '#contract/password'
import { failure, type ApiFailure } from '../../kit/request/answers.ts'
import { handlers, type Ctx, type RateLimit } from '../../kit/request/handlers.ts'
import { adminPasskeys, admins, type AdminRow } from '../../db/schema.ts'
import { clearFailures } from '../../kit/ground/access/lockout.ts'
import { recordForcedLogout } from '../../kit/ground/access/events.ts'
import { checkOtp, consumeOtp, issueOtp, otpMail, otpSendAllowed, type OtpCheck, type OtpPurpose } from './otp.ts'
import { secondFactor } from '../../kit/rules/access/second-factor.ts'
import { deviceOf } from '../../kit/ground/access/sessions.ts'
import { noticeTime, queueAccountNotice } from '../../kit/rules/mail/account-notices.ts'

export const OTP_SENT = 'OTP sent to your email'
export const FORGOT_OTP_SENT = 'If this email belongs to an account, an OTP has been sent to it'
export const TOO_MANY_OTPS = 'Too many OTP requests, please try again later'
export const INVALID_OTP = 'Invalid or expired OTP'
export const WRONG_OLD_PASSWORD = 'Old password is incorrect'
export const NOT_YOUR_EMAIL = 'This is not the email of your account'
export const PASSWORD_CHANGED = 'Password changed successfully'
export const PASSWORD_RESET = 'Password reset successfully'

const invalidOtp = (): ApiFailure => failure(INVALID_OTP, { otp: INVALID_OTP })
/** A refused code check's answer: the plain invalid code, or the guessing limit's own message (429). */
const refusedOtp = (check: OtpCheck & { ok: false }): ApiFailure => (check.reason === 'wrong' ? invalidOtp() : failure(check.message, { otp: check.message }, 429))

/** Per-address limits on top of the per-email send limit in otp.ts: sends, and code checks. */
const FIFTEEN_MINUTES = 15 * 60 * 1000
const sendLimit: RateLimit = { max: () => 10, timeWindow: FIFTEEN_MINUTES }
const checkLimit: RateLimit = { max: () => 20, timeWindow: FIFTEEN_MINUTES }

/** Stores a new code and queues its mail in one transaction; `mailTo` null stores a code that is never sent. */
async function sendCode(ctx: Ctx, email: string, purpose: OtpPurpose, mailTo: string | null): Promise<void> {
  if (!(await otpSendAllowed(ctx.db, email, purpose))) throw failure(TOO_MANY_OTPS, undefined, 429)
  await ctx.transaction(async (tx) => {
    const code = await issueOtp(tx, ctx.config, email, purpose)
    if (mailTo !== null) await ctx.sendMail(await otpMail(tx, mailTo, code, purpose), tx)
  })
}

/**
 * Sets the new password, uses up the code, revokes every token and queues the mail that tells the
 * admin (account-notices.ts), in one transaction; then
 * LOGOUT reaches the admin's open apps. A code used by a racing request changes nothing.
 */
async function setPassword(ctx: Ctx, admin: AdminRow, otpId: string, newPassword: string, clearLock: boolean): Promise<void> {
  const passwordHash = await ctx.passwords.hash(newPassword)
  await ctx.transaction(async (tx) => {
    if (!(await consumeOtp(tx, otpId))) throw invalidOtp()
    await tx
      .update(admins)
      .set({ passwordHash, tokenVersion: sql`${admins.tokenVersion} + 1` })
      .where(eq(admins.id, admin.id))
    // A reset proves the mailbox (and the second factor when on): the account opens again.
    if (clearLock) await clearFailures(tx, admin.email)
    await recordForcedLogout(tx, admin.id, admin.id, ctx.ip, clearLock ? 'password reset' : 'password changed')
    await queueAccountNotice(ctx, tx, 'password-changed', admin.email, {
      name: admin.name,
      how: clearLock ? 'reset with Forgot Password' : 'changed with Reset Password while signed in',
      time: noticeTime(new Date()),
      device: deviceOf(ctx.userAgent),
      address: ctx.ip,
    })
  })
  ctx.afterSuccess(() => ctx.realtime?.logout(admin.id))
}

export const passwordRoutes = handlers(
  password,
  {
    sendMail: async (_input, ctx) => {
      const me = ctx.me()
      await sendCode(ctx, me.email, 'change-password', me.email)
      ctx.audit(me.id)
      return { status: 'success', message: OTP_SENT }
    },

    changePassword: async ({ otp, oldPassword, newPassword, email }, ctx) => {
      const me = ctx.me()
      // The form sends the address the code went to; another one is a mistake, not a second account.
      if (email.toLowerCase() !== me.email) return failure(NOT_YOUR_EMAIL, { email: NOT_YOUR_EMAIL })
      const check = await checkOtp(ctx.db, ctx.config, me.email, 'change-password', otp, ctx.ip)
      if (!check.ok) return refusedOtp(check)
      const otpId = check.id
      // Checked after the code: a stolen session cannot try old passwords more often than codes are sent.
      if (!(await ctx.passwords.verify(me.passwordHash, oldPassword))) return failure(WRONG_OLD_PASSWORD, { oldPassword: WRONG_OLD_PASSWORD })
      await setPassword(ctx, me, otpId, newPassword, false)
      ctx.audit(me.id)
      return { status: 'success', message: PASSWORD_CHANGED }
    },

    ForgotSendMail: async ({ email }, ctx) => {
      const address = email.toLowerCase()
      const [admin] = await ctx.db.select({ id: admins.id, activate: admins.activate }).from(admins).where(eq(admins.email, address)).limit(1)
      // A deactivated admin is treated as unknown: they could not sign in with a new password anyway.
      const known = admin !== undefined && admin.activate === 1
      await sendCode(ctx, address, 'forgot-password', known ? address : null)
      if (known) ctx.audit(admin.id, admin.id)
      return { status: 'success', message: FORGOT_OTP_SENT }
    },

    forgotPassword: async ({ otp, newPassword, email, twoFACode, removePasskeys }, ctx) => {
      const address = email.toLowerCase()
      const code = await checkOtp(ctx.db, ctx.config, address, 'forgot-password', otp, ctx.ip)
      if (!code.ok) return refusedOtp(code)
      const otpId = code.id
      const [admin] = await ctx.db.select().from(admins).where(eq(admins.email, address)).limit(1)
      // Codes for unknown addresses are never mailed; a lucky guess at one still changes nothing.
      if (admin === undefined || admin.activate !== 1) return invalidOtp()
      // Mailbox access alone must not get past an enabled second factor.
      const check = await secondFactor(ctx, admin, twoFACode, 'twoFACode', false)
      if (!check.ok) return check.answer
      await setPassword(ctx, admin, otpId, newPassword, true)
      ctx.audit(admin.id, admin.id)
      if (removePasskeys === true) {
        const removed = await ctx.db.delete(adminPasskeys).where(eq(adminPasskeys.adminId, admin.id)).returning({ id: adminPasskeys.id })
        if (removed.length > 0) ctx.auditDetail(`Removed ${removed.length} ${removed.length === 1 ? 'passkey' : 'passkeys'}`)
      }
      return { status: 'success', message: PASSWORD_RESET }
    },
  },
  { sendMail: sendLimit, ForgotSendMail: sendLimit, changePassword: checkLimit, forgotPassword: checkLimit },
)
