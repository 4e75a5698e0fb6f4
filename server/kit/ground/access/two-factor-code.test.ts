import { describe, expect, it } from 'vitest'
import { base32Decode, base32Encode, newTotpSecret, totpCode, totpStep, totpUri, verifyTotp } from './two-factor-code.ts'

// RFC 6238 appendix B: SHA-1 with the ASCII secret "12345678901234567890"; codes are the last 6 of 8 digits.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'))

describe('TOTP', () => {
  it('matches the RFC 6238 test vectors', () => {
    const vectors: [number, string][] = [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
    ]
    for (const [seconds, code] of vectors) expect(totpCode(RFC_SECRET, totpStep(seconds * 1000))).toBe(code)
  })

  it('accepts one step of drift either way, not two', () => {
    const secret = newTotpSecret()
    const now = 1_700_000_000_000
    const step = totpStep(now)
    expect(verifyTotp(secret, totpCode(secret, step - 1), null, now)).toBe(step - 1)
    expect(verifyTotp(secret, totpCode(secret, step + 1), null, now)).toBe(step + 1)
    expect(verifyTotp(secret, totpCode(secret, step - 2), null, now)).toBeNull()
    expect(verifyTotp(secret, 'abcdef', null, now)).toBeNull()
  })

  it('refuses a code whose step was already used', () => {
    const secret = newTotpSecret()
    const now = 1_700_000_000_000
    const step = totpStep(now)
    const code = totpCode(secret, step)
    expect(verifyTotp(secret, code, step, now)).toBeNull()
    expect(verifyTotp(secret, code, step - 1, now)).toBe(step)
  })

  it('round-trips base32 and builds an otpauth URI', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253])
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes)
    expect(totpUri('ABC', 'a@b.co', 'Back Office')).toBe('otpauth://totp/Back%20Office%3Aa%40b.co?secret=ABC&issuer=Back+Office&algorithm=SHA1&digits=6&period=30')
  })
})
