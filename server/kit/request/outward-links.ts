/**
 * The server's half of the outward-link allowlist (contract/outward-links.ts): a write that stores a
 * link users will follow is refused, before its handler runs, when the link's host is not on the
 * superadmin's list. The list is read from the database at each such write, never kept in memory,
 * so every instance applies a change at once; only writes carrying a link pay the read.
 */
import type { Endpoint } from '#contract/define'
import { hostAllowed, hostOf, hostRefused, outwardLinkFields } from '#contract/outward-links'
import type { Db } from '../../db/index.ts'
import { readSiteRecord } from '../ground/site-settings.ts'

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
