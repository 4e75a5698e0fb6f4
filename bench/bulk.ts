/**
 * `--only=bulk`: bulk actions over every row of a big list, applied and undone through the API on
 * one engine, as the list's "Select all N matching" sends them (a search and filters, never ids).
 * 100,000 games (a seventeenth frozen already) and 100,000 open Contact Us enquiries are seeded
 * by INSERT ... SELECT generate_series, then the real server starts in a child process and, for
 * Freeze on Games, Mark Resolved on Contact Us and Delete on Games in turn, the bench:
 *   - previews the action (what will change, what is skipped) and checks the count;
 *   - applies it with the preview's token and waits for the job to end (getBulkRun), timing both
 *     together as "apply", with the server's RSS growth and longest event-loop stall, while
 *     /healthz and listNotification are asked every 20 ms (bench/trash.ts's probes);
 *   - undoes the whole run by its one ticket, measured the same way.
 * After the server stops it checks that every row is as the seed left it and the trash is empty.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { z } from 'zod'
import type { Engine } from './engines.ts'
import { bearer, f1, login, printRows, startServer, type ServerChild } from './lib.ts'
import { seedGames } from './seed.ts'
import { PROBE_EVERY_MS, measure, post, type Operation, type Probe } from './trash.ts'

/** Targets: apply and undo each under 30 s on PostgreSQL; RSS growth and stall as for the trash. */
export const BULK_SECONDS_TARGET = 30
export const BULK_GROWTH_TARGET_MIB = 100
export const BULK_STALL_TARGET_MS = 200

/** The actions measured, by their --bulk-actions word. */
export const BULK_ACTIONS = [
  { word: 'freeze', name: 'Freeze games', preview: 'previewGamesBulk', apply: 'applyGamesBulk', action: 'freeze' },
  { word: 'resolve', name: 'Resolve enquiries', preview: 'previewContactBulk', apply: 'applyContactBulk', action: 'resolve' },
  { word: 'delete', name: 'Delete games', preview: 'previewGamesBulk', apply: 'applyGamesBulk', action: 'delete' },
] as const
export type BulkActionWord = (typeof BULK_ACTIONS)[number]['word']

interface ActionResult {
  name: string
  changed: number
  skipped: number
  previewMs: number
  apply: Operation
  undo: Operation
}

export interface BulkResult {
  engine: Engine['engine']
  version: string
  rows: number
  seedSeconds: number
  actions: ActionResult[]
  /** After every undo: games frozen, games in all, enquiries resolved, rows left in the trash. */
  after: { frozen: number; games: number; resolved: number; trashLeft: number }
}

const Preview = z.object({ token: z.string(), change: z.object({ count: z.number() }), skipped: z.array(z.object({ count: z.number() })) })
const Run = z.object({ id: z.string(), state: z.string(), done: z.number(), total: z.number(), undo: z.nullable(z.object({ token: z.string() })) })
const Count = z.object({ rows: z.array(z.object({ n: z.coerce.number() })) })

/** Polls the run until it has ended; answers it. */
async function ended(server: ServerChild, token: string, id: string): Promise<z.output<typeof Run>> {
  for (;;) {
    const res = await fetch(`${server.base}/api/admin/getBulkRun?id=${id}`, { headers: { authorization: bearer(token) } })
    const run = Run.parse(z.object({ run: z.unknown() }).parse(await res.json()).run)
    if (run.state !== 'running' && run.state !== 'cancelling') return run
    await sleep(100)
  }
}

