import { z } from 'zod/mini'
import { Done, EMAIL_PATTERN, PageQuery, ok, pageOf, sortable } from './common.ts'
import { endpoint, nameEndpoints, publicAccess, reads, writes } from './define.ts'
import * as self from './suppression.ts'

/*
 * Suppressed addresses (ours): the addresses no mass send may reach, because a mail to them
 * bounced for good, its reader complained, or an admin entered it by hand. The mail provider
 * reports bounces and complaints to `mailEvents`; a permanent SMTP refusal at send time adds the
 * address too (server/kit/ground/suppression.ts). Staff see and change the list on its screen.
 */

export const SUPPRESSION_REASONS = ['bounce', 'complaint', 'manual'] as const
export const SuppressionReason = z.enum(SUPPRESSION_REASONS)
export type SuppressionReason = z.output<typeof SuppressionReason>

/** The provider's event kinds that suppress an address. */
export const MAIL_EVENT_TYPES = ['bounce', 'complaint'] as const

/** The header of the webhook's signature: `sha256=` and the hex HMAC-SHA256 of the raw body. */
export const MAIL_EVENTS_SIGNATURE_HEADER = 'X-Mail-Events-Signature'

/** An address as stored: trimmed and lower-cased, so one address is one entry whatever its case. */
export const SuppressedEmail = z
  .string({ error: 'Email is required' })
  .check(
    z.trim(),
    z.toLowerCase(),
    z.minLength(1, 'Email is required'),
    z.maxLength(254, 'Enter a valid email address'),
    z.regex(EMAIL_PATTERN, 'Enter a valid email address'),
  )

/** One entry; `_id` is the address (the row key the list's actions use). */
export const SuppressedAddress = z.object({
  _id: z.string(),
  address: z.string(),
  reason: SuppressionReason,
  /** Where it came from: the provider's event id, 'smtp' for a refusal at send time, or the admin's email. */
  source: z.string(),
  /** When it was suppressed (ISO 8601). */
  createdAt: z.string(),
})
export type SuppressedAddress = z.output<typeof SuppressedAddress>

const suppressionSort = sortable(['address', 'reason', 'createdAt', 'source'], { by: 'createdAt', order: 'desc' })

export const listSuppressedAddresses = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, suppressionSort.input),
  output: pageOf(SuppressedAddress),
  access: reads('/suppressed-addresses'),
  sort: suppressionSort,
  ours: `Not in the requirements: the suppressed addresses, newest first, paged and searched by address or source like every other list (result, count). ${suppressionSort.note}`,
})

export const addSuppressedAddress = endpoint({
  logAs: 'Address suppressed',
  method: 'POST',
  input: z.object({ address: SuppressedEmail }),
  output: Done,
  access: writes('/suppressed-addresses'),
  ours: 'Not in the requirements: suppresses an address by hand (reason manual, source the admin). An address suppressed already is refused.',
})

export const removeSuppressedAddress = endpoint({
  logAs: 'Address no longer suppressed',
  method: 'POST',
  input: z.object({ address: SuppressedEmail }),
  output: Done,
  access: writes('/suppressed-addresses'),
  ours: 'Not in the requirements: takes an address off the suppression list, so mass sends reach it again.',
})

/** One provider event: its id (unique per event, the same on a retry), its kind and the address. */
export const MailEvent = z.object({
  id: z.string({ error: 'id is required' }).check(z.trim(), z.minLength(1, 'id is required'), z.maxLength(200, 'id is too long')),
  type: z.enum(MAIL_EVENT_TYPES, { error: 'type must be bounce or complaint' }),
  email: SuppressedEmail,
  /** When the provider saw it (ISO 8601), for the record; the entry's time is its arrival. */
  occurredAt: z.optional(z.string().check(z.maxLength(64, 'occurredAt is too long'))),
})
export type MailEvent = z.output<typeof MailEvent>

export const mailEvents = endpoint({
  logAs: 'Mail provider event received',
  method: 'POST',
  path: '/mail-events',
  input: MailEvent,
  output: ok({ duplicate: z.boolean() }),
  access: publicAccess,
  signedBy: {
    header: MAIL_EVENTS_SIGNATURE_HEADER,
    pattern: '^sha256=[0-9a-f]{64}$',
    description: 'sha256= and the lower-case hex HMAC-SHA256 of the raw request body, keyed with MAIL_EVENTS_SECRET',
  },
  ours:
    'Not in the requirements: the mail provider reports a bounce or a complaint; the address is suppressed at once. ' +
    `Signed: header ${MAIL_EVENTS_SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256 of the raw body, keyed with MAIL_EVENTS_SECRET>; ` +
    '404 while MAIL_EVENTS_SECRET is unset, 401 for a missing or wrong signature (nothing changes), 400 for a malformed event. ' +
    'An event id seen before changes nothing and answers duplicate: true (docs/operations.md).',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
