/**
 * `--only=forecast`: the send forecast and "Select all N matching" on --rows leads (default
 * 1,000,000), on one engine. The leads are seeded with countries (bench/seed.ts); then, so that
 * every reason to leave a lead out has leads to count: Nigeria on the Restriction List (a tenth of
 * the leads) and Japan on it hidden, every 97th lead unsubscribed, 1,000 addresses suppressed,
 * and the frequency cap on (one message in 7 days) with 10,000 leads sent a promotion today.
 * The real server starts in a child process and the bench times, p50 / p95 after warm-ups:
 *   - forecastPromotion for every lead (select all, no filter) and for one country;
 *   - forecastNewsletter to all subscribers;
 *   - getuserCount, the one call "Select all N matching" costs on Leads (the selection is the
 *     list's search and filters, never ids), with the bytes its answer sends to the browser;
 *   - DownloadFile of the selection (one country, a tenth of the leads): the export, streamed.
 * The audience is counted on the server: each answer is a few counts, its size is printed too.
 */
import { z } from 'zod'
import type { Engine } from './engines.ts'
import { bearer, exportCsv, f1, latency, login, ms, printRows, startServer, type ExportResult, type Latency } from './lib.ts'
import { emailOf, seedLeads, type SeedReport } from './seed.ts'

const WARMUP = 2
/** Targets: the forecast of all leads at 1,000,000, p95; "Select all" under 1 s and 50 KB. */
export const FORECAST_P95_TARGET_MS = { pglite: 4000, postgres: 1000 } as const
export const SELECT_ALL_TARGET = { ms: 1000, bytes: 50 * 1024 } as const

const CALLS = ['promotion, every lead', 'promotion, one country', 'newsletter, all', 'select all matching (getuserCount)', 'select all matching, one country'] as const
type CallName = (typeof CALLS)[number]

export interface ForecastResult {
  engine: Engine['engine']
  version: string
  leads: number
  seed: SeedReport
  calls: Record<CallName, Latency & { bytes: number }>
  /** The promotion forecast of every lead, as answered: what the screen shows. */
  sample: { selected: number; recipients: number; excluded: { reason: string; count: number }[] }
  exportSelection: ExportResult
}

const Forecast = z.object({ selected: z.number(), recipients: z.number(), excluded: z.array(z.object({ reason: z.string(), count: z.number() })) })

