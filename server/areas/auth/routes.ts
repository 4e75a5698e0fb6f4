/**
 * Login, Logout, the activity report and the signed-in admin's own profile (contract/auth.ts).
 *
 * Login answers the same, in about the same time, for an unknown email and a known one: the same
 * message for a wrong password, the same lock of an (email, address) pair after five failures and
 * the same slow-down of an email failed from many addresses (counted whether or not an admin has
 * the email, server/kit/ground/access/lockout.ts), and one argon2 verification either way (a dummy one for an
 * unknown email). Wrong 2FA codes count the same way. The route is also limited per address
 * (app.ts, RateLimit).
 * A refused login is HTTP 400, not 401: 401 means "your session token is no good", which a client
 * may answer by logging out, and there is no session yet.
 */
import { eq, sql } from 'drizzle-orm'
import * as auth from '#contract/auth'
import { UNAUTHORIZED } from '../../kit/ground/access/auth.ts'
import { failure, notFound, twoFactorNeeded } from '../../kit/request/answers.ts'
import { handlers } from '../../kit/request/handlers.ts'
import { admins } from '../../db/schema.ts'
import { liveSessions, recordProof, revokeAdminTokens, revokeToken } from '../../kit/ground/access/sessions.ts'
import { openSignedInSession } from '../../kit/rules/access/sign-in.ts'
import { countFailure, locked, secondFactor } from '../../kit/rules/access/second-factor.ts'
import { claimAttempt, failAttempt, lockoutKey, releaseAttempt } from '../../kit/ground/access/lockout.ts'
import { acceptTotpCode } from '../../kit/ground/access/two-factor-secret.ts'
import { recordFailedSignIn } from '../../kit/ground/access/events.ts'
import { ACCOUNT_DEACTIVATED, LOGIN_FAILED, WRONG_2FA, WRONG_PASSWORD } from '../../kit/ground/access/sign-in-answers.ts'


