import { z } from 'zod/mini'
import { outwardLinks } from './outward-links.ts'

/** Requirements R5.1: an http or https address, or a host starting with www. */
export const URL_PATTERN = /^(https?:\/\/|www\.)[^\s/$.?#][^\s]*$/i
/** A standard email pattern (requirements R5.2). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/
/** Requirements R5.2: 6-18 characters with a digit, an upper-case letter, a lower-case letter and a special character. */
export const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[^A-Za-z0-9]).{6,18}$/

/**
 * Requirements R9.7: the sign-in providers a lead comes from, which are also the brand types. The
 * database's enum (server/db/schema.ts) must list the same values.
 */
export const providers = ['web3auth', 'ipfs'] as const
export type ProviderName = (typeof providers)[number]

/**
 * The PWA reports activity at most this often, and the server's idle grace allows for it: both
 * sides read this one value so the grace can never fall shorter than the reports' spacing.
 */
export const ACTIVITY_REPORT_MS = 60_000

/** "1 minute", "1,200 recipients": a count, its thousands grouped, with its noun, plural unless the count is one. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** Opaque record id: a string to the client. */
export const Id = z.string().check(z.trim(), z.minLength(1, 'id is required'), z.maxLength(64, 'Incorrect format'))

/** A required text field with its required message (requirements R5). */
export const required = (message: string, max = 500) =>
  z.string({ error: message }).check(z.trim(), z.minLength(1, message), z.maxLength(max, 'Incorrect format'))

/**
 * A required URL with its required and format messages (requirements R5.1, R5.5). Every URL field
 * is a link users follow, so both URL kinds register as outward links (outward-links.ts).
 */
export const requiredUrl = (message: string, format = 'Incorrect format') =>
  required(message, 2000).check(z.regex(URL_PATTERN, format)).register(outwardLinks, { outward: true })

/** Optional free text: trimmed, at most `max` characters ('Incorrect format' beyond), '' when absent. */
export const optionalText = (max: number) => z._default(z.string().check(z.trim(), z.maxLength(max, 'Incorrect format')), '')

/** An optional URL: empty is fine, anything else must match the URL pattern. */
export const optionalUrl = z._default(
  z.string().check(
    z.trim(),
    z.maxLength(2000, 'Incorrect format'),
    z.refine((v) => v === '' || URL_PATTERN.test(v), 'Incorrect format'),
  ),
  '',
).register(outwardLinks, { outward: true })

/** A whole number (JSON numbers in answers). */
export const integer = () => z.number().check(z.int())

/** A whole number of 0 or more (counts in answers). */
export const natural = () => z.number().check(z.int(), z.nonnegative())

/**
 * A whole number from `min` to `max` that may arrive as text (query strings), `fallback` when
 * absent: the page and limit of a list call. zod's own messages.
 */
export const pageNumber = (min: number, max: number, fallback: number) =>
  z._default(z.coerce.number().check(z.int(), z.gte(min), z.lte(max)), fallback)

/**
 * A whole number from `min` to `max` that may arrive as text, every failure with `message`
 * (classic zod's `z.coerce.number({ error }).int(m).min(min, m).max(max, m)`).
 */
export const boundedInt = (message: string, min: number, max: number) =>
  z.coerce.number({ error: message }).check(z.int(message), z.gte(min, message), z.lte(max, message))

/**
 * zod's preprocess: `fn` runs on the raw value, `schema` checks what it returns. zod/mini has no
 * `z.preprocess`; this is the same pipe (a transform into the schema), typed as classic zod types
 * it: the key is optional in an object's input and output exactly when it is in `schema`'s.
 */
export const preprocess = <B extends z.core.$ZodType>(fn: (value: unknown) => unknown, schema: B) =>
  z.pipe(z.transform(fn), schema) as unknown as z.ZodMiniType<z.output<B>, unknown, z.core.$ZodPreprocessInternals<B>>

/**
 * A whole number that may arrive as a string (query strings and multipart fields). An empty
 * field or null is "missing", not 0: plain coercion would turn both into 0 and hide the message.
 */
export const count = (message: string) => preprocess(blankIsMissing, boundedInt(message, 0, 1_000_000))

/** Form fields and query strings: null, '' and blanks are a missing value (see `count`). */
function blankIsMissing(v: unknown): unknown {
  return v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v
}

/** A real calendar day (YYYY-MM-DD: 2026-02-30 is refused), or '' for none. */
export const calendarDay = z._default(
  z.string().check(
    z.trim(),
    z.regex(/^(\d{4}-\d{2}-\d{2})?$/, 'Incorrect format'),
    z.refine((v) => v === '' || (!Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v)), 'Incorrect format'),
  ),
  '',
)

/** Whether `name` is a time zone this runtime knows (an IANA name such as Europe/Lisbon, or UTC). */
export function isTimeZone(name: string): boolean {
  try {
    return Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone !== ''
  } catch {
    return false
  }
}

/** An IANA time zone name, or '' for UTC. */
export const timeZone = z._default(
  z.string().check(
    z.trim(),
    z.maxLength(64, 'Unknown time zone'),
    z.refine((v) => v === '' || isTimeZone(v), 'Unknown time zone'),
  ),
  '',
)

/** The two directions of a sorted list. */
export const SORT_ORDERS = ['asc', 'desc'] as const
export type SortOrder = (typeof SORT_ORDERS)[number]

/**
 * The columns a list call sorts by, as data the PWA and the server share (the endpoint's `sort`,
 * and `input`, the call's `sortBy` and `sortOrder`). `initial` is the list's default order when it
 * is one of these columns, so the table shows its arrow before anyone clicks.
 */
