/**
 * A sign-in that has proved its admin (a password and 2FA code at Login, or a passkey): the same
 * session whichever proved it. The email's failures and this address's lock are cleared, the token
 * is issued and its session row written (device, address, time, and the sign-in as the session's
 * first step-up proof), and a device the admin never signed in from is mailed to them, in the
 * sign-in's transaction. The device is the browser's device cookie (device-cookie.ts), given or
 * renewed here; the mail names it by its User-Agent, as the session list does. The registrar writes the audit row, naming the admin as the actor.
 */
import type { Ctx } from '../../request/handlers.ts'
import type { AdminRow } from '../../../db/schema.ts'
import { noticeTime, queueAccountNotice, rememberDevice } from '../mail/account-notices.ts'
import { issueToken } from '../../ground/access/auth.ts'
import { clearFailures } from '../../ground/access/lockout.ts'
import { DEVICE_COOKIE, deviceCookieHeader, deviceIdOf, deviceKey } from '../../ground/access/device-cookie.ts'
import { deviceOf, openSession, pruneExpiredTokens } from '../../ground/access/sessions.ts'

/** Opens the session of a proved sign-in and returns its token. Run it in the sign-in's write transaction. */
export async function openSignedInSession(ctx: Ctx, admin: AdminRow): Promise<string> {
  await clearFailures(ctx.db, admin.email, ctx.ip)
  // Sign-ins are few: a good time to drop the rows of tokens that have expired.
  await pruneExpiredTokens(ctx.db)
  ctx.audit(admin.id, admin.id)
  const issued = await issueToken(ctx.config, admin)
  const device = deviceOf(ctx.userAgent)
  await openSession(ctx.db, issued.ref, admin.id, { device, address: ctx.ip })
  const { id } = deviceIdOf(ctx.cookie(DEVICE_COOKIE))
  ctx.setCookie(deviceCookieHeader(id, ctx.https))
  // In the sign-in's transaction: a sign-in that fails after this point mails nothing.
  if ((await rememberDevice(ctx.db, admin.id, deviceKey(id))) === 'new') {
    await queueAccountNotice(ctx, ctx.db, 'new-device-sign-in', admin.email, { name: admin.name, time: noticeTime(new Date()), device, address: ctx.ip })
  }
  return issued.token
}
