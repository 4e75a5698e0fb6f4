/**
 * `--only=promotions`: the promotion filter step and delivery, on one engine. A million leads are
 * seeded with countries and both providers (bench/seed.ts), then the real server starts in a child
 * process (its job queue included) and:
 *   - FilterOption (POST, 100 per page, as the Add Promotion screen asks) is timed for no filter,
 *     a provider, a country, country and provider, an email fragment, a broad email word ('gmail')
 *     and all three filters together: p50/p95 by nearest rank after warm-ups;
 *   - Submit (addNotification, select all with a country filter: 100,000 recipients) is timed, then
 *     the delivery by the default (database) transport until the promotion is done, by polling
 *     listNotification: seconds and recipients per second.
 */
import { z } from 'zod'
import { Promotion } from '../contract/promotions.ts'
import type { Engine } from './engines.ts'
import { bearer, latency, login, ms, printRows, startServer, type Latency } from './lib.ts'
import { COUNTRY_CODES, emailOf, seedLeads, type SeedReport } from './seed.ts'
import { COUNTRIES } from '../server/kit/rules/countries.ts'

const WARMUP = 2
/** The target: 100,000 delivered in under 20 s on PostgreSQL with the default transport. */
export const DELIVERY_TARGET_SECONDS = 20

const FILTERS = ['none', 'provider', 'country', 'country+provider', 'email', 'broad email', 'all three'] as const
type FilterName = (typeof FILTERS)[number]

export interface PromotionsResult {
  engine: Engine['engine']
  version: string
  leads: number
  seed: SeedReport
  filter: Record<FilterName, Latency & { avgMatches: number }>
  delivery: { recipients: number; submitSeconds: number; deliverSeconds: number; perSecond: number }
}

const nameOf = (code: string): string => COUNTRIES.find((c) => c.code === code)?.name ?? code

/** The filter's `data` of request i for a kind of filter (varied per request where it can be). */
function filterData(kind: FilterName, i: number, leads: number): Record<string, string> {
  const country = nameOf(COUNTRY_CODES[i % COUNTRY_CODES.length] ?? 'US')
  const provider = i % 2 === 0 ? 'ipfs' : 'web3auth'
  // The start of a lead's email up to a few digits, as someone would type it.
  const email = (() => {
    const full = emailOf(1 + ((i * 7919) % leads))
    return full.slice(0, full.search(/\d/) + 3)
  })()
  switch (kind) {
    case 'none':
      return {}
    case 'provider':
      return { provider }
    case 'country':
      return { country }
    case 'country+provider':
      return { country, provider }
    case 'email':
      return { email }
    case 'broad email':
      return { email: 'gmail' }
    case 'all three':
      return { email: 'gmail', provider, country }
  }
}

const Answer = z.object({ status: z.literal('success'), count: z.number() })

async function timePost(url: string, token: string, body: unknown): Promise<{ ms: number; count: number }> {
  const t0 = performance.now()
  const res = await fetch(url, { method: 'POST', headers: { authorization: bearer(token), 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const text = await res.text()
  const elapsed = performance.now() - t0
  if (!res.ok) throw new Error(`POST ${url}: HTTP ${res.status} ${text.slice(0, 300)}`)
  return { ms: elapsed, count: Answer.parse(JSON.parse(text)).count }
}

export async function benchPromotions(e: Engine, leads: number, requests: number, log: (s: string) => void): Promise<PromotionsResult> {
  log(`${e.engine}: seeding ${leads.toLocaleString('en')} leads with countries in ${e.where}`)
  const seed = await e.session((sql) => seedLeads(sql, leads))
  // Four eyes off (FOUR_EYES_THRESHOLD empty): the delivery is measured, not a second Admin's approval.
  const server = await startServer({ ...e.env, FOUR_EYES_THRESHOLD: '' })
  try {
    const token = await login(server.base)
    const api = `${server.base}/api/admin`

    log(`${e.engine}: FilterOption, ${FILTERS.length} kinds (${WARMUP} warm-up + ${requests} each)`)
    const filter = {} as Record<FilterName, Latency & { avgMatches: number }>
    for (const kind of FILTERS) {
      for (let i = 0; i < WARMUP; i++) await timePost(`${api}/FilterOption`, token, { page: 1, limit: 100, data: filterData(kind, requests + i, leads) })
      const samples: number[] = []
      let matches = 0
      for (let i = 0; i < requests; i++) {
        const { ms: took, count } = await timePost(`${api}/FilterOption`, token, { page: 1, limit: 100, data: filterData(kind, i, leads) })
        samples.push(took)
        matches += count
      }
      filter[kind] = { ...latency(samples), avgMatches: matches / requests }
    }

    // One country holds a tenth of the leads: 100,000 of a million.
    const country = nameOf(COUNTRY_CODES[2] ?? 'DE')
    log(`${e.engine}: Submit to every lead in ${country}, then deliver`)
    const form = new FormData()
    form.append('title', 'Bench promotion')
    form.append('content', 'Delivered by the bench')
    form.append('selectall', 'true')
    form.append('country', country)
    const t0 = performance.now()
    const res = await fetch(`${api}/addNotification`, { method: 'POST', headers: { authorization: bearer(token) }, body: form })
    const submitted = z.object({ status: z.literal('success'), _id: z.string(), total: z.number() }).parse(await res.json())
    const t1 = performance.now()
    const List = z.object({ result: z.array(Promotion) })
    let done: Promotion | undefined
    for (;;) {
      const list = List.parse(await (await fetch(`${api}/listNotification?page=1&limit=10`, { headers: { authorization: bearer(token) } })).json())
      done = list.result.find((p) => p._id === submitted._id && p.status === 'done')
      if (done !== undefined) break
      if (performance.now() - t1 > 600_000) throw new Error('the delivery did not finish within 10 minutes')
      await new Promise((r) => setTimeout(r, 100))
    }
    const t2 = performance.now()
    if (done.sent !== submitted.total) throw new Error(`delivered ${done.sent} of ${submitted.total}`)
    const deliverSeconds = (t2 - t1) / 1000
    return {
      engine: e.engine,
      version: e.version,
      leads,
      seed,
      filter,
      delivery: { recipients: submitted.total, submitSeconds: (t1 - t0) / 1000, deliverSeconds, perSecond: submitted.total / deliverSeconds },
    }
  } finally {
    await server.stop()
  }
}

export function printPromotions(results: readonly PromotionsResult[], requests: number): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\n${first.leads.toLocaleString('en')} leads, FilterOption limit 100, ${requests} requests per series, p50 / p95 ms`)
  printRows(
    ['engine', ...FILTERS],
    results.map((r) => [r.version, ...FILTERS.map((k) => ms(r.filter[k]))]),
  )
  console.log('\nPromotion delivery, database transport, select all in one country')
  const rows = results.map((r) => [
    r.version,
    r.delivery.recipients.toLocaleString('en'),
    r.delivery.submitSeconds.toFixed(2),
    r.delivery.deliverSeconds.toFixed(1),
    Math.round(r.delivery.perSecond).toLocaleString('en'),
  ])
  rows.push(['target (PostgreSQL)', '100,000', '', `< ${DELIVERY_TARGET_SECONDS}`, ''])
  printRows(['engine', 'recipients', 'Submit s', 'delivered in s', 'recipients/s'], rows)
}
