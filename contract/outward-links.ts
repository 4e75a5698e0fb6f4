import { z } from 'zod/mini'

/*
 * Outward links: the addresses the wallet's users follow from what staff publish (buy and swap
 * links, game live links, homepage content links, social and legal links). A superadmin may hold
 * them to a list of allowed domains (Settings); the server then refuses any other host on every
 * write that stores one. The fields are found by their schema, not listed by hand: every URL field
 * of the contract is built by `requiredUrl` or `optionalUrl` (common.ts), which register here.
 */

/** The URL fields users will follow: the contract-wide check and the server's refusal read this. */
export const outwardLinks = z.registry<{ outward: true }>()

/** The input fields of an endpoint's object schema whose values are outward links. */
export function outwardLinkFields(input: z.ZodMiniType): string[] {
  const shape = (input._zod.def as { shape?: Record<string, z.ZodMiniType> }).shape
  if (shape === undefined) return []
  return Object.entries(shape)
    .filter(([, schema]) => isOutward(schema))
    .map(([name]) => name)
}

/** Whether a field's schema, or one it wraps (a default, an optional), is an outward link. */
function isOutward(schema: z.ZodMiniType): boolean {
  let current: z.ZodMiniType | undefined = schema
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    if (outwardLinks.has(current)) return true
    current = (current._zod.def as { innerType?: z.ZodMiniType }).innerType
  }
  return false
}

/** At most this many allowed domains: a list, not a directory. */
export const MAX_ALLOWED_DOMAINS = 200

/** A host name: labels of letters, digits and hyphens, not starting or ending with a hyphen. */
const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/**
 * An allowed-domain entry as kept: `example.com` allows that host only, `*.example.com` allows it
 * and every subdomain. Lower-cased, a trailing dot dropped, international names in their ASCII
 * form (as a browser resolves them, so a look-alike in another script never matches the real one).
 * Null when the entry is not a domain.
 */
export function domainEntry(raw: string): string | null {
  const text = raw.trim().toLowerCase().replace(/\.$/, '')
  const wildcard = text.startsWith('*.')
  const name = wildcard ? text.slice(2) : text
  if (name === '' || /[/:@?#\s]/.test(name)) return null
  let ascii: string
  try {
    ascii = new URL(`https://${name}/`).hostname
  } catch {
    return null
  }
  if (!HOST.test(ascii) || !ascii.includes('.')) return null
  return wildcard ? `*.${ascii}` : ascii
}

/** Where a stored link leads: links may be written without a scheme (www.example.com/...), which a browser reads as https. */
export const linkHref = (link: string): string => (/^https?:\/\//i.test(link) ? link : `https://${link}`)

/** The host a stored link leads to. */
export function hostOf(link: string): string | null {
  const text = link.trim()
  if (text === '') return null
  try {
    return new URL(linkHref(text)).hostname.replace(/\.$/, '')
  } catch {
    return null
  }
}

/** Whether `host` is allowed by the list; an empty list allows every host. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true
  return allowed.some((entry) => (entry.startsWith('*.') ? host === entry.slice(2) || host.endsWith(entry.slice(1)) : host === entry))
}

/** The refusal of a link to a host the list does not allow, naming the host. */
export const hostRefused = (host: string): string => `${host} is not an allowed domain for outward links (Settings)`
