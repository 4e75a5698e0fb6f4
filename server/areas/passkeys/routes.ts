/**
 * Passkeys (contract/passkeys.ts): Profile's list, add and remove (add and remove are step-up
 * calls), the sign-in with a passkey and the step-up proof by passkey. The WebAuthn checks and the
 * challenges are in webauthn.ts beside this file; a sign-in opens its session as Login
 * does (server/kit/rules/access/sign-in.ts).
 *
 * A passkey sign-in counts towards the sign-in limits as a password does: the route is limited
 * per address, and an assertion naming a known passkey takes a slot of its admin's lockout (a
 * refused one counts as a failure, a locked pair is refused before any check). An assertion naming
 * no passkey has no email to count against and is answered as any refused passkey.
 */
import { and, eq } from 'drizzle-orm'
import * as passkeys from '#contract/passkeys'
import { UNAUTHORIZED } from '../../kit/ground/access/auth.ts'
import { failure, notFound } from '../../kit/request/answers.ts'
import { handlers } from '../../kit/request/handlers.ts'
import { admins, adminPasskeys } from '../../db/schema.ts'
import { assertionOptions, checkRegistration, passkeyOfAssertion, passkeysOf, registrationOptions, takeChallenge, verifyAssertion } from './webauthn.ts'
import { claimAttempt, failAttempt, releaseAttempt } from '../../kit/ground/access/lockout.ts'
import { countFailure, locked } from '../../kit/rules/access/second-factor.ts'
import { recordFailedSignIn } from '../../kit/ground/access/events.ts'
import { deviceOf, recordProof } from '../../kit/ground/access/sessions.ts'
import { openSignedInSession } from '../../kit/rules/access/sign-in.ts'
import { ACCOUNT_DEACTIVATED } from '../../kit/ground/access/sign-in-answers.ts'
import { noticeTime, queueAccountNotice } from '../../kit/rules/mail/account-notices.ts'
import type { Ctx } from '../../kit/request/handlers.ts'

export const NO_PASSKEYS = 'You have no passkey yet. Add one on Profile first.'

/** The session of a signed-in call: always there on a session call; the check only satisfies the type. */
function sessionOf(ctx: Ctx) {
  const token = ctx.token
  if (token === null) throw failure(UNAUTHORIZED, undefined, 401)
  return { me: ctx.me(), token }
}

/** The account mail of a passkey added or removed, from this call's device and address. */
async function mailOwner(ctx: Ctx, template: 'passkey-added' | 'passkey-removed', passkeyName: string): Promise<void> {
  const me = ctx.me()
  await queueAccountNotice(ctx, ctx.db, template, me.email, { name: me.name, passkey: passkeyName, time: noticeTime(new Date()), device: deviceOf(ctx.userAgent), address: ctx.ip })
}

