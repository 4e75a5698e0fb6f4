/**
 * Sealing values at rest: AES-256-GCM under a key derived from JWT_SECRET with HKDF-SHA256, one
 * key per kind of value (its own HKDF info label, so it is unrelated to the token key, the OTP
 * pepper and every other kind), a random 96-bit IV per value, and additional data naming where
 * the value lives (e.g. the table, column and row id), so a sealed value copied onto another
 * row does not open. Stored form: `<prefix>` + base64url(iv | tag | ciphertext).
 *
 * Used for the TOTP secrets (server/kit/ground/access/two-factor-secret.ts) and the bodies of pending mail
 * (server/kit/ground/mail/mail.ts). A copy of the database alone (a backup, a read-only injection) then
 * yields neither. Consequence for operators: changing JWT_SECRET makes sealed values unreadable.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'
import type { Config } from '../../config.ts'

/** A kind of sealed value: its stored prefix and its key's HKDF label. */
export interface SealKind {
  prefix: string
  info: string
}

const IV_BYTES = 12
const TAG_BYTES = 16

const keys = new WeakMap<Uint8Array, Map<string, Buffer>>()
function keyOf(config: Config, kind: SealKind): Buffer {
  let byInfo = keys.get(config.jwtSecret)
  if (byInfo === undefined) {
    byInfo = new Map()
    keys.set(config.jwtSecret, byInfo)
  }
  let key = byInfo.get(kind.info)
  if (key === undefined) {
    key = Buffer.from(hkdfSync('sha256', config.jwtSecret, new Uint8Array(0), kind.info, 32))
    byInfo.set(kind.info, key)
  }
  return key
}

export const isSealedAs = (kind: SealKind, stored: string): boolean => stored.startsWith(kind.prefix)

/** The stored form of `plain`, bound to `context` (where it is stored). */
export function seal(config: Config, kind: SealKind, context: string, plain: string): string {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', keyOf(config, kind), iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(Buffer.from(context))
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return kind.prefix + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')
}

/**
 * The plain value of a sealed one, or null when it does not open: not of this kind, another
 * JWT_SECRET, another context, or tampering (GCM checks all of them).
 */
export function unseal(config: Config, kind: SealKind, context: string, stored: string): string | null {
  if (!isSealedAs(kind, stored)) return null
  const raw = Buffer.from(stored.slice(kind.prefix.length), 'base64url')
  if (raw.length < IV_BYTES + TAG_BYTES) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(config, kind), raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES })
    decipher.setAAD(Buffer.from(context))
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
