/**
 * The leads tests' app: 120 leads, one a day from 1 January 2025 (`dayOf(i)`), so "newest first"
 * has one right order and a date range finds a known number. Half are at gmail.com and half at
 * proton.me (even and odd), every third is on ios and every fourth came from web3auth (the rest
 * ipfs): a combined filter finds a known share of them.
 */
import { leads } from '../db/schema.ts'
import { makeTestApp, type TestApp } from './test-app.ts'

const DAY = 24 * 3600 * 1000
/** Lead i's day: 1 January 2025 plus i days; tests date rows of their own with it too (-1, 500). */
export const dayOf = (i: number): Date => new Date(Date.UTC(2025, 0, 1) + i * DAY)

/** A fresh app holding the 120 leads, with a superadmin's session; the caller closes it. */
export async function openLeadsApp(): Promise<{ t: TestApp; admin: { authorization: string } }> {
  const t = await makeTestApp()
  const admin = await t.auth(t.superadmin)
  await t.handle.db.insert(leads).values(
    Array.from({ length: 120 }, (_, i) => ({
      createdAt: dayOf(i),
      name: `Lead ${String(i).padStart(3, '0')}`,
      email: `lead${i}@${i % 2 === 0 ? 'gmail.com' : 'proton.me'}`,
      operatingsystem: i % 3 === 0 ? 'ios' : 'Android',
      walletaddress: `0x${i.toString(16).padStart(40, 'a')}`,
      provider: i % 4 === 0 ? 'web3auth' : 'ipfs',
    })),
  )
  return { t, admin }
}