export const passkeyRoutes = handlers(
  passkeys,
  {
    listPasskeys: async (_input, ctx) => {
      const rows = await passkeysOf(ctx.db, ctx.me().id)
      const data = rows.map((p) => ({ _id: p.id, name: p.name, createdAt: p.createdAt.toISOString(), lastUsedAt: p.lastUsedAt?.toISOString() ?? '' }))
      return { status: 'success', message: 'Passkeys fetched', data }
    },

    passkeyRegistrationOptions: async (_input, ctx) => {
      const { me, token } = sessionOf(ctx)
      const existing = await passkeysOf(ctx.db, me.id)
      if (existing.length >= passkeys.MAX_PASSKEYS) return failure(passkeys.TOO_MANY_PASSKEYS)
      const options = await registrationOptions(ctx, me, token.jti, existing)
      ctx.audit(me.id)
      return { status: 'success', message: 'Passkey options', options }
    },

    addPasskey: async ({ name, response }, ctx) => {
      const { me, token } = sessionOf(ctx)
      // Taken first: the challenge is spent whatever the answer.
      const made = await checkRegistration(ctx, me, token.jti, response)
      if (made === null) return failure(passkeys.PASSKEY_FAILED)
      const count = (await passkeysOf(ctx.db, me.id)).length
      if (count >= passkeys.MAX_PASSKEYS) return failure(passkeys.TOO_MANY_PASSKEYS)
      // A credential id is unique across every admin: a credential belongs to one admin only.
      const [added] = await ctx.db
        .insert(adminPasskeys)
        .values({ adminId: me.id, name, ...made })
        .onConflictDoNothing({ target: adminPasskeys.credentialId })
        .returning({ id: adminPasskeys.id })
      if (added === undefined) return failure(passkeys.PASSKEY_ALREADY_ADDED)
      await mailOwner(ctx, 'passkey-added', name)
      ctx.audit(added.id)
      ctx.auditDetail(name)
      return { status: 'success', message: passkeys.PASSKEY_ADDED }
    },

    removePasskey: async ({ id }, ctx) => {
      const me = ctx.me()
      // The admin id is part of the statement: another admin's passkey id matches nothing, as an unknown one.
      const [removed] = await ctx.db
        .delete(adminPasskeys)
        .where(and(eq(adminPasskeys.id, id), eq(adminPasskeys.adminId, me.id)))
        .returning({ id: adminPasskeys.id, name: adminPasskeys.name })
      if (removed === undefined) return notFound()
      await mailOwner(ctx, 'passkey-removed', removed.name)
      ctx.audit(removed.id)
      ctx.auditDetail(removed.name)
      return { status: 'success', message: passkeys.PASSKEY_REMOVED }
    },

    passkeySignInOptions: async (_input, ctx) => {
      const options = await assertionOptions(ctx, 'sign-in', null)
      return { status: 'success', message: 'Passkey options', options }
    },

    passkeySignIn: async ({ response }, ctx) => {
      const challenge = await takeChallenge(ctx.db, response.response.clientDataJSON, 'sign-in', null)
      const passkey = await passkeyOfAssertion(ctx.db, response)
      const [admin] = passkey === null ? [] : await ctx.db.select().from(admins).where(eq(admins.id, passkey.adminId)).limit(1)
      if (passkey === null || admin === undefined) return failure(passkeys.PASSKEY_FAILED)
      const settings = ctx.config.lockout
      const attempt = await claimAttempt(ctx.db, settings, admin.email, ctx.ip)
      if (attempt.locked) return failure(attempt.message, undefined, 429)
      if (challenge === null || !(await verifyAssertion(ctx, passkey, response, challenge, 'sign-in'))) {
        await failAttempt(ctx.db, settings, attempt, 'passkey refused')
        return failure(passkeys.PASSKEY_FAILED)
      }
      if (admin.activate !== 1) {
        // As at Login: only a proof of the account's owner learns that it is deactivated.
        await releaseAttempt(ctx.db, attempt)
        await recordFailedSignIn(ctx.db, admin.email, ctx.ip, 'account deactivated')
        return failure(ACCOUNT_DEACTIVATED)
      }
      // The passkey verified its user: it is the password and the second factor at once.
      const token = await openSignedInSession(ctx, admin)
      return { status: 'success', message: passkeys.PASSKEY_SIGNED_IN, token }
    },

    passkeyStepUpOptions: async (_input, ctx) => {
      const { me, token } = sessionOf(ctx)
      const mine = await passkeysOf(ctx.db, me.id)
      if (mine.length === 0) return failure(NO_PASSKEYS)
      const options = await assertionOptions(ctx, 'step-up', { admin: me, jti: token.jti, passkeys: mine })
      ctx.audit(me.id)
      return { status: 'success', message: 'Passkey options', options }
    },

    // As proveIdentity: a refused passkey counts towards the lockout, and a lock ends the sessions.
    provePasskey: async ({ response }, ctx) => {
      const { me, token } = sessionOf(ctx)
      const challenge = await takeChallenge(ctx.db, response.response.clientDataJSON, 'step-up', { adminId: me.id, jti: token.jti })
      const passkey = await passkeyOfAssertion(ctx.db, response)
      const attempt = await claimAttempt(ctx.db, ctx.config.lockout, me.email, ctx.ip)
      if (attempt.locked) return locked(attempt)
      // Only the session's own admin's passkey proves its owner.
      if (challenge === null || passkey === null || passkey.adminId !== me.id || !(await verifyAssertion(ctx, passkey, response, challenge, 'step-up'))) {
        await countFailure(ctx, me, attempt, true, 'passkey refused')
        return failure(passkeys.PASSKEY_FAILED)
      }
      await releaseAttempt(ctx.db, attempt)
      await recordProof(ctx.db, token, me.id)
      ctx.audit(passkey.id)
      return { status: 'success', message: passkeys.IDENTITY_PROVED_BY_PASSKEY }
    },
  },
  {
    passkeySignInOptions: { max: (config) => config.loginRateLimit, timeWindow: 60_000 },
    passkeySignIn: { max: (config) => config.loginRateLimit, timeWindow: 60_000 },
    passkeyStepUpOptions: { max: (config) => config.loginRateLimit, timeWindow: 60_000 },
    provePasskey: { max: (config) => config.loginRateLimit, timeWindow: 60_000 },
  },
)