async function timed(url: string, token: string, body?: unknown): Promise<{ ms: number; bytes: number; json: unknown }> {
  const t0 = performance.now()
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  const took = performance.now() - t0
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 300)}`)
  return { ms: took, bytes: Buffer.byteLength(text), json: JSON.parse(text) }
}

export async function benchForecast(e: Engine, leads: number, requests: number, log: (s: string) => void): Promise<ForecastResult> {
  log(`${e.engine}: seeding ${leads.toLocaleString('en')} leads, restrictions, unsubscribes, suppressions and sends under the cap in ${e.where}`)
  const seed = await e.session(async (sql) => {
    const report = await seedLeads(sql, leads)
    await sql.exec(`
      insert into restricted_countries (code, country, hide) values ('NG', 'Nigeria', false), ('JP', 'Japan', true) on conflict do nothing;
      update leads set unsubscribed_at = now() where id in (select id from leads order by created_at desc offset 5 limit ${Math.floor(leads / 97)});
      insert into site_settings (frequency_cap_on) select true where not exists (select 1 from site_settings);
      update site_settings set frequency_cap_on = true, frequency_cap_messages = 1, frequency_cap_days = 7, restricted_country_rule = true;`)
    const suppressed = Array.from({ length: 1000 }, (_, i) => `('${emailOf(1 + ((i * 997) % leads))}', 'bounce', 'bench')`)
    await sql.exec(`insert into suppressed_addresses (address, reason, source) values ${suppressed.join(',')} on conflict do nothing`)
    const promotion = z
      .object({ rows: z.array(z.object({ id: z.string() })) })
      .parse(await sql.query(`insert into promotions (title, content, recipient_count, total, sent, status) values ('Sent today', 'Counts toward the cap', 10000, 10000, 10000, 'done') returning id`)).rows[0]?.id
    await sql.exec(`
      insert into promotion_deliveries (promotion_id, lead_id, round, status, attempts, sent_at, batch_id)
      select '${promotion}', id, 1, 'sent', 1, now(), 'bench' from (select id from leads order by created_at limit 10000) l;
      analyze leads; analyze promotion_deliveries; analyze suppressed_addresses`)
    return report
  })
  const server = await startServer({ ...e.env, FOUR_EYES_THRESHOLD: '' })
  try {
    const token = await login(server.base)
    const api = `${server.base}/api/admin`
    const requestsOf: Record<CallName, () => Promise<{ ms: number; bytes: number; json: unknown }>> = {
      'promotion, every lead': () => timed(`${api}/forecastPromotion`, token, { selectall: true }),
      'promotion, one country': () => timed(`${api}/forecastPromotion`, token, { selectall: true, country: 'Germany' }),
      'newsletter, all': () => timed(`${api}/forecastNewsletter`, token, { all: true }),
      'select all matching (getuserCount)': () => timed(`${api}/getuserCount?search=`, token),
      'select all matching, one country': () => timed(`${api}/getuserCount?search=&country=Germany`, token),
    }
    const calls = {} as ForecastResult['calls']
    let sample: ForecastResult['sample'] | undefined
    for (const name of CALLS) {
      log(`${e.engine}: ${name} (${WARMUP} warm-up + ${requests})`)
      for (let i = 0; i < WARMUP; i++) await requestsOf[name]()
      const samples: number[] = []
      let bytes = 0
      for (let i = 0; i < requests; i++) {
        const answer = await requestsOf[name]()
        samples.push(answer.ms)
        bytes = Math.max(bytes, answer.bytes)
        if (name === 'promotion, every lead') sample = Forecast.parse(answer.json)
      }
      calls[name] = { ...latency(samples), bytes }
    }
    if (sample === undefined) throw new Error('no forecast answered')
    log(`${e.engine}: DownloadFile of one country's leads (the selection's export)`)
    const exportSelection = await exportCsv(`${api}/DownloadFile?search=&country=Germany`, token, server.pid)
    return { engine: e.engine, version: e.version, leads, seed, calls, sample, exportSelection }
  } finally {
    await server.stop()
  }
}

export function printForecast(results: readonly ForecastResult[], requests: number): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\nSend forecast and Select all on ${first.leads.toLocaleString('en')} leads, ${requests} requests per call, p50 / p95 ms (largest answer in bytes)`)
  const rows = results.map((r) => [r.version, ...CALLS.map((c) => `${ms(r.calls[c])} (${r.calls[c].bytes} B)`)])
  rows.push([`target p95`, `< ${FORECAST_P95_TARGET_MS.postgres} PostgreSQL, < ${FORECAST_P95_TARGET_MS.pglite} PGlite`, '', '', `< ${SELECT_ALL_TARGET.ms} ms, < ${SELECT_ALL_TARGET.bytes / 1024} KB`, ''])
  printRows(['engine', ...CALLS], rows)
  for (const r of results) {
    console.log(`  ${r.version}: every lead: ${r.sample.selected.toLocaleString('en')} selected, ${r.sample.recipients.toLocaleString('en')} would receive it; left out ${r.sample.excluded.map((x) => `${x.reason} ${x.count.toLocaleString('en')}`).join(', ')}`)
    const x = r.exportSelection
    console.log(`  ${r.version}: export of the selection: ${x.rows.toLocaleString('en')} rows in ${x.seconds.toFixed(1)} s (${Math.round(x.rowsPerSecond).toLocaleString('en')} rows/s), peak RSS ${f1(x.peakRssMiB)} MiB (from ${f1(x.rssBeforeMiB)})`)
  }
}
