import { z } from 'zod/mini'
import { Done, PageQuery, calendarDay, ok, optionalText, pageNumber, pageOf, sortable } from './common.ts'
import { endpoint, nameEndpoints, reads, writes, type Endpoint } from './define.ts'
import * as self from './audit.ts'

/*
 * The staff audit log (ours: not in the requirements). The server writes a row for every
 * successful write through the API and for the sign-in events below; these calls only read it.
 * No call edits or deletes a row, and the database refuses it too (a trigger).
 */

/**
 * Events that are not an endpoint's write: what `action` holds for them. A failed sign-in names
 * the email as typed and why in `detail` (never a password); a forced logout names whose sessions
 * ended (`recordId`), who ended them (the admin, none when the server did) and why.
 */
export const AUDIT_EVENTS = {
  'sign-in-failed': 'Failed sign-in',
  lockout: 'Account locked',
  'forced-logout': 'Forced logout',
  /** A write that changes an outward link, kept for a second admin (link-changes.ts): nothing was written. */
  'link-change-held': 'Link change held for approval',
} as const

/** The event of a write held for a second admin; its `changes` say what it would change. */
export const LINK_CHANGE_HELD = 'link-change-held'

/** Own keys only: an action such as "constructor" is a path, not a name on the prototype. */
const eventName = (action: string): string | undefined => (Object.hasOwn(AUDIT_EVENTS, action) ? AUDIT_EVENTS[action as keyof typeof AUDIT_EVENTS] : undefined)

/**
 * An action in words: an event's name, else the call's own (`logAs` beside its definition, found by
 * `callOf`), else the path as stored (a call removed since the row was written).
 */
export const auditEventName = (action: string, callOf: (path: string) => Endpoint | undefined): string => eventName(action) ?? callOf(action)?.logAs ?? action

/**
 * One field a write changed: its column, and its values before and after as text (null: none,
 * as a create has no before and a delete no after, or an empty column). A secret (a password
 * hash, a 2FA secret, a token, a key) is never kept: `secret` says it changed, both values null.
 */
export const AuditField = z.object({
  field: z.string(),
  before: z.nullable(z.string()),
  after: z.nullable(z.string()),
  secret: z.boolean(),
})
export type AuditField = z.output<typeof AuditField>

/** What one write did to one record: the table, the record's key, and the fields. */
export const AuditChange = z.object({
  table: z.string(),
  record: z.string(),
  op: z.enum(['create', 'update', 'delete']),
  fields: z.array(AuditField),
})
export type AuditChange = z.output<typeof AuditChange>

export const AuditEntry = z.object({
  _id: z.string(),
  at: z.string(),
  /** '' when nobody signed in acted (a failed sign-in for an unknown email). */
  adminId: z.string(),
  adminName: z.string(),
  adminEmail: z.string(),
  /** An endpoint path (/addcategory) or an event key of AUDIT_EVENTS. */
  action: z.string(),
  /** The action in words ('Category added', 'Failed sign-in'): `auditEventName`. */
  event: z.string(),
  /** The contract area of the action (Categories and games, Brands...), or Sign-in for events. */
  area: z.string(),
  recordId: z.string(),
  /**
   * Ours: the record's name as its list shows it (a game's title, a lead's email) and where it
   * opens, when it still exists and the reader may open its screen; '' otherwise.
   */
  recordName: z.string(),
  recordHref: z.string(),
  ip: z.string(),
  /** What else the row says (the email a failed sign-in named); '' when nothing. */
  detail: z.string(),
  /** What the write changed, field by field; none for events and rows written before changes were kept. */
  changes: z.array(AuditChange),
  /** The write touched more rows than its row keeps: `changes` is the first of them. */
  changesPartial: z.boolean(),
  /**
   * The entry kept changes this reader may not see: they may not open the screen of its call
   * (a call of no screen: only the superadmin sees them). `changes` is then empty.
   */
  changesHidden: z.boolean(),
  /**
   * Whether this reader may revert the entry (`revertAuditEntry`): it kept every change, none of a
   * secret, it was a screen's write, and the reader may make that write now.
   */
  revertible: z.boolean(),
})
export type AuditEntry = z.output<typeof AuditEntry>

