/**
 * The shared servers of a Playwright run, one per worker (playwright.config.ts starts them). A
 * worker always talks to the one of its slot (`parallelIndex`, kept by a worker that replaces a
 * failed one), so the spec files of one worker run one after the other on one server's data, as
 * they would with a single worker.
 */
import { z } from 'zod'

/** Where playwright.config.ts hands the servers to the workers. */
export const SHARED_SERVERS_ENV = 'E2E_SERVERS'

const SharedServer = z.object({ origin: z.string(), port: z.number().int().positive(), dataDir: z.string() })
export type SharedServer = z.output<typeof SharedServer>

export function sharedServers(): SharedServer[] {
  const raw = process.env[SHARED_SERVERS_ENV]
  if (raw === undefined) throw new Error(`${SHARED_SERVERS_ENV} is not set (playwright.config.ts sets it)`)
  return z.array(SharedServer).min(1).parse(JSON.parse(raw))
}

/** The shared server of a worker slot (`testInfo.parallelIndex`). */
export function sharedServer(slot: number): SharedServer {
  const servers = sharedServers()
  const server = servers[slot]
  if (server === undefined) throw new Error(`no shared server for worker ${slot + 1}: ${servers.length} started; set E2E_WORKERS to the --workers given`)
  return server
}
