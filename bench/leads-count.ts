/**
 * `--only=counting`: a broad search's first page answered rows first, on --rows leads (default
 * 1,000,000), on one engine. Seeded as the leads section seeds (bench/seed.ts), then through the
 * real server over HTTP (limit 50, as the Leads page asks):
 *
 * - rows first: /api/admin/getuser?count=later for a broad term asked for the first time (each a
 *   mail domain written another way, so each is a new search of about an eighth of the leads:
 *   'gmail.com', '@gmail.com', 'outlook.com', ...), then at once /api/admin/getuserCount for it,
 *   as the PWA does: the rows' time, the count call's time, and both together (the count on screen);
 * - the same terms again (a repeat: the list answers the count it kept, in one call);
 * - as before, on new terms of the same breadth and shape ('gmail.co', '@gmail.co', ...): getuser
 *   with the count (count=now, the call of requirements R7.3).
 */
import { z } from 'zod'
import type { Engine } from './engines.ts'
import { bearer, latency, login, ms, printRows, startServer, timeGet, type Latency } from './lib.ts'
import { seedLeads, type SeedReport } from './seed.ts'

const LIMIT = 50
/** Targets for a new broad term's rows (the first page, before its count), p95 in ms. */
export const ROWS_FIRST_TARGETS = { postgres: 30, pglite: 100 } as const
/** The seed's mail domains (bench/seed.ts): each is an eighth of the leads. */
const DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'icloud.com', 'mail.ru', 'gmx.de', 'example.org'] as const
/**
 * Each domain written two ways for the rows-first series and two more of the same shape (one
 * letter shorter) for the count=now series: new searches of the same leads, with as many
 * trigrams to look up, so the two series count the same work.
 */
const ROWS_FIRST_TERMS = DOMAINS.flatMap((d) => [d, `@${d}`])
const COUNT_NOW_TERMS = DOMAINS.flatMap((d) => [d.slice(0, -1), `@${d.slice(0, -1)}`])
const WARMUP_TERMS = ['smith', 'olivia'] as const

export interface CountingResult {
  engine: Engine['engine']
  version: string
  rows: number
  seed: SeedReport
  /** Leads the first term matches. */
  matches: number
  terms: number
  rowsFirst: Latency
  countCall: Latency
  /** Rows call + count call: until the exact count is on screen. */
  countOnScreen: Latency
  /** How many rows-first answers already carried a count (none should, for a new broad term). */
  answeredWithCount: number
  repeat: Latency
  countNow: Latency
  /** "Select all N matching" over every lead, then exporting that selection (selectAll below). */
  selectAll: SelectAllResult
}

/**
 * Target for choosing every lead ("Select all N matching") and exporting the choice: under 1 s and
 * under 50 KB sent to the browser, since the choice is kept as the search and filters, never ids.
 */
export const SELECT_ALL_TARGET = { ms: 1000, kib: 50 } as const

export interface SelectAllResult {
  /** The list's first page (count later) and its count, as the page shows them before the box is ticked. */
  shown: Latency
  /** Bytes of those two answers, the largest seen: all the browser is sent to choose every lead. */
  bytes: number
  /** The export of the selection asked for, until its first bytes arrive (the file then streams). */
  exportStarts: Latency
  /** The export request's URL, in bytes: what the browser sends to name the selection. */
  requestBytes: number
}

const Answer = z.object({ count: z.number().nullable() })

