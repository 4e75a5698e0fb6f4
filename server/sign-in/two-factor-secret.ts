/**
 * TOTP secrets at rest, and checking a code against an admin's stored secret.
 *
 * A secret is stored sealed: AES-256-GCM under a key derived from JWT_SECRET with HKDF-SHA256
 * (its own info label, so the key is unrelated to the token key and the OTP pepper), a random
 * 96-bit IV per value, and the admin's id as additional data, so a sealed value copied onto
 * another admin's row does not open. Stored form: `tsk1:` + base64url(iv | tag | ciphertext).
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
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import { and, eq, isNotNull, isNull, lt, not, like, or } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config.ts'
import type { Db } from '../db/index.ts'
import { admins, type AdminRow } from '../db/schema.ts'
import { verifyTotp } from './two-factor-code.ts'

const PREFIX = 'tsk1:'
const IV_BYTES = 12
const TAG_BYTES = 16
const HKDF_INFO = 'totp-secret-at-rest/v1'

const keys = new WeakMap<Uint8Array, Buffer>()
function keyOf(config: Config): Buffer {
  let key = keys.get(config.jwtSecret)
  if (key === undefined) {
    key = Buffer.from(hkdfSync('sha256', config.jwtSecret, new Uint8Array(0), HKDF_INFO, 32))
    keys.set(config.jwtSecret, key)
  }
  return key
}

const additionalData = (adminId: string): Buffer => Buffer.from(`admins.totp_secret\n${adminId}`)

export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX)

/** The stored form of an admin's TOTP secret. */
export function sealTotpSecret(config: Config, adminId: string, secret: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', keyOf(config), iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(additionalData(adminId))
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')
}

/**
 * The secret of a stored value and whether it was sealed, or null when it does not open (another
 * JWT_SECRET, another admin's value, or tampering: GCM checks all three).
 */
export function openTotpSecret(config: Config, adminId: string, stored: string): { secret: string; sealed: boolean } | null {
  if (!isSealed(stored)) return { secret: stored, sealed: false }
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url')
  if (raw.length <= IV_BYTES + TAG_BYTES) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(config), raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES })
    decipher.setAAD(additionalData(adminId))
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
    const secret = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
    return { secret, sealed: true }
  } catch {
    return null
  }
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
