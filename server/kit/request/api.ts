/**
 * The one registrar: walks the contract's endpoint table and, for every endpoint with a handler,
 * registers `METHOD /api/admin<path>` that (1) checks the token and the endpoint's permission
 * before the body is read, (2) reads the query, JSON body or multipart form (files checked by
 * content; multipart only where the endpoint declares files, 415 elsewhere), (3) validates with
 * the endpoint's zod input and answers the `failed` shape (requirements R8.3) on bad input, (4) calls the
 * handler and (5) records an audit row for every successful write, with what it changed field by
 * field (server/kit/request/audit-changes.ts).
 *
 * A write (any POST but the reads by POST of requirements R7) runs in one transaction that the registrar opens:
 * the handler's `ctx.db` is that transaction (its own `ctx.transaction` calls nest as savepoints)
 * and the audit row is inserted in it before the commit, so a write never stands without its
 * audit row and a failing audit insert leaves nothing written. One way to fail: a handler refuses
 * by throwing `failure(...)`, and a refusal never commits a write. The one exception is visible
 * where it is made: `return refuseKeepingWrites(failure(...))` answers the refusal and keeps what
 * the handler wrote (a wrong password counts towards the lockout).
 * Work that needs no write but takes long (argon2) belongs in a `prepare` phase, which runs before
 * the transaction opens: on PGlite an open transaction holds the only connection.
 *
 * Handlers are plain typed functions, one table per contract area:
 *
 *     export const catalogRoutes = handlers(catalog, {
 *       deleteCategory: async ({ id }, ctx) => { ...; return { status: 'success', message: '...' } },
 *     })
 *
 * and the area's declaration names the tables (server/areas/<area>/index.ts, server/kit/request/areas.ts). A handler returns the endpoint's output, `twoFactorNeeded(...)`,
 * a `FileAnswer` (streamed downloads), or `refuseKeepingWrites(...)`; it throws `failure(...)` to refuse.
 * `afterSuccess` tasks (mail delivery, file removal, LOGOUT) run after the commit.
 */
import multipart from '@fastify/multipart'
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { fieldErrors, type FieldErrors } from '#contract/common'
import { changesData, type Endpoint } from '#contract/define'
import type { HeldAnswer } from '#contract/link-changes'
import { FORBIDDEN, UNAUTHORIZED, checkSession, type Passwords } from '../ground/access/auth.ts'
import type { TokenRef } from '../ground/access/sessions.ts'
import { cookieValue } from '../ground/access/device-cookie.ts'
import type { Config } from '../../config.ts'
import type { Db, DbHandle } from '../../db/index.ts'
import { auditLog, type AdminRow } from '../../db/schema.ts'
import type { MailMessage } from '../ground/mail/mail.ts'
import type { Realtime } from '../ground/realtime.ts'
import type { JobQueue } from '../ground/queue.ts'
import { FORM_TOO_LARGE, FormTooLarge, MULTIPART_LIMITS, UploadTooLarge, discard, formBounds, missingFiles, promote, readMultipart, removeUpload, unstore, type FormBounds, type StoredFile } from '../ground/uploads.ts'
import type { Finder } from '../ground/finders.ts'
import { NUL_MESSAGE, nulField } from '../ground/text-input.ts'
import { refusedOutwardLink } from './outward-links.ts'
import { SUMMARISED } from '../ground/request-log.ts'
import { startCapture, takeChanges, type StoredChanges } from './audit-changes.ts'
import { changedLinks, keepHeldWrite, twoAdminLinksOn } from './link-changes.ts'
import { linkChangeHeld, LINK_CHANGES_SCREEN } from '#contract/link-changes'
import { linksStored, refusedStoredLink } from './outward-links.ts'
import { SocketEvents } from '#contract/socket'
import { stepUpRefusal } from './step-up.ts'
import { ApiFailure, FileAnswer, KeptRefusal, failure, type TwoFactorAnswer } from './answers.ts'
import { API_PREFIX, type ContractIndex, type Services } from '../ground/services.ts'
import type { BoundHandler, Ctx } from './handlers.ts'

// The contract's schemas are zod/mini's, which brings no messages of its own: the checks the
// contract gives no message for answer in English, as classic zod sets on its first schema (the
// PWA sets the same in src/lib/zod-setup.ts).
z.config(z.locales.en())


declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in admin of an API call, set by the access check. */
    admin: AdminRow | null
    /** The session token of an API call, set by the access check. */
    sessionToken: TokenRef | null
    /** While the session views as a staff member (View as): the signed-in superadmin; `admin` is then the member. */
    viewAsBy: AdminRow | null
  }
}


/** The served handlers by endpoint name, for a held link change's approval (RequestContext.replay). */
const servedHandlers = new WeakMap<Services, ReadonlyMap<string, BoundHandler>>()

const sendFailure = (reply: FastifyReply, f: ApiFailure): FastifyReply => reply.code(f.statusCode).send(f.body())

/** Registers a route per contract endpoint that has a handler; an unknown handler stops the start. */
export function registerApi(app: FastifyInstance, services: Services, tables: readonly (readonly BoundHandler[])[]): void {
  const { endpoints } = services.contract
  const byName = new Map<string, BoundHandler>()
  for (const bound of tables.flat()) {
    if (!endpoints.includes(bound.endpoint)) throw new Error(`Handler ${bound.endpoint.name} has no endpoint in the areas' contracts`)
    if (byName.has(bound.endpoint.name)) throw new Error(`Two handlers for ${bound.endpoint.name}`)
    // Kept in memory for everyone: only an answer that is the same for every caller may be.
    if (bound.endpoint.memo === true && !(bound.endpoint.method === 'GET' && bound.endpoint.access.kind === 'public')) {
      throw new Error(`${bound.endpoint.name} is kept in memory (memo) but is not a public read`)
    }
    // The contract says which calls are signed, the handler how to check it: both, or neither.
    if ((bound.endpoint.signedBy === undefined) !== (bound.signed === undefined)) {
      throw new Error(`${bound.endpoint.name}: a signed call (signedBy) needs its handler's signature check (SignedBody), and only a signed call has one`)
    }
    byName.set(bound.endpoint.name, bound)
  }
  servedHandlers.set(services, byName)
  app.decorateRequest('admin', null)
  app.decorateRequest('sessionToken', null)
  app.decorateRequest('viewAsBy', null)
  const served = endpoints.flatMap((endpoint) => {
    const bound = byName.get(endpoint.name)
    return bound === undefined ? [] : [bound]
  })
  for (const bound of served.filter((b) => b.endpoint.files === undefined && b.signed === undefined)) route(app, services, bound, null)
  // A signed body is kept as its bytes, whatever its content type, in a scope of its own: the
  // signature is over those bytes, and no parser may refuse or reshape them before it is checked.
  for (const bound of served.filter((b) => b.signed !== undefined)) {
    void app.register(async (scope) => {
      scope.removeAllContentTypeParsers()
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: bound.signed?.maxBytes ?? 0 }, (_request, body, done) => done(null, body))
      route(scope, services, bound, null)
    })
  }
  // The multipart parser lives only in this scope, with the endpoints that declare files: any
  // other endpoint has no parser for a multipart body, and Fastify answers it 415 (app.ts).
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: false })
    for (const bound of served.filter((b) => b.endpoint.files !== undefined)) route(scope, services, bound, formBounds(bound.endpoint.input))
  })
}

function route(app: FastifyInstance, services: Services, bound: BoundHandler, bounds: FormBounds | null): void {
  const { endpoint } = bound
  app.route({
    method: endpoint.method,
    url: API_PREFIX + endpoint.path,
    config: {
      rateLimit: bound.rateLimit === undefined ? false : { max: bound.rateLimit.max(services.config), timeWindow: bound.rateLimit.timeWindow },
      // The public reads come at the public's rate: their log is summed up (server/kit/ground/request-log.ts).
      ...(endpoint.method === 'GET' && endpoint.access.kind === 'public' ? SUMMARISED : {}),
    },
    // onRequest runs before the body is parsed: a caller without the right gets 401/403 and
    // no byte of their upload is stored.
    onRequest: async (request, reply) => {
      if (endpoint.access.kind === 'public') return
      const call = { changes: changesData(endpoint), whileViewingAs: endpoint.whileViewingAs === true }
      const check = await checkSession(services.handle.db, services.config, request.headers.authorization, endpoint.access, { call })
      if (!check.ok) return reply.code(check.status).send({ status: 'failed', message: check.message, ...(check.code === undefined ? {} : { code: check.code }) })
      // A risky call needs a recent proof of the session's owner (contract/define.ts, stepUp):
      // refused here, before the body is read, whatever the handler.
      if (endpoint.stepUp === true) {
        const refusal = await stepUpRefusal(services.handle.db, services.config, check.actor, check.provedAt)
        if (refusal !== null) return reply.code(403).send(refusal)
      }
      request.admin = check.admin
      request.viewAsBy = check.viewing === null ? null : check.actor
      request.sessionToken = check.token
    },
    handler: (request, reply) => answer(bound, services, request, reply, bounds),
  })
}

