/**
 * Users and Access (contract/staff.ts): the sub-admin list, Create User, Edit User and the
 * Active/DeActive toggle, with the rules the requirements give only for the UI enforced here:
 * - a created user is always role subadmin; nobody edits or deactivates a superadmin;
 * - the access rules of requirements R5.13 (Admin adds each chosen parent's child pages, View Only
 *   removes child pages, edit always adds /profile and /resetpassword to a chosen list);
 * - a privilege ceiling: nobody grants a level or a page they do not hold, or touches an admin
 *   who holds more than they do. The contract's staff access already keeps role subadmin out, so
 *   today only a superadmin passes; the ceiling keeps that true if other roles ever arrive;
 * - an access change or a deactivation bumps the token version (older tokens stop working at
 *   once) and emits LOGOUT to that admin's room;
 * - an access change, a change of sign-in email, a deactivation and an activation are mailed to
 *   the staff member
 *   (kit/rules/mail/account-notices.ts), queued in the write's transaction.
 */
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { staffBulk } from '#contract/bulk'
import { alwaysAllowed, openToEveryone } from '#contract/routes'
import * as staff from '#contract/staff'
import { ApiFailure, failure, notFound } from '../../kit/request/answers.ts'
import { handlers, type Ctx } from '../../kit/request/handlers.ts'
import { adminPasskeys, admins, type AdminRow } from '../../db/schema.ts'
import { caseless, listPage } from '../../kit/request/paging.ts'
import { uniqueField } from '../../kit/request/unique.ts'
import { editVersion } from '../../kit/request/edit-version.ts'
import { secondFactor } from '../../kit/rules/access/second-factor.ts'
import { unlockEmail } from '../../kit/ground/access/lockout.ts'
import { recordForcedLogout } from '../../kit/ground/access/events.ts'
import { FORBIDDEN, UNAUTHORIZED, revokeSessions } from '../../kit/ground/access/auth.ts'
import { setViewingAs, viewingAsOf } from '../../kit/ground/access/sessions.ts'
import { activationChange, describeAccessChange, noticeSender, noticeTime, queueAccountNotice, type NoticeSender } from '../../kit/rules/mail/account-notices.ts'
import { EMAIL_TAKEN, grantCheck, grantedPages, type Holder } from '../../kit/rules/access/grants.ts'
import { defineBulk } from '../../kit/request/bulk.ts'
import type { Db } from '../../db/index.ts'

export const SUPERADMIN_UNTOUCHABLE = 'The superadmin cannot be changed'
export const ABOVE_YOU = 'You cannot change a user who has more access than you'

/** Whether `actor` may edit or toggle `target`: never a superadmin, never someone holding more. */
export function touchCheck(actor: Holder, target: Holder): ApiFailure | null {
  if (target.role === 'superadmin') return failure(SUPERADMIN_UNTOUCHABLE, undefined, 403)
  return grantCheck(actor, target.accessLevel, target.restrictions) === null ? null : failure(ABOVE_YOU, undefined, 403)
}

/** Emails are stored lower-cased, so the unique index on the column is case-insensitive. */
const staffEmails = uniqueField({ column: admins.email, id: admins.id, index: 'admins_email_key', field: 'email', message: EMAIL_TAKEN })

/** A staff record as the list and Edit User show it: only these columns are read, so no hash, OTP or 2FA secret can reach an answer. */
const staffFields = {
  _id: admins.id,
  name: admins.name,
  email: admins.email,
  accessLevel: admins.accessLevel,
  role: admins.role,
  restrictions: admins.restrictions,
  activate: admins.activate,
  version: admins.version,
  // Whether, never what: the hash itself is not read.
  setupPending: sql<boolean>`${admins.passwordHash} is null`.mapWith(Boolean),
}
const staffVersions = editVersion({ id: admins.id, version: admins.version })
/** Staff records only: the superadmin is nobody's to edit, so neither the list nor Edit User offers it. */
const staffOnly = eq(admins.role, 'subadmin')

async function findTarget(ctx: Ctx, id: string, field: string): Promise<AdminRow | ApiFailure> {
  const [target] = await ctx.db.select().from(admins).where(eq(admins.id, id)).limit(1)
  return target ?? notFound(field)
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x) => b.includes(x))

/** Ends a changed admin's sessions once the change is committed. */
const logoutLater = (ctx: Ctx, adminId: string): void => ctx.afterSuccess(() => ctx.realtime?.logout(adminId))

/**
 * The staff `actor` may not touch (touchCheck, as SQL, row by row): those holding the Admin level
 * when the actor does not, and those with a page the actor may not open. None for the superadmin.
 */
