import { sql } from 'drizzle-orm'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXCLUSION_REASONS, type ExclusionReason } from '#contract/forecast'
import { restrictedCountries, suppressedAddresses } from '../db/schema.ts'
import { makeTestApp, type TestApp } from '../testing/test-app.ts'
import { firstReason, reasonOf, type AudienceRules } from './audience.ts'

describe('firstReason', () => {
  it('takes the first reason of the precedence: invalid-address, restricted-country, unsubscribed, suppressed, frequency-cap, duplicate', () => {
    expect(EXCLUSION_REASONS).toEqual(['invalid-address', 'restricted-country', 'unsubscribed', 'suppressed', 'frequency-cap', 'duplicate'])
    expect(firstReason(new Set())).toBeNull()
    expect(firstReason(new Set(['duplicate', 'suppressed']))).toBe('suppressed')
    expect(firstReason(new Set(['unsubscribed', 'restricted-country', 'duplicate']))).toBe('restricted-country')
    expect(firstReason(new Set(['suppressed', 'invalid-address']))).toBe('invalid-address')
    expect(firstReason(new Set(['frequency-cap', 'duplicate']))).toBe('frequency-cap')
  })
})

/** The SQL rules against the same precedence, on every combination of the facts they read. */
describe('reasonOf', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await makeTestApp()
    await t.handle.db.insert(restrictedCountries).values([
      { code: 'KP', country: 'North Korea', hide: false },
      { code: 'FR', country: 'France', hide: true },
    ])
  })
  afterAll(async () => await t.close())

  const combos = Array.from({ length: 16 }, (_, i) => ({ invalid: (i & 1) !== 0, restricted: (i & 2) !== 0, unsubscribed: (i & 4) !== 0, suppressed: (i & 8) !== 0, i }))

  async function judge(rules: AudienceRules): Promise<(string | null)[]> {
    const rows = combos.map((c) => {
      const email = c.invalid ? `Not An Address ${c.i}` : `Lead${c.i}@Example.com`
      return sql`(${email}::text, ${c.restricted ? 'KP' : c.i % 2 === 0 ? 'FR' : 'DE'}::text, ${!c.unsubscribed}::boolean)`
    })
    const facts = { email: sql`v.email`, country: sql`v.country`, subscribed: sql`v.subscribed` }
    const result = await t.handle.db.execute(sql`select ${reasonOf(facts, rules)} as why from (values ${sql.join(rows, sql`, `)}) as v(email, country, subscribed)`)
    return z.object({ rows: z.array(z.object({ why: z.string().nullable() })) }).parse(result).rows.map((r) => r.why)
  }

  it('gives each lead the first reason that applies, whichever rules are on', async () => {
    await t.handle.db.insert(suppressedAddresses).values(
      combos.filter((c) => c.suppressed).map((c) => ({ address: (c.invalid ? `Not An Address ${c.i}` : `Lead${c.i}@Example.com`).toLowerCase(), reason: 'manual' as const })),
    )
    for (const rules of [
      { countryRule: true, newsletter: true },
      { countryRule: false, newsletter: true },
      { countryRule: true, newsletter: false },
      { countryRule: false, newsletter: false },
    ]) {
      const expected = combos.map((c) => {
        const applies = new Set<ExclusionReason>()
        if (c.invalid) applies.add('invalid-address')
        if (c.restricted && rules.countryRule) applies.add('restricted-country')
        if (c.unsubscribed && rules.newsletter) applies.add('unsubscribed')
        if (c.suppressed) applies.add('suppressed')
        return firstReason(applies)
      })
      expect(await judge(rules), JSON.stringify(rules)).toEqual(expected)
    }
  })
})
