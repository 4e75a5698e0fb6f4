import { z } from 'zod/mini'

/**
 * "Send later" for promotions and newsletters (ours): a send may name the time it starts, an
 * ISO 8601 instant with its offset (the browser turns the admin's local date and time into one).
 * Until then the send is listed as `scheduled`; it can be cancelled, or its time changed. At its
 * time the server freezes its audience, runs the forecast's rules and applies four eyes exactly
 * as a send made then would.
 */

/** How far ahead a send may be scheduled. */
export const SEND_LATER_MAX_DAYS = 366

export const SEND_AT_INVALID = 'Enter a valid date and time'
export const SEND_AT_PAST = 'This time has passed: choose a time in the future'
export const SEND_AT_TOO_FAR = `Choose a time within ${SEND_LATER_MAX_DAYS} days`
export const SEND_AT_REQUIRED = 'Choose the date and time to send it'
export const ALREADY_STARTED = 'This send has already started: it can no longer be changed'

/** An instant with its offset: 2026-05-01T09:30:00Z, 2026-05-01T11:30+02:00. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/

export const isInstant = (v: string): boolean => INSTANT.test(v) && !Number.isNaN(Date.parse(v))

/** The optional time of a send: '' (the default) sends now. Whether it is still ahead is the server's check. */
export const SendAt = z._default(z.string().check(z.trim(), z.refine((v) => v === '' || isInstant(v), SEND_AT_INVALID)), '')

/** A scheduled send's new time. */
export const NewSendAt = z.string({ error: SEND_AT_REQUIRED }).check(z.trim(), z.minLength(1, SEND_AT_REQUIRED), z.refine(isInstant, SEND_AT_INVALID))
