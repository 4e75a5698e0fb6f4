/**
 * `--only=trash`: a delete of a promotion with 1,000,000 deliveries, and its undo, through the API
 * on one engine. The deliveries are seeded by one INSERT ... SELECT generate_series, then the real
 * server starts in a child process and the bench:
 *   - deletes the promotion (DeletePromotion) and undoes it (undo), timing each call;
 *   - reads the server's RSS before and its peak during each call (growth: what the call cost in
 *     memory; the undo trash used to be built in the server, about 330 MB for the deliveries alone);
 *   - reads the longest event-loop stall inside the server during each call (bench/server.ts's
 *     monitorEventLoopDelay, on only for the bench: BENCH_LOOP_DELAY=1);
 *   - meanwhile asks /healthz (no database) and listNotification (a database read) in turn, each
 *     every 20 ms, and counts the answers and the worst answer time: other staff's calls go on.
 * After the server stops, it checks every delivery is back and the trash is empty.
 */
import { request } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { z } from 'zod'
import type { Engine } from './engines.ts'
import { bearer, f1, login, printRows, startServer, watchPeak, type ServerChild } from './lib.ts'

/** Targets: the server's RSS growth during the delete or the undo, and its longest event-loop stall. */
export const TRASH_GROWTH_TARGET_MIB = 100
export const TRASH_STALL_TARGET_MS = 200
export const PROBE_EVERY_MS = 20

export interface Probe {
  answered: number
  worstMs: number
}

export interface Operation {
  seconds: number
  rssBeforeMiB: number
  rssGrowthMiB: number
  /** The longest event-loop delay the server saw during the call. */
  stallMs: number
  healthz: Probe
  read: Probe
}

export interface TrashResult {
  engine: Engine['engine']
  version: string
  deliveries: number
  seedSeconds: number
  delete: Operation
  undo: Operation
  /** Deliveries back after the undo, and rows left in the trash. */
  restored: number
  trashLeft: number
}

const Count = z.object({ rows: z.array(z.object({ n: z.coerce.number() })) })

