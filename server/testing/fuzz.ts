/**
 * The contract-wide fuzz: every endpoint the server serves x six kinds of
 * caller x FUZZ_RUNS (100) generated requests (fuzz-inputs.ts: valid-shaped ones from the
 * endpoint's own zod input, and hostile ones). Every answer must be below 500 (503 included: the
 * database is up), JSON in the `{ status, ... }` shape of requirements R7.1 (or the endpoint's CSV file), and a
 * caller the Access rule refuses must get exactly that refusal whatever the body says. No refused
 * call may change a table: triggers installed on this test's own database log every row written,
 * and the log is read after each refused answer; for a caller refused outright, every table's row
 * count and newest row version are also compared before and after the whole batch.
 *
 * One app serves each shard of callers (FUZZ_SHARDS, a test file each, run side by side); each
 * caller kind gets fresh fixtures. The seed is fixed (FUZZ_SEED overrides it) and printed with the counts; a failure
 * names the seed, the pair's seed and the request, so it replays (FUZZ_LOG_LEVEL=error adds the
 * server's own account of a 500). Endpoints without a handler yet are skipped, and counted once
 * they are served.
 */
import { eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Failure, Status } from '#contract/common'
import type { Access, Endpoint } from '#contract/define'
import { expectedAccess } from './access-expectation.ts'
import { loadAreas } from '../kit/request/areas.ts'
import { screens } from '#contract/routes'
import { API_PREFIX } from '../kit/ground/services.ts'
import { admins, type AdminRow } from '../db/schema.ts'
import { REFUSAL_EVENTS } from '../kit/ground/access/events.ts'
import { isServed, makeFixtures, samples, type Fixtures, type Payload } from './endpoint-samples.ts'
import { describeRequest, requestsFor, type FuzzRequest } from './fuzz-inputs.ts'
import { makeTestApp, testEngine, type TestApp } from './test-app.ts'

/** Every endpoint the areas declare (server/kit/request/areas.ts). */
const { endpoints } = (await loadAreas()).index

/** The fuzz's fixed seed; FUZZ_SEED replays another run, FUZZ_RUNS changes the examples per pair. */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_111)
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 100)

export type Caller = 'no token' | 'View Only' | 'subadmin with the route' | 'subadmin without the route' | 'Admin' | 'superadmin'
export const callers: readonly Caller[] = ['no token', 'View Only', 'subadmin with the route', 'subadmin without the route', 'Admin', 'superadmin']

/**
 * The callers in shards, one test file each (fuzz-<shard>.test.ts), so the fuzz spreads over the
 * test workers instead of holding one for most of the run. Together they are every caller, once
 * (fuzz-shards.test.ts checks it).
 */
export const FUZZ_SHARDS = {
  limited: ['no token', 'View Only', 'subadmin without the route'],
  'route-holder': ['subadmin with the route'],
  admin: ['Admin'],
  superadmin: ['superadmin'],
} as const satisfies Record<string, readonly Caller[]>
export type FuzzShard = keyof typeof FUZZ_SHARDS


/** A per-pair seed from the run's seed, so one pair replays without the others (FNV-1a). */
function pairSeed(caller: Caller, e: Endpoint): number {
  let h = 0x811c9dc5 ^ SEED
  for (const ch of `${caller}|${e.name}`) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 0x01000193)
  return h | 0
}

/** The menu screens a sub-admin can be given, to pick one that is not the endpoint's. */
const listScreens = screens.filter((s) => !('parent' in s) && s.path !== '/profile' && s.path !== '/resetpassword' && s.path !== '/dashboard').map((s) => s.path)

const Rows = z.object({ rows: z.array(z.record(z.string(), z.unknown())) })
const Change = z.object({ tbl: z.string(), op: z.string(), old: z.record(z.string(), z.unknown()).nullable(), new: z.record(z.string(), z.unknown()).nullable() })
type Change = z.output<typeof Change>

/** Tables whose rows note a token's use (session_tokens); the trigger log checks them row by row instead. */
const NOT_IN_SNAPSHOT = new Set(['fuzz_changes', 'session_tokens'])

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)
const without = (row: Record<string, unknown> | null, keys: readonly string[]): Record<string, unknown> => {
  const copy: Record<string, unknown> = { ...row }
  for (const k of keys) delete copy[k]
  return copy
}

/**
 * Tables that count refused attempts, by design: a refused sign-in, OTP
 * or 2FA guess must write here, or guessing would be free. A new table of this kind shows up as a
 * failure naming it; add it here with its reason.
 */
