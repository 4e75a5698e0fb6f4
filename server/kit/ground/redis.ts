/**
 * Redis, when several instances share the work (REDIS_URL; docs/operations.md, "Several instances"). One client
 * for commands (per-address limits) and publishing socket.io events, and one for subscribing,
 * which Redis requires to be a separate connection.
 */
import type { FastifyBaseLogger } from 'fastify'
import { Redis } from 'ioredis'

export interface SharedRedis {
  /** Commands and publishing. */
  client: Redis
  /** socket.io's subscriber connection (a subscribed connection can run no other command). */
  subscriber: Redis
  /** Whether Redis answers now (for /readyz). */
  ping(): Promise<boolean>
  close(): Promise<void>
}

export async function openRedis(url: string, log: FastifyBaseLogger): Promise<SharedRedis> {
  // Few retries per command: a request must not hang while Redis is away; the connection itself
  // keeps reconnecting in the background.
  const options = { maxRetriesPerRequest: 1, connectTimeout: 2000, enableReadyCheck: true, lazyConnect: true }
  const client = new Redis(url, options)
  const subscriber = new Redis(url, options)
  for (const [name, connection] of [['client', client], ['subscriber', subscriber]] as const) {
    connection.on('error', (error: Error) => log.warn({ err: error, connection: name }, 'redis connection error'))
  }
  // Fail the start when Redis does not answer: an instance that cannot reach the others must not serve.
  await Promise.all([client.connect(), subscriber.connect()])
  return {
    client,
    subscriber,
    async ping() {
      try {
        return (await client.ping()) === 'PONG'
      } catch {
        return false
      }
    },
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()])
    },
  }
}
