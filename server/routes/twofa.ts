/**
 * TOTP two-factor authentication for the signed-in admin (contract/twofa.ts), and the code check
 * that other calls share: creating a staff user and the forgot-password reset ask for it too.
 *
 * Enrolment is two steps: setup makes a pending secret (login ignores it), enable turns it on once
 * a first code and the admin's password prove the app holds it and the caller is the owner. The
 * password matters because 2FA on an account whose owner has no code locks the owner out: a
 * stolen session alone must not be able to do that.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import QRCode from 'qrcode'
import * as twofa from '#contract/twofa'
import { failure, handlers, twoFactorNeeded, type ApiFailure, type Ctx, type TwoFactorAnswer } from '../api.ts'
import { revokeSessions } from '../auth.ts'
import { admins, type AdminRow } from '../db/schema.ts'
import { newTotpSecret, totpUri, verifyTotp } from '../totp.ts'
import { ACCOUNT_LOCKED, LOCK_MS, MAX_FAILURES, WRONG_2FA } from './auth.ts'

export const TWOFA_ISSUER = 'Back Office'
export const ALREADY_ENABLED = 'Two-factor authentication is already enabled'
export const NOT_ENABLED = 'Two-factor authentication is not enabled'
export const SETUP_FIRST = 'Start the two-factor setup first'
export const WRONG_PASSWORD = 'Incorrect password'

export type SecondFactor = { ok: true } | { ok: false; answer: TwoFactorAnswer | ApiFailure }

const lockedNow = (admin: AdminRow): boolean => admin.lockedUntil !== null && admin.lockedUntil.getTime() > Date.now()

/**
 * Counts a wrong code or password towards the login lockout: the fifth locks the account for 10
 * minutes and, with `revokeOnLock`, also ends its sessions, since a session holder who cannot
 * produce the owner's secrets is probably not the owner.
 */
async function countFailure(ctx: Ctx, admin: AdminRow, revokeOnLock: boolean): Promise<void> {
  const [row] = await ctx.db
    .update(admins)
    .set({ failedLogins: sql`${admins.failedLogins} + 1` })
    .where(eq(admins.id, admin.id))
    .returning({ failures: admins.failedLogins })
  if (row === undefined || row.failures < MAX_FAILURES) return
  await ctx.db.update(admins).set({ failedLogins: 0, lockedUntil: new Date(Date.now() + LOCK_MS) }).where(eq(admins.id, admin.id))
  if (revokeOnLock) {
    await revokeSessions(ctx.db, admin.id)
    ctx.realtime?.logout(admin.id)
  }
}

/**
 * Checks an admin's current authenticator code when their 2FA is on; passes when it is off.
 * An empty code is the TWO_FA answer. A code is good once (its time step is stored with a
 * conditional UPDATE, so two requests racing with one code cannot both pass) and one step of
 * clock drift is tolerated (totp.ts). Wrong codes count towards the lockout (`countFailure`), and
 * a locked account gets no more checks until the lock ends.
 */
export async function secondFactor(ctx: Ctx, admin: AdminRow, code: string, field: string, revokeOnLock: boolean): Promise<SecondFactor> {
  if (!admin.totpEnabled || admin.totpSecret === null) return { ok: true }
  if (lockedNow(admin)) return { ok: false, answer: failure(ACCOUNT_LOCKED, undefined, 429) }
  if (code === '') return { ok: false, answer: twoFactorNeeded() }
  const step = verifyTotp(admin.totpSecret, code, admin.totpLastStep)
  if (step !== null) {
    const taken = await ctx.db
      .update(admins)
      .set({ totpLastStep: step })
      .where(and(eq(admins.id, admin.id), or(isNull(admins.totpLastStep), lt(admins.totpLastStep, step))))
      .returning({ id: admins.id })
    if (taken.length > 0) return { ok: true }
  }
  await countFailure(ctx, admin, revokeOnLock)
  return { ok: false, answer: failure(WRONG_2FA, { [field]: WRONG_2FA }) }
}

export const twofaRoutes = handlers(twofa, {
  twofaSetup: async (_input, ctx) => {
    const me = ctx.me()
    if (me.totpEnabled) return failure(ALREADY_ENABLED, undefined, 409)
    const secret = newTotpSecret()
    // A new setup replaces an unconfirmed one; the enabled state is untouched until a code confirms it.
    await ctx.db.update(admins).set({ totpSecret: secret, totpLastStep: null }).where(and(eq(admins.id, me.id), eq(admins.totpEnabled, false)))
    ctx.audit(me.id)
    const otpauthUrl = totpUri(secret, me.email, TWOFA_ISSUER)
    const qr = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 240 })
    return { status: 'success', message: 'Scan the QR code with your authenticator app', otpauthUrl, qr, secret }
  },

  twofaEnable: async ({ code, password }, ctx) => {
    const me = ctx.me()
    if (me.totpEnabled) return failure(ALREADY_ENABLED, undefined, 409)
    if (me.totpSecret === null) return failure(SETUP_FIRST)
    if (lockedNow(me)) return failure(ACCOUNT_LOCKED, undefined, 429)
    if (!(await ctx.passwords.verify(me.passwordHash, password))) {
      await countFailure(ctx, me, true)
      return failure(WRONG_PASSWORD, { password: WRONG_PASSWORD })
    }
    // No replay state yet: the secret is new. Wrong first codes are typing or clock mistakes, not
    // an attack on a working factor, so they are not counted.
    const step = verifyTotp(me.totpSecret, code, null)
    if (step === null) return failure(WRONG_2FA, { code: WRONG_2FA })
    const enabled = await ctx.db
      .update(admins)
      .set({ totpEnabled: true, totpLastStep: step, failedLogins: 0 })
      // The secret the code was checked against must still be the pending one (no setup in between).
      .where(and(eq(admins.id, me.id), eq(admins.totpEnabled, false), eq(admins.totpSecret, me.totpSecret)))
      .returning({ id: admins.id })
    if (enabled.length === 0) return failure(SETUP_FIRST)
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