const ATTEMPT_COUNTERS = new Set(['login_failures', 'login_pair_failures', 'otp_guesses'])
/** Tables that background work of earlier successful calls updates (delivering, retrying, pacing); a new row in them still counts. */
const BACKGROUND = new Set(['mail_outbox', 'jobs'])

/**
 * Writes a refused call may make by design, and background work of earlier successful calls:
 * - the attempt counters above, and the audit rows of the failed attempt and a lockout it causes;
 * - otp_codes: a wrong guess spends an attempt, and the last one spends the code;
 * - session_tokens: a signed-in call notes the token's use; a revocation is not this;
 * - mail_outbox and jobs: updates and deletes of earlier mails and jobs; mail_pace: the send rate.
 */
function isBookkeeping(c: Change): boolean {
  if (c.op === 'UPDATE' && same(c.old, c.new)) return true
  if (ATTEMPT_COUNTERS.has(c.tbl) || c.tbl === 'mail_pace') return true
  if (BACKGROUND.has(c.tbl)) return c.op === 'UPDATE' || c.op === 'DELETE'
  switch (c.tbl) {
    case 'audit_log':
      return c.op === 'INSERT' && REFUSAL_EVENTS.has(String(c.new?.['action']))
    case 'otp_codes':
      return c.op === 'UPDATE' && same(without(c.old, ['attempts', 'used_at']), without(c.new, ['attempts', 'used_at']))
    case 'session_tokens':
      return c.op === 'DELETE' ? true : (c.new?.['revoked_at'] ?? null) === null
    default:
      return false
  }
}

/** A change for a failure's report: the columns an UPDATE changed, or the row. */
function describeChange(c: Change): string {
  if (c.op !== 'UPDATE' || c.old === null || c.new === null) return `${c.op} on ${c.tbl}: ${JSON.stringify(c.new ?? c.old).slice(0, 200)}`
  const after = c.new
  const columns = Object.keys(after).filter((k) => !same(c.old?.[k], after[k]))
  return `UPDATE on ${c.tbl} of ${columns.map((k) => `${k}: ${JSON.stringify(c.old?.[k]).slice(0, 60)} -> ${JSON.stringify(after[k]).slice(0, 60)}`).join(', ')}`
}

/** Everything the run counted, printed at the end. */
const tally = {
  pairs: 0,
  endpoints: new Set<string>(),
  requests: 0,
  byStatus: new Map<number, number>(),
  byKind: new Map<string, number>(),
  started: Date.now(),
}
const bump = <K>(m: Map<K, number>, k: K): void => {
  m.set(k, (m.get(k) ?? 0) + 1)
}

let address = 0
/** Each request from its own address: the per-address limits are not what this test is about. */
const nextAddress = (): string => `10.11.${Math.floor(++address / 250) % 250}.${address % 250}`

/** Sends one generated request the way a client would put it on the wire. */
async function fire(t: TestApp, e: Endpoint, headers: Record<string, string>, r: FuzzRequest): Promise<LightMyRequestResponse> {
  const url = `${API_PREFIX}${e.path}${r.query === undefined || r.query === '' ? '' : `?${r.query}`}`
  const remoteAddress = nextAddress()
  if (r.form !== undefined) {
    const form = new FormData()
    for (const [key, value] of r.form.fields) form.append(key, value)
    for (const f of r.form.files) form.append(f.field, new Blob([new Uint8Array(f.content)], { type: f.type }), f.name)
    const encoded = new Response(form)
    const type = encoded.headers.get('content-type') ?? 'multipart/form-data'
    return t.app.inject({ method: e.method, url, headers: { ...headers, 'content-type': type }, payload: Buffer.from(await encoded.arrayBuffer()), remoteAddress })
  }
  return t.app.inject({
    method: e.method,
    url,
    headers: { ...headers, ...(r.contentType === undefined ? {} : { 'content-type': r.contentType }) },
    ...(r.body === undefined ? {} : { payload: r.body }),
    remoteAddress,
  })
}

