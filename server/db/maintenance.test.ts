/**
 * PGlite's stand-in for autovacuum (server/db/maintenance.ts): after a bulk insert the table is
 * vacuumed (its pages become all-visible, so an index-only scan needs no heap fetch) and analysed;
 * an unchanged table is left alone, and none while rows move into or out of the trash; on
 * PostgreSQL it does nothing (autovacuum is there).
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { makeTestApp, type TestApp } from '../testing/test-app.ts'
import { trash } from './schema.ts'
import { maintainTables } from './maintenance.ts'

let t: TestApp
beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})

const visibility = async (): Promise<{ pages: number; visible: number }> => {
  const result = await t.handle.db.execute(sql`select relpages as pages, relallvisible as visible from pg_class where relname = 'leads'`)
  return z.object({ rows: z.array(z.object({ pages: z.coerce.number(), visible: z.coerce.number() })) }).parse(result).rows[0] ?? { pages: 0, visible: 0 }
}

describe('table maintenance', () => {
  it('on PGlite, vacuums a table after a bulk insert, then leaves it alone until it changes again; on PostgreSQL, leaves it to autovacuum', async () => {
    await maintainTables(t.handle)
    await t.handle.db.execute(sql`insert into leads (name, email) select 'Bulk ' || g, 'bulk' || g || '@example.com' from generate_series(1, 5000) g`)
    const done = await maintainTables(t.handle)
    if (t.handle.kind === 'pg') {
      expect(done).toEqual({ vacuumed: [], analysed: [] })
      return
    }
    expect(done.vacuumed).toContain('leads')
    const after = await visibility()
    expect(after.pages).toBeGreaterThan(0)
    expect(after.visible).toBe(after.pages)
    expect((await maintainTables(t.handle)).vacuumed).not.toContain('leads')
  })

  it('on PGlite, waits while a delete or an undo moves rows into or out of the trash', async () => {
    await maintainTables(t.handle)
    await t.handle.db.execute(sql`insert into leads (name, email) select 'Later ' || g, 'later' || g || '@example.com' from generate_series(1, 5000) g`)
    const [entry] = await t.handle.db
      .insert(trash)
      .values({ action: 'delete', kind: 'promotions', recordId: 'moving', endpoint: 'DeletePromotion', rows: { parts: [] }, message: 'm', deletedBy: 'x', state: 'taking', mover: 'run', expiresAt: sql`now() + interval '1 minute'` })
      .returning({ id: trash.id })
    expect(await maintainTables(t.handle)).toEqual({ vacuumed: [], analysed: [] })
    await t.handle.db.delete(trash).where(eq(trash.id, entry?.id ?? ''))
    if (t.handle.kind === 'pglite') expect((await maintainTables(t.handle)).vacuumed).toContain('leads')
  })
})