/** Asks `url` every PROBE_EVERY_MS (one at a time) until `stop` says so. */
async function probe(url: string, headers: Record<string, string>, stop: () => boolean): Promise<Probe> {
  const out: Probe = { answered: 0, worstMs: 0 }
  while (!stop()) {
    const t0 = performance.now()
    const res = await fetch(url, { headers })
    await res.arrayBuffer()
    const took = performance.now() - t0
    if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`)
    out.answered++
    out.worstMs = Math.max(out.worstMs, took)
    await sleep(Math.max(0, PROBE_EVERY_MS - took))
  }
  return out
}

/** Asks the server child for its longest event-loop delay since the last ask (bench/server.ts). */
function loopDelay(server: ServerChild): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not report its event-loop delay (BENCH_LOOP_DELAY)')), 10_000)
    server.child.once('message', (msg: unknown) => {
      clearTimeout(timer)
      resolve(z.object({ loopMaxMs: z.number() }).parse(msg).loopMaxMs)
    })
    server.child.send({ loop: 'read' })
  })
}

/** Times `call` on the server: seconds, RSS growth, the longest event-loop stall, and the probes' answers meanwhile. */
export async function measure(server: ServerChild, token: string, call: () => Promise<void>): Promise<Operation> {
  const api = `${server.base}/api/admin`
  await loopDelay(server)
  let done = false
  const stop = () => done
  const probes = Promise.all([probe(`${server.base}/healthz`, {}, stop), probe(`${api}/listNotification?page=1&limit=10`, { authorization: bearer(token) }, stop)])
  const t0 = performance.now()
  const watched = await watchPeak(server.pid, call).finally(() => {
    done = true
  })
  const seconds = (performance.now() - t0) / 1000
  const [healthz, read] = await probes
  return { seconds, rssBeforeMiB: watched.rssBeforeMiB, rssGrowthMiB: watched.peakRssMiB - watched.rssBeforeMiB, stallMs: await loopDelay(server), healthz, read }
}

/**
 * POSTs JSON and answers the parsed body. Not fetch: it gives up when the answer's headers take
 * over 300 s, and a big delete on a busy machine takes longer.
 */
export function post(url: string, token: string, body: unknown): Promise<Record<string, unknown>> {
  const payload = JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { authorization: bearer(token), 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('error', reject)
      res.on('end', () => {
        try {
          const answer = z.record(z.string(), z.unknown()).parse(JSON.parse(Buffer.concat(chunks).toString('utf8')))
          const status = res.statusCode ?? 0
          if (status !== 200 || answer['status'] !== 'success') throw new Error(`POST ${url}: HTTP ${status} ${JSON.stringify(answer).slice(0, 300)}`)
          resolve(answer)
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)))
        }
      })
    })
    req.on('error', reject)
    req.end(payload)
  })
}

export async function benchTrash(e: Engine, deliveries: number, log: (s: string) => void): Promise<TrashResult> {
  log(`${e.engine}: seeding a promotion with ${deliveries.toLocaleString('en')} deliveries in ${e.where}`)
  const t0 = performance.now()
  const id = await e.session(async (sql) => {
    const inserted = z.object({ rows: z.array(z.object({ id: z.string() })) }).parse(
      await sql.query(`insert into promotions (title, content, recipient_count, total, sent, status) values ('Bench sale', 'Deleted and undone by the bench', ${deliveries}, ${deliveries}, ${deliveries}, 'done') returning id`),
    )
    const promotion = inserted.rows[0]?.id
    if (promotion === undefined) throw new Error('no promotion')
    await sql.exec(`
      insert into promotion_deliveries (promotion_id, lead_id, round, status, attempts, sent_at, batch_id)
      select '${promotion}', gen_random_uuid()::text, 1, 'sent', 1, now() - i * interval '1 millisecond', 'batch-' || (i / 500)
      from generate_series(1, ${deliveries}) i`)
    await sql.exec('analyze promotion_deliveries')
    return promotion
  })
  const seedSeconds = (performance.now() - t0) / 1000
  const server = await startServer({ ...e.env, BENCH_LOOP_DELAY: '1' })
  let deleted: Operation
  let undone: Operation
  try {
    const token = await login(server.base)
    const api = `${server.base}/api/admin`
    let ticket = ''
    log(`${e.engine}: DeletePromotion`)
    deleted = await measure(server, token, async () => {
      const answer = await post(`${api}/DeletePromotion`, token, { id })
      ticket = z.object({ token: z.string() }).parse(answer['undo']).token
    })
    log(`${e.engine}: deleted in ${deleted.seconds.toFixed(1)} s; undo`)
    undone = await measure(server, token, async () => {
      await post(`${api}/undo`, token, { token: ticket })
    })
    log(`${e.engine}: undone in ${undone.seconds.toFixed(1)} s`)
  } finally {
    await server.stop()
  }
  const [restored, trashLeft] = await e.session(async (sql) => [
    Count.parse(await sql.query(`select count(*) as n from promotion_deliveries where promotion_id = '${id}'`)).rows[0]?.n ?? 0,
    Count.parse(await sql.query('select count(*) as n from trash_rows')).rows[0]?.n ?? 0,
  ])
  if (restored !== deliveries) throw new Error(`the undo brought back ${restored} of ${deliveries} deliveries`)
  return { engine: e.engine, version: e.version, deliveries, seedSeconds, delete: deleted, undo: undone, restored, trashLeft }
}

export function printTrash(results: readonly TrashResult[]): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\nDelete and undo of a promotion with ${first.deliveries.toLocaleString('en')} deliveries, through the API; probes every ${PROBE_EVERY_MS} ms meanwhile`)
  const rows: string[][] = []
  const probe = (p: Probe) => `${p.answered}, worst ${f1(p.worstMs)} ms`
  for (const r of results) {
    for (const [name, o] of [['delete', r.delete], ['undo', r.undo]] as const) {
      rows.push([r.version, name, o.seconds.toFixed(1), `${f1(o.rssGrowthMiB)} (from ${f1(o.rssBeforeMiB)})`, f1(o.stallMs), probe(o.healthz), probe(o.read)])
    }
    rows.push(['', 'after', `${r.restored.toLocaleString('en')} back`, `${r.trashLeft} left in trash_rows`, '', '', ''])
  }
  rows.push(['target', '', '', `< ${TRASH_GROWTH_TARGET_MIB}`, `< ${TRASH_STALL_TARGET_MS}`, 'answered', ''])
  printRows(['engine', 'call', 'seconds', 'RSS growth MiB', 'longest stall ms', '/healthz answers', 'listNotification answers'], rows)
}