/** Thrown inside a write's transaction when it changes an outward link that waits for a second admin: the write is rolled back. */
class HoldsLinks extends Error {
  constructor(
    readonly changes: StoredChanges,
    readonly fields: readonly string[],
  ) {
    super('held for a second admin')
  }
}

/** A write kept for a second admin (server/kit/request/link-changes.ts): answered 202, nothing written. */
class HeldLinkChange {
  constructor(
    readonly id: string,
    readonly fields: readonly string[],
  ) {}
}

/** Thrown inside a write's transaction when the answer breaks the contract: the write is rolled back. */
class BrokenAnswer extends Error {
  constructor(readonly issues: unknown) {
    super('answer does not match the contract')
  }
}

async function answer(bound: BoundHandler, services: Services, request: FastifyRequest, reply: FastifyReply, bounds: FormBounds | null): Promise<FastifyReply> {
  const { endpoint } = bound
  const rules = endpoint.files ?? {}
  let raw: unknown = {}
  let errors: FieldErrors = {}
  let tooLarge = false
  let temps: Awaited<ReturnType<typeof readMultipart>>['temps'] = []

  if (endpoint.method === 'GET') raw = request.query ?? {}
  else if (bounds !== null && request.isMultipart()) {
    try {
      const form = await readMultipart(request, rules, services.config.tmpDir, services.config.media, bounds)
      raw = form.fields
      temps = form.temps
      errors = form.errors
      tooLarge = form.tooLarge
    } catch (error) {
      // The rest of an over-limit upload is not worth reading: the connection closes after the answer.
      if (error instanceof UploadTooLarge || error instanceof FormTooLarge) void reply.header('Connection', 'close')
      throw multipartError(error)
    }
  } else if (bound.signed !== undefined) {
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
    const refused = bound.signed.verify(bytes, request.headers, services.config)
    if (refused !== null) return sendFailure(reply, refused)
    try {
      raw = JSON.parse(bytes.toString('utf8'))
    } catch {
      return sendFailure(reply, failure('The body is not JSON'))
    }
  } else raw = request.body ?? {}

  // U+0000 cannot be stored in PostgreSQL text: refused as bad input, never a 500 at the first query.
  const nul = nulField(raw)
  if (nul !== null) {
    await discard(temps)
    return sendFailure(reply, failure(NUL_MESSAGE, { [nul]: NUL_MESSAGE }))
  }

  const parsed = z.safeParse(endpoint.input, raw)
  const all: FieldErrors = { ...(parsed.success ? {} : fieldErrors(parsed.error)), ...errors }
  Object.assign(all, missingFiles(rules, temps, all))
  const first = Object.values(all)[0]
  if (first !== undefined) {
    await discard(temps)
    return sendFailure(reply, failure(first, all, tooLarge ? 413 : 400))
  }
  // A link users will follow, to a host the superadmin's list does not allow: refused like bad input.
  if (changesData(endpoint)) {
    const refused = await refusedOutwardLink(services.handle.db, endpoint, parsed.data)
    if (refused !== null) {
      await discard(temps)
      return sendFailure(reply, failure(refused.message, { [refused.field]: refused.message }))
    }
  }

  // A public read kept in memory is sent as it was first computed (the input, parsed, is its key).
  const memo = endpoint.memo === true ? services.publicCache : null
  const memoKey = memo === null ? '' : `${endpoint.name}?${JSON.stringify(parsed.data)}`
  const kept = memo?.get(memoKey)
  if (kept !== undefined) return sendJson(reply, endpoint, kept.body)
  const since = memo?.now() ?? 0

  const stored = await promote(temps, services.storage)
  const files: Record<string, StoredFile[]> = {}
  for (const file of stored) (files[file.field] ??= []).push(file)
  const ctx = new RequestContext(services, request, files)

  let result: unknown
  try {
    const body = await bound.start(raw, ctx)
    result = changesData(endpoint) ? await ctx.write(endpoint, body, { input: parsed.data, raw }) : await body(ctx)
    if (!changesData(endpoint)) contractIssues(endpoint, result)
  } catch (error) {
    await unstore(services.storage, stored)
    await ctx.runAfterFailure()
    if (!(error instanceof BrokenAnswer)) throw error
    // The handler broke the contract: a bug to fix, reported loudly rather than sent on.
    request.log.error({ endpoint: endpoint.name, issues: error.issues }, 'answer does not match the contract')
    return reply.code(500).send({ status: 'failed', message: 'Something went wrong' })
  }
  if (result instanceof KeptRefusal || result instanceof ApiFailure) {
    await unstore(services.storage, stored)
    return sendFailure(reply, result instanceof KeptRefusal ? result.failure : result)
  }
  await ctx.runAfterSuccess()
  if (result instanceof HeldLinkChange) {
    const held: HeldAnswer = { status: 'success', message: linkChangeHeld(result.fields), held: { id: result.id, fields: [...result.fields] } }
    return reply.code(202).send(held)
  }
  if (changesData(endpoint)) services.publicCache.forget()
  if (ctx.cookiesToSet.length > 0) void reply.header('Set-Cookie', [...ctx.cookiesToSet])

  if (result instanceof FileAnswer) {
    return reply
      .header('Content-Type', result.contentType)
      .header('Content-Disposition', `attachment; filename="${result.filename}"`)
      .send(result.body)
  }
  if (memo !== null) {
    const body = JSON.stringify(result)
    memo.store(memoKey, since, body)
    return sendJson(reply, endpoint, body)
  }
  if (endpoint.maxAge !== undefined && endpoint.access.kind === 'public') reply.header('Cache-Control', `public, max-age=${endpoint.maxAge}`)
  return reply.send(result)
}

