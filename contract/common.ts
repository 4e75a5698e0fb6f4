import { z } from 'zod'

/** Spec section 5: "URL pattern: http(s) or www-prefixed hosts". */
export const URL_PATTERN = /^(https?:\/\/|www\.)[^\s/$.?#][^\s]*$/i
/** A standard email pattern (spec section 5, "must match an email pattern"). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/
/** Spec section 5: 6-18 characters with a digit, an upper-case letter, a lower-case letter and a special character. */
export const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[^A-Za-z0-9]).{6,18}$/

/** Opaque record id: a string to the client. */
export const Id = z.string().trim().min(1, 'id is required').max(64, 'Incorrect format')

/** A required text field with the spec's message. */
export const required = (message: string, max = 500) =>
  z.string({ error: message }).trim().min(1, message).max(max, 'Incorrect format')

/** A required URL with the spec's required and format messages. */
export const requiredUrl = (message: string, format = 'Incorrect format') =>
  required(message, 2000).regex(URL_PATTERN, format)

/** An optional URL: empty is fine, anything else must match the URL pattern. */
export const optionalUrl = z
  .string()
  .trim()
  .max(2000, 'Incorrect format')
  .refine((v) => v === '' || URL_PATTERN.test(v), 'Incorrect format')
  .default('')

/**
 * A whole number that may arrive as a string (query strings and multipart fields). An empty
 * field or null is "missing", not 0: plain coercion would turn both into 0 and hide the message.
 */
export const count = (message: string) =>
  z.preprocess(
    (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
    z.coerce.number({ error: message }).int(message).min(0, message).max(1_000_000, message),
  )

/** page, limit, search: every list call. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  search: z.string().trim().max(200).default(''),
})
export type PageQuery = z.output<typeof PageQuery>

/** The answer statuses the spec names. */
export const Status = z.enum(['success', 'failed', 'error', 'TWO_FA'])

/** `{ status: 'success', message }` plus the call's own fields. */
export const ok = <S extends z.ZodRawShape>(shape: S) =>
  z.object({ status: z.literal('success'), message: z.string(), ...shape })

/** A plain success answer. */
export const Done = ok({})

/** A page of records in the spec's `result` + `count` shape. */
export const pageOf = <T extends z.ZodType>(item: T) => ok({ result: z.array(item), count: z.number().int() })

/** Per-field messages, keyed by the payload's field names. */
export const FieldErrors = z.record(z.string(), z.string())
export type FieldErrors = z.output<typeof FieldErrors>

/** Every refused or failed call: spec section 8. */
export const Failure = z.object({
  status: z.enum(['failed', 'error']),
  message: z.string(),
  errors: FieldErrors.optional(),
})
export type Failure = z.output<typeof Failure>

/** Login and create-user may ask for a second factor instead of succeeding. */
export const TwoFactorNeeded = z.object({ status: z.literal('TWO_FA'), message: z.string() })

/** Turns zod issues into the spec's `errors` object: the first message per top-level field. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form')
    out[key] ??= issue.message
  }
  return out
}

/**
 * Concurrent edits (issue 11): a record an edit form saves carries its edit `version`, which
 * every save of that form raises by one. The form sends back the version it loaded; a save
 * naming an older one is refused with RECORD_CHANGED (HTTP 409, under the `version` field)
 * instead of silently overwriting the other admin's change. Absent, nothing is checked, so the
 * spec's payloads stay valid as they are. Form fields arrive as text: '' counts as absent.
 */
export const RECORD_CHANGED = 'This record was changed by someone else. Reload to see the latest version.'

/** The edit version in a record (ours; every record an edit form saves has it). */
export const RecordVersion = z.number().int()

/** The version an edit sends back (ours, optional). */
export const ExpectedVersion = z.preprocess(
  (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  z.coerce.number({ error: 'Incorrect format' }).int('Incorrect format').min(0, 'Incorrect format').max(2_147_483_647, 'Incorrect format').optional(),
)
