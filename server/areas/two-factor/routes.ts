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
import { failure } from '../../kit/request/answers.ts'
import { handlers } from '../../kit/request/handlers.ts'
import { admins } from '../../db/schema.ts'
import { claimAttempt, clearFailures, releaseAttempt } from '../../kit/ground/access/lockout.ts'
import { newTotpSecret, totpUri, verifyTotp } from '../../kit/ground/access/two-factor-code.ts'
import { readTotpSecret, sealTotpSecret } from '../../kit/ground/access/two-factor-secret.ts'
import { WRONG_2FA, WRONG_PASSWORD } from '../../kit/ground/access/sign-in-answers.ts'
import { countFailure, locked, secondFactor } from '../../kit/rules/access/second-factor.ts'

export const TWOFA_ISSUER = 'Back Office'
export const ALREADY_ENABLED = 'Two-factor authentication is already enabled'
export const NOT_ENABLED = 'Two-factor authentication is not enabled'
export const SETUP_FIRST = 'Start the two-factor setup first'
export { WRONG_PASSWORD }


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
