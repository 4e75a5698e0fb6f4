import type { z } from 'zod/mini'
import type { ListSort } from './common.ts'

/**
 * Who may make a call.
 * - `public`: no token (login, forgot password, the public pages).
 * - `session`: any signed-in, active admin (profile, own password).
 * - a screen permission: the session must be allowed to see `route`; when `write` is true it
 *   also needs the Admin access level; `staff` calls additionally refuse role `subadmin`;
 *   `approver` calls (a second Admin's approval of a mass send) need an administrator: the
 *   superadmin, or the Admin access level with every screen (no restrictions list), never a
 *   sub-admin restricted to some screens.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'session' }
  | { kind: 'screen'; route: string; write: boolean; staff?: boolean; approver?: boolean }

export const publicAccess: Access = { kind: 'public' }
export const sessionAccess: Access = { kind: 'session' }
/** Reading a screen's data: allowed when the route is in the session's restrictions (or they are empty). */
export const reads = (route: string): Access => ({ kind: 'screen', route, write: false })
/** Changing a screen's data: as `reads`, plus the Admin access level. */
export const writes = (route: string): Access => ({ kind: 'screen', route, write: true })
/** Reading what only staff managers see (pending access requests): as `reads`, and never for role subadmin. */
export const staffReads = (route: string): Access => ({ kind: 'screen', route, write: false, staff: true })
/** Staff management: as `writes`, and never for role subadmin (requirements R6.5). */
export const staffWrites = (route: string): Access => ({ kind: 'screen', route, write: true, staff: true })

/** Approving or rejecting another Admin's mass send: as `writes`, and only an administrator (see Access). */
export const approves = (route: string): Access => ({ kind: 'screen', route, write: true, approver: true })

/** Who counts as an administrator for `approver` calls: the superadmin, or Admin level on every screen. */
export const isAdministrator = (admin: { role: string; accessLevel: string; restrictions: readonly string[] }): boolean =>
  admin.role === 'superadmin' || (admin.accessLevel === 'Admin' && admin.restrictions.length === 0)

/** A rule for one file field of a multipart call; checked by name and, on the server, by content. */
export interface FileRule {
  /** Kinds accepted, checked by extension in the form and by magic bytes on the server. */
  kinds: readonly FileKind[]
  /** At most this many files (1 for a single image). */
  max: number
  /** Required on this call. */
  required: boolean
  /** Largest accepted size of one file, in bytes. */
  maxBytes: number
  /** The messages of requirements R5, word for word. */
  messages: {
    required?: string
    kind: string
    tooMany?: string
  }
}

export type FileKind = 'png' | 'jpeg' | 'mp4' | 'm4a' | 'webm'

/** One call of requirements R7, as data. */
export interface Endpoint<
  I extends z.ZodMiniType = z.ZodMiniType,
  O extends z.ZodMiniType = z.ZodMiniType,
> {
  /** Stable name: the key in the endpoint table. */
  name: string
  method: 'GET' | 'POST'
  /** Path under /api/admin, spelled exactly as requirements R7 spells it. */
  path: string
  /** Query (GET) or body (POST) fields; for multipart calls, the text fields. */
  input: I
  /** The success answer. Failures share `Failure` from common.ts. */
  output: O
  /** File fields of a multipart call. */
  files?: Record<string, FileRule>
  /** `csv` answers stream a file instead of JSON. */
  answer?: 'json' | 'csv'
  access: Access
  /**
   * Public reads only: seconds a browser or proxy may keep the answer (Cache-Control public,
   * max-age). Every other answer is per session and never kept.
   */
  maxAge?: number
  /**
   * Public reads only: the server answers from memory, computed once and forgotten at the next
   * successful write on any instance (server/kit/ground/public-cache.ts). For the calls the platform's
   * apps make at the public's rate.
   */
  memo?: true
  /** Set where the requirements do not give the payload or answer and this is our definition. */
  ours?: string
  /**
   * What the audit log calls a successful call, in words ('Category added'): every call that
   * writes an audit row has one (contract/contract.test.ts), so the log never shows a path.
   */
  logAs?: string
  /** The sortable columns of a list call (or of an export of one): `sortable()` in common.ts; its input takes `sortBy` and `sortOrder`. */
  sort?: ListSort
  /**
   * A risky call (exporting every lead, creating or changing staff access, approving a mass
   * send): the server refuses it (403, `StepUpRefusal` in common.ts) unless the session proved its
   * owner (sign-in, or `proveIdentity`'s password and 2FA code) within `STEP_UP_MINUTES`.
   */
  stepUp?: boolean
  /**
   * A call its sender signs (a provider's webhook): the header that carries the signature of the
   * raw body, its form, and how it is made. The server checks it before the body is read
   * (server/kit/request/api.ts, SignedBody) and the OpenAPI document names the header.
   */
  signedBy?: { header: string; pattern: string; description: string }
}

