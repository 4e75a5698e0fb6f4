/**
 * `--only=register`: does /register's answer time tell which emails are known? On one engine, the
 * real server (production argon2 settings) answers four kinds of request, interleaved round by
 * round so a slow moment of the machine falls on each alike: a new email (a request stored and a
 * confirmation mail queued), the email of an unconfirmed request (replaced, mailed again), of a
 * confirmed request (kept: nothing written, no mail) and of an admin (nothing written, no mail).
 * Each request comes from its own address (X-Forwarded-For, with TRUST_PROXY), as a prober
 * spreading over a network would, so the per-address limit does not stop the series.
 */
import type { Engine } from './engines.ts'
import { ADMIN_EMAIL, f1, latency, printRows, startServer, type Latency } from './lib.ts'

/** Ours: the medians of the four kinds within this share of the fastest one. */
export const REGISTER_SPREAD_TARGET = 0.1
const WARMUP_ROUNDS = 3
const CASES = ['new email', 'unconfirmed request', 'confirmed request', 'admin'] as const
type Case = (typeof CASES)[number]

export interface RegisterResult {
  engine: Engine['engine']
  version: string
  rounds: number
  byCase: Record<Case, Latency>
  /** (slowest median - fastest median) / fastest median. */
  spread: number
}


export async function benchRegister(e: Engine, rounds: number, log: (s: string) => void): Promise<RegisterResult> {
  const tag = Date.now().toString(36)
  const confirmed = `confirmed-${tag}@bench.example`
  // Seeded before the server opens the database (PGlite has one connection).
  await e.session((sql) =>
    sql.exec(`insert into access_requests (name, email, confirmed_at) values ('Bench Confirmed', '${confirmed}', now())`),
  )
  const server = await startServer({ ...e.env, TRUST_PROXY: 'true' })
  try {
    let address = 0
    const register = async (email: string): Promise<number> => {
      address += 1
      const started = performance.now()
      const res = await fetch(`${server.base}/api/admin/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}` },
        body: JSON.stringify({ name: 'Bench Applicant', email }),
      })
      await res.text()
      const took = performance.now() - started
      if (res.status !== 200) throw new Error(`register answered ${res.status} for ${email}`)
      return took
    }
    const unconfirmed = `unconfirmed-${tag}@bench.example`
    await register(unconfirmed)
    let fresh = 0
    const emailOf: Record<Case, () => string> = {
      'new email': () => `new-${tag}-${++fresh}@bench.example`,
      'unconfirmed request': () => unconfirmed,
      'confirmed request': () => confirmed,
      admin: () => ADMIN_EMAIL,
    }
    const samples: Record<Case, number[]> = { 'new email': [], 'unconfirmed request': [], 'confirmed request': [], admin: [] }
    log(`${e.engine}: /register, ${WARMUP_ROUNDS} warm-up + ${rounds} rounds of the ${CASES.length} kinds, interleaved`)
    for (let round = 0; round < WARMUP_ROUNDS + rounds; round++) {
      for (const kind of CASES) {
        const took = await register(emailOf[kind]())
        if (round >= WARMUP_ROUNDS) samples[kind].push(took)
      }
    }
    const byCase = Object.fromEntries(CASES.map((kind) => [kind, latency(samples[kind])])) as Record<Case, Latency>
    const medians = CASES.map((kind) => byCase[kind].p50)
    const fastest = Math.min(...medians)
    return { engine: e.engine, version: e.version, rounds, byCase, spread: (Math.max(...medians) - fastest) / fastest }
  } finally {
    await server.stop()
  }
}

export function printRegister(results: readonly RegisterResult[]): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\n/register answer time by kind of email, ${first.rounds} rounds, p50 / p95 ms (production argon2 settings)`)
  const rows = results.map((r) => [r.version, ...CASES.map((kind) => `${f1(r.byCase[kind].p50)} / ${f1(r.byCase[kind].p95)}`), `${(r.spread * 100).toFixed(1)} %`])
  rows.push(['target (ours)', '', '', '', '', `< ${REGISTER_SPREAD_TARGET * 100} %`])
  printRows(['engine', ...CASES, 'spread of medians'], rows)
}