/** Sends an answer already serialized (a public read kept in memory). */
function sendJson(reply: FastifyReply, endpoint: Endpoint, body: string): FastifyReply {
  if (endpoint.maxAge !== undefined && endpoint.access.kind === 'public') void reply.header('Cache-Control', `public, max-age=${endpoint.maxAge}`)
  return reply.type('application/json; charset=utf-8').send(body)
}

const isTwoFactor = (v: unknown): v is TwoFactorAnswer => typeof v === 'object' && v !== null && 'status' in v && v.status === 'TWO_FA'

/** Throws BrokenAnswer when a success answer does not match the endpoint's output schema. */
function contractIssues(endpoint: Endpoint, result: unknown): void {
  if (result instanceof ApiFailure || result instanceof KeptRefusal || result instanceof FileAnswer || isTwoFactor(result)) return
  const checked = endpoint.output.safeParse(result)
  if (!checked.success) throw new BrokenAnswer(checked.error.issues)
}

/** A broken multipart body is the caller's fault (400, or 413 past a parser limit), never a 500. */
function multipartError(error: unknown): unknown {
  if (error instanceof ApiFailure) return error
  if (error instanceof UploadTooLarge) return failure(error.message, { [error.field]: error.message }, 413)
  if (error instanceof FormTooLarge) return failure(FORM_TOO_LARGE, undefined, 413)
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : ''
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_REQ_FILE_TOO_LARGE') {
    return failure(FORM_TOO_LARGE, undefined, 413)
  }
  if (code.startsWith('FST_') || (error instanceof Error && !('code' in error))) return failure('Malformed multipart body')
  return error
}

/**
 * A write naming many records (every country at once) names them all, comma-separated; kept within
 * what the record index can hold (a btree entry must fit in a page), the rest summed up.
 */
