/**
 * Test mails: an admin's "send a test to me" of a template, a promotion or a newsletter. Each goes
 * to the signed-in admin's own address only, through the mail queue like any mail, in no send's
 * group (so no ledger, progress count or frequency cap ever sees it), and is audited by its call.
 */
import type { RateLimit } from '../../request/handlers.ts'

/** A test mail goes to the sender's own inbox; the limit keeps a stuck button from flooding it. */
export const testMailLimit: RateLimit = { max: () => 20, timeWindow: 15 * 60 * 1000 }

/** The answer of a test mail call: where it went. */
export const testMailSent = (email: string): string => `Test mail sent to ${email}`

/** The subject of a test mail: marked, so it is never mistaken for the real send. */
export const testSubject = (subject: string): string => `[Test] ${subject}`
