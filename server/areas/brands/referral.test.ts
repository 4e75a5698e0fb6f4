import { execFileSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { decodeReferral, encodeReferral } from './referral.ts'

const KEY = 'referral-test-key'

/** `openssl enc` with the passphrase from the environment, so it never shows in a process list. */
function openssl(args: readonly string[], input: string): string {
  return execFileSync('openssl', ['enc', '-aes-256-cbc', '-md', 'md5', '-a', '-pass', 'env:REFERRAL_TEST_KEY', ...args], {
    input,
    env: { ...process.env, REFERRAL_TEST_KEY: KEY },
    stdio: ['pipe', 'pipe', 'ignore'],
  }).toString('utf8')
}

/** Codes of random salts until both a '/' and a '+' have been seen: the characters a URL path mangles. */
function codesWithSlashAndPlus(): { id: string; code: string }[] {
  const out: { id: string; code: string }[] = []
  for (let i = 0; i < 200 && !(out.some((c) => c.code.includes('/')) && out.some((c) => c.code.includes('+'))); i++) {
    const id = randomUUID()
    const code = encodeReferral(id, KEY, randomBytes(8))
    if (code.includes('/') || code.includes('+')) out.push({ id, code })
  }
  return out
}

describe('referral codes', () => {
  it('round-trips a brand id, and keeps one code per brand', () => {
    const id = randomUUID()
    const code = encodeReferral(id, KEY)
    expect(code.startsWith('U2FsdGVkX1')).toBe(true)
    expect(encodeReferral(id, KEY)).toBe(code)
    expect(decodeReferral(code, KEY)).toBe(id)
    expect(encodeReferral(randomUUID(), KEY)).not.toBe(code)
  })

  it('decodes codes that openssl enc -aes-256-cbc -md md5 -a made, wrapped or on one line, with / and + included', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 12; i++) {
      const id = randomUUID()
      const wrapped = openssl([], id)
      const single = openssl(['-A'], id).trim()
      for (const ch of single) if (ch === '/' || ch === '+') seen.add(ch)
      expect(decodeReferral(wrapped, KEY)).toBe(id)
      expect(decodeReferral(single, KEY)).toBe(id)
      // As the link carries it: URL-encoded into the path.
      expect(decodeReferral(encodeURIComponent(single), KEY)).toBe(id)
    }
    // 12 codes of 88 characters without either would be a one-in-10^20 event.
    expect([...seen].sort()).toEqual(['+', '/'])
  })

  it('makes codes that openssl enc -d decodes, / and + included', () => {
    const codes = codesWithSlashAndPlus()
    expect(codes.some((c) => c.code.includes('/'))).toBe(true)
    expect(codes.some((c) => c.code.includes('+'))).toBe(true)
    for (const { id, code } of codes.slice(0, 10)) expect(openssl(['-d', '-A'], code)).toBe(id)
    const id = randomUUID()
    expect(openssl(['-d', '-A'], encodeReferral(id, KEY))).toBe(id)
  })

  it('reads a code whose + became a space, or that is still URL-encoded', () => {
    const { id, code } = codesWithSlashAndPlus().find((c) => c.code.includes('+')) ?? { id: '', code: '' }
    expect(decodeReferral(code.replace(/\+/g, ' '), KEY)).toBe(id)
    expect(decodeReferral(encodeURIComponent(code), KEY)).toBe(id)
  })

  it('answers null for garbled, truncated or foreign codes, never throwing', () => {
    const id = randomUUID()
    const code = encodeReferral(id, KEY)
    const garbled = ['', 'hello', '%E0%A4%A', 'U2FsdGVkX1', code.slice(0, -8), `${code.slice(0, 40)}AAAA${code.slice(44)}`, Buffer.from('Salted__12345678').toString('base64'), 'not base64 !!!']
    for (const bad of garbled) expect(decodeReferral(bad, KEY), bad).toBeNull()
    expect(decodeReferral(code, 'another-key')).toBeNull()
  })
})
