/**
 * TOTP secrets at rest, and checking a code against an admin's stored secret.
 *
 * A secret is stored sealed by server/kit/ground/seal.ts: AES-256-GCM under a key derived from JWT_SECRET
 * with HKDF-SHA256 (its own info label, so the key is unrelated to the token key and the OTP
 * pepper), a random 96-bit IV per value, and the admin's id as additional data, so a sealed value
 * copied onto another admin's row does not open. Stored form: `tsk1:` + base64url(iv | tag | ciphertext).
 * A copy of the database alone (a backup, a read-only injection) then yields no second factor.
 *
 * Consequence for operators: changing JWT_SECRET makes enrolled secrets unreadable; those admins'
 * codes are refused (fail closed, with a warning in the log) until 2FA is set up again.
 *
 * Plain secrets from before sealing are carried over in two ways. At start, `sealPlainTotpSecrets`
 * seals every plain row (this needs the key, which SQL migrations do not have). And a value without
 * the prefix is still read as plain, and sealed when a code is checked against it, because a row
 * can be written plain after start: by an older instance during a rolling upgrade, or by hand.
 * Base32 never contains `:` or lower case, so the prefix cannot be mistaken for a plain secret.
 */
import { and, eq, isNotNull, isNull, lt, not, like, or } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../../config.ts'
import type { Db } from '../../../db/index.ts'
import { admins, type AdminRow } from '../../../db/schema.ts'
import { isSealedAs, seal, unseal, type SealKind } from '../seal.ts'
import { verifyTotp } from './two-factor-code.ts'

const TOTP_SECRET: SealKind = { prefix: 'tsk1:', info: 'totp-secret-at-rest/v1' }
const PREFIX = TOTP_SECRET.prefix

const additionalData = (adminId: string): string => `admins.totp_secret\n${adminId}`

export const isSealed = (stored: string): boolean => isSealedAs(TOTP_SECRET, stored)

/** The stored form of an admin's TOTP secret. */
export function sealTotpSecret(config: Config, adminId: string, secret: string): string {
  return seal(config, TOTP_SECRET, additionalData(adminId), secret)
}

/**
 * The secret of a stored value and whether it was sealed, or null when it does not open (another
 * JWT_SECRET, another admin's value, or tampering: GCM checks all three).
 */
export function openTotpSecret(config: Config, adminId: string, stored: string): { secret: string; sealed: boolean } | null {
  if (!isSealed(stored)) return { secret: stored, sealed: false }
  const secret = unseal(config, TOTP_SECRET, additionalData(adminId), stored)
  return secret === null ? null : { secret, sealed: true }
}

/** Seals every plain TOTP secret (see the top of this file). Conditional, so a concurrent change wins. */
export async function sealPlainTotpSecrets(db: Db, config: Config): Promise<number> {
  const plain = await db
    .select({ id: admins.id, secret: admins.totpSecret })
    .from(admins)
    .where(and(isNotNull(admins.totpSecret), not(like(admins.totpSecret, `${PREFIX}%`))))
  let sealed = 0
  for (const row of plain) {
    if (row.secret === null) continue
    const done = await db
      .update(admins)
      .set({ totpSecret: sealTotpSecret(config, row.id, row.secret) })
      .where(and(eq(admins.id, row.id), eq(admins.totpSecret, row.secret)))
      .returning({ id: admins.id })
    sealed += done.length
  }
  return sealed
}

/** An admin's TOTP secret in clear, or null when there is none or it does not open (logged). */
export function readTotpSecret(config: Config, log: FastifyBaseLogger, admin: Pick<AdminRow, 'id' | 'totpSecret'>): string | null {
  if (admin.totpSecret === null) return null
  const opened = openTotpSecret(config, admin.id, admin.totpSecret)
  if (opened === null) log.warn({ adminId: admin.id }, 'a stored 2FA secret does not open with this JWT_SECRET; the admin must set up 2FA again')
  return opened?.secret ?? null
}

/**
 * Checks a code against an admin's enabled secret and, when it matches, claims its time step with
 * a conditional UPDATE, so of requests racing with one code only one passes and a code is never
 * good twice. Returns whether the code was accepted. A plain secret is sealed on the way.
 */
export async function acceptTotpCode(
  db: Db,
  config: Config,
  log: FastifyBaseLogger,
  admin: Pick<AdminRow, 'id' | 'totpSecret' | 'totpLastStep'>,
  code: string,
): Promise<boolean> {
  const secret = readTotpSecret(config, log, admin)
  if (secret === null) return false
  if (admin.totpSecret !== null && !isSealed(admin.totpSecret)) {
    await db
      .update(admins)
      .set({ totpSecret: sealTotpSecret(config, admin.id, secret) })
      .where(and(eq(admins.id, admin.id), eq(admins.totpSecret, admin.totpSecret)))
  }
  const step = verifyTotp(secret, code, admin.totpLastStep)
  if (step === null) return false
  const taken = await db
    .update(admins)
    .set({ totpLastStep: step })
    .where(and(eq(admins.id, admin.id), or(isNull(admins.totpLastStep), lt(admins.totpLastStep, step))))
    .returning({ id: admins.id })
  return taken.length > 0
}
