/**
 * Step-up (contract/define.ts, `stepUp`): a risky call needs a recent proof of the session's
 * owner. The registrar refuses a step-up endpoint before its body is read; `requireFreshProof`
 * asks the same inside a handler, for a call that is risky only sometimes (an undo that gives
 * access back).
 */
import { eq } from 'drizzle-orm'
import { STEP_UP_MESSAGE, STEP_UP_REQUIRED, type StepUpRefusal } from '#contract/common'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/index.ts'
import { adminPasskeys, sessionTokens, type AdminRow } from '../../db/schema.ts'
import { stepUpFresh } from '../ground/access/sessions.ts'
import { ApiFailure } from './answers.ts'
import type { Ctx } from './handlers.ts'

/** The refusal a session without a recent proof gets (what the PWA's prompt reads), or null when the proof is fresh. */
export async function stepUpRefusal(db: Db, config: Config, actor: AdminRow, provedAt: Date | null): Promise<StepUpRefusal | null> {
  if (stepUpFresh(config, provedAt, Date.now())) return null
  const [passkey] = await db.select({ id: adminPasskeys.id }).from(adminPasskeys).where(eq(adminPasskeys.adminId, actor.id)).limit(1)
  return {
    status: 'failed',
    message: STEP_UP_MESSAGE,
    code: STEP_UP_REQUIRED,
    twoFactor: actor.totpEnabled && actor.totpSecret !== null,
    passkey: passkey !== undefined,
  }
}

/** Throws the step-up refusal (403) unless the call's session proved its owner recently. */
export async function requireFreshProof(ctx: Ctx): Promise<void> {
  const me = ctx.me()
  const [session] = ctx.token === null ? [] : await ctx.db.select({ provedAt: sessionTokens.provedAt }).from(sessionTokens).where(eq(sessionTokens.jti, ctx.token.jti)).limit(1)
  const refusal = await stepUpRefusal(ctx.db, ctx.config, me, session?.provedAt ?? null)
  if (refusal === null) return
  const { status: _status, message, ...more } = refusal
  throw new ApiFailure(403, message, undefined, more)
}
