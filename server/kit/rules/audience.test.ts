import { sql } from 'drizzle-orm'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXCLUSION_REASONS, type ExclusionReason } from '#contract/forecast'
import { leads, mailOutbox, newsletterRecipients, newsletterSends, promotionDeliveries, promotions, restrictedCountries, suppressedAddresses } from '../../db/schema.ts'
import { makeTestApp, type TestApp } from '../../testing/test-app.ts'
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

/**
 * The SQL rules against the same precedence, on every combination of the facts they read: the
 * frequency cap's count among them, read from the delivery ledgers as they stand.
 */
describe('reasonOf', () => {
  let t: TestApp
  const cap = { messages: 2, days: 7 }
  const combos = Array.from({ length: 32 }, (_, i) => ({
    invalid: (i & 1) !== 0,
    restricted: (i & 2) !== 0,
    unsubscribed: (i & 4) !== 0,
    suppressed: (i & 8) !== 0,
    capped: (i & 16) !== 0,
    i,
  }))
  const addressOf = (c: (typeof combos)[number]) => (c.invalid ? `Not An Address ${c.i}` : `Lead${c.i}@Example.com`)
  const leadId = (i: number) => `lead-${i}`
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000)

  beforeAll(async () => {
    t = await makeTestApp()
    const { db } = t.handle
    await db.insert(restrictedCountries).values([
      { code: 'KP', country: 'North Korea', hide: false },
      { code: 'FR', country: 'France', hide: true },
    ])
    await db.insert(suppressedAddresses).values(combos.filter((c) => c.suppressed).map((c) => ({ address: addressOf(c).toLowerCase(), reason: 'manual' as const })))
    await db.insert(leads).values(combos.map((c) => ({ id: leadId(c.i), name: `Lead ${c.i}`, email: addressOf(c) })))
    const [promotion] = await db.insert(promotions).values({ title: 'Earlier', content: 'Sent before', recipientCount: 32, total: 32 }).returning({ id: promotions.id })
    const [send] = await db.insert(newsletterSends).values({ subject: 'Earlier', content: 'Sent before', total: 32 }).returning({ id: newsletterSends.id })
    if (promotion === undefined || send === undefined) throw new Error('no ledger parents')
    // Every lead was sent one promotion yesterday. A capped lead was also mailed a newsletter two
    // days ago (2 of 2: the cap counts both ledgers together). Any other lead's newsletter went
    // out ten days ago (outside the window); it also has a failed delivery of a second round and a
    // newsletter mail still waiting in the queue: none of these counts.
    await db.insert(promotionDeliveries).values(combos.map((c) => ({ promotionId: promotion.id, leadId: leadId(c.i), round: 1, status: 'sent' as const, sentAt: daysAgo(1) })))
    await db.insert(promotionDeliveries).values(combos.filter((c) => !c.capped).map((c) => ({ promotionId: promotion.id, leadId: leadId(c.i), round: 2, status: 'failed' as const })))
    for (const c of combos) {
      const [mail] = await db.insert(mailOutbox).values({ to: addressOf(c), status: 'sent', sentAt: daysAgo(c.capped ? 2 : 10) }).returning({ id: mailOutbox.id })
      await db.insert(newsletterRecipients).values({ sendId: send.id, leadId: leadId(c.i), state: 'queued', mailId: mail?.id ?? null })
    }
    const [waiting] = await db.insert(newsletterSends).values({ subject: 'Waiting', content: 'Not sent yet', total: 16 }).returning({ id: newsletterSends.id })
    for (const c of combos.filter((x) => !x.capped)) {
      const [mail] = await db.insert(mailOutbox).values({ to: addressOf(c), status: 'pending' }).returning({ id: mailOutbox.id })
      await db.insert(newsletterRecipients).values({ sendId: waiting?.id ?? '', leadId: leadId(c.i), state: 'queued', mailId: mail?.id ?? null })
    }
  })
  afterAll(async () => await t.close())

  async function judge(rules: AudienceRules): Promise<(string | null)[]> {
    const rows = combos.map((c) => sql`(${c.i}::int, ${leadId(c.i)}::text, ${addressOf(c)}::text, ${c.restricted ? 'KP' : c.i % 2 === 0 ? 'FR' : 'DE'}::text, ${!c.unsubscribed}::boolean)`)
    const facts = { id: sql`v.id`, email: sql`v.email`, country: sql`v.country`, subscribed: sql`v.subscribed` }
    const result = await t.handle.db.execute(sql`select ${reasonOf(facts, rules)} as why from (values ${sql.join(rows, sql`, `)}) as v(i, id, email, country, subscribed) order by v.i`)
    return z.object({ rows: z.array(z.object({ why: z.string().nullable() })) }).parse(result).rows.map((r) => r.why)
  }

  it('gives each lead the first reason that applies, whichever rules are on', async () => {
    for (const countryRule of [true, false]) {
      for (const newsletter of [true, false]) {
        for (const capOn of [true, false]) {
          const rules = { countryRule, newsletter, cap: capOn ? cap : null }
          const expected = combos.map((c) => {
            const applies = new Set<ExclusionReason>()
            if (c.invalid) applies.add('invalid-address')
            if (c.restricted && countryRule) applies.add('restricted-country')
            if (c.unsubscribed && newsletter) applies.add('unsubscribed')
            if (c.suppressed) applies.add('suppressed')
            if (c.capped && capOn) applies.add('frequency-cap')
            return firstReason(applies)
          })
          expect(await judge(rules), JSON.stringify(rules)).toEqual(expected)
        }
      }
    }
  })

  it('counts the sends within the last days only: a longer window reaches the older newsletter', async () => {
    const whys = await judge({ countryRule: false, newsletter: false, cap: { messages: 2, days: 11 } })
    // Every valid, unsuppressed lead now has two sends in the window (yesterday's promotion and a
    // newsletter two or ten days ago), so each is capped.
    expect(whys.filter((w) => w === 'frequency-cap')).toHaveLength(combos.filter((c) => !c.invalid && !c.suppressed).length)
    // At three messages nobody is.
    expect(await judge({ countryRule: false, newsletter: false, cap: { messages: 3, days: 11 } })).not.toContain('frequency-cap')
  })
})