async function getJson(url: string, token: string): Promise<{ ms: number; count: number | null; bytes: number }> {
  const t0 = performance.now()
  const res = await fetch(url, { headers: { authorization: bearer(token) } })
  const text = await res.text()
  const took = performance.now() - t0
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status} ${text.slice(0, 300)}`)
  return { ms: took, count: Answer.parse(JSON.parse(text)).count, bytes: Buffer.byteLength(text) }
}

/** Ms until the first bytes of a streamed answer; the rest is not read (the stream is cancelled). */
async function firstBytes(url: string, token: string): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(url, { headers: { authorization: bearer(token) } })
  if (!res.ok || res.body === null) throw new Error(`GET ${url}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`)
  const reader = res.body.getReader()
  const { done, value } = await reader.read()
  const took = performance.now() - t0
  await reader.cancel()
  if (done || value.byteLength === 0) throw new Error(`GET ${url}: an empty export`)
  return took
}

/**
 * "Select all N matching" over every lead, as the Leads page does it: the first page with its
 * count asked for later, then the count; ticking the box then sends nothing (the selection is the
 * list's search and filters). Then "Export the selection": the export with the same inputs, timed
 * to its first bytes. Each `requests` times; the first of each is the first ever asked.
 */
async function selectAll(api: string, token: string, requests: number): Promise<SelectAllResult> {
  const shown: number[] = []
  const starts: number[] = []
  let bytes = 0
  const exportUrl = `${api}/DownloadFile?search=`
  for (let i = 0; i < requests; i++) {
    const page = await getJson(`${api}/getuser?page=1&limit=${LIMIT}&search=&count=later`, token)
    const count = page.count === null ? await getJson(`${api}/getuserCount?search=`, token) : null
    shown.push(page.ms + (count?.ms ?? 0))
    bytes = Math.max(bytes, page.bytes + (count?.bytes ?? 0))
    starts.push(await firstBytes(exportUrl, token))
  }
  return { shown: latency(shown), bytes, exportStarts: latency(starts), requestBytes: Buffer.byteLength(new URL(exportUrl).pathname + new URL(exportUrl).search) }
}

export async function benchCounting(e: Engine, rows: number, requests: number, log: (s: string) => void): Promise<CountingResult> {
  log(`${e.engine}: counting: seeding ${rows.toLocaleString('en')} leads in ${e.where}`)
  const seed = await e.session((sql) => seedLeads(sql, rows))
  const server = await startServer(e.env)
  try {
    const token = await login(server.base)
    const api = `${server.base}/api/admin`
    const list = (term: string, count: 'now' | 'later') => `${api}/getuser?page=1&limit=${LIMIT}&search=${encodeURIComponent(term)}&count=${count}`
    const counted = (term: string) => `${api}/getuserCount?search=${encodeURIComponent(term)}`
    for (const term of WARMUP_TERMS) {
      await timeGet(list(term, 'later'), token)
      await timeGet(counted(term), token)
    }
    const terms = ROWS_FIRST_TERMS.slice(0, Math.min(requests, ROWS_FIRST_TERMS.length))
    log(`${e.engine}: counting: ${terms.length} new broad terms rows first, each then counted; again; then ${Math.min(requests, COUNT_NOW_TERMS.length)} with count=now`)
    const rowsFirst: number[] = []
    const countCall: number[] = []
    const onScreen: number[] = []
    let answeredWithCount = 0
    let matches = 0
    for (const term of terms) {
      const page = await getJson(list(term, 'later'), token)
      if (page.count !== null) answeredWithCount++
      const count = await getJson(counted(term), token)
      if (term === terms[0]) matches = count.count ?? 0
      rowsFirst.push(page.ms)
      countCall.push(count.ms)
      onScreen.push(page.ms + count.ms)
    }
    const repeat: number[] = []
    for (const term of terms) {
      const page = await getJson(list(term, 'later'), token)
      if (page.count === null) throw new Error(`a repeat of '${term}' came without its count`)
      repeat.push(page.ms)
    }
    const countNow: number[] = []
    for (const term of COUNT_NOW_TERMS.slice(0, requests)) countNow.push((await getJson(list(term, 'now'), token)).ms)
    log(`${e.engine}: counting: select all ${rows.toLocaleString('en')} leads and export the selection, ${requests} times`)
    const chosen = await selectAll(api, token, requests)
    return {
      engine: e.engine,
      version: e.version,
      rows,
      seed,
      matches,
      terms: terms.length,
      rowsFirst: latency(rowsFirst),
      countCall: latency(countCall),
      countOnScreen: latency(onScreen),
      answeredWithCount,
      repeat: latency(repeat),
      countNow: latency(countNow),
      selectAll: chosen,
    }
  } finally {
    await server.stop()
  }
}

export function printCounting(results: readonly CountingResult[]): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\nA new broad term's first page on ${first.rows.toLocaleString('en')} leads (about ${first.matches.toLocaleString('en')} match each), limit ${LIMIT}, p50 / p95 ms`)
  printRows(
    ['engine', `rows first (${first.terms} terms)`, 'target', 'count call', 'rows + count', 'repeat (count kept)', 'count=now (as before)', 'rows answered with a count'],
    results.map((r) => [
      r.version,
      ms(r.rowsFirst),
      `p95 < ${ROWS_FIRST_TARGETS[r.engine]} (${r.rowsFirst.p95 < ROWS_FIRST_TARGETS[r.engine] ? 'met' : 'not met'})`,
      ms(r.countCall),
      ms(r.countOnScreen),
      ms(r.repeat),
      ms(r.countNow),
      `${r.answeredWithCount} of ${r.terms}`,
    ]),
  )
  console.log(`\n"Select all ${first.rows.toLocaleString('en')} matching" and exporting the selection (p50 / p95 ms; target under ${SELECT_ALL_TARGET.ms} ms and ${SELECT_ALL_TARGET.kib} KB sent to the browser)`)
  printRows(
    ['engine', 'first page + count', 'bytes to the browser', 'export to its first bytes', 'selection sent', 'target'],
    results.map((r) => {
      const s = r.selectAll
      const met = s.shown.p95 < SELECT_ALL_TARGET.ms && s.exportStarts.p95 < SELECT_ALL_TARGET.ms && s.bytes < SELECT_ALL_TARGET.kib * 1024
      return [r.version, ms(s.shown), `${(s.bytes / 1024).toFixed(1)} KB`, ms(s.exportStarts), `${s.requestBytes} B`, met ? 'met' : 'not met']
    }),
  )
}
