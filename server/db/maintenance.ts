/**
 * What PostgreSQL's autovacuum does, for PGlite, which runs no background workers: tables that
 * took many inserts, updates or deletes are vacuumed and analysed with autovacuum's own default
 * thresholds. Without it, PGlite never marks pages all-visible, so every index-only scan (a deep
 * page's keys, server/kit/request/paging.ts) visits the heap row by row, and the planner's statistics go
 * stale. Runs at start (a bulk load left for the next start is taken before serving) and then
 * every `intervalMs`. PGlite serves one statement at a time, so a vacuum holds other requests
 * back while it runs; vacuum skips pages already all-visible, so after the first one it costs
 * what the table changed.
 *
 * While a big delete or undo moves rows into or out of the trash (a batch per transaction,
 * server/kit/request/undo.ts), it waits: the tables the move changes would be vacuumed again at every
 * interval, each time a scan of the whole table and its indexes that holds the only connection
 * (and so the event loop) for seconds. It runs once the move is done.
 *
 * PostgreSQL has its own autovacuum: this does nothing there.
 */
import { ne, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { z } from 'zod'
import type { DbHandle } from './index.ts'
import { trash } from './schema.ts'

/** autovacuum's defaults: vacuum after 1000 + 20% inserted, or 50 + 20% dead; analyse after 50 + 10% changed. */
const NEEDS_WORK = sql`
  select relname as "table",
         (n_ins_since_vacuum > 1000 + 0.2 * n_live_tup or n_dead_tup > 50 + 0.2 * n_live_tup) as "vacuum",
         (n_mod_since_analyze > 50 + 0.1 * n_live_tup) as "analyze"
    from pg_stat_user_tables
   where schemaname = current_schema()
     and (n_ins_since_vacuum > 1000 + 0.2 * n_live_tup or n_dead_tup > 50 + 0.2 * n_live_tup or n_mod_since_analyze > 50 + 0.1 * n_live_tup)
   order by relname`

const Work = z.object({ rows: z.array(z.object({ table: z.string(), vacuum: z.boolean(), analyze: z.boolean() })) })

/** Vacuums and analyses the tables past autovacuum's thresholds; returns what it did, by table. */
export async function maintainTables(handle: DbHandle): Promise<{ vacuumed: string[]; analysed: string[] }> {
  const done = { vacuumed: [] as string[], analysed: [] as string[] }
  if (handle.kind !== 'pglite') return done
  if ((await handle.db.$count(trash, ne(trash.state, 'kept'))) > 0) return done
  // Statistics reach pg_stat_user_tables at most once a second: the latest writes are flushed first.
  await handle.client.query('select pg_stat_force_next_flush()')
  const { rows } = Work.parse(await handle.db.execute(NEEDS_WORK))
  for (const row of rows) {
    // The name comes from the catalogue; quoted as an identifier all the same.
    const table = `"${row.table.replace(/"/g, '""')}"`
    if (row.vacuum) {
      await handle.client.exec(`VACUUM (ANALYZE) ${table}`)
      done.vacuumed.push(row.table)
    } else {
      await handle.client.exec(`ANALYZE ${table}`)
      done.analysed.push(row.table)
    }
  }
  return done
}

/** Runs `maintainTables` now and every `intervalMs` (0: at start only); returns the stop function. */
export async function scheduleMaintenance(handle: DbHandle, intervalMs: number, log: FastifyBaseLogger): Promise<() => void> {
  if (handle.kind !== 'pglite') return () => {}
  let running = false
  const run = async (): Promise<void> => {
    if (running) return
    running = true
    const started = performance.now()
    try {
      const done = await maintainTables(handle)
      if (done.vacuumed.length + done.analysed.length > 0) log.info({ ...done, ms: Math.round(performance.now() - started) }, 'vacuumed and analysed changed tables')
    } catch (error) {
      log.error({ err: error }, 'table maintenance failed')
    } finally {
      running = false
    }
  }
  await run()
  if (intervalMs === 0) return () => {}
  const timer = setInterval(() => void run(), intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
