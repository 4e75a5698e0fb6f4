/**
 * Per-address limits key an IPv6 client on its /64 (kit/ground/address-key.ts): a host handed a whole
 * network cannot walk through its addresses to get past /register's limit, the referral visit
 * limit or the sign-in lock of an (email, address) pair. IPv4 stays per address.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCOUNT_LOCKED, LOGIN_FAILED } from '../kit/ground/access/sign-in-answers.ts'
import { MAX_FAILURES } from '../kit/ground/access/lockout.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp, type TestApp } from './test-app.ts'
import { addressKey } from '../kit/ground/address-key.ts'
import { encodeReferral } from '../areas/brands/referral.ts'

let t: TestApp
beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})

const REGISTER_LIMIT = 10
const VISIT_LIMIT = 30
const uniqueEmail = (): string => `net-${randomBytes(4).toString('hex')}@example.com`
const register = (remoteAddress: string) => {
  const password = 'Request#2026'
  return t.app.inject({ method: 'POST', url: '/api/admin/register', payload: { name: 'Jo Net', email: uniqueEmail(), password, confirmPassword: password }, remoteAddress })
}
const visit = (remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/referral-visit',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ code: encodeReferral('no-such-brand', t.config.referralKey) }),
    remoteAddress,
  })
const login = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email, password, twoFACode: '' }, remoteAddress })

describe('addressKey', () => {
  it('keys IPv6 on its /64 however it is written, IPv4 and IPv4-mapped IPv6 on the address', () => {
    expect(addressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:0DB8:0001:0002:abcd:ef01:2345:6789')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'))
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7')
    expect(addressKey('::ffff:cb00:7107')).toBe('203.0.113.7')
    expect(addressKey('not an address')).toBe('not an address')
  })
})

describe('per-address limits over IPv6', () => {
  it('/register: two addresses of one /64 share the limit, another /64 has its own', async () => {
    for (let i = 1; i <= REGISTER_LIMIT; i++) expect((await register(`2001:db8:10:1::${i.toString(16)}`)).statusCode).toBe(200)
    const refused = await register('2001:db8:10:1:ffff:ffff:ffff:fffe')
    expect(refused.statusCode).toBe(429)
    expect(bodyOf(refused)).toMatchObject({ status: 'failed' })
    expect((await register('2001:db8:10:2::1')).statusCode).toBe(200)
  })

  it('/register: IPv4 stays per address, and an IPv4-mapped address is that IPv4 client', async () => {
    for (let i = 0; i < REGISTER_LIMIT; i++) expect((await register(i % 2 === 0 ? '198.51.100.20' : '::ffff:198.51.100.20')).statusCode).toBe(200)
    expect((await register('198.51.100.20')).statusCode).toBe(429)
    expect((await register('198.51.100.21')).statusCode).toBe(200)
  })

  it('the referral visit limit: one /64 shares it', async () => {
    for (let i = 1; i <= VISIT_LIMIT; i++) expect((await visit(`2001:db8:20:1:${i.toString(16)}::1`)).statusCode).toBe(200)
    expect((await visit('2001:db8:20:1::beef')).statusCode).toBe(429)
    expect((await visit('2001:db8:20:2::beef')).statusCode).toBe(200)
  })

  it('the sign-in lock of an (email, address) pair holds for the whole /64, not for another /64 or another IPv4 address', async () => {
    const staff = await t.createAdmin()
    for (let i = 1; i <= MAX_FAILURES; i++) expect(bodyOf(await login(staff.email, 'Wrong@1234', `2001:db8:30:1::${i}`))['message']).toBe(LOGIN_FAILED)
    expect(bodyOf(await login(staff.email, TEST_PASSWORD, '2001:db8:30:1:aaaa::9'))['message']).toBe(ACCOUNT_LOCKED)
    expect(bodyOf(await login(staff.email, TEST_PASSWORD, '2001:db8:30:2::1'))['status']).toBe('success')

    const other = await t.createAdmin()
    for (let i = 1; i <= MAX_FAILURES; i++) expect(bodyOf(await login(other.email, 'Wrong@1234', '198.51.100.30'))['message']).toBe(LOGIN_FAILED)
    expect(bodyOf(await login(other.email, TEST_PASSWORD, '198.51.100.30'))['message']).toBe(ACCOUNT_LOCKED)
    expect(bodyOf(await login(other.email, TEST_PASSWORD, '198.51.100.31'))['status']).toBe('success')
  })
})