/**
 * Declares an endpoint. Its name is the name it is exported under, written once: the module ends
 * with `nameEndpoints(self)` (its own namespace), which names each endpoint by its export and
 * gives it the path `/${name}` unless the definition spells one (where requirements R7 spells it
 * differently). Keeps the literal types of the definition while checking its shape.
 * contract/endpoint-table.test.ts holds every name, method and path.
 */
export function endpoint<I extends z.ZodMiniType, O extends z.ZodMiniType>(e: Omit<Endpoint<I, O>, 'name' | 'path'> & { path?: string }): Endpoint<I, O> {
  return { ...e, name: '', path: e.path ?? '' }
}

/**
 * What `endpoint` and `nameEndpoints` make together, in one call: the browser build writes each
 * `export const X = endpoint({...})` as `namedEndpoint('X', {...})` (contract/build-names.ts), so
 * that the bundler can leave out the endpoints a page never calls.
 */
export function namedEndpoint<I extends z.ZodMiniType, O extends z.ZodMiniType>(name: string, e: Omit<Endpoint<I, O>, 'name' | 'path'> & { path?: string }): Endpoint<I, O> {
  return { ...e, name, path: e.path ?? `/${name}` }
}

/**
 * Names every endpoint a contract module exports by its export name, and defaults its path; run
 * once, at the end of the module (`import * as self from './this-module.ts'`), when every export
 * is defined. An endpoint exported twice, or named elsewhere before, is refused.
 */
export function nameEndpoints(module: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(module)) {
    if (!isEndpoint(value)) continue
    if (value.name !== '') throw new Error(`The endpoint ${name} is also exported as ${value.name}`)
    value.name = name
    if (value.path === '') value.path = `/${name}`
  }
}

/** Whether a module export is an endpoint (the server's areas and the contract's tests scan modules with it). */
export const isEndpoint = (v: unknown): v is Endpoint => typeof v === 'object' && v !== null && 'path' in v && 'method' in v && 'access' in v

export type Input<E extends Endpoint> = z.input<E['input']>
export type ParsedInput<E extends Endpoint> = z.output<E['input']>
export type Output<E extends Endpoint> = z.output<E['output']>

/**
 * Whether a call changes something: every POST but a screen's read by POST (ListBuyLink,
 * get_version). The server runs such a call as a write, in a transaction with its audit row
 * (server/kit/request/api.ts), and the browser refuses it while offline (src/lib/api.ts). `isWrite` below
 * answers a narrower question (does the call need the Admin access level?) and leaves out the
 * session's own writes (Edit Profile, saving a view, 2FA), which change data all the same.
 */
export const changesData = (e: Endpoint): boolean => e.method === 'POST' && !(e.access.kind === 'screen' && !e.access.write)

/** Whether a call needs the Admin access level: a screen's write. */
export const isWrite = (e: Endpoint): boolean => e.access.kind === 'screen' && e.access.write
