/**
 * "Send later" (contract/send-later.ts), shared by promotions and the newsletter. A send with a
 * time is stored with status `scheduled`, its time (`scheduled_at`) and what it goes to
 * (`audience`), together with a start job due at that time (server/kit/ground/queue.ts, `runAt`): the
 * queue's poll (JOB_POLL_MS, a second by default) starts it within moments of its time, on
 * whichever instance claims the job first.
 *
 * The job starts the send by claiming its row: one `update ... where status = 'scheduled' and
 * scheduled_at <= now() returning`, in the transaction that then freezes the audience and queues
 * the delivery (or, over the four-eyes threshold, leaves it awaiting approval). So the send starts
 * exactly once whatever runs the job: a second instance, a job run again after a crash (its
 * transaction rolled back, or committed and then the row is no longer scheduled). A new time adds
 * a new job; the earlier one finds the row not due (or no longer scheduled) and does nothing, as
 * does a cancelled send's.
 */
import { SEND_AT_PAST, SEND_AT_TOO_FAR, SEND_LATER_MAX_DAYS } from '#contract/send-later'
import type { Db } from '../../db/index.ts'
import { auditLog } from '../../db/schema.ts'
import { failure } from '../request/answers.ts'

/** How a send's time reads in a message: the UTC time, to the minute (the browser shows the admin's own beside it). */
export const utcWords = (at: Date): string => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`

/**
 * The time a send names, checked against now: null for '' (send now); a time that has passed, or
 * one too far ahead, is refused under `field`.
 */
export function sendAtOf(value: string, field = 'sendAt'): Date | null {
  if (value === '') return null
  const at = new Date(value)
  const now = Date.now()
  if (at.getTime() <= now) throw failure(SEND_AT_PAST, { [field]: SEND_AT_PAST })
  if (at.getTime() > now + SEND_LATER_MAX_DAYS * 24 * 3600 * 1000) throw failure(SEND_AT_TOO_FAR, { [field]: SEND_AT_TOO_FAR })
  return at
}

/**
 * The audit row of a scheduled send's start, written by the server in the start's transaction: in
 * the name of the admin who scheduled it, under the path of the call that did, as its record.
 */
export async function auditStart(db: Db, row: { adminId: string | null; action: string; recordId: string; detail: string }): Promise<void> {
  await db.insert(auditLog).values({ adminId: row.adminId, action: row.action, recordId: row.recordId, detail: `Scheduled send started by the server: ${row.detail}` })
}
