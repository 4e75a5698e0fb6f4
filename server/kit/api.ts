/**
 * The one registrar: walks the contract's endpoint table and, for every endpoint with a handler,
 * registers `METHOD /api/admin<path>` that (1) checks the token and the endpoint's permission
 * before the body is read, (2) reads the query, JSON body or multipart form (files checked by
 * content), (3) validates with the endpoint's zod input and answers the spec's `failed` shape on
 * bad input, (4) calls the handler and (5) records an audit row for every successful write.
 *
 * Handlers are plain typed functions, one table per contract area:
 *
 *     export const catalogRoutes = handlers(catalog, {
 *       deleteCategory: async ({ id }, ctx) => { ...; return { status: 'success', message: '...' } },
 *     })
 *
 * and app.ts lists the tables. A handler returns the endpoint's output, `twoFactorNeeded(...)`,
 * a `FileAnswer` (streamed downloads), or a `failure(...)` it wants answered after keeping what
 * it wrote (a failed login counts towards the lockout); it throws `failure(...)` to stop.
 */
import type { Readable } from 'node:stream'
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { endpoints } from '#contract/index'
import { fieldErrors, type FieldErrors, type Failure } from '#contract/common'
import type { Endpoint, Output, ParsedInput } from '#contract/define'
import { FORBIDDEN, UNAUTHORIZED, checkSession, type Passwords } from '../sign-in/auth.ts'
import type { Config } from '../config.ts'
import type { Db, DbHandle } from '../db/index.ts'
import { auditLog, type AdminRow } from '../db/schema.ts'
import type { MailMessage, Mailer } from '../notify/mail.ts'
import type { Realtime } from '../notify/realtime.ts'
import { UploadTooLarge, discard, missingFiles, promote, readMultipart, removeUpload, type StoredFile } from './uploads.ts'

/** A refused or failed call: the spec's `{ status: 'failed', message, errors }` with an HTTP status. */
export class ApiFailure extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
  ) {
    super(message)
  }

  body(): Failure {
    return { status: 'failed', message: this.message, ...(this.errors === undefined ? {} : { errors: this.errors }) }
  }
}

/** A failure with per-field errors (400 unless told). */
export const failure = (message: string, errors?: FieldErrors, statusCode = 400): ApiFailure => new ApiFailure(statusCode, message, errors)

export const RECORD_NOT_FOUND = 'Record not found'
/** An unknown id: 404 with the id field named, as the client shows field errors under inputs. */
export const notFound = (field = 'id'): ApiFailure => new ApiFailure(404, RECORD_NOT_FOUND, { [field]: RECORD_NOT_FOUND })

/** The login (and create-user) answer when a second factor is needed. */
export interface TwoFactorAnswer {
  status: 'TWO_FA'
  message: string
}
export const twoFactorNeeded = (message = 'Enter the 6-digit code from your authenticator app'): TwoFactorAnswer => ({ status: 'TWO_FA', message })

/** A streamed download (the CSV export): sent as an attachment named `filename`. */
export class FileAnswer {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly body: Readable,
  ) {}
}

/** What the whole server shares; built once in app.ts. */
export interface Services {
  handle: DbHandle
  config: Config
  passwords: Passwords
  mailer: Mailer
  realtime: Realtime | null
}

/** What a handler gets besides its parsed input. */
export interface Ctx {
  readonly db: Db
  /** The engine underneath, for the few things only one engine can do (COPY streaming). */
  readonly handle: DbHandle
  readonly config: Config
  readonly passwords: Passwords
  readonly realtime: Realtime | null
  /** The signed-in admin (null only on public calls). */
  readonly admin: AdminRow | null
  /** Uploaded files of a multipart call by field, already checked and stored. */
  readonly files: Readonly<Record<string, readonly StoredFile[]>>
  readonly ip: string
  readonly log: FastifyBaseLogger
  /** The signed-in admin, or a 401 failure on a public call. */
  me(): AdminRow
  /** Names the record this write touched (and, on public calls like login, who acted) for the audit row. */
  audit(recordId: string | null, actorId?: string): void
  /** Runs after the handler succeeded, before the answer (deleting a replaced file, LOGOUT, mail). */
  afterSuccess(task: () => Promise<void> | void): void
  /**
   * Queues a mail in the outbox with `db` (pass a transaction to tie it to one) and sends it after
   * success. With `background`, the answer does not wait for the SMTP server: its timing then says
   * nothing about whether a mail went out (the forgot flow answers alike for unknown emails).
   */
  sendMail(message: MailMessage, db?: Db, options?: { background?: boolean }): Promise<void>
  /** Deletes an uploaded file by its stored name once the handler has succeeded. */
  removeUploadLater(name: string): void
  /** Runs `work` in one transaction. Keep it short: on PGlite it holds the only connection. */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>
}

export type HandlerResult<E extends Endpoint> = Output<E> | TwoFactorAnswer | FileAnswer | ApiFailure
export type Handler<E extends Endpoint> = (input: ParsedInput<E>, ctx: Ctx) => Promise<HandlerResult<E>>