export async function benchBulk(e: Engine, rows: number, words: ReadonlySet<BulkActionWord>, log: (s: string) => void): Promise<BulkResult> {
  log(`${e.engine}: seeding ${rows.toLocaleString('en')} games and as many enquiries in ${e.where}`)
  const t0 = performance.now()
  const frozenBefore = await e.session(async (sql) => {
    await seedGames(sql, rows)
    await sql.exec(`
      insert into contact_enquiries (created_at, name, email, phonenumber, message, status)
      select now() - i * interval '1 minute', 'Enquirer ' || i, 'enquirer' || i || '@example.com', '+1 555 0100', 'Where is my deposit? ' || i, 'Open'
      from generate_series(1, ${rows}) i`)
    await sql.exec('analyze games; analyze contact_enquiries')
    return Count.parse(await sql.query('select count(*) as n from games where "freeze"')).rows[0]?.n ?? 0
  })
  const seedSeconds = (performance.now() - t0) / 1000
  const server = await startServer({ ...e.env, BENCH_LOOP_DELAY: '1' })
  const actions: ActionResult[] = []
  try {
    const token = await login(server.base)
    const api = `${server.base}/api/admin`
    for (const a of BULK_ACTIONS.filter((x) => words.has(x.word))) {
      const selection = { matching: { search: '', filters: {} } }
      const p0 = performance.now()
      const preview = Preview.parse(await post(`${api}/${a.preview}`, token, { action: a.action, selection }))
      const previewMs = performance.now() - p0
      log(`${e.engine}: ${a.name}: ${preview.change.count.toLocaleString('en')} to change, previewed in ${f1(previewMs)} ms; applying`)
      let ticket = ''
      const apply = await measure(server, token, async () => {
        const answer = await post(`${api}/${a.apply}`, token, { action: a.action, selection, token: preview.token })
        const run = await ended(server, token, Run.parse(answer['run']).id)
        if (run.state !== 'done' || run.done !== preview.change.count) throw new Error(`${a.name}: the run ended ${run.state} with ${run.done} of ${preview.change.count}`)
        ticket = run.undo?.token ?? ''
      })
      log(`${e.engine}: ${a.name}: applied in ${apply.seconds.toFixed(1)} s; undo`)
      const undo = await measure(server, token, async () => {
        await post(`${api}/undo`, token, { token: ticket })
      })
      log(`${e.engine}: ${a.name}: undone in ${undo.seconds.toFixed(1)} s`)
      actions.push({ name: a.name, changed: preview.change.count, skipped: preview.skipped.reduce((n, s) => n + s.count, 0), previewMs, apply, undo })
    }
  } finally {
    await server.stop()
  }
  const after = await e.session(async (sql) => {
    const n = async (query: string) => Count.parse(await sql.query(query)).rows[0]?.n ?? 0
    return {
      frozen: await n('select count(*) as n from games where "freeze"'),
      games: await n('select count(*) as n from games'),
      resolved: await n(`select count(*) as n from contact_enquiries where status = 'Resolved'`),
      trashLeft: await n('select count(*) as n from trash_rows'),
    }
  })
  if (after.frozen !== frozenBefore || after.games !== rows || after.resolved !== 0) {
    throw new Error(`after the undos: ${after.frozen} frozen (seeded ${frozenBefore}), ${after.games} games of ${rows}, ${after.resolved} enquiries still resolved`)
  }
  return { engine: e.engine, version: e.version, rows, seedSeconds, actions, after }
}

export function printBulk(results: readonly BulkResult[]): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\nBulk actions on every row matching (${first.rows.toLocaleString('en')} rows), applied as a job and undone in one call; probes every ${PROBE_EVERY_MS} ms meanwhile`)
  const probe = (p: Probe) => `${p.answered}, worst ${f1(p.worstMs)} ms`
  const rows: string[][] = []
  for (const r of results) {
    for (const a of r.actions) {
      for (const [step, o] of [['apply', a.apply], ['undo', a.undo]] as const) {
        rows.push([r.version, `${a.name}: ${step}`, step === 'apply' ? `${a.changed.toLocaleString('en')} (${a.skipped.toLocaleString('en')} skipped)` : '', o.seconds.toFixed(1), `${f1(o.rssGrowthMiB)} (from ${f1(o.rssBeforeMiB)})`, f1(o.stallMs), probe(o.healthz), probe(o.read)])
      }
    }
    rows.push(['', 'after the undos', `${r.after.games.toLocaleString('en')} games, ${r.after.frozen.toLocaleString('en')} frozen as seeded, ${r.after.resolved} resolved`, '', `${r.after.trashLeft} left in trash_rows`, '', '', ''])
  }
  rows.push(['target (PostgreSQL)', '', '', `< ${BULK_SECONDS_TARGET}`, `< ${BULK_GROWTH_TARGET_MIB}`, `< ${BULK_STALL_TARGET_MS}`, 'answered', ''])
  printRows(['engine', 'action', 'rows changed', 'seconds', 'RSS growth MiB', 'longest stall ms', '/healthz answers', 'listNotification answers'], rows)
}