/** The list's filters: each '' for any. Dates are whole UTC days, both ends included. */
export const AuditFilter = z.object({
  admin: optionalText(64),
  area: optionalText(100),
  action: optionalText(100),
  /** One record's rows (its id exactly, as `recordId` holds it): an edit page's History. */
  record: optionalText(64),
  from: calendarDay,
  to: calendarDay,
})
export type AuditFilter = z.output<typeof AuditFilter>

export const AUDIT_PAGE_SIZE = 50

const auditSort = sortable(['at'], { by: 'at', order: 'desc' })

export const listAudit = endpoint({
  method: 'GET',
  input: z.extend(z.extend(PageQuery, { limit: pageNumber(1, 100, AUDIT_PAGE_SIZE), ...auditSort.input }), AuditFilter.shape),
  output: pageOf(AuditEntry),
  access: reads('/audit'),
  sort: auditSort,
  ours: `Search matches the action, record id, address and detail; filters by admin, area, action, record and date range. ${auditSort.note}`,
})

export const AuditOption = z.object({ value: z.string(), label: z.string() })

/** The filters' choices: staff who appear in the log, the areas and the actions. */
export const auditOptions = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ admins: z.array(AuditOption), areas: z.array(AuditOption), actions: z.array(AuditOption) }),
  access: reads('/audit'),
  ours: 'The audit log is ours: the choices of its filters.',
})

/**
 * The filtered log as CSV, streamed (like the leads export): every matching row, newest first.
 * It hands out every admin's actions, addresses and times at once, so it is a step-up call.
 */
export const exportAudit = endpoint({
  method: 'GET',
  input: z.extend(AuditFilter, { search: PageQuery.shape.search }),
  output: z.string(),
  answer: 'csv',
  access: reads('/audit'),
  stepUp: true,
  ours: 'The audit log as CSV (audit-log.csv), with the list filters and search.',
})

export const REVERTED = 'Change reverted'
export const REVERT_CONFLICT = 'This record has changed since this entry. Revert over the newer change?'
export const REVERT_NOTHING = 'This entry kept no changes to revert'
export const REVERT_PARTIAL = 'This entry changed more records than the log keeps: it cannot be reverted'
export const REVERT_SECRET = 'This entry changed a secret (a password, a 2FA secret, a token or a key), which the log never keeps: it cannot be reverted'
export const REVERT_NOT_A_WRITE = "Only a screen's change can be reverted"
export const REVERT_A_REVERT = 'A revert is not reverted: revert the original entry again'
export const REVERT_GONE = 'The record this entry changed is gone: it cannot be changed back'
export const REVERT_REFERENCED = 'Other records refer to the record this entry created: delete it from its own screen instead'
export const REVERT_BLOCKED = 'The old values clash with a record that exists now (a duplicate, or a record it refers to is gone)'

/**
 * The 409 answer of a revert whose records changed since the entry: `current` tells, per record,
 * each field's value as the entry left it (`before`) and as it is now (`after`). A record gone
 * since shows as deleted, one made again as created.
 */
export const RevertConflict = z.object({ status: z.literal('failed'), message: z.string(), current: z.array(AuditChange) })
export type RevertConflict = z.output<typeof RevertConflict>

/**
 * Reverts one entry: writes its "before" values back as a new audited change (a delete is put
 * back, a create removed). The caller needs the Audit Log's write access and the access the
 * entry's own call needs; it is a step-up call, as a revert can give back access that was taken
 * away. When a record changed since the entry, the answer is 409 (`RevertConflict`) unless
 * `force` says to revert over the newer change.
 */
export const revertAuditEntry = endpoint({
  logAs: 'Change reverted',
  method: 'POST',
  input: z.object({
    id: z.string().check(z.trim(), z.minLength(1, 'id is required'), z.maxLength(64, 'Incorrect format')),
    force: z.optional(z.boolean()),
  }),
  output: Done,
  access: writes('/audit'),
  stepUp: true,
  ours: `Reverts one audit entry's change (its before values written back, audited); 409 with the current values (${REVERT_CONFLICT}) unless force.`,
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
