/**
 * The brand referral code (contract/brands.ts, ReferralCode): the brand id encrypted with
 * AES-256-CBC in OpenSSL's "Salted__" format, key and IV derived from the passphrase by MD5
 * (EVP_BytesToKey, one round), base64. It is what `CryptoJS.AES.encrypt(id, passphrase)` and
 * `openssl enc -aes-256-cbc -md md5 -a` make, so codes from the platform's other clients decode
 * here and ours decode there.
 *
 * The passphrase is public by nature (the platform's clients hold it): a code names a brand, it
 * protects nothing. That is why the salt may be derived from the id: a brand keeps one code, so
 * the link an admin copied yesterday is the link View Brand shows today.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto'

const MAGIC = Buffer.from('Salted__', 'latin1')
const SALT_BYTES = 8
const KEY_BYTES = 32
const IV_BYTES = 16

/** OpenSSL's EVP_BytesToKey with MD5 and one iteration: D_i = MD5(D_{i-1} || pass || salt). */
function keyAndIv(passphrase: string, salt: Buffer): { key: Buffer; iv: Buffer } {
  const pass = Buffer.from(passphrase, 'utf8')
  const blocks: Buffer[] = []
  let previous = Buffer.alloc(0)
  while (blocks.reduce((n, b) => n + b.length, 0) < KEY_BYTES + IV_BYTES) {
    previous = createHash('md5').update(Buffer.concat([previous, pass, salt])).digest()
    blocks.push(previous)
  }
  const all = Buffer.concat(blocks)
  return { key: all.subarray(0, KEY_BYTES), iv: all.subarray(KEY_BYTES, KEY_BYTES + IV_BYTES) }
}

/** The salt a brand's code uses: fixed per id and passphrase, so its link never changes. */
const saltFor = (id: string, passphrase: string): Buffer => createHmac('sha256', passphrase).update(id).digest().subarray(0, SALT_BYTES)

/** The base64 code for `id`; `salt` (8 bytes) only to try other salts (tests). */
export function encodeReferral(id: string, passphrase: string, salt: Buffer = saltFor(id, passphrase)): string {
  if (salt.length !== SALT_BYTES) throw new Error(`the salt must be ${SALT_BYTES} bytes`)
  const { key, iv } = keyAndIv(passphrase, salt)
  const cipher = createCipheriv('aes-256-cbc', key, iv)
  const sealed = Buffer.concat([cipher.update(id, 'utf8'), cipher.final()])
  return Buffer.concat([MAGIC, salt, sealed]).toString('base64')
}

/**
 * The id a code carries, or null for anything that is not a code of this passphrase (garbled,
 * truncated, another key). Accepts the code as the link carries it too: still URL-encoded, with
 * '+' turned into a space by a form decoder, or wrapped over lines as `openssl -a` writes it.
 */
export function decodeReferral(code: string, passphrase: string): string | null {
  let text = code.trim()
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text)
    } catch {
      return null
    }
  }
  text = text.replace(/ /g, '+').replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return null
  const bytes = Buffer.from(text, 'base64')
  const body = bytes.subarray(MAGIC.length + SALT_BYTES)
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC) || body.length === 0 || body.length % IV_BYTES !== 0) return null
  const { key, iv } = keyAndIv(passphrase, bytes.subarray(MAGIC.length, MAGIC.length + SALT_BYTES))
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, iv)
    const id = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
    // A wrong key passes the padding check about once in 256 tries; what comes out is then noise.
    return /^[\x21-\x7e]{1,64}$/.test(id) ? id : null
  } catch {
    return null
  }
}
