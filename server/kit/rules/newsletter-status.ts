/**
 * Where a newsletter send stands, as SQL over `newsletter_sends`, for the two areas that ask: the
 * newsletter's list (its status filter) and the dashboard (the sends running). A send stored as
 * `sending` is done once none of its mails is left to go, even before the job marks it so (the
 * list shows it done then too), so "sending" is the stored state and something still waiting.
 */
import { and, eq, not, or, sql, type SQL } from 'drizzle-orm'
import type { SendStatus } from '#contract/newsletter'
import { mailOutbox, newsletterRecipients, newsletterSends } from '../../db/schema.ts'

/** The mail-queue group of a send's mails. */
export const newsletterGroupOf = (sendId: string): string => `newsletter:${sendId}`

/** The send has recipients not yet queued, or queued mails not yet handed over (both indexed). */
export const hasMailsToGo = (): SQL =>
  sql`(exists (select 1 from ${newsletterRecipients} where ${newsletterRecipients.sendId} = ${newsletterSends.id} and ${newsletterRecipients.state} = 'pending')
    or exists (select 1 from ${mailOutbox} where ${mailOutbox.group} = ('newsletter:' || ${newsletterSends.id}) and ${mailOutbox.status} in ('pending', 'paused')))`

/** The sends the list shows with `status`; undefined for any. */
export function sendStatusWhere(status: SendStatus | ''): SQL | undefined {
  if (status === '') return undefined
  if (status === 'sending') return and(eq(newsletterSends.status, 'sending'), hasMailsToGo())
  if (status === 'done') return or(eq(newsletterSends.status, 'done'), and(eq(newsletterSends.status, 'sending'), not(hasMailsToGo())))
  return eq(newsletterSends.status, status)
}