/** What is wrong with an answer, or null: the status, the JSON shape, or the file. */
function checkAnswer(e: Endpoint, res: LightMyRequestResponse, want: 401 | 403 | 'allowed'): { problem: string | null; refused: boolean } {
  if (res.statusCode >= 500) return { problem: `answered ${res.statusCode}: ${res.body.slice(0, 200)}`, refused: true }
  if (want !== 'allowed' && res.statusCode !== want) return { problem: `answered ${res.statusCode} where the Access rule refuses with ${want}`, refused: true }
  const type = String(res.headers['content-type'] ?? '')
  if (e.answer === 'csv' && res.statusCode === 200 && type.startsWith('text/csv')) return { problem: null, refused: false }
  let body: unknown
  try {
    body = JSON.parse(res.body)
  } catch {
    return { problem: `answered ${res.statusCode} with a body that is not JSON (${type}): ${res.body.slice(0, 120)}`, refused: res.statusCode >= 400 }
  }
  if (!type.startsWith('application/json')) return { problem: `answered ${res.statusCode} with content type ${type}`, refused: res.statusCode >= 400 }
  const status = z.object({ status: Status }).safeParse(body)
  if (!status.success) return { problem: `answered ${res.statusCode} without the status of requirements R7.1: ${res.body.slice(0, 120)}`, refused: res.statusCode >= 400 }
  const refused = res.statusCode >= 400 || status.data.status === 'failed' || status.data.status === 'error'
  if (refused && !Failure.safeParse(body).success) return { problem: `a refusal (${res.statusCode}) not in the required failed shape: ${res.body.slice(0, 120)}`, refused }
  return { problem: null, refused }
}

/** Describes the fuzz for one shard's callers, on an app of its own. */
export function describeFuzz(shard: FuzzShard): void {
  const group = FUZZ_SHARDS[shard]
  describe(`fuzz: served endpoints x ${group.length} callers (${group.join(', ')}) x ${RUNS} requests (seed ${SEED}, ${testEngine()})`, () => {
    fuzzCallers(group)
  })
}

