/**
 * Set-password links (contract/access-requests.ts, setFirstPassword and sendPasswordLink): an
 * approved access request makes an admin with no password, and this mails them a single-use link
 * to the public page /admin/set-password?token=... whose button sets the first password.
 *
 * - Only the mailbox ever holds a secret of the account: /register takes no password, so whoever
 *   typed an address cannot sign in once its owner's request is approved.
 * - The link's secret is stored only as its SHA-256 (`password_setups`), one link per admin: a new
 *   one (Send password link) replaces the last. It works for SETUP_LINK_HOURS, once; opening the
 *   page changes nothing (mail scanners follow links), only its button does.
 * - The password follows Forgot Password's rules (contract/password.ts, NewPassword); it is
 *   hashed before the write's transaction opens, so argon2's time never holds the database.
 * - An account whose password is set (from the link, or by Forgot Password meanwhile) takes no
 *   link: the link is spent, and staff are told to let the member use Forgot Password.
 */
import { eq, sql } from 'drizzle-orm'
import type * as requests from '#contract/access-requests'
import type { Db } from '../../db/index.ts'
import { admins, passwordSetups } from '../../db/schema.ts'
import { failure, notFound } from '../../kit/request/answers.ts'
import { type Ctx, type PreparedHandler, type Handler } from '../../kit/request/handlers.ts'
import { clearFailures } from '../../kit/ground/access/lockout.ts'
import { renderMail, TemplateUnavailable } from '../../kit/ground/mail/templates.ts'
import type { Config } from '../../config.ts'
import { newConfirmToken, tokenHash } from './link-token.ts'

/** How long a set-password link works after its mail was made. */
export const SETUP_LINK_HOURS = 72

export const INVALID_SETUP_LINK = 'This link is not valid. It may have been used already or replaced by a newer one: use the link in the latest mail, or ask an administrator to send a new one.'
export const EXPIRED_SETUP_LINK = 'This link has expired. Ask an administrator to send a new one.'
export const PASSWORD_SET = 'Your password is set. You can log in now.'
export const PASSWORD_LINK_SENT = 'Password link sent successfully'
export const HAS_PASSWORD = 'This user has set a password already: they can use Forgot Password to change it'
export const SETUP_MAIL_UNAVAILABLE = 'The set-password mail cannot be sent: its email template is missing or inactive'

/** The public page the mail links to. */
export const setPasswordUrl = (config: Config, token: string): string => `${config.publicUrl}/admin/set-password?token=${encodeURIComponent(token)}`

/**
 * Makes a new link for `admin` (replacing their last) and queues its mail, in `db`'s transaction:
 * a mail that cannot be rendered refuses the whole write, so no member is left without a way in.
 */
export async function mailPasswordSetup(ctx: Ctx, db: Db, admin: { id: string; name: string; email: string }): Promise<void> {
  const link = newConfirmToken()
  const expiresAt = new Date(Date.now() + SETUP_LINK_HOURS * 3600 * 1000)
  await db
    .insert(passwordSetups)
    .values({ adminId: admin.id, tokenHash: link.hash, expiresAt })
    .onConflictDoUpdate({ target: passwordSetups.adminId, set: { tokenHash: link.hash, expiresAt, createdAt: new Date() } })
  const mail = await renderMail(db, 'password-setup', { name: admin.name, setPasswordUrl: setPasswordUrl(ctx.config, link.token), hours: String(SETUP_LINK_HOURS) }).catch((error: unknown) => {
    if (error instanceof TemplateUnavailable) throw failure(SETUP_MAIL_UNAVAILABLE, undefined, 503)
    throw error
  })
  await ctx.sendMail({ to: admin.email, template: 'password-setup', ...mail }, db)
}

export const setFirstPassword: PreparedHandler<typeof requests.setFirstPassword> = {
  prepare: async ({ token, newPassword }, outside) => {
    const passwordHash = await outside.passwords.hash(newPassword)
    return async (ctx) => {
      const [setup] = await ctx.db.select().from(passwordSetups).where(eq(passwordSetups.tokenHash, tokenHash(token))).for('update').limit(1)
      if (setup === undefined) return failure(INVALID_SETUP_LINK, { token: INVALID_SETUP_LINK })
      if (setup.expiresAt.getTime() < Date.now()) {
        // A returned failure keeps the write (only a throw rolls it back): the dead link is gone.
        await ctx.db.delete(passwordSetups).where(eq(passwordSetups.adminId, setup.adminId))
        return failure(EXPIRED_SETUP_LINK, { token: EXPIRED_SETUP_LINK })
      }
      const [admin] = await ctx.db.select({ id: admins.id, email: admins.email, passwordHash: admins.passwordHash }).from(admins).where(eq(admins.id, setup.adminId)).limit(1)
      await ctx.db.delete(passwordSetups).where(eq(passwordSetups.adminId, setup.adminId))
      if (admin === undefined || admin.passwordHash !== null) return failure(INVALID_SETUP_LINK, { token: INVALID_SETUP_LINK })
      await ctx.db
        .update(admins)
        .set({ passwordHash, tokenVersion: sql`${admins.tokenVersion} + 1` })
        .where(eq(admins.id, admin.id))
      // The mailbox is proved: the failures counted against the address before now are not the owner's.
      await clearFailures(ctx.db, admin.email)
      ctx.auditAnonymous(admin.id)
      return { status: 'success', message: PASSWORD_SET }
    }
  },
}

export const sendPasswordLink: Handler<typeof requests.sendPasswordLink> = async ({ id }, ctx) => {
  const [target] = await ctx.db.select().from(admins).where(eq(admins.id, id)).for('update').limit(1)
  if (target === undefined || target.role !== 'subadmin') return notFound('id')
  if (target.passwordHash !== null) return failure(HAS_PASSWORD, { id: HAS_PASSWORD })
  await mailPasswordSetup(ctx, ctx.db, target)
  ctx.audit(target.id)
  return { status: 'success', message: PASSWORD_LINK_SENT }
}
