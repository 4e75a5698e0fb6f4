/**
 * The public reads the platform's apps and campaigns call at their own rate (the restricted
 * countries, `/public-info`), answered from memory: an endpoint declared `memo: true` in the
 * contract is computed once and its JSON kept until the next write.
 *
 * Why "any write" rather than the tables each read depends on: staff writes are rare next to
 * public reads, and undo, restore and the settings touch the same data through other endpoints;
 * forgetting everything on every successful write can never keep a stale answer, and costs one
 * recomputation per read after a write. With several instances the forgetting is published on
 * Redis, so a write on one instance reaches every other's memory in the time of one message.
 *
 * A read that started before a write and ends after it must not store what it read: each entry
 * is stored only when no write happened meanwhile (the generation it started in is still current).
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'

/** The Redis channel the instances tell each other about a write on. */
const CHANNEL = 'bo:public-cache:forget'
/** Distinct inputs kept: a caller varying the query cannot grow the memory past it. */
const MAX_ENTRIES = 64
/**
 * The longest an answer is kept even without a write: should a message between instances be lost
 * (Redis away at that moment), no instance serves an old answer for longer than this.
 */
const KEEP_MS = 60_000

export interface Cached {
  /** The answer's JSON, as sent. */
  body: string
  at: number
}

export class PublicCache {
  private readonly entries = new Map<string, Cached>()
  private generation = 0
  private subscriber: Redis | null = null

  constructor(
    private readonly publisher: Redis | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Listens for the other instances' writes (with Redis: a connection of its own, as Redis requires for subscribing). */
  async start(): Promise<void> {
    if (this.publisher === null) return
    const subscriber = this.publisher.duplicate()
    subscriber.on('error', (error: Error) => this.log.warn({ err: error }, 'public cache subscriber error'))
    subscriber.on('message', () => this.forgetHere())
    // A reconnect may have missed messages: what was kept meanwhile is forgotten.
    subscriber.on('ready', () => this.forgetHere())
    await subscriber.subscribe(CHANNEL)
    this.subscriber = subscriber
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined)
    this.subscriber = null
  }

  /** The generation a read starts in: pass it to `store`. */
  now(): number {
    return this.generation
  }

  get(key: string): Cached | undefined {
    const found = this.entries.get(key)
    if (found === undefined || Date.now() - found.at <= KEEP_MS) return found
    this.entries.delete(key)
    return undefined
  }

  /** Keeps an answer computed in generation `since`, unless a write came after it started. */
  store(key: string, since: number, body: string): void {
    if (since !== this.generation) return
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(key)) this.entries.clear()
    this.entries.set(key, { body, at: Date.now() })
  }

  /** A write succeeded: every instance forgets what it kept. */
  forget(): void {
    this.forgetHere()
    if (this.publisher === null) return
    this.publisher.publish(CHANNEL, '1').catch((error: unknown) => {
      // The other instances keep an old answer until their next write or restart: said loudly.
      this.log.error({ err: error }, 'could not tell the other instances to forget their public answers')
    })
  }

  private forgetHere(): void {
    this.generation += 1
    this.entries.clear()
  }
}
