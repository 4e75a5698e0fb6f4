/**
 * What an area writes: its handlers, one table per contract module (`handlers(module, { ... })`),
 * the context each handler gets (`Ctx`) and its background jobs (`defineJob`). The registrar
 * (api.ts) serves the tables.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { isEndpoint, type Endpoint, type Output, type ParsedInput } from '#contract/define'
import type { Passwords } from '../ground/access/auth.ts'
import type { TokenRef } from '../ground/access/sessions.ts'
import type { Config } from '../../config.ts'
import type { Db, DbHandle } from '../../db/index.ts'
import type { AdminRow } from '../../db/schema.ts'
import type { MailMessage } from '../ground/mail/mail.ts'
import type { Realtime } from '../ground/realtime.ts'
import type { HandlerOptions, JobInfo, JobPayload, JobQueue, JobResult } from '../ground/queue.ts'
import type { StoredFile } from '../ground/uploads.ts'
import type { Finder } from '../ground/finders.ts'
import type { ApiFailure, FileAnswer, TwoFactorAnswer } from './answers.ts'
import type { ContractIndex, Services } from '../ground/services.ts'

/**
 * A kind of background job and its handler, declared by its area beside its routes
 * (`export const promotionJobs = [defineJob(...)]`) and named in its `defineArea` (server/kit/request/areas.ts).
 */
export interface JobDefinition {
  kind: string
  run: (payload: JobPayload, job: JobInfo, services: Services) => Promise<JobResult>
  options?: HandlerOptions
}
export const defineJob = (kind: string, run: JobDefinition['run'], options?: HandlerOptions): JobDefinition => ({ kind, run, ...(options === undefined ? {} : { options }) })

/** What a handler gets besides its parsed input. */
export interface Ctx {
  readonly db: Db
  /** The engine underneath, for the few things only one engine can do (COPY streaming). */
  readonly handle: DbHandle
  readonly config: Config
  readonly passwords: Passwords
  readonly realtime: Realtime | null
  /** Durable background work: add jobs with the write's transaction; they start after success. */
  readonly jobs: JobQueue
  /** The served contract (server/kit/request/areas.ts). */
  readonly contract: ContractIndex
  /** The signed-in admin (null only on public calls). */
  readonly admin: AdminRow | null
  /** The session token of the call (null only on public calls): Logout revokes it by its jti. */
  readonly token: TokenRef | null
  /** Uploaded files of a multipart call by field, already checked and stored. */
  readonly files: Readonly<Record<string, readonly StoredFile[]>>
  readonly ip: string
  /** The call's User-Agent header (a sign-in records the device it names). */
  readonly userAgent: string | undefined
  /** Whether the call came over https (behind a trusted proxy, as it says): a cookie set is Secure then. */
  readonly https: boolean
  /** A cookie the call carried, or undefined. */
  cookie(name: string): string | undefined
  /** Sends a Set-Cookie header (built whole by the caller) with a success answer. */
  setCookie(header: string): void
  /**
   * The address the call was sent to, as its protocol and Host header say ('http://localhost:3000'):
   * the passkeys' relying party when PUBLIC_URL is unset (server/areas/passkeys/webauthn.ts). The caller
   * chooses it, so it is trusted for nothing else.
   */
  readonly requestOrigin: string
  readonly log: FastifyBaseLogger
  /** Every area's finders: the palette's search runs them (server/kit/ground/finders.ts). */
  readonly finders: readonly Finder[]
  /** The signed-in admin, or a 401 failure on a public call. */
  me(): AdminRow
  /** Names the record this write touched (and, on public calls like login, who acted) for the audit row. */
  audit(recordId: string | null, actorId?: string): void
  /** What else the write's audit row says (its `detail`): the requester an approval answers. */
  auditDetail(detail: string): void
  /**
   * A public write that is recorded although nobody is signed in (an access request's address
   * confirmed from its mail): the row names the record and the caller's address, no admin.
   */
  auditAnonymous(recordId: string): void
  /**
   * Makes the call `endpoint` with `input` (as sent) and `files` (already stored) as the
   * signed-in admin, inside this write's transaction: the approval of a held link change
   * (server/kit/request/link-changes.ts). Answers what its handler answers; checks none of its access.
   */
  replay(endpoint: Endpoint, input: unknown, files: readonly StoredFile[]): Promise<unknown>
  /** Runs after the handler succeeded, before the answer (deleting a replaced file, LOGOUT, mail). */
  afterSuccess(task: () => Promise<void> | void): void
  /**
   * Runs after the call failed by a throw (a write's transaction then rolled back), before the
   * error is answered: undoes work a `prepare` phase committed in transactions of its own (the
   * rows a big delete moved into the trash).
   */
  afterFailure(task: () => Promise<void> | void): void
  /**
   * Queues a mail in the durable mail queue with `db` (pass a transaction to tie it to one): a
   * rolled-back write sends nothing. The queue sends it after success; the answer never waits for
   * the SMTP server, so its timing says nothing about whether a mail went out (the forgot flow
   * answers alike for unknown emails). Answers the mail's id (in `mail_outbox`).
   */
  sendMail(message: MailMessage, db?: Db): Promise<string>
  /** Deletes an uploaded file by its stored name once the handler has succeeded. */
  removeUploadLater(name: string): void
  /**
   * Runs `work` in one transaction. In a write it is a savepoint of the call's transaction (that
   * is already open); elsewhere its own. Keep it short: on PGlite it holds the only connection.
   */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>
}