type EndpointKeys<A> = { [K in keyof A]: A[K] extends Endpoint ? K : never }[keyof A]
export type HandlerMap<A> = { [K in EndpointKeys<A>]?: A[K] extends Endpoint ? Handler<A[K]> : never }

/** Per-endpoint rate limit (requests per address per window), for login and the OTP calls. */
export interface RateLimit {
  max: (config: Config) => number
  timeWindow: number
}

export interface BoundHandler {
  endpoint: Endpoint
  run: (input: unknown, ctx: Ctx) => Promise<unknown>
  rateLimit?: RateLimit
}

const isEndpoint = (v: unknown): v is Endpoint => typeof v === 'object' && v !== null && 'path' in v && 'method' in v && 'access' in v
/** The map's value for an endpoint key is that endpoint's handler (HandlerMap's type says so). */
const isHandler = (v: unknown): v is (input: unknown, ctx: Ctx) => Promise<unknown> => typeof v === 'function'

/**
 * One area's handlers, keyed by endpoint name (the key in the contract module). The input each
 * handler receives is the endpoint's parsed zod output.
 */
export function handlers<A extends object>(
  area: A,
  impl: HandlerMap<A>,
  rateLimits: Partial<Record<EndpointKeys<A>, RateLimit>> = {},
): BoundHandler[] {
  return Object.keys(impl).map((name) => {
    const endpoint: unknown = Reflect.get(area, name)
    const fn: unknown = Reflect.get(impl, name)
    if (!isEndpoint(endpoint) || !isHandler(fn)) throw new Error(`handlers(): ${name} is not an endpoint of this area`)
    const rateLimit: unknown = Reflect.get(rateLimits, name)
    return {
      endpoint,
      run: (input: unknown, ctx: Ctx) => fn(z.parse(endpoint.input, input), ctx),
      ...(isRateLimit(rateLimit) ? { rateLimit } : {}),
    }
  })
}

const isRateLimit = (v: unknown): v is RateLimit => typeof v === 'object' && v !== null && 'max' in v && 'timeWindow' in v

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in admin of an API call, set by the access check. */
    admin: AdminRow | null
  }
}

export const API_PREFIX = '/api/admin'

const sendFailure = (reply: FastifyReply, f: ApiFailure): FastifyReply => reply.code(f.statusCode).send(f.body())

/** Registers a route per contract endpoint that has a handler; an unknown handler stops the start. */
export function registerApi(app: FastifyInstance, services: Services, tables: readonly (readonly BoundHandler[])[]): void {
  const byName = new Map<string, BoundHandler>()
  for (const bound of tables.flat()) {
    if (!endpoints.includes(bound.endpoint)) throw new Error(`Handler ${bound.endpoint.name} has no endpoint in contract/index.ts`)
    if (byName.has(bound.endpoint.name)) throw new Error(`Two handlers for ${bound.endpoint.name}`)
    byName.set(bound.endpoint.name, bound)
  }
  app.decorateRequest('admin', null)
  for (const endpoint of endpoints) {
    const bound = byName.get(endpoint.name)
    if (bound === undefined) continue
    app.route({
      method: endpoint.method,
      url: API_PREFIX + endpoint.path,
      config: {
        rateLimit: bound.rateLimit === undefined ? false : { max: bound.rateLimit.max(services.config), timeWindow: bound.rateLimit.timeWindow },
      },
      // onRequest runs before the body is parsed: a caller without the right gets 401/403 and
      // no byte of their upload is stored.
      onRequest: async (request, reply) => {
        if (endpoint.access.kind === 'public') return
        const check = await checkSession(services.handle.db, services.config, request.headers.authorization, endpoint.access)
        if (!check.ok) return reply.code(check.status).send({ status: 'failed', message: check.message })
        request.admin = check.admin
      },
      handler: (request, reply) => answer(bound, services, request, reply),
    })
  }
}

async function answer(bound: BoundHandler, services: Services, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { endpoint } = bound
  const rules = endpoint.files ?? {}
  let raw: unknown = {}
  let errors: FieldErrors = {}
  let tooLarge = false
  let temps: Awaited<ReturnType<typeof readMultipart>>['temps'] = []

  if (endpoint.method === 'GET') raw = request.query ?? {}
  else if (request.isMultipart()) {
    try {
      const form = await readMultipart(request, rules, services.config.tmpDir, services.config.media)
      raw = form.fields
      temps = form.temps
      errors = form.errors
      tooLarge = form.tooLarge
    } catch (error) {
      // The rest of an over-limit upload is not worth reading: the connection closes after the answer.
      if (error instanceof UploadTooLarge) void reply.header('Connection', 'close')
      throw multipartError(error)
    }
  } else raw = request.body ?? {}

  const parsed = z.safeParse(endpoint.input, raw)
  const all: FieldErrors = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...errors }
  Object.assign(all, missingFiles(rules, temps, all))
  const first = Object.values(all)[0]
  if (first !== undefined) {
    await discard(temps)
    return sendFailure(reply, failure(first, all, tooLarge ? 413 : 400))
  }

  const stored = await promote(temps, services.config.uploadsDir)
  const files: Record<string, StoredFile[]> = {}
  for (const file of stored) (files[file.field] ??= []).push(file)
  const ctx = new RequestContext(services, request, files)

  let result: unknown
  try {
    result = await bound.run(raw, ctx)
  } catch (error) {
    await discard(stored)
    throw error
  }
  if (result instanceof ApiFailure) {
    await discard(stored)
    return sendFailure(reply, result)
  }
  // A TWO_FA answer changed nothing the caller asked for: no audit row claims the write happened.
  await ctx.finish(endpoint, !isTwoFactor(result))

  if (result instanceof FileAnswer) {
    return reply
      .header('Content-Type', result.contentType)
      .header('Content-Disposition', `attachment; filename="${result.filename}"`)
      .send(result.body)
  }
  const checked = isTwoFactor(result) ? { success: true } : endpoint.output.safeParse(result)
  if (!checked.success) {
    // The handler broke the contract: a bug to fix, reported loudly rather than sent on.
    request.log.error({ endpoint: endpoint.name, issues: 'error' in checked ? checked.error.issues : [] }, 'answer does not match the contract')
    return reply.code(500).send({ status: 'failed', message: 'Something went wrong' })
  }
  if (endpoint.maxAge !== undefined && endpoint.access.kind === 'public') reply.header('Cache-Control', `public, max-age=${endpoint.maxAge}`)
  return reply.send(result)
}