export const authRoutes = handlers(
  auth,
  {
    // Two phases (kit/request/api.ts, PreparedHandler): the password is verified before the write
    // transaction opens, so argon2's time never holds the database; the counts are taken and the
    // answer decided inside it, so no guess past a limit gets an answer. A locked attempt has
    // spent the same verification, so the lock cannot be probed by timing either.
    login: {
      prepare: async ({ email, password, twoFACode }, outside) => {
        const key = lockoutKey(email)
        const [known] = await outside.db.select().from(admins).where(eq(admins.email, key)).limit(1)
        const passwordOk = known === undefined ? await outside.passwords.verifyDummy(password) : await outside.passwords.verify(known.passwordHash, password)
        return async (ctx) => {
          const settings = ctx.config.lockout
          const attempt = await claimAttempt(ctx.db, settings, key, ctx.ip)
          if (attempt.locked) return failure(attempt.message, undefined, 429)
          // Read again inside the transaction: a password changed since the check is a failure.
          const [admin] = await ctx.db.select().from(admins).where(eq(admins.email, key)).limit(1)
          if (admin === undefined || !passwordOk || known?.passwordHash !== admin.passwordHash) {
            await failAttempt(ctx.db, settings, attempt, 'wrong password')
            return failure(LOGIN_FAILED)
          }
          if (admin.activate !== 1) {
            // Only the right password gets here: the row tells nothing a caller does not know.
            await releaseAttempt(ctx.db, attempt)
            await recordFailedSignIn(ctx.db, key, ctx.ip, 'account deactivated')
            return failure(ACCOUNT_DEACTIVATED)
          }
          if (admin.totpEnabled && admin.totpSecret !== null) {
            // The slots are given back, not the counts cleared: knowing the password must not buy
            // unlimited code guesses.
            if (twoFACode === '') {
              await releaseAttempt(ctx.db, attempt)
              return twoFactorNeeded()
            }
            if (!(await acceptTotpCode(ctx.db, ctx.config, ctx.log, admin, twoFACode))) {
              await failAttempt(ctx.db, settings, attempt, 'wrong 2FA code')
              return failure(WRONG_2FA, { twoFACode: WRONG_2FA })
            }
          }
          const token = await openSignedInSession(ctx, admin)
          return { status: 'success', message: 'Login successfully', token }
        }
      },
    },

    logout: async (_input, ctx) => {
      const me = ctx.me()
      const token = ctx.token
      // A session call always has its token; this only satisfies the type.
      if (token === null) return failure(UNAUTHORIZED, undefined, 401)
      await revokeToken(ctx.db, token, me.id)
      ctx.afterSuccess(() => ctx.realtime?.logoutToken(token.jti))
      ctx.audit(me.id)
      return { status: 'success', message: 'Logged out successfully' }
    },

    // Step-up (contract/auth.ts): the password is verified before the transaction opens, as at
    // login; the attempt's slot and the code are taken inside. Wrong answers count towards the
    // lockout, and a lock ends the sessions (whoever holds this one cannot prove to be its owner).
    proveIdentity: {
      prepare: async ({ password, twoFACode }, outside) => {
        const me = outside.me()
        const passwordOk = await outside.passwords.verify(me.passwordHash, password)
        return async (ctx) => {
          const token = ctx.token
          // A session call always has its token; this only satisfies the type.
          if (token === null) return failure(UNAUTHORIZED, undefined, 401)
          const attempt = await claimAttempt(ctx.db, ctx.config.lockout, me.email, ctx.ip)
          if (attempt.locked) return locked(attempt)
          if (!passwordOk) {
            await countFailure(ctx, me, attempt, true, 'wrong password')
            return failure(WRONG_PASSWORD, { password: WRONG_PASSWORD })
          }
          await releaseAttempt(ctx.db, attempt)
          const second = await secondFactor(ctx, me, twoFACode, 'twoFACode', true)
          if (!second.ok) return second.answer
          await recordProof(ctx.db, token, me.id)
          ctx.audit(me.id)
          return { status: 'success', message: auth.IDENTITY_PROVED }
        }
      },
    },

    listSessions: async (_input, ctx) => {
      const me = ctx.me()
      const mine = ctx.token?.jti
      const rows = await liveSessions(ctx.db, ctx.config, me.id)
      const data = rows.map((r) => ({
        _id: r.jti,
        device: r.device ?? '',
        address: r.address ?? '',
        signedInAt: r.signedInAt?.toISOString() ?? '',
        lastActiveAt: r.lastSeenAt.toISOString(),
        current: r.jti === mine,
      }))
      // This session first: the list reads "This device", then the others by last use.
      data.sort((a, b) => Number(b.current) - Number(a.current))
      return { status: 'success', message: 'Sessions fetched', data }
    },

    endSession: async ({ id }, ctx) => {
      const me = ctx.me()
      if (id === ctx.token?.jti) return failure(auth.USE_LOGOUT, { id: auth.USE_LOGOUT })
      // The admin id is part of the statement: another admin's session id matches nothing, as an unknown one.
      const ended = await revokeAdminTokens(ctx.db, me.id, { only: [id] })
      if (ended.length === 0) return notFound()
      ctx.afterSuccess(() => ctx.realtime?.logoutToken(id))
      ctx.audit(me.id)
      ctx.auditDetail(id)
      return { status: 'success', message: auth.SESSION_ENDED }
    },

    endOtherSessions: async (_input, ctx) => {
      const me = ctx.me()
      const token = ctx.token
      // A session call always has its token; this only satisfies the type.
      if (token === null) return failure(UNAUTHORIZED, undefined, 401)
      const ended = await revokeAdminTokens(ctx.db, me.id, { except: token.jti })
      ctx.afterSuccess(() => {
        for (const jti of ended) ctx.realtime?.logoutToken(jti)
      })
      ctx.audit(me.id)
      ctx.auditDetail(`${ended.length} ended`)
      return { status: 'success', message: auth.OTHER_SESSIONS_ENDED, count: ended.length }
    },

    // The access check already recorded the use (sessions.ts): nothing more to do.
    keepAlive: async () => ({ status: 'success', message: 'Session active' }),

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
      // The name is also Edit User's: a form opened there before this learns of the change.
      await ctx.db.update(admins).set({ name, version: sql`${admins.version} + 1` }).where(eq(admins.id, me.id))
      ctx.audit(me.id)
      return { status: 'success', message: 'Profile updated successfully' }
    },
  },
  { login: { max: (config) => config.loginRateLimit, timeWindow: 60_000 }, proveIdentity: { max: (config) => config.loginRateLimit, timeWindow: 60_000 } },
)