const MAX_AUDIT_RECORD = 1000
export function auditRecordId(id: string | null): string | null {
  if (id === null || id.length <= MAX_AUDIT_RECORD) return id
  const cut = id.slice(0, MAX_AUDIT_RECORD)
  const kept = cut.slice(0, Math.max(0, cut.lastIndexOf(',')))
  const more = id.split(',').length - kept.split(',').length
  return `${kept} (and ${more} more)`
}

class RequestContext implements Ctx {
  readonly #services: Services
  readonly #request: FastifyRequest
  readonly #after: (() => Promise<void> | void)[] = []
  readonly #afterFailure: (() => Promise<void> | void)[] = []
  readonly #cookies: string[] = []
  #auditRecord: string | null = null
  #auditActor: string | null = null
  #auditDetail = ''
  #auditAnonymous = false
  /** Set by `replay`: this write is an approval of a held link change. */
  #approving = false
  /** The database, or the call's transaction while a write runs (`write`). */
  #db: Db

  #files: Readonly<Record<string, readonly StoredFile[]>>

  constructor(services: Services, request: FastifyRequest, files: Readonly<Record<string, readonly StoredFile[]>>) {
    this.#services = services
    this.#request = request
    this.#db = services.handle.db
    this.#files = files
  }

  get files(): Readonly<Record<string, readonly StoredFile[]>> {
    return this.#files
  }

