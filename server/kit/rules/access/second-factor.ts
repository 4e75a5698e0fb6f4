/**
 * The authenticator-code check that several calls share: the two-factor settings themselves,
 * creating a staff user and the forgot-password reset ask for the caller's current code when their
 * 2FA is on. It lives in the kit so that those areas depend on it, not on each other.
 */
import { failure, twoFactorNeeded, type ApiFailure, type TwoFactorAnswer } from '../../request/answers.ts'
import { type Ctx } from '../../request/handlers.ts'
import type { AdminRow } from '../../../db/schema.ts'
import { revokeSessions } from '../../ground/access/auth.ts'
import { claimAttempt, failAttempt, releaseAttempt, type Attempt } from '../../ground/access/lockout.ts'
import { recordForcedLogout, type FailureReason } from '../../ground/access/events.ts'
import { acceptTotpCode } from '../../ground/access/two-factor-secret.ts'
import { WRONG_2FA } from '../../ground/access/sign-in-answers.ts'

export type SecondFactor = { ok: true } | { ok: false; answer: TwoFactorAnswer | ApiFailure }

export const locked = (attempt: { message: string }): ApiFailure => failure(attempt.message, undefined, 429)

/**
 * Counts a wrong code or password towards the admin's sign-in lockout (server/kit/ground/access/lockout.ts). When it
 * locks and `revokeOnLock` is set, the admin's sessions end too, since a session holder who cannot
 * produce the owner's secrets is probably not the owner.
 */
export async function countFailure(ctx: Ctx, admin: AdminRow, attempt: Attempt & { locked: false }, revokeOnLock: boolean, reason: FailureReason): Promise<void> {
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
 * (server/kit/ground/access/two-factor-secret.ts, two-factor-code.ts). Wrong codes count towards the lockout (`countFailure`), and a
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