export function aboveActor(actor: AdminRow): SQL | undefined {
  if (actor.role === 'superadmin') return undefined
  const level = actor.accessLevel === 'Admin' ? sql`false` : sql`${admins.accessLevel} = 'Admin'`
  if (actor.restrictions.length === 0) return level
  const opens = [...actor.restrictions, ...alwaysAllowed, ...openToEveryone]
  return sql`(${level} or cardinality(${admins.restrictions}) = 0 or not (${admins.restrictions} <@ ${sql.param(opens)}::text[]))`
}

/** The LOGOUT to each admin's sockets, once what ended their sessions has committed. */
const logoutAll = (services: { realtime: { logout: (id: string) => void } | null }, ids: readonly string[]): void => {
  for (const id of ids) services.realtime?.logout(id)
}

/** The notice the single Active/DeActive toggle mails, to each member a batch switched, queued in its transaction. */
async function mailActivation(tx: Db, ids: readonly string[], by: AdminRow, sender: NoticeSender, active: boolean): Promise<void> {
  const members = await tx.select({ name: admins.name, email: admins.email }).from(admins).where(inArray(admins.id, [...ids]))
  const values = { change: activationChange(active), by: by.name, time: noticeTime(new Date()) }
  for (const member of members) await queueAccountNotice(sender, tx, 'access-changed', member.email, { ...values, name: member.name })
}

/**
 * Members a batch switched off, in its transaction: their sessions end (the token version moves
 * on, logged as a forced logout) and each is mailed the notice; LOGOUT waits for the commit.
 */
async function switchedOff(tx: Db, ids: readonly string[], by: AdminRow, sender: NoticeSender): Promise<void> {
  await tx.update(admins).set({ tokenVersion: sql`${admins.tokenVersion} + 1` }).where(inArray(admins.id, [...ids]))
  for (const id of ids) await recordForcedLogout(tx, id, by.id, null, 'deactivated')
  await mailActivation(tx, ids, by, sender, false)
}

/**
 * Bulk actions on Users and Access (contract/bulk.ts), by the list's search: the single toggle's
 * and Sign out everywhere's rules row by row. The superadmin (found only by id: the list never
 * shows it) and the acting admin are skipped with their reasons, as is anyone above the actor.
 */
defineBulk({
  calls: staffBulk,
  list: staff.FetchSubAdminUsers,
  table: admins,
  id: admins.id,
  name: sql`${admins.name} || ' <' || ${admins.email} || '>'`,
  order: [desc(admins.createdAt), desc(admins.id)],
  search: [admins.name, admins.email],
  filter: () => staffOnly,
  outOfReach: aboveActor,
  skips: (me) => [
    { when: eq(admins.id, me.id), reason: 'self' },
    { when: eq(admins.role, 'superadmin'), reason: 'superadmin' },
  ],
  actions: {
    // Sessions end at once, as the single toggle ends them: the token version moves on, logged as a forced logout.
    deactivate: {
      set: { column: admins.activate, to: 0 },
      effect: {
        inTx: (tx, ids, by, services) => switchedOff(tx, ids, by, noticeSender(services)),
        after: (services, ids) => {
          logoutAll(services, ids)
          services.mailer.wake()
        },
      },
      // Switched on again by the undo: told so, as the single toggle would tell them.
      undone: (ctx, ids) => mailActivation(ctx.db, ids, ctx.me(), ctx, true),
    },
    activate: {
      set: { column: admins.activate, to: 1 },
      effect: { inTx: (tx, ids, by, services) => mailActivation(tx, ids, by, noticeSender(services), true), after: (services) => services.mailer.wake() },
      // Switched off again by the undo: the sessions they opened meanwhile end, and they are told.
      undone: async (ctx, ids) => {
        await switchedOff(ctx.db, ids, ctx.me(), ctx)
        ctx.afterSuccess(() => logoutAll(ctx, ids))
      },
    },
    signOut: {
      each: {
        inTx: async (tx, ids, by) => {
          for (const id of ids) {
            await revokeSessions(tx, id)
            await recordForcedLogout(tx, id, by.id, null, 'signed out everywhere')
          }
        },
        after: logoutAll,
      },
    },
  },
})

