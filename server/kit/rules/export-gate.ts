/**
 * Bounds on long downloads (the leads CSV export, server/areas/leads/routes.ts): how many run at once,
 * per admin and per instance, and how long one may wait on a client that reads nothing.
 *
 * An export lasts as long as its download, and a client decides how fast it reads: one that
 * stops reading keeps the export open (TCP backpressure stops the server's writes, and with them
 * the database's). Without bounds, a few slow readers with nothing more than View Only access to
 * /users held every connection of the pool and every other call, the session check first, waited
 * for one until it failed. So:
 *
 * - a slot is taken before any database work, and a call past EXPORT_MAX_PER_ADMIN (one admin's
 *   exports) or EXPORT_MAX_PER_INSTANCE (everyone's) is refused 429 with which limit it met;
 * - the slot is given back when the download's stream closes, whether it ended, failed or the
 *   client went away (Fastify destroys the stream when the response closes);
 * - a client with data waiting for it that reads nothing for EXPORT_IDLE_TIMEOUT_SECONDS has its
 *   export aborted, which frees the database side (server/areas/leads/routes.ts) and the slot.
 *
 * Counts are per instance (each instance has its own connections to protect); several instances
 * each allow their own. The gate lives as long as its app: one per database handle.
 */
import { Transform, pipeline, type Readable } from 'node:stream'
import type { ExportLimits } from '../../config.ts'
import type { DbHandle } from '../../db/index.ts'
import { ApiFailure } from '../request/answers.ts'

export const tooManyForAdmin = (limit: number): string =>
  `You already have ${limit === 1 ? 'an export' : `${limit} exports`} running; please wait for ${limit === 1 ? 'it' : 'one'} to finish and try again`
export const tooManyForServer = (limit: number): string =>
  `Too many exports are running on the server (${limit} at once, from all staff); please wait a minute and try again`

/** Raised in an export whose client read nothing for the idle timeout; ends its stream. */
export class ExportIdle extends Error {
  constructor(ms: number) {
    super(`export aborted: the client read nothing for ${Math.round(ms / 1000)} s`)
  }
}

export class ExportGate {
  #running = 0
  readonly #byAdmin = new Map<string, number>()

  constructor(readonly limits: ExportLimits) {}

  /** Running exports, all admins together (for tests and the log). */
  get running(): number {
    return this.#running
  }

  /**
   * Takes a slot for `adminId` or throws the 429 that says which limit was met. The returned
   * function gives it back, once however often it is called.
   */
  take(adminId: string): () => void {
    const mine = this.#byAdmin.get(adminId) ?? 0
    if (mine >= this.limits.perAdmin) throw new ApiFailure(429, tooManyForAdmin(this.limits.perAdmin))
    if (this.#running >= this.limits.perInstance) throw new ApiFailure(429, tooManyForServer(this.limits.perInstance))
    this.#running += 1
    this.#byAdmin.set(adminId, mine + 1)
    let given = false
    return () => {
      if (given) return
      given = true
      this.#running -= 1
      const left = (this.#byAdmin.get(adminId) ?? 1) - 1
      if (left === 0) this.#byAdmin.delete(adminId)
      else this.#byAdmin.set(adminId, left)
    }
  }

  /**
   * Runs `open` (which starts the export and returns its stream) under a slot of `adminId`, and
   * returns the stream the client gets: the source piped through an idle watch. The slot is given
   * back when that stream closes, or at once when `open` fails.
   */
  async run(adminId: string, open: () => Promise<Readable>): Promise<Readable> {
    const release = this.take(adminId)
    let source: Readable
    try {
      source = await open()
    } catch (error) {
      release()
      throw error
    }
    const out = idleWatch(source, this.limits.idleTimeoutMs)
    out.once('close', release)
    return out
  }
}

const gates = new WeakMap<DbHandle, ExportGate>()

/** The gate of the app whose database is `handle` (made on first use, with that app's limits). */
export function exportGate(handle: DbHandle, limits: ExportLimits): ExportGate {
  let gate = gates.get(handle)
  if (gate === undefined) {
    gate = new ExportGate(limits)
    gates.set(handle, gate)
  }
  return gate
}

/**
 * The source as the client reads it, aborted (destroyed with ExportIdle, which destroys the
 * source) when the client has taken nothing for `ms` while data waits for it. Waiting on the
 * source itself (a slow query) never counts: the clock runs only while something is buffered for
 * the client. Progress is what has left the buffer, looked at a few times per period, so the
 * stream stays paused until Fastify pipes it.
 */
function idleWatch(source: Readable, ms: number): Readable {
  let passed = 0
  const out = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      passed += chunk.length
      callback(null, chunk)
    },
  })
  let taken = 0
  let lastRead = Date.now()
  let timer: NodeJS.Timeout | undefined
  const check = (): void => {
    if (out.destroyed) return
    const now = Date.now()
    const nowTaken = passed - out.readableLength
    const waiting = out.readableLength + out.writableLength + source.readableLength > 0
    if (nowTaken !== taken || !waiting) lastRead = now
    taken = nowTaken
    if (now - lastRead >= ms) {
      out.destroy(new ExportIdle(ms))
      return
    }
    timer = setTimeout(check, Math.max(20, Math.min(ms / 4, ms - (now - lastRead))))
    timer.unref()
  }
  timer = setTimeout(check, Math.max(20, ms / 4))
  timer.unref()
  // The pipeline destroys the source when `out` is destroyed (the idle abort, or Fastify when the
  // client goes away), which ends the export's database work.
  pipeline(source, out, () => clearTimeout(timer))
  return out
}