export interface ListSort<C extends string = string> {
  columns: readonly C[]
  initial?: { by: C; order: SortOrder }
}

/**
 * A list's sortable columns (record field names) and the inputs that choose among them:
 * `sortBy`, one of the columns, and `sortOrder`, asc unless told. Both optional: absent, the list
 * keeps its own default order. An unknown column or order is refused with a message naming the
 * choices.
 *
 *     const leadSort = sortable(['createdAt', 'name', 'email'], { by: 'createdAt', order: 'desc' })
 *     export const getuser = endpoint({ input: z.extend(PageQuery, leadSort.input), sort: leadSort, ... })
 */
export function sortable<const C extends readonly [string, ...string[]]>(columns: C, initial?: { by: C[number]; order: SortOrder }) {
  return {
    columns,
    ...(initial === undefined ? {} : { initial }),
    /** For the endpoint's `ours`: the inputs this adds to a call of requirements R7. */
    note: `Optional sortBy (${columns.join(', ')}) and sortOrder (asc, desc) added.`,
    input: {
      sortBy: z.optional(z.enum(columns, { error: `sortBy must be one of: ${columns.join(', ')}` })),
      sortOrder: z.optional(z.enum(SORT_ORDERS, { error: 'sortOrder must be asc or desc' })),
    },
  }
}

/** page, limit, search: every list call. */
export const PageQuery = z.object({
  page: pageNumber(1, 1_000_000, 1),
  limit: pageNumber(1, 100, 10),
  search: z._default(z.string().check(z.trim(), z.maxLength(200)), ''),
})
export type PageQuery = z.output<typeof PageQuery>

/**
 * When a list call's count comes (ours): `now`, as when absent (the call of requirements R7, its URL as it
 * was), waits for the exact count; `later` answers the rows first, with `count: null` when
 * counting would take a while (a broad search on a million rows), and the list's count call
 * (getuserCount for getuser) answers it.
 */
export const CountLater = { count: z.optional(z.enum(['now', 'later'], { error: 'count must be now or later' })) }

/** For a list's `ours`: what CountLater adds to a call of requirements R7. */
export const COUNT_LATER_NOTE =
  "Optional input count (now, later) added: with later, count is null when it is not known yet (the rows come first, the list's count call answers it); it is still answered when known at once (no search or filter, a repeat of a counted search, a last page)."

/** The answer statuses the requirements name (R8.3, R8.4). */
export const Status = z.enum(['success', 'failed', 'error', 'TWO_FA'])

/** `{ status: 'success', message }` plus the call's own fields. */
export const ok = <S extends z.core.$ZodLooseShape>(shape: S) =>
  z.object({ status: z.literal('success'), message: z.string(), ...shape })

/** A list's count call's answer: the exact number of rows its list finds for the same search and filters. */
export const CountAnswer = ok({ count: natural() })

/** A plain success answer. */
export const Done = ok({})

/** A page of records in the `result` + `count` shape of the list calls (requirements R7.5). */
export const pageOf = <T extends z.core.SomeType>(item: T) => ok({ result: z.array(item), count: integer() })

/** Per-field messages, keyed by the payload's field names. */
export const FieldErrors = z.record(z.string(), z.string())
export type FieldErrors = z.output<typeof FieldErrors>

/** Every refused or failed call: requirements R8.1 to R8.3. */
export const Failure = z.object({
  status: z.enum(['failed', 'error']),
  message: z.string(),
  errors: z.optional(FieldErrors),
})
export type Failure = z.output<typeof Failure>

/**
 * The refusal of a `stepUp` endpoint (contract/define.ts) when the session has not proved its
 * owner recently: HTTP 403, the usual failure shape plus `code`, whether the proof needs a 2FA
 * code besides the password (`twoFactor`) and whether a passkey may prove it instead (`passkey`). The PWA answers it with the proof dialog and repeats
 * the call once (contract/auth.ts, proveIdentity).
 */
export const STEP_UP_REQUIRED = 'step-up-required'
export const STEP_UP_MESSAGE = 'Confirm it is you: enter your password to continue'
export const StepUpRefusal = z.object({
  status: z.literal('failed'),
  message: z.string(),
  code: z.literal(STEP_UP_REQUIRED),
  twoFactor: z.boolean(),
  /** The admin has a passkey, which proves it too (contract/passkeys.ts, provePasskey). */
  passkey: z.boolean(),
})
export type StepUpRefusal = z.output<typeof StepUpRefusal>

/** Login and create-user may ask for a second factor instead of succeeding. */
export const TwoFactorNeeded = z.object({ status: z.literal('TWO_FA'), message: z.string() })

/** Turns zod issues into the `errors` object (requirements R5.15, R8.2): the first message per top-level field. */
export function fieldErrors(error: z.core.$ZodError): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form')
    out[key] ??= issue.message
  }
  return out
}

/**
 * Concurrent edits: a record an edit form saves carries its edit `version`, which
 * every save of that form raises by one. The form sends back the version it loaded; a save
 * naming an older one is refused with RECORD_CHANGED (HTTP 409, under the `version` field)
 * instead of silently overwriting the other admin's change. Absent, nothing is checked, so the
 * payloads of requirements R7 stay valid as they are. Form fields arrive as text: '' counts as absent.
 */
export const RECORD_CHANGED = 'This record was changed by someone else. Reload to see the latest version.'

/** The edit version in a record (ours; every record an edit form saves has it). */
export const RecordVersion = integer()

/** The version an edit sends back (ours, optional). */
export const ExpectedVersion = preprocess(blankIsMissing, z.optional(boundedInt('Incorrect format', 0, 2_147_483_647)))
