/**
 * TOTP two-factor authentication for the signed-in admin (contract/two-factor.ts), and the code check
 * that other calls share: creating a staff user and the forgot-password reset ask for it too.
 *
 * Enrolment is two steps: setup makes a pending secret (login ignores it), enable turns it on once
 * a first code and the admin's password prove the app holds it and the caller is the owner. The
 * password matters because 2FA on an account whose owner has no code locks the owner out: a
 * stolen session alone must not be able to do that.
 */
import { and, eq } from 'drizzle-orm'
import QRCode from 'qrcode'
import * as twofa from '#contract/two-factor'
import { failure, handlers, twoFactorNeeded, type ApiFailure, type Ctx, type TwoFactorAnswer } from '../../kit/api.ts'
import { revokeSessions } from '../../kit/access/auth.ts'
import { admins, type AdminRow } from '../../db/schema.ts'
import { claimAttempt, clearFailures, failAttempt, releaseAttempt, type Attempt } from '../../kit/access/lockout.ts'
import { recordForcedLogout, type FailureReason } from '../../kit/access/events.ts'
import { newTotpSecret, totpUri, verifyTotp } from '../../kit/access/two-factor-code.ts'
import { acceptTotpCode, readTotpSecret, sealTotpSecret } from '../../kit/access/two-factor-secret.ts'
import { WRONG_2FA } from '../auth/routes.ts'

export const TWOFA_ISSUER = 'Back Office'
export const ALREADY_ENABLED = 'Two-factor authentication is already enabled'
export const NOT_ENABLED = 'Two-factor authentication is not enabled'
export const SETUP_FIRST = 'Start the two-factor setup first'
export const WRONG_PASSWORD = 'Incorrect password'

export type SecondFactor = { ok: true } | { ok: false; answer: TwoFactorAnswer | ApiFailure }

const locked = (attempt: { message: string }): ApiFailure => failure(attempt.message, undefined, 429)

/**
 * Counts a wrong code or password towards the admin's sign-in lockout (server/kit/access/lockout.ts). When it
 * locks and `revokeOnLock` is set, the admin's sessions end too, since a session holder who cannot
 * produce the owner's secrets is probably not the owner.
 */
async function countFailure(ctx: Ctx, admin: AdminRow, attempt: Attempt & { locked: false }, revokeOnLock: boolean, reason: FailureReason): Promise<void> {
  if (!(await failAttempt(ctx.db, ctx.config.lockout, attempt, reason))) return
  if (revokeOnLock) {
    await revokeSessions(ctx.db, admin.id)
    await recordForcedLogout(ctx.db, admin.id, null, ctx.ip, 'locked after wrong codes')
    ctx.realtime?.logout(admin.id)
  }
}

/**
 * Checks an admin's current authenticator code when their 2FA is on; passes when it is off.
 * An empty code is the TWO_FA answer. A code is good once and one step of clock drift is tolerated
 * (server/kit/access/two-factor-secret.ts, two-factor-code.ts). Wrong codes count towards the lockout (`countFailure`), and a
 * locked account gets no more checks until the lock ends.
 */
export async function secondFactor(ctx: Ctx, admin: AdminRow, code: string, field: string, revokeOnLock: boolean): Promise<SecondFactor> {
  if (!admin.totpEnabled || admin.totpSecret === null) return { ok: true }
  const attempt = await claimAttempt(ctx.db, ctx.config.lockout, admin.email, ctx.ip)
  if (attempt.locked) return { ok: false, answer: locked(attempt) }
  if (code === '') {
    await releaseAttempt(ctx.db, attempt)
    return { ok: false, answer: twoFactorNeeded() }
  }
  if (await acceptTotpCode(ctx.db, ctx.config, ctx.log, admin, code)) {
    // A right code gives its slot back but does not clear earlier failures: those may be another
    // caller's wrong passwords at the login form.
    await releaseAttempt(ctx.db, attempt)
    return { ok: true }
  }
  await countFailure(ctx, admin, attempt, revokeOnLock, 'wrong 2FA code')
  return { ok: false, answer: failure(WRONG_2FA, { [field]: WRONG_2FA }) }
}

export const twofaRoutes = handlers(twofa, {
  twofaSetup: async (_input, ctx) => {
    const me = ctx.me()
    if (me.totpEnabled) return failure(ALREADY_ENABLED, undefined, 409)
    const secret = newTotpSecret()
    // A new setup replaces an unconfirmed one; the enabled state is untouched until a code confirms it.
    await ctx.db
      .update(admins)
      .set({ totpSecret: sealTotpSecret(ctx.config, me.id, secret), totpLastStep: null })
      .where(and(eq(admins.id, me.id), eq(admins.totpEnabled, false)))
    ctx.audit(me.id)
    const otpauthUrl = totpUri(secret, me.email, TWOFA_ISSUER)
    const qr = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 240 })
    return { status: 'success', message: 'Scan the QR code with your authenticator app', otpauthUrl, qr, secret }
  },

  twofaEnable: async ({ code, password }, ctx) => {
    const me = ctx.me()
    if (me.totpEnabled) return failure(ALREADY_ENABLED, undefined, 409)
    if (me.totpSecret === null) return failure(SETUP_FIRST)
    const attempt = await claimAttempt(ctx.db, ctx.config.lockout, me.email, ctx.ip)
    if (attempt.locked) return locked(attempt)
    if (!(await ctx.passwords.verify(me.passwordHash, password))) {
      await countFailure(ctx, me, attempt, true, 'wrong password')
      return failure(WRONG_PASSWORD, { password: WRONG_PASSWORD })
    }
    // A pending secret that does not open (JWT_SECRET changed since setup) needs a new setup.
    const secret = readTotpSecret(ctx.config, ctx.log, me)
    if (secret === null) {
      await releaseAttempt(ctx.db, attempt)
      return failure(SETUP_FIRST)
    }
    // No replay state yet: the secret is new. Wrong first codes are typing or clock mistakes, not
    // an attack on a working factor, so they are not counted.
    const step = verifyTotp(secret, code, null)
    if (step === null) {
      await releaseAttempt(ctx.db, attempt)
      return failure(WRONG_2FA, { code: WRONG_2FA })
    }
    const enabled = await ctx.db
      .update(admins)
      // Sealed afresh: a pending secret written plain before sealing existed is sealed here too.
      .set({ totpEnabled: true, totpLastStep: step, totpSecret: sealTotpSecret(ctx.config, me.id, secret) })
      // The secret the code was checked against must still be the pending one (no setup in between).
      .where(and(eq(admins.id, me.id), eq(admins.totpEnabled, false), eq(admins.totpSecret, me.totpSecret)))
      .returning({ id: admins.id })
    if (enabled.length === 0) {
      await releaseAttempt(ctx.db, attempt)
      return failure(SETUP_FIRST)
    }
    await clearFailures(ctx.db, me.email, ctx.ip)
    ctx.audit(me.id)
    return { status: 'success', message: 'Two-factor authentication enabled' }
  },

  twofaDisable: async ({ code }, ctx) => {
    const me = ctx.me()
    if (!me.totpEnabled) return failure(NOT_ENABLED, undefined, 409)
    const check = await secondFactor(ctx, me, code, 'code', true)
    if (!check.ok) return check.answer
    await ctx.db.update(admins).set({ totpEnabled: false, totpSecret: null, totpLastStep: null }).where(eq(admins.id, me.id))
    ctx.audit(me.id)
    return { status: 'success', message: 'Two-factor authentication disabled' }
  },
})
