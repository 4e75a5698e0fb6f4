/**
 * Login and the signed-in admin's own profile (contract/auth.ts).
 *
 * Login answers the same message, in about the same time, for an unknown email and a wrong
 * password (an argon2 verification runs either way). Five failures, wrong 2FA codes included,
 * lock the account for ten minutes; the route is also limited per address (app.ts, RateLimit).
 * A refused login is HTTP 400, not 401: 401 means "your session token is no good", which a client
 * may answer by logging out, and there is no session yet.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import * as auth from '#contract/auth'
import { failure, handlers, twoFactorNeeded, type Ctx } from '../api.ts'
import { signToken } from '../auth.ts'
import { admins, type AdminRow } from '../db/schema.ts'
import { verifyTotp } from '../totp.ts'

export const LOGIN_FAILED = 'Invalid email or password'
export const ACCOUNT_LOCKED = 'Too many failed attempts. Try again in 10 minutes.'
export const ACCOUNT_DEACTIVATED = 'Your account has been deactivated'
export const WRONG_2FA = 'Invalid 2FA code'
export const MAX_FAILURES = 5
export const LOCK_MS = 10 * 60 * 1000

/** Counts a failure; the fifth locks the account and starts the count again for after the lock. */
async function recordFailure(ctx: Ctx, admin: AdminRow): Promise<void> {
  // Incremented in SQL so concurrent attempts cannot overwrite each other's count.
  const [row] = await ctx.db
    .update(admins)
    .set({ failedLogins: sql`${admins.failedLogins} + 1` })
    .where(eq(admins.id, admin.id))
    .returning({ failures: admins.failedLogins })
  if (row !== undefined && row.failures >= MAX_FAILURES) {
    await ctx.db.update(admins).set({ failedLogins: 0, lockedUntil: new Date(Date.now() + LOCK_MS) }).where(eq(admins.id, admin.id))
  }
}

export const authRoutes = handlers(
  auth,
  {
    login: async ({ email, password, twoFACode }, ctx) => {
      const [admin] = await ctx.db.select().from(admins).where(eq(admins.email, email.toLowerCase())).limit(1)
      if (admin === undefined) {
        await ctx.passwords.verifyDummy(password)
        return failure(LOGIN_FAILED)
      }
      if (admin.lockedUntil !== null && admin.lockedUntil.getTime() > Date.now()) {
        // No verification while locked, but the same time spent, so the lock cannot be probed by timing.
        await ctx.passwords.verifyDummy(password)
        return failure(ACCOUNT_LOCKED, undefined, 429)
      }
      if (!(await ctx.passwords.verify(admin.passwordHash, password))) {
        await recordFailure(ctx, admin)
        return failure(LOGIN_FAILED)
      }
      if (admin.activate !== 1) return failure(ACCOUNT_DEACTIVATED)
      let totpStep: number | null = null
      if (admin.totpEnabled && admin.totpSecret !== null) {
        // The failure count is not reset here: knowing the password must not buy unlimited code guesses.
        if (twoFACode === '') return twoFactorNeeded()
        totpStep = verifyTotp(admin.totpSecret, twoFACode, admin.totpLastStep)
        // The step is claimed with a conditional UPDATE: of logins racing with one code, one wins.
        if (totpStep !== null) {
          const claimed = await ctx.db
            .update(admins)
            .set({ totpLastStep: totpStep })
            .where(and(eq(admins.id, admin.id), or(isNull(admins.totpLastStep), lt(admins.totpLastStep, totpStep))))
            .returning({ id: admins.id })
          if (claimed.length === 0) totpStep = null
        }
        if (totpStep === null) {
          await recordFailure(ctx, admin)
          return failure(WRONG_2FA, { twoFACode: WRONG_2FA })
        }
      }
      await ctx.db
        .update(admins)
        .set({ failedLogins: 0, lockedUntil: null })
        .where(eq(admins.id, admin.id))
      ctx.audit(admin.id, admin.id)
      return { status: 'success', message: 'Login successfully', token: await signToken(ctx.config, admin) }
    },

    getProfile: async (_input, ctx) => {
      const me = ctx.me()
      return {
        status: 'success',
        message: 'Profile fetched',
        data: {
          _id: me.id,
          name: me.name,
          email: me.email,
          role: me.role,
          accessLevel: me.accessLevel,
          restrictions: me.restrictions,
          twoFactorEnabled: me.totpEnabled,
        },
      }
    },

    editProfile: async ({ name }, ctx) => {
      const me = ctx.me()
      await ctx.db.update(admins).set({ name }).where(eq(admins.id, me.id))
      ctx.audit(me.id)
      return { status: 'success', message: 'Profile updated successfully' }
    },
  },
  { login: { max: (config) => config.loginRateLimit, timeWindow: 60_000 } },
)
