/**
 * Login and the signed-in admin's own profile (contract/auth.ts).
 *
 * Login answers the same, in about the same time, for an unknown email and a known one: the same
 * message for a wrong password, the same lock after five failures (counted per email whether or
 * not an admin has it, server/sign-in/lockout.ts), and one argon2 verification either way (a dummy one for
 * an unknown email or while locked). Wrong 2FA codes count towards the same lock. The route is
 * also limited per address (app.ts, RateLimit).
 * A refused login is HTTP 400, not 401: 401 means "your session token is no good", which a client
 * may answer by logging out, and there is no session yet.
 */
import { eq } from 'drizzle-orm'
import * as auth from '#contract/auth'
import { failure, handlers, twoFactorNeeded } from '../kit/api.ts'
import { signToken } from '../sign-in/auth.ts'
import { admins } from '../db/schema.ts'
import { claimAttempt, clearFailures, failAttempt, lockoutKey, releaseAttempt } from '../sign-in/lockout.ts'
import { acceptTotpCode } from '../sign-in/two-factor-secret.ts'

export const LOGIN_FAILED = 'Invalid email or password'
export const ACCOUNT_LOCKED = 'Too many failed attempts. Try again in 10 minutes.'
export const ACCOUNT_DEACTIVATED = 'Your account has been deactivated'
export const WRONG_2FA = 'Invalid 2FA code'
export { LOCK_MS, MAX_FAILURES } from '../sign-in/lockout.ts'

export const authRoutes = handlers(
  auth,
  {
    login: async ({ email, password, twoFACode }, ctx) => {
      const key = lockoutKey(email)
      // The slot is taken before anything is looked up, so a locked known email and a locked
      // unknown one take the same path to the same answer.
      const attempt = await claimAttempt(ctx.db, key)
      if (attempt.locked) {
        // No verification while locked, but the same time spent, so the lock cannot be probed by timing.
        await ctx.passwords.verifyDummy(password)
        return failure(ACCOUNT_LOCKED, undefined, 429)
      }
      const [admin] = await ctx.db.select().from(admins).where(eq(admins.email, key)).limit(1)
      const passwordOk = admin === undefined ? await ctx.passwords.verifyDummy(password) : await ctx.passwords.verify(admin.passwordHash, password)
      if (admin === undefined || !passwordOk) {
        await failAttempt(ctx.db, attempt)
        return failure(LOGIN_FAILED)
      }
      if (admin.activate !== 1) {
        await releaseAttempt(ctx.db, attempt)
        return failure(ACCOUNT_DEACTIVATED)
      }
      if (admin.totpEnabled && admin.totpSecret !== null) {
        // The slot is given back, not the count cleared: knowing the password must not buy
        // unlimited code guesses.
        if (twoFACode === '') {
          await releaseAttempt(ctx.db, attempt)
          return twoFactorNeeded()
        }
        if (!(await acceptTotpCode(ctx.db, ctx.config, ctx.log, admin, twoFACode))) {
          await failAttempt(ctx.db, attempt)
          return failure(WRONG_2FA, { twoFACode: WRONG_2FA })
        }
      }
      await clearFailures(ctx.db, key)
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
