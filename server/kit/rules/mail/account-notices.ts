/**
 * Mails that tell an admin what happened to their own account: a sign-in from a device not seen
 * before, a password changed or reset, and their access changed by a staff manager. Each is
 * rendered from its Automated Email template and queued with the caller's transaction (the write
 * of the change), so a change that rolls back mails nothing. They carry what happened, when, and
 * from which device and address where known; never a code, a password or a token.
 *
 * A template switched off in Automated Emails stops its mail, not the change: the sign-in or the
 * password change still goes through, and the log says which mail was not sent.
 */
import { and, eq, like, sql } from 'drizzle-orm'
import type { TemplateIdentifier, TemplateValues } from '#contract/emails'
import { screens } from '#contract/routes'
import type { Db } from '../../../db/index.ts'
import { adminDevices } from '../../../db/schema.ts'
import { DEVICE_KEY_PATTERN } from '../../ground/access/device-cookie.ts'
import type { Ctx } from '../../request/handlers.ts'
import type { Services } from '../../ground/services.ts'
import { renderMail, TemplateUnavailable } from '../../ground/mail/templates.ts'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** '26 Nov 2026, 18:11 UTC': one zone for every reader, since the server does not know theirs. */
export function noticeTime(at: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0')
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()] ?? ''} ${at.getUTCFullYear()}, ${two(at.getUTCHours())}:${two(at.getUTCMinutes())} UTC`
}

/** What queues a notice: a call's context, or outside a call the server's (noticeSender). */
export type NoticeSender = Pick<Ctx, 'log' | 'sendMail'>

/**
 * The server's own sender, for work outside a call (a bulk run's batch): it queues with the db it is
 * given; the caller wakes the mailer once that has committed (`services.mailer.wake()`).
 */
export const noticeSender = (services: Pick<Services, 'log' | 'mailer'>): NoticeSender => ({
  log: services.log,
  sendMail: (message, db) => (db === undefined ? Promise.reject(new Error('a notice is queued with its change\'s transaction')) : services.mailer.enqueue(db, message)),
})

/** What a staff member is told when their account is switched off or on. */
export const activationChange = (active: boolean): string =>
  active ? 'Your account was activated: you can sign in again.' : 'Your account was deactivated: you can no longer sign in.'

/** Renders the notice and queues it to `to` with `db` (the change's transaction); false when its template is off. */
export async function queueAccountNotice<I extends TemplateIdentifier>(ctx: NoticeSender, db: Db, identifier: I, to: string, values: TemplateValues<I>): Promise<boolean> {
  let mail
  try {
    mail = await renderMail(db, identifier, values)
  } catch (error) {
    if (!(error instanceof TemplateUnavailable)) throw error
    ctx.log.warn({ template: identifier, mailTo: to }, 'account notice not sent: its template is missing or inactive')
    return false
  }
  await ctx.sendMail({ to, template: identifier, ...mail }, db)
  return true
}

/**
 * Records that the admin signed in from the device of `key` (deviceKey of its device cookie) and
 * says whether that device is new to them. Only rows of device cookies are the history: rows of
 * older versions, which named a User-Agent summary, are left out, so an account's first sign-in
 * with a device cookie counts as its first.
 * 'first' is an account's first recorded sign-in: no mail then, because every device is new to an
 * account that has none, so the mail would tell its owner nothing they do not know (they were
 * just given the account, by a manager or an approved request). Accounts that existed before
 * devices were recorded also start here, which spares every admin a mail on the first sign-in
 * after the upgrade. The honest limit: a stolen password used before its owner ever signed in is
 * not mailed.
 */
export async function rememberDevice(db: Db, adminId: string, device: string): Promise<'first' | 'new' | 'known'> {
  const [before] = await db
    .select({ any: sql<boolean>`true` })
    .from(adminDevices)
    .where(and(eq(adminDevices.adminId, adminId), like(adminDevices.device, DEVICE_KEY_PATTERN)))
    .limit(1)
  const added = await db.insert(adminDevices).values({ adminId, device }).onConflictDoNothing().returning({ device: adminDevices.device })
  if (added.length === 0) {
    await db
      .update(adminDevices)
      .set({ lastSeenAt: sql`now()` })
      .where(and(eq(adminDevices.adminId, adminId), eq(adminDevices.device, device)))
    return 'known'
  }
  return before === undefined ? 'first' : 'new'
}

const screenTitles = new Map<string, string>(screens.filter((s) => !('parent' in s)).map((s) => [s.path, s.title]))

/** The menu screens of a page list, by title, in menu order; an empty list means every screen. */
function screensOf(restrictions: readonly string[]): string[] {
  return [...screenTitles].filter(([path]) => restrictions.includes(path)).map(([, title]) => title)
}

interface Access {
  accessLevel: string
  restrictions: readonly string[]
}

/** What a change of access level and screens did, in words for the staff member; '' when nothing did. */
export function describeAccessChange(before: Access, after: Access): string {
  const parts: string[] = []
  if (before.accessLevel !== after.accessLevel) parts.push(`Access level: ${before.accessLevel} → ${after.accessLevel}.`)
  const was = before.restrictions.length === 0 ? null : screensOf(before.restrictions)
  const now = after.restrictions.length === 0 ? null : screensOf(after.restrictions)
  if (was === null && now !== null) parts.push(`Screens: every screen → ${now.join(', ') || 'none'}.`)
  else if (was !== null && now === null) parts.push('Screens: you can now open every screen.')
  else if (was !== null && now !== null) {
    const added = now.filter((t) => !was.includes(t))
    const removed = was.filter((t) => !now.includes(t))
    if (added.length > 0) parts.push(`Screens added: ${added.join(', ')}.`)
    if (removed.length > 0) parts.push(`Screens removed: ${removed.join(', ')}.`)
    // Only child pages moved (the access rules add or drop them with the level): say so plainly.
    if (added.length === 0 && removed.length === 0 && !(before.restrictions.length === after.restrictions.length && before.restrictions.every((p) => after.restrictions.includes(p)))) {
      parts.push('What you may do on your screens changed.')
    }
  }
  return parts.join(' ')
}
