/**
 * The key a client's address counts under in every per-address limit: the rate limits of
 * @fastify/rate-limit (app.ts), the sign-in lock of an (email, address) pair
 * (server/kit/ground/access/lockout.ts) and whatever else counts per address.
 *
 * An IPv4 client rarely has more than one address, but an IPv6 client is handed a whole /64 by
 * its network (and SLAAC privacy addresses change within it by design): keyed on the whole
 * address, one host could pick a fresh address for every request and no limit would ever fill.
 * So an IPv6 address counts as its /64, the smallest block a network hands out. IPv4 stays per
 * address, and so does an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, what a dual-stack socket
 * reports for an IPv4 client): it is that IPv4 client, not a network.
 *
 * What the audit log records is still the full address: this key is for counting only.
 */
import { isIPv4, isIPv6 } from 'node:net'

/** The eight 16-bit groups of an IPv6 address (already checked by isIPv6), or null. */
function groupsOf(address: string): number[] | null {
  let text = address
  // A trailing dotted IPv4 part (`::ffff:1.2.3.4`) is two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted !== null) {
    const [a = 0, b = 0, c = 0, d = 0] = (dotted[2] ?? '').split('.').map(Number)
    text = `${dotted[1] ?? ''}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const part = (s: string | undefined): number[] => (s === undefined || s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)))
  const head = part(halves[0])
  const tail = part(halves[1])
  const groups = halves.length === 2 ? [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null
}

/**
 * The limit key of `address` (what Fastify gives as request.ip): an IPv4 address as it is, an
 * IPv6 address as its /64 (`2001:db8:1:2::/64`), an IPv4-mapped one as its IPv4 address.
 * Anything else (no address at all) is returned unchanged.
 */
export function addressKey(address: string): string {
  // A zone (`fe80::1%eth0`) names the interface, not the host.
  const bare = address.includes('%') ? address.slice(0, address.indexOf('%')) : address
  if (isIPv4(bare)) return bare
  if (!isIPv6(bare)) return address
  const groups = groupsOf(bare.toLowerCase())
  if (groups === null) return address
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6)
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.')
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`
}
