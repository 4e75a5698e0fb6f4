/**
 * The one way the PWA talks to the server: `call(endpoint, input)` with an endpoint of the
 * contract. It validates the payload with the contract's schema, sends it the way the endpoint
 * says (query string, JSON or multipart), and parses the answer with the output schema, so no
 * screen ever handles an unchecked body.
 */
import { z } from 'zod/mini'
import { StepUpRefusal, fieldErrors } from '#contract/common'
import { changesData, type Endpoint, type Input, type Output } from '#contract/define'
import { HeldAnswer } from '#contract/link-changes'
import { noteCall, takeEarlyCall } from './early-calls.ts'
import { clearToken, readAuthorization } from './token.ts'
import { WRITES_OFFLINE_MESSAGE, isOnline } from './online.ts'

import { API_BASE, API_ORIGIN } from './api-origin.ts'
import { trackCall } from './idle.ts'
import { STEP_UP_CANCELLED, askStepUp } from './step-up.ts'

export { API_ORIGIN }

/** Message of a call that could not reach the server at all. */
export const UNREACHABLE_MESSAGE = 'Could not reach the server. Check your connection and try again.'

/**
 * A refused or failed call (requirements R8.1 to R8.3). `status` is the HTTP code, or 0 when the server
 * could not be reached; `message` is the server's own message; `errors` holds per-field messages.
 */
export class ApiError extends Error {
  readonly status: number
  readonly errors: Record<string, string>
  /** The failure's whole body, for the few answers that tell more (a revert's conflict). */
  readonly body: unknown
  constructor(status: number, message: string, errors: Record<string, string> = {}, body: unknown = undefined) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.errors = errors
    this.body = body
  }
}

/**
 * Login (and create-user) may answer `TWO_FA` instead of succeeding: the caller shows the code
 * input with this message (requirements R4.1, R8.4).
 */
export class SecondFactorRequired extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SecondFactorRequired'
  }
}

/**
 * A write kept for a second admin (contract/link-changes.ts): answered 202, nothing written yet.
 * Thrown rather than returned, as the answer is not the endpoint's; forms say it as their success.
 */
export class HeldForApproval extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HeldForApproval'
  }
}

// Failure bodies: the envelope of requirements R7.1, or anything carrying a message (proxies, framework errors).
const FailureBody = z.object({
  status: z.optional(z.string()),
  message: z.optional(z.string()),
  errors: z.optional(z.record(z.string(), z.string())),
})
const SecondFactorBody = z.object({ status: z.literal('TWO_FA'), message: z.string() })

/** Turns a field value into the string a query string or multipart form carries. */
function asField(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  return JSON.stringify(value)
}

function entriesOf(value: unknown): Array<[string, unknown]> {
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).filter(([, v]) => v !== undefined && v !== null)
}

function urlFor(endpoint: Endpoint, payload: unknown): string {
  const url = API_BASE + endpoint.path
  if (endpoint.method !== 'GET') return url
  const query = new URLSearchParams()
  // An empty text is what the server assumes for an absent one (every optional text defaults to
  // ''), so leaving it out keeps the address short and the same however many filters a list has.
  for (const [key, value] of entriesOf(payload)) {
    if (value === '') continue
    if (Array.isArray(value)) for (const item of value) query.append(key, asField(item))
    else query.append(key, asField(value))
  }
  const text = query.toString()
  return text ? `${url}?${text}` : url
}

function headers(): Headers {
  const h = new Headers({ Accept: 'application/json' })
  const auth = readAuthorization()
  if (auth) h.set('Authorization', auth)
  return h
}

async function send(endpoint: Endpoint, init: RequestInit, url: string): Promise<Response> {
  // The answer the page's early script is already fetching (early-calls.ts), when it is this call.
  const early = init.method === 'GET' ? takeEarlyCall(url, new Headers(init.headers).get('Authorization')) : undefined
  try {
    return await trackCall(early === undefined ? fetch(url, init) : early.catch(() => fetch(url, init)))
  } catch {
    // fetch rejects only when no answer arrived at all (offline, DNS, CORS, server down).
    throw new ApiError(0, isOnline() ? UNREACHABLE_MESSAGE : offlineMessage(endpoint))
  }
}

const offlineMessage = (endpoint: Endpoint): string =>
  changesData(endpoint) ? WRITES_OFFLINE_MESSAGE : 'You are offline. The data will refresh when the connection is back.'

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text()
  if (!text) return undefined
  try {
    const parsed: unknown = JSON.parse(text)
    return parsed
  } catch {
    return text
  }
}

/** Raises the failure of requirements R8.3 for a non-2xx answer or a 'failed'/'error' status. */
function failure(endpoint: Endpoint, response: Response, body: unknown): ApiError {
  const parsed = FailureBody.safeParse(body)
  const data = parsed.success ? parsed.data : {}
  // A refused token ends the session; the guard then sends the browser to /login.
  if (response.status === 401 && endpoint.access.kind !== 'public') clearToken()
  const message = data.message || (response.ok ? 'The request failed.' : `The request failed (HTTP ${response.status}).`)
  return new ApiError(response.ok ? 400 : response.status, message, data.errors ?? {}, body)
}

/**
 * When the answer is the step-up refusal (contract/common.ts): asks the admin to confirm it is
 * them (step-up.ts) and answers whether to send the call again; throws when they cancel, or when
 * the call was already repeated once.
 */
async function provedAfterRefusal(response: Response, body: unknown, repeated: boolean): Promise<boolean> {
  if (response.status !== 403) return false
  const refusal = StepUpRefusal.safeParse(body)
  if (!refusal.success) return false
  if (repeated) throw new ApiError(403, refusal.data.message)
  if (await askStepUp({ message: refusal.data.message, twoFactor: refusal.data.twoFactor, passkey: refusal.data.passkey })) return true
  throw new ApiError(403, STEP_UP_CANCELLED)
}