/** The stored name of a call's `image` upload, or null when the call sent none (an edit keeps its image). */
export const imageOf = (ctx: Ctx): string | null => ctx.files['image']?.[0]?.name ?? null

export type HandlerResult<E extends Endpoint> = Output<E> | TwoFactorAnswer | FileAnswer | ApiFailure
export type Handler<E extends Endpoint> = (input: ParsedInput<E>, ctx: Ctx) => Promise<HandlerResult<E>>
/**
 * A handler in two phases. `prepare` runs before the write transaction opens (reads only, and slow
 * work such as verifying a password); it returns the function that runs inside the transaction.
 */
export interface PreparedHandler<E extends Endpoint> {
  prepare: (input: ParsedInput<E>, ctx: Ctx) => Promise<(ctx: Ctx) => Promise<HandlerResult<E>>>
}

type EndpointKeys<A> = { [K in keyof A]: A[K] extends Endpoint ? K : never }[keyof A]
export type HandlerMap<A> = { [K in EndpointKeys<A>]?: A[K] extends Endpoint ? Handler<A[K]> | PreparedHandler<A[K]> : never }

/** Per-endpoint rate limit (requests per address per window), for login and the OTP calls. */
export interface RateLimit {
  max: (config: Config) => number
  timeWindow: number
}

/**
 * A call whose body is signed by its sender (a provider's webhook): the route keeps the body's
 * bytes as they came, and `verify` sees them, with the headers, before they are parsed or
 * validated. A failure it answers is sent as it is and nothing else runs (a bad signature changes
 * nothing, whatever the body holds); null lets the call go on, its body then read as JSON.
 */
export interface SignedBody {
  verify: (raw: Buffer, headers: FastifyRequest['headers'], config: Config) => ApiFailure | null
  /** The largest body taken, in bytes. */
  maxBytes: number
}

/** What a route may add to its handler: a rate limit, a signed body, or both. */
export type RouteOptions = RateLimit | SignedBody | (RateLimit & SignedBody)

export interface BoundHandler {
  endpoint: Endpoint
  /** The prepare phase (none for a plain handler): returns the phase that runs in the transaction. */
  start: (input: unknown, ctx: Ctx) => Promise<(ctx: Ctx) => Promise<unknown>>
  rateLimit?: RateLimit
  signed?: SignedBody
}

/** The map's value for an endpoint key is that endpoint's handler (HandlerMap's type says so). */
const isHandler = (v: unknown): v is (input: unknown, ctx: Ctx) => Promise<unknown> => typeof v === 'function'
const isPrepared = (v: unknown): v is { prepare: (input: unknown, ctx: Ctx) => Promise<(ctx: Ctx) => Promise<unknown>> } =>
  typeof v === 'object' && v !== null && 'prepare' in v && typeof v.prepare === 'function'

/**
 * One area's handlers, keyed by endpoint name (the key in the contract module). The input each
 * handler receives is the endpoint's parsed zod output.
 */
export function handlers<A extends object>(
  area: A,
  impl: HandlerMap<A>,
  options: Partial<Record<EndpointKeys<A>, RouteOptions>> = {},
): BoundHandler[] {
  return Object.keys(impl).map((name) => {
    const endpoint: unknown = Reflect.get(area, name)
    const fn: unknown = Reflect.get(impl, name)
    if (!isEndpoint(endpoint) || !(isHandler(fn) || isPrepared(fn))) throw new Error(`handlers(): ${name} is not an endpoint of this area`)
    const option: unknown = Reflect.get(options, name)
    const start = isPrepared(fn)
      ? (input: unknown, ctx: Ctx) => fn.prepare(z.parse(endpoint.input, input), ctx)
      : async (input: unknown) => {
          const parsed: unknown = z.parse(endpoint.input, input)
          return (ctx: Ctx) => fn(parsed, ctx)
        }
    return {
      endpoint,
      start,
      ...(isRateLimit(option) ? { rateLimit: { max: option.max, timeWindow: option.timeWindow } } : {}),
      ...(isSignedBody(option) ? { signed: { verify: option.verify, maxBytes: option.maxBytes } } : {}),
    }
  })
}

const isRateLimit = (v: unknown): v is RateLimit => typeof v === 'object' && v !== null && 'max' in v && 'timeWindow' in v
const isSignedBody = (v: unknown): v is SignedBody => typeof v === 'object' && v !== null && 'verify' in v && typeof v.verify === 'function' && 'maxBytes' in v
