/**
 * The suppression list (the `suppressed_addresses` table): addresses no mass send may reach. Three
 * ways in, so the rule lives here where each can reach it: the mail provider's signed events and
 * an admin's manual entry (server/areas/suppression), and a permanent SMTP refusal at send time
 * (server/kit/ground/mail/mail.ts).
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { suppressedAddresses } from '../../db/schema.ts'

export type SuppressionReason = (typeof suppressedAddresses.reason.enumValues)[number]

/** An address as the list keeps it: trimmed and lower-cased, so a lead's email matches whatever its case. */
export const suppressionKey = (address: string): string => address.trim().toLowerCase()

/**
 * Suppresses an address; true when it was added, false when it was on the list already (its first
 * entry stays: the earliest reason and time are the ones staff need to see).
 */
export async function suppressAddress(db: Db, entry: { address: string; reason: SuppressionReason; source: string; createdBy?: string | null }): Promise<boolean> {
  const added = await db
    .insert(suppressedAddresses)
    .values({ address: suppressionKey(entry.address), reason: entry.reason, source: entry.source, createdBy: entry.createdBy ?? null })
    .onConflictDoNothing({ target: suppressedAddresses.address })
    .returning({ address: suppressedAddresses.address })
  return added.length > 0
}

/** Whether an address is suppressed. */
export async function isSuppressed(db: Db, address: string): Promise<boolean> {
  const [row] = await db
    .select({ found: sql<number>`1` })
    .from(suppressedAddresses)
    .where(sql`${suppressedAddresses.address} = ${suppressionKey(address)}`)
    .limit(1)
  return row !== undefined
}

/** An SMTP reply code of a failed send, from nodemailer's error (`responseCode`), or null. */
function replyCode(error: unknown): number | null {
  if (typeof error !== 'object' || error === null || !('responseCode' in error)) return null
  const code = error.responseCode
  return typeof code === 'number' ? code : null
}

/**
 * Whether a failed send was the receiving server's permanent refusal of the recipient: a 5xx reply
 * to RCPT TO (the mailbox does not exist, is disabled) or to the message itself (servers that check
 * recipients only after DATA). A 5xx to the sign-in (EAUTH) or to MAIL FROM is about our account
 * or sender, not the address, and a 4xx is temporary: neither suppresses.
 */
export function isPermanentRefusal(error: unknown): boolean {
  const code = replyCode(error)
  if (code === null || code < 500 || code > 599) return false
  const kind = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
  const command = typeof error === 'object' && error !== null && 'command' in error ? error.command : undefined
  if (kind === 'EENVELOPE') return command === 'RCPT TO'
  return kind === 'EMESSAGE' || command === 'DATA'
}
