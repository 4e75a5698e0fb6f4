/**
 * Two admins for outward links (contract/link-changes.ts), the registrar's half. While the
 * superadmin's setting is on, a signed-in write to an endpoint with outward-link fields runs as
 * usual in its transaction; before its audit row, what it changed (server/kit/request/audit-changes.ts)
 * is read, and when one of its link values is among the new values of a created or updated
 * record, and was not there before, the transaction is rolled back: nothing is written, and the
 * write is kept in `link_changes` as it was sent (with its stored files), with the changes it
 * would have made. So the comparison is against the stored record, whatever table the endpoint
 * writes, and no endpoint declares anything. Emptying a link is not held: it sends nobody anywhere.
 *
 * An approval makes the same call again, as the approver, inside the approval's transaction
 * (server/areas/link-changes): the approver must be allowed the call, the allowlist is checked
 * again, and when the call now changes other fields or other values than it did when asked for,
 * the record changed since and the approval is refused (409), nothing written.
 */
import { asc, eq } from 'drizzle-orm'
import { LINK_CHANGE_HELD } from '#contract/audit'
import type { Endpoint } from '#contract/define'
import type { Db } from '../../db/index.ts'
import { auditLog, linkChanges, type AdminRow, type LinkChangeRow } from '../../db/schema.ts'
import { permits } from '../ground/access/auth.ts'
import type { Json, StoredChanges } from './audit-changes.ts'
import { linkFields } from './outward-links.ts'
import { readSiteRecord } from '../ground/site-settings.ts'
import type { StoredFile } from '../ground/uploads.ts'

/** Whether "Two admins for outward links" is on: read at each write, so every instance follows a change at once. */
export const twoAdminLinksOn = async (db: Db): Promise<boolean> => (await readSiteRecord(db))?.twoAdminLinks ?? false

const holds = (value: Json | undefined, link: string): boolean => {
  if (value === undefined || value === null) return false
  if (typeof value === 'string') return value === link || value.trim() === link
  if (Array.isArray(value)) return value.some((v) => holds(v, link))
  if (typeof value === 'object') return Object.values(value).some((v) => holds(v, link))
  return false
}

/**
 * The outward-link fields of `input` whose value the write stores anew: found among the new
 * values of a record it created or updated, and not among that field's old values.
 */
export function changedLinks(endpoint: Endpoint, input: unknown, changes: StoredChanges | null): string[] {
  const fields = linkFields(endpoint)
  if (fields.length === 0 || changes === null || typeof input !== 'object' || input === null) return []
  const values = input as Record<string, unknown>
  return fields.filter((field) => {
    const value = values[field]
    if (typeof value !== 'string' || value.trim() === '') return false
    const link = value.trim()
    return changes.rows.some((row) => row.op !== 'delete' && row.fields.some((f) => holds(f.after, link) && !holds(f.before, link)))
  })
}

/** What a held write would change, in a line for the audit log's detail. */
export function diffText(changes: StoredChanges, max = 500): string {
  const shown = (v: Json | undefined): string => (v === undefined || v === null || v === '' ? '(empty)' : typeof v === 'string' ? v : JSON.stringify(v))
  const text = changes.rows
    .flatMap((row) => row.fields.map((f) => (f.secret === true ? `${f.field} changed` : row.op === 'create' ? `${f.field}: ${shown(f.after)}` : `${f.field}: ${shown(f.before)} → ${shown(f.after)}`)))
    .join('; ')
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

/** A change's shape for the comparison at approval: each record's fields and their old values (a created record's table only). */
function shapeOf(changes: StoredChanges | null): string[] {
  return (changes?.rows ?? [])
    .map((row) =>
      row.op === 'create'
        ? `${row.table} create`
        : `${row.table} ${row.record} ${row.op} ${row.fields
            .map((f) => `${f.field}=${JSON.stringify(f.before ?? null)}`)
            .sort()
            .join(',')}`,
    )
    .sort()
}

/** Whether the call made again changes the same fields of the same records from the same values as when it was asked for. */
export const sameChange = (held: StoredChanges, now: StoredChanges | null): boolean => JSON.stringify(shapeOf(held)) === JSON.stringify(shapeOf(now))

export interface HeldWrite {
  endpoint: Endpoint
  /** The body as sent. */
  input: unknown
  files: readonly StoredFile[]
  recordId: string | null
  changes: StoredChanges
  fields: readonly string[]
}

/** Keeps a held write and its audit row (the requester's), in one transaction; answers its id. */
export async function keepHeldWrite(db: Db, admin: AdminRow, ip: string, held: HeldWrite): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(linkChanges)
      .values({
        requestedBy: admin.id,
        endpoint: held.endpoint.name,
        input: held.input as Json,
        files: held.files as unknown as Json,
        recordId: held.recordId ?? '',
        changes: held.changes,
        fields: [...held.fields],
      })
      .returning({ id: linkChanges.id })
    if (row === undefined) throw new Error('link change not kept')
    await tx.insert(auditLog).values({
      adminId: admin.id,
      action: LINK_CHANGE_HELD,
      recordId: held.recordId,
      ip,
      detail: `${held.endpoint.logAs ?? held.endpoint.name}, waiting for another admin: ${diffText(held.changes)}`,
      changes: held.changes,
    })
    return row.id
  })
}

/** The pending change `id`, locked until the caller's transaction ends; undefined when none is pending. */
export async function lockedLinkChange(db: Db, id: string) {
  const [row] = await db.select().from(linkChanges).where(eq(linkChanges.id, id)).for('update')
  return row
}

/** The pending changes `me` may see, oldest first: those of the writes they may make (their own among them). */
export async function visibleLinkChanges(db: Db, endpoints: readonly Endpoint[], me: AdminRow): Promise<{ row: LinkChangeRow; call: Endpoint }[]> {
  const rows = await db.select().from(linkChanges).orderBy(asc(linkChanges.requestedAt), asc(linkChanges.id))
  return rows.flatMap((row) => {
    const call = endpoints.find((e) => e.name === row.endpoint)
    return call !== undefined && permits(call.access, me) ? [{ row, call }] : []
  })
}
