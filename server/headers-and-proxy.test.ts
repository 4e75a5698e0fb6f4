/**
 * TRUST_PROXY beyond all-or-nothing, and the security headers
 * (Permissions-Policy, a CSP whose styles allow no inline style element).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq } from 'drizzle-orm'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { PERMISSIONS_POLICY, trustProxyOption } from './app.ts'
import { loadConfig } from './config.ts'
import { auditLog, loginPairFailures } from './db/schema.ts'
import { ACCOUNT_LOCKED, LOGIN_FAILED } from './kit/ground/access/sign-in-answers.ts'
import { MAX_FAILURES } from './kit/ground/access/lockout.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from './testing/test-app.ts'

let dir: string
let t: TestApp
const PROXY = '10.0.0.1'
const CLIENT = '203.0.113.7'
const SPOOFED = '6.6.6.6'

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bo-proxy-'))
  t = await makeTestApp({ env: { TRUST_PROXY: '10.0.0.0/8' } })
})
afterAll(async () => {
  await t.close()
  await rm(dir, { recursive: true, force: true })
})

/** The address Fastify gives a request under a TRUST_PROXY value. */
async function ipUnder(trust: string, remoteAddress: string, forwarded?: string): Promise<string> {
  const app = Fastify({ trustProxy: trustProxyOption(loadConfig({ DATA_DIR: dir, TRUST_PROXY: trust }).trustProxy) })
  app.get('/ip', (request) => ({ ip: request.ip }))
  try {
    const res = await app.inject({ url: '/ip', remoteAddress, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } })
    return z.object({ ip: z.string() }).parse(res.json()).ip
  } finally {
    await app.close()
  }
}

describe('TRUST_PROXY', () => {
  // The client wrote a made-up X-Forwarded-For; the proxy appended the address it really saw.
  const forwarded = `${SPOOFED}, ${CLIENT}`

  it('with a hop count of 1, takes the address the proxy saw and ignores what the client wrote before it', async () => {
    expect(await ipUnder('1', PROXY, forwarded)).toBe(CLIENT)
    // Two proxies: the nearest appended the one before it.
    expect(await ipUnder('2', PROXY, `${forwarded}, 10.0.0.2`)).toBe(CLIENT)
    // What all-or-nothing gave: the spoofed address, or the proxy's for everyone.
    expect(await ipUnder('true', PROXY, forwarded)).toBe(SPOOFED)
    expect(await ipUnder('false', PROXY, forwarded)).toBe(PROXY)
  })

  it('with proxy addresses, believes the header only when a listed proxy sends it', async () => {
    expect(await ipUnder('10.0.0.0/8', PROXY, forwarded)).toBe(CLIENT)
    expect(await ipUnder('10.0.0.1, 10.0.0.2', PROXY, forwarded)).toBe(CLIENT)
    // A client reaching the server directly cannot claim another address.
    expect(await ipUnder('10.0.0.0/8', '198.51.100.9', SPOOFED)).toBe('198.51.100.9')
  })

  it('locks the real client behind the proxy however it spoofs the header, and audits its real address', async () => {
    const staff = await t.createAdmin()
    const login = (password: string, i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/login',
        payload: { email: staff.email, password, twoFACode: '' },
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': `198.18.0.${i}, ${CLIENT}` },
      })
    for (let i = 0; i < MAX_FAILURES; i++) expect(bodyOf(await login('Wrong@1234', i))['message']).toBe(LOGIN_FAILED)
    expect(bodyOf(await login(TEST_PASSWORD, 99))['message']).toBe(ACCOUNT_LOCKED)
    const [pair] = await t.handle.db.select().from(loginPairFailures).where(eq(loginPairFailures.email, staff.email))
    expect(pair?.address).toBe(CLIENT)
    const [lockout] = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.action, 'lockout'), eq(auditLog.detail, staff.email)))
    expect(lockout?.ip).toBe(CLIENT)
  })
})

describe('security headers', () => {
  it('send a Permissions-Policy that turns off what a back-office never uses, on every kind of answer', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/admin/get-profile', headers: await t.auth(t.superadmin) }),
      await t.app.inject({ method: 'GET', url: '/api/admin/get-profile' }),
      await t.app.inject({ method: 'GET', url: '/admin/users' }),
      await t.app.inject({ method: 'GET', url: '/uploads/missing.png' }),
    ]
    for (const res of answers) expect(res.headers['permissions-policy']).toBe(PERMISSIONS_POLICY)
    for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()']) expect(PERMISSIONS_POLICY).toContain(feature)
  })

  it("narrow style-src: no inline style attribute and no inline style element without the shell's nonce", async () => {
    const csp = String((await t.app.inject({ method: 'GET', url: '/api/admin/get-profile' })).headers['content-security-policy'])
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name = '', ...values]) => [name, values]))
    expect(directives.get('style-src')).toEqual(["'self'"])
    expect(directives.get('style-src-elem')).toEqual(["'self'"])
    expect(directives.get('style-src-attr')).toEqual(["'none'"])
    expect(directives.get('script-src')).toEqual(["'self'"])
  })
})