  get db(): Db {
    return this.#db
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
  get jobs(): JobQueue {
    return this.#services.jobs
  }
  /** The served contract (server/kit/request/areas.ts): undo finds an entry's endpoint, the audit log its area. */
  get contract(): ContractIndex {
    return this.#services.contract
  }
  get token(): TokenRef | null {
    return this.#request.sessionToken
  }
  get admin(): AdminRow | null {
    return this.#request.admin
  }
  get viewAsBy(): AdminRow | null {
    return this.#request.viewAsBy
  }
  get ip(): string {
    return this.#request.ip
  }
  get finders(): readonly Finder[] {
    return this.#services.finders
  }
  get userAgent(): string | undefined {
    return this.#request.headers['user-agent']
  }
  get https(): boolean {
    return this.#request.protocol === 'https'
  }
  cookie(name: string): string | undefined {
    return cookieValue(this.#request.headers.cookie, name)
  }
  setCookie(header: string): void {
    this.#cookies.push(header)
  }
  /** The Set-Cookie headers of a success answer. */
  get cookiesToSet(): readonly string[] {
    return this.#cookies
  }
  get requestOrigin(): string {
    return `${this.#request.protocol}://${this.#request.host}`
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

  auditDetail(detail: string): void {
    this.#auditDetail = detail
  }

  auditAnonymous(recordId: string): void {
    this.#auditRecord = recordId
    this.#auditAnonymous = true
  }

  afterSuccess(task: () => Promise<void> | void): void {
    this.#after.push(task)
  }

  afterFailure(task: () => Promise<void> | void): void {
    this.#afterFailure.push(task)
  }

  async sendMail(message: MailMessage, db: Db = this.db): Promise<string> {
    const mailer = this.#services.mailer
    const id = await mailer.enqueue(db, message)
    this.afterSuccess(() => mailer.wake())
    return id
  }

  removeUploadLater(name: string): void {
    this.afterSuccess(() => removeUpload(this.#services.storage, name))
  }

  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(tx))
  }

  /**
   * Runs a write's handler phase in one transaction with its audit row. A success answer (not
   * TWO_FA, which changed nothing the caller asked for) gets its row, checked against the contract
   * first; a kept refusal (`refuseKeepingWrites`) commits without a row; anything thrown, a
   * failure returned by mistake included, rolls everything back.
   * With `call` (the registrar's own calls, not a replay), a write that changes an outward link
   * while two admins are asked for is rolled back and kept for a second admin instead.
   */
  async write(endpoint: Endpoint, body: (ctx: Ctx) => Promise<unknown>, call?: { input: unknown; raw: unknown }): Promise<unknown> {
    const admin = this.#request.admin
    const mayHold = call !== undefined && admin !== null
    try {
      return await this.#services.handle.db.transaction(async (tx) => {
        this.#db = tx
        try {
          await startCapture(tx)
          const result = await body(this)
          // A failure is refused by throwing: one returned by mistake rolls back all the same.
          if (result instanceof ApiFailure) throw result
          contractIssues(endpoint, result)
          const actor = admin?.id ?? this.#auditActor
          if (!(result instanceof KeptRefusal) && !isTwoFactor(result) && (actor !== null || this.#auditAnonymous)) {
            const changes = await takeChanges(tx)
            // An approval's replay is the second admin's act: what it stores is not held again.
            if (mayHold && !this.#approving) {
              const fields = await linksToHold(tx, endpoint, call.input, changes)
              if (changes !== null && fields.length > 0 && (await twoAdminLinksOn(tx))) throw new HoldsLinks(changes, fields)
            }
            const recordId = auditRecordId(this.#auditRecord ?? recordIdOf(this.#request.body))
            await tx.insert(auditLog).values({
              adminId: actor,
              action: endpoint.path,
              recordId,
              ip: this.ip,
              detail: this.#auditDetail,
              changes,
            })
            // Whoever has the record open hears who saved it (a banner with Reload), once it stands.
            if (recordId !== null && admin !== null) {
              const saved = { id: recordId, adminId: admin.id, name: admin.name, action: endpoint.path, at: new Date().toISOString() }
              this.afterSuccess(() => this.realtime?.recordSaved(saved))
            }
          }
          return result
        } finally {
          this.#db = this.#services.handle.db
        }
      })
    } catch (error) {
      if (!(error instanceof HoldsLinks) || admin === null || call === undefined) throw error
      // Nothing of the write stands: what it meant to do after success (remove a replaced file, mail) must not happen.
      this.#after.length = 0
      this.#afterFailure.length = 0
      const recordId = auditRecordId(this.#auditRecord ?? recordIdOf(this.#request.body))
      const id = await keepHeldWrite(this.#services.handle.db, admin, this.ip, {
        endpoint,
        input: call.raw,
        files: Object.values(this.#files).flat(),
        recordId,
        changes: error.changes,
        fields: error.fields,
      })
      this.afterSuccess(() => this.realtime?.toScreen(LINK_CHANGES_SCREEN, SocketEvents.countsChanged, { screen: LINK_CHANGES_SCREEN }))
      return new HeldLinkChange(id, error.fields)
    }
  }

  async replay(endpoint: Endpoint, input: unknown, files: readonly StoredFile[]): Promise<unknown> {
    this.#approving = true
    const bound = servedHandlers.get(this.#services)?.get(endpoint.name)
    if (bound === undefined) throw failure(`${endpoint.name} is not served`, undefined, 409)
    const byField: Record<string, StoredFile[]> = {}
    for (const file of files) (byField[file.field] ??= []).push(file)
    const own = this.#files
    this.#files = byField
    try {
      const body = await bound.start(input, this)
      return await body(this)
    } finally {
      this.#files = own
    }
  }

  /** After a throw (and the rollback): the failure's tasks, whose own failures are only logged. */
  async runAfterFailure(): Promise<void> {
    for (const task of this.#afterFailure) {
      try {
        await task()
      } catch (error) {
        this.log.error({ err: error }, 'after-failure task failed')
      }
    }
  }

  /** After success (and the commit): the deferred tasks, whose failures are only logged. */
  async runAfterSuccess(): Promise<void> {
    for (const task of this.#after) {
      try {
        await task()
      } catch (error) {
        this.log.error({ err: error }, 'after-success task failed')
      }
    }
  }
}

/**
 * The link fields for which a write waits for a second admin: those of its form whose value it
 * stores anew, or, for a write whose form carries no such link (a revert from the audit log), the
 * link columns it stores a value in (server/db/link-columns.ts), which are first held to the
 * allowed domains as a form's links are before its handler runs (a refusal rolls the write back).
 */
async function linksToHold(db: Db, endpoint: Endpoint, input: unknown, changes: StoredChanges | null): Promise<string[]> {
  const fields = changedLinks(endpoint, input, changes)
  if (fields.length > 0) return fields
  const putBack = linksStored(changes)
  if (putBack.length === 0) return []
  const refused = await refusedStoredLink(db, putBack)
  if (refused !== null) throw failure(refused.message, { [refused.field]: refused.message })
  return [...new Set(putBack.map((l) => l.field))]
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
