/** What the whole server shares, built once in app.ts, and where the API is served. */
import type { FastifyBaseLogger } from 'fastify'
import type { Endpoint } from '#contract/define'
import type { Config } from '../../config.ts'
import type { DbHandle } from '../../db/index.ts'
import type { Passwords } from './access/auth.ts'
import type { Mailer } from './mail/mail.ts'
import type { Realtime } from './realtime.ts'
import type { JobQueue } from './queue.ts'
import type { ObjectStorage } from './storage.ts'
import type { PublicCache } from './public-cache.ts'
import type { Finder } from './finders.ts'

export const API_PREFIX = '/api/admin'

/**
 * The contract as the areas serve it (server/kit/request/areas.ts): every endpoint, and the name in the
 * audit log of the area that serves it.
 */
export interface ContractIndex {
  endpoints: readonly Endpoint[]
  areaLabels: ReadonlyMap<Endpoint, string>
}

/** What the whole server shares; built once in app.ts. */
export interface Services {
  /** The served contract, from the areas' declarations. */
  contract: ContractIndex
  handle: DbHandle
  config: Config
  passwords: Passwords
  mailer: Mailer
  realtime: Realtime | null
  /** Durable background work (server/kit/ground/queue.ts). */
  jobs: JobQueue
  /** Where uploads are kept (server/kit/ground/storage.ts). */
  storage: ObjectStorage
  /** The public reads kept in memory until the next write (server/kit/ground/public-cache.ts). */
  publicCache: PublicCache
  /** How the palette's search finds each area's records (server/kit/ground/finders.ts). */
  finders: readonly Finder[]
  /** The server's log, for work done outside a call (a bulk run's batches). */
  log: FastifyBaseLogger
}