const isTwoFactor = (v: unknown): v is TwoFactorAnswer => typeof v === 'object' && v !== null && 'status' in v && v.status === 'TWO_FA'

/** A broken multipart body is the caller's fault (400, or 413 past a parser limit), never a 500. */
function multipartError(error: unknown): unknown {
  if (error instanceof ApiFailure) return error
  if (error instanceof UploadTooLarge) return failure(error.message, { [error.field]: error.message }, 413)
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : ''
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_REQ_FILE_TOO_LARGE') {
    return failure('Too many or too large parts in the form', undefined, 413)
  }
  if (code.startsWith('FST_') || (error instanceof Error && !('code' in error))) return failure('Malformed multipart body')
  return error
}

class RequestContext implements Ctx {
  readonly #services: Services
  readonly #request: FastifyRequest
  readonly #after: (() => Promise<void> | void)[] = []
  #auditRecord: string | null = null
  #auditActor: string | null = null

  constructor(
    services: Services,
    request: FastifyRequest,
    readonly files: Readonly<Record<string, readonly StoredFile[]>>,
  ) {
    this.#services = services
    this.#request = request
  }

  get db(): Db {
    return this.#services.handle.db
  }
  get handle(): DbHandle {
    return this.#services.handle
  }
  get config(): Config {
    return this.#services.config
  }
  get passwords(): Passwords {
    return this.#services.passwords
  }
  get realtime(): Realtime | null {
    return this.#services.realtime
  }
  get admin(): AdminRow | null {
    return this.#request.admin
  }
  get ip(): string {
    return this.#request.ip
  }
  get log(): FastifyBaseLogger {
    return this.#request.log
  }

  me(): AdminRow {
    if (this.#request.admin === null) throw new ApiFailure(401, UNAUTHORIZED)
    return this.#request.admin
  }

  audit(recordId: string | null, actorId?: string): void {
    this.#auditRecord = recordId
    if (actorId !== undefined) this.#auditActor = actorId
  }

  afterSuccess(task: () => Promise<void> | void): void {
    this.#after.push(task)
  }

  async sendMail(message: MailMessage, db: Db = this.db, options: { background?: boolean } = {}): Promise<void> {
    const mailer = this.#services.mailer
    const id = await mailer.enqueue(db, message)
    if (options.background !== true) return this.afterSuccess(() => mailer.deliver(id))
    this.afterSuccess(() => {
      mailer.deliver(id).catch((error: unknown) => this.log.error({ err: error }, 'mail delivery failed'))
    })
  }

  removeUploadLater(name: string): void {
    this.afterSuccess(() => removeUpload(this.#services.config.uploadsDir, name))
  }

  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(tx))
  }

  /** After success: the audit row of a write, then the deferred tasks (whose failures are only logged). */
  async finish(endpoint: Endpoint, audited: boolean): Promise<void> {
    const actor = this.#request.admin?.id ?? this.#auditActor
    // The spec reads some lists by POST (ListBuyLink, get_version, ...): those change nothing and get no row.
    const reads = endpoint.access.kind === 'screen' && !endpoint.access.write
    if (audited && endpoint.method === 'POST' && !reads && actor !== null) {
      await this.db.insert(auditLog).values({ adminId: actor, action: endpoint.path, recordId: this.#auditRecord ?? recordIdOf(this.#request.body), ip: this.ip })
    }
    for (const task of this.#after) {
      try {
        await task()
      } catch (error) {
        this.log.error({ err: error }, 'after-success task failed')
      }
    }
  }
}

/** The id a write names in its body (`id` or `_id`), when the handler did not say. */
function recordIdOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null
  for (const key of ['id', '_id']) {
    const value: unknown = Reflect.get(body, key)
    if (typeof value === 'string') return value
  }
  return null
}

export { FORBIDDEN, UNAUTHORIZED }
