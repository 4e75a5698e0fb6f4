/**
 * The server's half of the outward-link allowlist (contract/outward-links.ts): a write that stores a
 * link users will follow is refused, before its handler runs, when the link's host is not on the
 * superadmin's list. The list is read from the database at each such write, never kept in memory,
 * so every instance applies a change at once; only writes carrying a link pay the read.
 *
 * A write that puts a link back without a form carrying it (a revert from the audit log, an undo)
 * is found by the columns it stores into (server/db/link-columns.ts) and held to the same list.
 */
import type { Endpoint } from '#contract/define'
import { hostAllowed, hostOf, hostRefused, outwardLinkFields } from '#contract/outward-links'
import type { Db } from '../../db/index.ts'
import { readSiteRecord } from '../ground/site-settings.ts'
import { isOutwardLinkColumn } from '../../db/link-columns.ts'
import type { StoredChanges } from './audit-changes.ts'

const fieldsOf = new WeakMap<Endpoint, readonly string[]>()

/** The endpoint's outward-link fields, found once from its input schema. */
export function linkFields(endpoint: Endpoint): readonly string[] {
  let fields = fieldsOf.get(endpoint)
  if (fields === undefined) {
    fields = outwardLinkFields(endpoint.input)
    fieldsOf.set(endpoint, fields)
  }
  return fields
}

/** The first link whose host the list does not allow (its field and the refusal), or null when every link may be stored. */
export async function refusedOutwardLink(db: Db, endpoint: Endpoint, input: unknown): Promise<{ field: string; message: string } | null> {
  const fields = linkFields(endpoint)
  if (fields.length === 0 || typeof input !== 'object' || input === null) return null
  const values = input as Record<string, unknown>
  const links = fields.flatMap((field) => {
    const value = values[field]
    const host = typeof value === 'string' ? hostOf(value) : null
    return host === null ? [] : [{ field, host }]
  })
  if (links.length === 0) return null
  const allowed = (await readSiteRecord(db))?.outwardLinkDomains ?? []
  const refused = links.find((link) => !hostAllowed(link.host, allowed))
  return refused === undefined ? null : { field: refused.field, message: hostRefused(refused.host) }
}

/** A link a write stores: the table's column, and the value. */
export interface StoredLink {
  table: string
  field: string
  link: string
}

/** The links among a row's values (its table's link columns that are not empty). */
export function linksOfRow(table: string, row: Readonly<Record<string, unknown>>): StoredLink[] {
  return Object.entries(row).flatMap(([field, value]) =>
    isOutwardLinkColumn(table, field) && typeof value === 'string' && value.trim() !== '' ? [{ table, field, link: value.trim() }] : [],
  )
}

/**
 * The links a write stores anew, read from what it changed (server/kit/request/audit-changes.ts): a
 * link column's value in a record it created, or changed to, when not empty. Emptying a link is
 * not among them: it sends nobody anywhere.
 */
export function linksStored(changes: StoredChanges | null): StoredLink[] {
  return (changes?.rows ?? []).flatMap((row) =>
    row.op === 'delete'
      ? []
      : row.fields.flatMap((f) =>
          isOutwardLinkColumn(row.table, f.field) && typeof f.after === 'string' && f.after.trim() !== '' && f.after !== f.before ? [{ table: row.table, field: f.field, link: f.after.trim() }] : [],
        ),
  )
}

/** The refusal of the first link whose host the list does not allow, or null when every one may be stored. */
export async function refusedStoredLink(db: Db, links: readonly StoredLink[]): Promise<{ field: string; message: string } | null> {
  const hosts = links.flatMap((l) => {
    const host = hostOf(l.link)
    return host === null ? [] : [{ field: l.field, host }]
  })
  if (hosts.length === 0) return null
  const allowed = (await readSiteRecord(db))?.outwardLinkDomains ?? []
  const refused = hosts.find((h) => !hostAllowed(h.host, allowed))
  return refused === undefined ? null : { field: refused.field, message: hostRefused(refused.host) }
}
