/**
 * The pending link changes (contract/link-changes.ts): each is the write of an endpoint with
 * outward-link fields, kept as it was sent (server/kit/request/link-changes.ts). Only admins who may make
 * that write see it and decide on it; its requester may only withdraw it. An approval makes the
 * write as the approver in the approval's own transaction, so the approval's audit row holds what
 * the write changed and names the requester; a rejection or a withdrawal writes nothing but its
 * audit row. Each decision removes the pending row and tells the open menus their count changed.
 */
import { eq } from 'drizzle-orm'
import { z } from 'zod'
import * as contract from '#contract/link-changes'
import { LINK_CHANGE_CONFLICT, LINK_CHANGE_GONE, LINK_CHANGES_SCREEN, NOT_YOUR_LINK_CHANGE, OWN_LINK_CHANGE, type LinkChange } from '#contract/link-changes'
import { SocketEvents } from '#contract/socket'
import type { Endpoint } from '#contract/define'
import { ApiFailure, failure } from '../../kit/request/answers.ts'
import { handlers, type Ctx } from '../../kit/request/handlers.ts'
import { permits } from '../../kit/ground/access/auth.ts'
import { StoredChanges, peekChanges, shownChanges } from '../../kit/request/audit-changes.ts'
import { adminNames } from '../../kit/rules/four-eyes.ts'
import { diffText, lockedLinkChange, sameChange, visibleLinkChanges } from '../../kit/request/link-changes.ts'
import { refusedOutwardLink } from '../../kit/request/outward-links.ts'
import type { StoredFile } from '../../kit/ground/uploads.ts'
import { linkChanges, type AdminRow, type LinkChangeRow } from '../../db/schema.ts'

const callOf = (ctx: Ctx, name: string): Endpoint | undefined => ctx.contract.endpoints.find((e) => e.name === name)

const countsChanged = (ctx: Ctx): void =>
  ctx.afterSuccess(() => ctx.realtime?.toScreen(LINK_CHANGES_SCREEN, SocketEvents.countsChanged, { screen: LINK_CHANGES_SCREEN }))

/**
 * The pending change `id`, locked, with its call; a 404 when it is no longer pending, or when `me`
 * may neither make its call nor withdraw it (the list does not show it to them either).
 */
async function pending(ctx: Ctx, id: string, me: AdminRow): Promise<{ row: LinkChangeRow; call: Endpoint | undefined; what: string }> {
  const row = await lockedLinkChange(ctx.db, id)
  if (row === undefined) throw failure(LINK_CHANGE_GONE, { id: LINK_CHANGE_GONE }, 404)
  const call = callOf(ctx, row.endpoint)
  // A call no longer served cannot be made: only its requester's withdrawal, or a rejection, ends it.
  const mayDecide = call === undefined ? me.role === 'superadmin' : permits(call.access, me)
  if (!mayDecide && row.requestedBy !== me.id) throw failure(LINK_CHANGE_GONE, { id: LINK_CHANGE_GONE }, 404)
  return { row, call, what: call?.logAs ?? row.endpoint }
}

/** The requester in words, for a decision's audit detail. */
async function requesterOf(ctx: Ctx, row: LinkChangeRow): Promise<string> {
  return (await adminNames(ctx.db, [row.requestedBy])).get(row.requestedBy) ?? 'an admin no longer listed'
}

const Files = z.array(z.object({ field: z.string(), name: z.string(), url: z.string(), kind: z.enum(['png', 'jpeg', 'mp4', 'm4a', 'webm']), bytes: z.number(), thumb: z.string().nullable() }))

/** A change that will not be made: its stored files go once the decision commits. */
function dropFiles(ctx: Ctx, row: LinkChangeRow): void {
  for (const file of Files.parse(row.files)) {
    ctx.removeUploadLater(file.name)
    if (file.thumb !== null) ctx.removeUploadLater(file.thumb)
  }
}

