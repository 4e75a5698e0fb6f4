import { z } from 'zod/mini'
import { Done, Id, ok } from './common.ts'
import { endpoint, nameEndpoints, sessionAccess } from './define.ts'
import * as self from './link-changes.ts'

/*
 * Two admins for outward links (ours). While the superadmin's setting is on (Settings,
 * setTwoAdminLinks), a write that would change a link users follow (outward-links.ts) is not
 * applied: the server keeps it as a pending change and answers 202 with LINK_CHANGE_HELD. The
 * whole write waits, its other fields included. Another admin who may make that write approves
 * it (the write is then made as the approver, through the same checks) or rejects it; the
 * requester may withdraw it. Until then every public read serves the old value, as nothing was
 * written. Rejected and withdrawn changes are kept in the audit log only.
 */

/** The screen of the pending changes (contract/routes.ts). */
export const LINK_CHANGES_SCREEN = '/link-changes'

/** The answer to a write that waits (HTTP 202), naming the link fields it changes. */
export const linkChangeHeld = (fields: readonly string[]): string =>
  `Saved for approval: another admin must approve the change to ${fields.join(', ')} before it takes effect. The whole save waits, its other fields included.`
export const OWN_LINK_CHANGE = 'You asked for this change: another admin must approve it'
export const NOT_YOUR_LINK_CHANGE = 'Only the admin who asked for this change may withdraw it'
/** A change decided since, or one of a write the caller may not make (the list does not show it either). */
export const LINK_CHANGE_GONE = 'No such pending link change'
export const LINK_CHANGE_CONFLICT = 'The record changed since this change was asked for: reject it (or withdraw it) and ask again'

/** The body of a held write's answer (status 202). */
export const HeldAnswer = ok({ held: z.object({ id: z.string(), fields: z.array(z.string()) }) })
export type HeldAnswer = z.output<typeof HeldAnswer>

/**
 * One record a held write would change, as the audit log shows a change (audit.ts AuditChange);
 * a field holding a secret (never kept) is `hidden`, its values null.
 */
export const LinkDiff = z.object({
  table: z.string(),
  record: z.string(),
  op: z.enum(['create', 'update', 'delete']),
  fields: z.array(z.object({ field: z.string(), before: z.nullable(z.string()), after: z.nullable(z.string()), hidden: z.boolean() })),
})
export type LinkDiff = z.output<typeof LinkDiff>

export const LinkChange = z.object({
  _id: z.string(),
  /** The write in words ('Buy link edited'), and its path. */
  event: z.string(),
  action: z.string(),
  /** The contract area of the write (Links, Games...). */
  area: z.string(),
  recordId: z.string(),
  requestedBy: z.string(),
  requestedById: z.string(),
  requestedAt: z.string(),
  /** The outward-link fields of the input it changes. */
  fields: z.array(z.string()),
  /** What the write would change, field by field, as the audit log shows a change. */
  changes: z.array(LinkDiff),
})
export type LinkChange = z.output<typeof LinkChange>

/** The pending changes of the writes the caller may make, oldest first. */
export const listLinkChanges = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ result: z.array(LinkChange) }),
  access: sessionAccess,
  ours: 'Ours (two admins for outward links): the pending link changes of the writes the caller may make (their screen, Admin level), oldest first, each with its diff.',
})

const Decision = z.object({ id: Id })

export const approveLinkChange = endpoint({
  logAs: 'Link change approved',
  method: 'POST',
  input: Decision,
  output: Done,
  access: sessionAccess,
  stepUp: true,
  ours: `Ours (two admins for outward links): makes the held write as the caller, who must be allowed that write and not be its requester (403 '${OWN_LINK_CHANGE}'); 409 '${LINK_CHANGE_CONFLICT}' when the record changed since, 404 when it is no longer pending or is of a write the caller may not make.`,
})

export const rejectLinkChange = endpoint({
  logAs: 'Link change rejected',
  method: 'POST',
  input: Decision,
  output: Done,
  access: sessionAccess,
  ours: `Ours (two admins for outward links): drops a held write unapplied; another admin allowed that write only (403 '${OWN_LINK_CHANGE}' for its requester, who withdraws instead).`,
})

export const withdrawLinkChange = endpoint({
  logAs: 'Link change withdrawn',
  method: 'POST',
  input: Decision,
  output: Done,
  access: sessionAccess,
  ours: `Ours (two admins for outward links): the requester drops their own held write (403 '${NOT_YOUR_LINK_CHANGE}' for anyone else).`,
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