export const staffRoutes = handlers(staff, {
  createSubAdminUsers: async ({ name, email, password, accessLevel, restrictions, twoFACode }, ctx) => {
    const me = ctx.me()
    const address = email.toLowerCase()
    const granted = grantedPages(accessLevel, restrictions, false, 'Access is required')
    if (granted instanceof ApiFailure) throw granted
    const ceiling = grantCheck(me, accessLevel, granted)
    if (ceiling !== null) throw ceiling
    const taken = await staffEmails.check(ctx.db, address)
    if (taken !== null) throw taken
    // Asked last, so a code is not spent on a form the server would refuse anyway.
    const check = await secondFactor(ctx, me, twoFACode, 'twoFACode', true)
    if (!check.ok) return check.answer
    const passwordHash = await ctx.passwords.hash(password)
    const [row] = await staffEmails.guard(() =>
      ctx.db
        .insert(admins)
        .values({ name, email: address, passwordHash, role: 'subadmin', accessLevel, restrictions: granted })
        .returning({ id: admins.id }),
    )
    ctx.audit(row?.id ?? null)
    return { status: 'success', message: 'User created successfully' }
  },

  FetchSubAdminUsers: async (query, ctx) => {
    const { rows, count } = await listPage(ctx.db, query, {
      rows: ctx.db.select(staffFields).from(admins).$dynamic(),
      search: [admins.name, admins.email],
      filter: staffOnly,
      orderBy: [desc(admins.createdAt), desc(admins.id)],
      sort: { name: caseless(admins.name), email: caseless(admins.email), accessLevel: admins.accessLevel },
    })
    return { status: 'success', message: 'Users fetched', result: rows, count }
  },

  getSubAdminUser: async ({ _id }, ctx) => {
    const [row] = await ctx.db.select(staffFields).from(admins).where(and(eq(admins.id, _id), staffOnly)).limit(1)
    if (row === undefined) throw notFound('_id')
    return { status: 'success', message: 'User fetched', data: row }
  },

  UpdateSubAdminUsers: async ({ _id, name, email, accessLevel, restrictions, version }, ctx) => {
    const me = ctx.me()
    const target = await findTarget(ctx, _id, '_id')
    if (target instanceof ApiFailure) throw target
    const refused = touchCheck(me, target)
    if (refused !== null) throw refused
    const address = email.toLowerCase()
    const granted = grantedPages(accessLevel, restrictions, true, 'Restrictions is required')
    if (granted instanceof ApiFailure) throw granted
    const ceiling = grantCheck(me, accessLevel, granted)
    if (ceiling !== null) throw ceiling
    const taken = await staffEmails.check(ctx.db, address, target.id)
    if (taken !== null) throw taken
    const accessChanged = accessLevel !== target.accessLevel || !sameSet(granted, target.restrictions)
    const updated = await staffEmails.guard(() =>
      ctx.db
        .update(admins)
        .set({
          name,
          email: address,
          accessLevel,
          restrictions: granted,
          ...(accessChanged ? { tokenVersion: sql`${admins.tokenVersion} + 1` } : {}),
          version: staffVersions.next,
        })
        // The role is re-checked in the statement, in case it changed since it was read.
        .where(and(staffVersions.matches(target.id, version), eq(admins.role, 'subadmin')))
        .returning({ id: admins.id }),
    )
    if (updated.length === 0) throw await staffVersions.missed(ctx.db, target.id, '_id')
    if (accessChanged) {
      await recordForcedLogout(ctx.db, target.id, me.id, ctx.ip, 'access changed')
      logoutLater(ctx, target.id)
    }
    const moved = address !== target.email
    if (accessChanged || moved) {
      // To the address the account signs in with from now on and, when that changed, to the old
      // one as well: its owner is the one who would notice an address they do not know.
      const change = [describeAccessChange(target, { accessLevel, restrictions: granted }), moved ? `Sign-in email: ${target.email} → ${address}.` : ''].filter((p) => p !== '').join(' ')
      const values = { name, change, by: me.name, time: noticeTime(new Date()) }
      for (const to of moved ? [address, target.email] : [address]) await queueAccountNotice(ctx, ctx.db, 'access-changed', to, values)
    }
    ctx.audit(target.id)
    return { status: 'success', message: 'User updated successfully' }
  },

  ActivateSubadminStatusUpdate: async ({ id, activate }, ctx) => {
    const me = ctx.me()
    const target = await findTarget(ctx, id, 'id')
    if (target instanceof ApiFailure) throw target
    const refused = touchCheck(me, target)
    if (refused !== null) throw refused
    // Decided in SQL, so two requests racing cannot both read "active": the state asked for, else
    // the flip. Tokens are revoked only when an active admin becomes inactive.
    const next = activate === undefined ? sql`case when ${admins.activate} = 1 then 0 else 1 end` : sql`${activate}::integer`
    const [row] = await ctx.db
      .update(admins)
      .set({
        activate: next,
        tokenVersion: sql`case when ${admins.activate} = 1 and (${next}) <> 1 then ${admins.tokenVersion} + 1 else ${admins.tokenVersion} end`,
      })
      .where(and(eq(admins.id, target.id), eq(admins.role, 'subadmin')))
      .returning({ activate: admins.activate, tokenVersion: admins.tokenVersion })
    if (row === undefined) throw notFound('id')
    // Only a real revocation (an active admin made inactive) is a forced logout in the log.
    if (row.tokenVersion !== target.tokenVersion) await recordForcedLogout(ctx.db, target.id, me.id, ctx.ip, 'deactivated')
    if (row.activate !== 1) logoutLater(ctx, target.id)
    if ((row.activate === 1) !== (target.activate === 1)) {
      await queueAccountNotice(ctx, ctx.db, 'access-changed', target.email, { name: target.name, change: activationChange(row.activate === 1), by: me.name, time: noticeTime(new Date()) })
    }
    ctx.audit(target.id)
    return { status: 'success', message: row.activate === 1 ? 'User activated successfully' : 'User deactivated successfully' }
  },

  // Every session of the member ends: the token version moves on (each token of theirs answers
  // 401) and LOGOUT reaches all their sockets, on any instance, once committed.
  signOutStaff: async ({ id }, ctx) => {
    const me = ctx.me()
    const target = await findTarget(ctx, id, 'id')
    if (target instanceof ApiFailure) throw target
    const refused = touchCheck(me, target)
    if (refused !== null) throw refused
    await revokeSessions(ctx.db, target.id)
    await recordForcedLogout(ctx.db, target.id, me.id, ctx.ip, 'signed out everywhere')
    logoutLater(ctx, target.id)
    ctx.audit(target.id)
    return { status: 'success', message: staff.SIGNED_OUT_EVERYWHERE }
  },

  // The audit row names the member and the passkeys removed; their sessions stay (Sign out
  // everywhere ends them).
  removeStaffPasskeys: async ({ id }, ctx) => {
    const target = await findTarget(ctx, id, 'id')
    if (target instanceof ApiFailure) throw target
    const refused = touchCheck(ctx.me(), target)
    if (refused !== null) throw refused
    const removed = await ctx.db.delete(adminPasskeys).where(eq(adminPasskeys.adminId, target.id)).returning({ name: adminPasskeys.name })
    ctx.audit(target.id)
    ctx.auditDetail(removed.length === 0 ? 'No passkey to remove' : `Removed ${removed.length} ${removed.length === 1 ? 'passkey' : 'passkeys'}: ${removed.map((p) => p.name).join(', ')}`)
    const message = removed.length === 0 ? 'This user has no passkey' : `${removed.length} ${removed.length === 1 ? 'passkey' : 'passkeys'} removed`
    return { status: 'success', message, removed: removed.length }
  },

  // Any admin, the superadmin included (locked out from one address, they may unlock it from
  // another). The audit row is the registrar's, as for every write: /unlockAdmin and the admin's id.
  unlockAdmin: async ({ id }, ctx) => {
    const [target] = await ctx.db.select({ id: admins.id, email: admins.email }).from(admins).where(eq(admins.id, id)).limit(1)
    if (target === undefined) throw notFound('id')
    await unlockEmail(ctx.db, target.email)
    ctx.audit(target.id)
    return { status: 'success', message: staff.ACCOUNT_UNLOCKED }
  },

  // View as (contract/staff.ts). A session already viewing as someone never gets here: the
  // access check refuses its writes. The staff rule already keeps everyone but the superadmin
  // out; the role is checked again here because this call lends another member's access.
  startViewAs: async ({ id }, ctx) => {
    const me = ctx.me()
    const token = ctx.token
    if (token === null) throw failure(UNAUTHORIZED, undefined, 401)
    if (me.role !== 'superadmin') throw failure(FORBIDDEN, undefined, 403)
    const target = await findTarget(ctx, id, 'id')
    if (target instanceof ApiFailure) throw target
    if (target.id === me.id) throw failure(staff.VIEW_AS_SELF, { id: staff.VIEW_AS_SELF }, 403)
    if (target.role === 'superadmin') throw failure(staff.VIEW_AS_SUPERADMIN, { id: staff.VIEW_AS_SUPERADMIN }, 403)
    await setViewingAs(ctx.db, token, me.id, target.id)
    ctx.audit(target.id)
    ctx.auditDetail(`Viewing as ${target.name} (${target.accessLevel})`)
    const data = { _id: target.id, name: target.name, email: target.email, role: target.role, accessLevel: target.accessLevel, restrictions: target.restrictions }
    return { status: 'success', message: staff.VIEW_AS_STARTED, data }
  },

  endViewAs: async (_input, ctx) => {
    const me = ctx.me()
    const token = ctx.token
    if (token === null) throw failure(UNAUTHORIZED, undefined, 401)
    const viewed = await viewingAsOf(ctx.db, token)
    if (viewed === null) throw failure(staff.NOT_VIEWING_AS, undefined, 409)
    await setViewingAs(ctx.db, token, me.id, null)
    const [member] = await ctx.db.select({ name: admins.name }).from(admins).where(eq(admins.id, viewed)).limit(1)
    ctx.audit(viewed)
    ctx.auditDetail(`Stopped viewing as ${member?.name ?? 'a removed member'}`)
    return { status: 'success', message: staff.VIEW_AS_ENDED }
  },
})