function fuzzCallers(group: readonly Caller[]): void {
  let t: TestApp
  let tableNames: string[] = []

  beforeAll(async () => {
    // FUZZ_LOG_LEVEL=error shows the server's own account of a 500 while replaying one.
    // Undo windows outlast the run: a purge falling due during a refused call would look like its write.
    t = await makeTestApp({ env: { LOG_LEVEL: process.env['FUZZ_LOG_LEVEL'] ?? 'silent', UNDO_SECONDS: '3600' } })
    tableNames = Rows.parse(await t.handle.db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`)).rows.map((r) => String(r['tablename']))
    // The change log: a row per row written to any table, read (and emptied) after refused calls.
    await t.handle.db.execute(sql.raw('create table fuzz_changes (id bigserial primary key, tbl text not null, op text not null, old jsonb, new jsonb)'))
    await t.handle.db.execute(
      sql.raw(`create function fuzz_log() returns trigger language plpgsql as $$ begin
        insert into fuzz_changes (tbl, op, old, new) values (TG_TABLE_NAME, TG_OP,
          case when TG_OP in ('UPDATE', 'DELETE') then to_jsonb(OLD) end, case when TG_OP in ('INSERT', 'UPDATE') then to_jsonb(NEW) end);
        return null; end $$`),
    )
    for (const name of tableNames) {
      await t.handle.db.execute(sql.raw(`create trigger fuzz_rows after insert or update or delete on "${name}" for each row execute function fuzz_log()`))
      await t.handle.db.execute(sql.raw(`create trigger fuzz_truncate after truncate on "${name}" for each statement execute function fuzz_log()`))
    }
  })
  afterAll(async () => {
    await t.close()
  })

  const drain = async (): Promise<Change[]> => Rows.parse(await t.handle.db.execute(sql.raw('delete from fuzz_changes returning tbl, op, old, new'))).rows.map((r) => Change.parse(r))

  /** Waits for background mail and due jobs of earlier successful calls, so their writes are not blamed on the next call. */
  async function settle(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const [row] = Rows.parse(
        await t.handle.db.execute(
          sql.raw(`select (select count(*) from mail_outbox where status = 'pending' and next_attempt_at <= now())::int
            + (select count(*) from jobs where failed_at is null and run_at <= now())::int as n`),
        ),
      ).rows
      if (Number(row?.['n'] ?? 0) === 0) return
      await new Promise((r) => setTimeout(r, 10))
    }
  }

  /**
   * Every table's row count and newest row version (`xmin`, the transaction that wrote the row):
   * an insert or update writes a new version, a delete lowers the count. One query for all tables,
   * and cheap however long the stored strings grow (the authz matrix hashes every row instead).
   */
  async function snapshot(): Promise<Record<string, string>> {
    const parts = tableNames.filter((n) => !NOT_IN_SNAPSHOT.has(n)).map((n) => `select '${n}' as t, count(*)::int as n, coalesce(max(xmin::text::bigint), 0)::text as v from "${n}"`)
    const out: Record<string, string> = {}
    for (const row of Rows.parse(await t.handle.db.execute(sql.raw(parts.join(' union all ')))).rows) out[String(row['t'])] = `${String(row['n'])}:${String(row['v'])}`
    return out
  }

  // One app for the whole run (a PGlite start costs seconds); each caller kind gets fresh fixtures,
  // so an earlier caller's deletes do not keep a later one's samples from reaching the handlers.
  for (const caller of group) {
    describe(caller, () => {
      let fixtures: Fixtures
      const byRoute = new Map<string, AdminRow>()
      let own: AdminRow | null = null

      beforeAll(async () => {
        fixtures = await makeFixtures(t)
        if (caller === 'View Only') own = await t.createAdmin({ accessLevel: 'View Only', restrictions: [] })
        if (caller === 'Admin') own = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
        if (caller === 'superadmin') own = t.superadmin
      })

      /** A fresh token for each pair: a fuzzed Logout or session change must not spoil the next pair. */
      async function headersFor(access: Access): Promise<Record<string, string>> {
        let admin = own
        if (caller === 'no token') return {}
        if (caller === 'subadmin with the route' || caller === 'subadmin without the route') {
          const route = access.kind === 'screen' ? access.route : '/users'
          const held = caller === 'subadmin with the route' ? route : (listScreens.find((p) => p !== route && !route.startsWith(`${p}/`)) ?? '/users')
          admin = byRoute.get(held) ?? (await t.createAdmin({ accessLevel: 'Admin', restrictions: [held] }))
          byRoute.set(held, admin)
        }
        if (admin === null) throw new Error(`no admin for ${caller}`)
        const [row] = await t.handle.db.select().from(admins).where(eq(admins.id, admin.id))
        if (row === undefined) throw new Error(`${caller}'s admin is gone`)
        return { authorization: `Bearer ${await t.tokenFor(row)}` }
      }

      for (const e of endpoints) {
        it(`${e.method} ${e.path}`, async (ctx) => {
          if (!isServed(t, e)) return ctx.skip(`${e.name} has no handler yet`)
          const want = expectedAccess(e.access, caller)
          const sample: Payload | undefined = samples[e.name]?.(fixtures)
          const requests = fc.sample(requestsFor(e, sample), { seed: pairSeed(caller, e), numRuns: RUNS })
          const headers = await headersFor(e.access)
          await settle()
          await drain()
          // A caller the Access rule refuses: every answer is that refusal, so the log is read once
          // at the end, beside the snapshot; otherwise after each refused answer, to name the request.
          const refusedOutright = want !== 'allowed'
          const before = refusedOutright ? await snapshot() : null
          const problems: string[] = []
          for (const [index, request] of requests.entries()) {
            const res = await fire(t, e, headers, request)
            tally.requests += 1
            bump(tally.byStatus, res.statusCode)
            bump(tally.byKind, request.kind)
            const { problem, refused } = checkAnswer(e, res, want)
            const where = `#${index} ${describeRequest(request)}`
            if (problem !== null) problems.push(`${problem}\n    ${where}`)
            if (refusedOutright) continue
            if (refused) {
              const changed = (await drain()).filter((c) => !isBookkeeping(c))
              for (const c of changed) problems.push(`refused (${res.statusCode}) yet ${describeChange(c)}\n    ${where}`)
            } else {
              await settle()
              await drain()
            }
          }
          if (before !== null) {
            for (const c of (await drain()).filter((c) => !isBookkeeping(c))) problems.push(`refused batch (${want}) yet ${describeChange(c)}`)
            expect(await snapshot(), 'a refused batch changed a table').toEqual(before)
          }
          tally.pairs += 1
          tally.endpoints.add(e.name)
          expect(problems, `seed ${SEED}, pair seed ${pairSeed(caller, e)}`).toEqual([])
        }, 120_000)
      }
    })
  }

  afterAll(() => {
    const served = tally.endpoints.size
    const seconds = ((Date.now() - tally.started) / 1000).toFixed(1)
    const statuses = [...tally.byStatus].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ')
    const kinds = [...tally.byKind].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}: ${n}`).join(', ')
    console.log(
      `fuzz (${testEngine()}, seed ${SEED}): ${served} endpoints x ${group.length} callers x ${RUNS} requests (${tally.pairs} pairs) = ${tally.requests} requests in ${seconds} s\n  answers: ${statuses}\n  variants: ${kinds}`,
    )
  })
}