/**
 * Makes one call of the contract.
 * - GET sends `input` as a query string; POST as JSON, or as multipart when the endpoint has
 *   file fields or `files` are given (object and array fields are sent as JSON strings).
 * - Throws `ApiError` on any failure, `SecondFactorRequired` on a TWO_FA answer, `HeldForApproval`
 *   on a write kept for a second admin (202).
 * - Writes are refused at once while offline: they are never queued for later.
 * - A step-up refusal asks for the admin's password (and 2FA code) and repeats the call once;
 *   cancelling throws `STEP_UP_CANCELLED`.
 */
export async function call<E extends Endpoint>(
  endpoint: E,
  input: Input<E>,
  files?: Record<string, File[]>,
): Promise<Output<E>> {
  if (changesData(endpoint) && !isOnline()) throw new ApiError(0, WRITES_OFFLINE_MESSAGE)

  // The same schema the server applies: the user sees the required messages before a round trip.
  const checked = endpoint.input.safeParse(input)
  if (!checked.success) {
    const errors = fieldErrors(checked.error)
    throw new ApiError(400, Object.values(errors)[0] ?? 'Incorrect format', errors)
  }
  const payload = checked.data

  let repeated = false
  for (;;) {
    const answer = await callOnce(endpoint, payload, files)
    if (!answer.forbidden) return answer.output
    if (!(await provedAfterRefusal(answer.response, answer.body, repeated))) throw failure(endpoint, answer.response, answer.body)
    repeated = true
  }
}

type Attempt<E extends Endpoint> = { forbidden: false; output: Output<E> } | { forbidden: true; response: Response; body: unknown }

/** Sends a checked payload once; a 403 comes back unthrown, for the step-up check (provedAfterRefusal). */
async function callOnce<E extends Endpoint>(endpoint: E, payload: unknown, files: Record<string, File[]> | undefined): Promise<Attempt<E>> {
  const requestHeaders = headers()
  const init: RequestInit = { method: endpoint.method, headers: requestHeaders }
  if (endpoint.method === 'POST') {
    if (endpoint.files || files) {
      const form = new FormData()
      for (const [key, value] of entriesOf(payload)) form.append(key, asField(value))
      for (const [key, list] of Object.entries(files ?? {})) for (const file of list) form.append(key, file, file.name)
      init.body = form // the browser sets the multipart boundary header itself
    } else {
      requestHeaders.set('Content-Type', 'application/json')
      init.body = JSON.stringify(payload ?? {})
    }
  }

  const output: E['output'] = endpoint.output
  const url = urlFor(endpoint, payload)
  if (endpoint.method === 'GET' && endpoint.answer !== 'csv') noteCall(url)
  const response = await send(endpoint, init, url)
  if (endpoint.answer === 'csv' && response.ok) return { forbidden: false, output: z.parse(output, await response.text()) }

  const body = await readJson(response)
  if (response.status === 403) return { forbidden: true, response, body }
  if (!response.ok) throw failure(endpoint, response, body)
  const second = SecondFactorBody.safeParse(body)
  if (second.success) throw new SecondFactorRequired(second.data.message)
  if (response.status === 202) {
    const held = HeldAnswer.safeParse(body)
    if (held.success) throw new HeldForApproval(held.data.message)
  }
  const answer = z.safeParse(output, body)
  if (!answer.success) {
    const status = FailureBody.safeParse(body)
    if (status.success && (status.data.status === 'failed' || status.data.status === 'error')) {
      throw failure(endpoint, response, body)
    }
    console.error(`Unexpected answer from ${endpoint.path}`, answer.error.issues)
    throw new ApiError(response.status, 'The server sent an answer this app does not understand.')
  }
  return { forbidden: false, output: answer.data }
}

/** URL of an uploaded file (the server answers paths such as /uploads/<name>). */
export function assetUrl(path: string): string {
  if (!path) return ''
  if (/^(https?:|data:|blob:)/i.test(path)) return path
  return API_ORIGIN + (path.startsWith('/') ? path : `/${path}`)
}

/**
 * Saves a CSV endpoint's answer as a file (requirements R7.3: Download CSV saves user.csv). The download goes
 * through fetch because the Authorization header cannot ride on a plain link.
 */
export async function download<E extends Endpoint>(
  endpoint: E,
  filename: string,
  input?: Input<E>,
): Promise<void> {
  const payload = input === undefined ? {} : endpoint.input.parse(input)
  // A POST export carries its input as JSON (a selection of ids may not fit in a query string).
  const init = (): RequestInit => {
    if (endpoint.method === 'GET') return { method: 'GET', headers: headers() }
    const requestHeaders = headers()
    requestHeaders.set('Content-Type', 'application/json')
    return { method: 'POST', headers: requestHeaders, body: JSON.stringify(payload) }
  }
  let response = await send(endpoint, init(), urlFor(endpoint, payload))
  for (let repeated = false; !response.ok; repeated = true) {
    const body = await readJson(response)
    if (!(await provedAfterRefusal(response, body, repeated))) throw failure(endpoint, response, body)
    response = await send(endpoint, init(), urlFor(endpoint, payload))
  }
  const blob = await response.blob()
  const href = URL.createObjectURL(blob)
  const anchor = document.createElement('a')
  anchor.href = href
  anchor.download = filename
  anchor.rel = 'noopener'
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  // Revoking at once can cancel the save in some browsers; a short delay is enough.
  setTimeout(() => URL.revokeObjectURL(href), 10_000)
}
