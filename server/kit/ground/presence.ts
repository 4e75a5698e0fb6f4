/**
 * Who else is there (contract/presence.ts): which staff have a record open, shared by every
 * instance. With Redis the announcements are kept there (one hash per list screen, a field per
 * record and socket), so an instance sees the tabs held by another; without it (one instance, as
 * on PGlite) they are kept in this process. Each announcement carries its own expiry: a tab that
 * stops without closing its socket, or an instance that dies with its sockets, drops off when its
 * heartbeats stop, with no sweeper to run. A socket that closes takes its announcements at once.
 */
import type { Redis } from 'ioredis'
import { z } from 'zod'
import { PRESENCE_TTL_MS, type PresenceMode, type PresencePerson, type PresenceState } from '#contract/presence'
import { screens } from '#contract/routes'

/** The list screen a page's records are counted under: its parent, else itself. */
export function presenceGroup(screen: string): string {
  const found = screens.find((s) => s.path === screen)
  return found !== undefined && 'parent' in found && typeof found.parent === 'string' ? found.parent : screen
}

export interface PresenceEntry extends PresencePerson {
  /** Epoch ms after which the entry no longer counts (its heartbeat stopped). */
  expiresAt: number
}

const Stored = z.object({ adminId: z.string(), name: z.string(), mode: z.enum(['view', 'edit']), since: z.string(), expiresAt: z.number() })

export interface PresenceStore {
  /** Announces (or renews) one socket's tab on one record. */
  put(group: string, id: string, member: string, entry: PresenceEntry): Promise<void>
  remove(group: string, id: string, member: string): Promise<void>
  /** Every record of the group with someone on it (or only `id`), expired entries left out (and dropped). */
  states(group: string, id?: string): Promise<PresenceState[]>
}

/** One field per record and socket: the record's id cannot hold the separator (a control character). */
const SEPARATOR = '\u0001'
const fieldOf = (id: string, member: string): string => `${id}${SEPARATOR}${member}`

function collect(group: string, fields: Iterable<[string, PresenceEntry]>, now: number, id: string | undefined, expired: string[]): PresenceState[] {
  const byRecord = new Map<string, PresencePerson[]>()
  for (const [field, entry] of fields) {
    if (entry.expiresAt <= now) {
      expired.push(field)
      continue
    }
    const recordId = field.slice(0, field.lastIndexOf(SEPARATOR))
    if (id !== undefined && recordId !== id) continue
    const people = byRecord.get(recordId) ?? []
    people.push({ adminId: entry.adminId, name: entry.name, mode: entry.mode, since: entry.since })
    byRecord.set(recordId, people)
  }
  if (id !== undefined && !byRecord.has(id)) byRecord.set(id, [])
  return [...byRecord].map(([recordId, people]) => ({ screen: group, id: recordId, people: people.sort((a, b) => a.since.localeCompare(b.since)) }))
}

/** In this process: one instance alone. */
export class MemoryPresence implements PresenceStore {
  readonly #groups = new Map<string, Map<string, PresenceEntry>>()

  async put(group: string, id: string, member: string, entry: PresenceEntry): Promise<void> {
    const fields = this.#groups.get(group) ?? new Map<string, PresenceEntry>()
    this.#groups.set(group, fields)
    fields.set(fieldOf(id, member), entry)
  }

  async remove(group: string, id: string, member: string): Promise<void> {
    const fields = this.#groups.get(group)
    fields?.delete(fieldOf(id, member))
    if (fields?.size === 0) this.#groups.delete(group)
  }

  async states(group: string, id?: string): Promise<PresenceState[]> {
    const fields = this.#groups.get(group)
    const expired: string[] = []
    const found = collect(group, fields ?? [], Date.now(), id, expired)
    for (const field of expired) fields?.delete(field)
    return found
  }
}

/** In Redis, shared by every instance. The hash itself expires when nobody renews anything in it. */
export class RedisPresence implements PresenceStore {
  readonly #redis: Redis

  constructor(redis: Redis) {
    this.#redis = redis
  }

  #key(group: string): string {
    return `presence:${group}`
  }

  async put(group: string, id: string, member: string, entry: PresenceEntry): Promise<void> {
    const key = this.#key(group)
    await this.#redis.multi().hset(key, fieldOf(id, member), JSON.stringify(entry)).pexpire(key, PRESENCE_TTL_MS * 2).exec()
  }

  async remove(group: string, id: string, member: string): Promise<void> {
    await this.#redis.hdel(this.#key(group), fieldOf(id, member))
  }

  async states(group: string, id?: string): Promise<PresenceState[]> {
    const key = this.#key(group)
    const raw = await this.#redis.hgetall(key)
    const entries: [string, PresenceEntry][] = []
    const expired: string[] = []
    for (const [field, value] of Object.entries(raw)) {
      let parsed: unknown
      try {
        parsed = JSON.parse(value)
      } catch {
        parsed = null
      }
      const entry = Stored.safeParse(parsed)
      // A field this version cannot read (another version's) is dropped as an expired one.
      if (entry.success) entries.push([field, entry.data])
      else expired.push(field)
    }
    const found = collect(group, entries, Date.now(), id, expired)
    if (expired.length > 0) await this.#redis.hdel(key, ...expired)
    return found
  }
}

/** What one socket has open, so its close takes them all back. */
export interface OpenRecord {
  screen: string
  group: string
  id: string
  mode: PresenceMode
  since: string
}