export const linkChangeRoutes = handlers(contract, {
  listLinkChanges: async (_input, ctx) => {
    const me = ctx.me()
    const visible = await visibleLinkChanges(ctx.db, ctx.contract.endpoints, me)
    const names = await adminNames(
      ctx.db,
      visible.map((v) => v.row.requestedBy),
    )
    const result: LinkChange[] = visible.map(({ row, call }) => ({
      _id: row.id,
      event: call.logAs ?? call.name,
      action: call.path,
      area: ctx.contract.areaLabels.get(call) ?? '',
      recordId: row.recordId,
      requestedBy: names.get(row.requestedBy) ?? '',
      requestedById: row.requestedBy,
      requestedAt: row.requestedAt.toISOString(),
      fields: row.fields,
      changes: shownChanges(StoredChanges.parse(row.changes)).map((c) => ({ ...c, fields: c.fields.map(({ secret, ...f }) => ({ ...f, hidden: secret })) })),
    }))
    return { status: 'success', message: 'Pending link changes fetched', result }
  },

  approveLinkChange: async ({ id }, ctx) => {
    const me = ctx.me()
    const { row, call, what } = await pending(ctx, id, me)
    if (row.requestedBy === me.id) throw failure(OWN_LINK_CHANGE, undefined, 403)
    if (call === undefined) throw failure(LINK_CHANGE_CONFLICT, undefined, 409)
    // The requester may have lost the right since; the approver needs it now.
    if (!permits(call.access, me)) throw failure(LINK_CHANGE_GONE, { id: LINK_CHANGE_GONE }, 404)
    // The allowed domains may have changed since it was asked for: held to the list as it is now.
    const parsed = call.input.safeParse(row.input)
    if (!parsed.success) throw failure(LINK_CHANGE_CONFLICT, undefined, 409)
    const refused = await refusedOutwardLink(ctx.db, call, parsed.data)
    if (refused !== null) throw failure(refused.message, { id: refused.message })
    const answer = await ctx.replay(call, row.input, Files.parse(row.files) as StoredFile[])
    // The call's own refusal (a record changed since its form read it, a name taken since): nothing stands.
    if (answer instanceof ApiFailure) throw answer
    const held = StoredChanges.parse(row.changes)
    if (!sameChange(held, await peekChanges(ctx.db))) throw failure(LINK_CHANGE_CONFLICT, undefined, 409)
    await ctx.db.delete(linkChanges).where(eq(linkChanges.id, row.id))
    ctx.audit(row.recordId === '' ? null : row.recordId)
    ctx.auditDetail(`Approved ${what} requested by ${await requesterOf(ctx, row)}: ${diffText(held, 400)}`)
    countsChanged(ctx)
    return { status: 'success', message: `Approved: the change to ${row.fields.join(', ')} takes effect now` }
  },

  rejectLinkChange: async ({ id }, ctx) => {
    const me = ctx.me()
    const { row, what } = await pending(ctx, id, me)
    if (row.requestedBy === me.id) throw failure(OWN_LINK_CHANGE, undefined, 403)
    await ctx.db.delete(linkChanges).where(eq(linkChanges.id, row.id))
    dropFiles(ctx, row)
    ctx.audit(row.recordId === '' ? null : row.recordId)
    ctx.auditDetail(`Rejected ${what} requested by ${await requesterOf(ctx, row)}: ${diffText(StoredChanges.parse(row.changes), 400)}`)
    countsChanged(ctx)
    return { status: 'success', message: 'Rejected: nothing of that change was written' }
  },

  withdrawLinkChange: async ({ id }, ctx) => {
    const me = ctx.me()
    const { row, what } = await pending(ctx, id, me)
    if (row.requestedBy !== me.id) throw failure(NOT_YOUR_LINK_CHANGE, undefined, 403)
    await ctx.db.delete(linkChanges).where(eq(linkChanges.id, row.id))
    dropFiles(ctx, row)
    ctx.audit(row.recordId === '' ? null : row.recordId)
    ctx.auditDetail(`Withdrew ${what}: ${diffText(StoredChanges.parse(row.changes), 400)}`)
    countsChanged(ctx)
    return { status: 'success', message: 'Withdrawn: nothing of that change was written' }
  },
})
