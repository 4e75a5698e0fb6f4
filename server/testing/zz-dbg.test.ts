import { it } from 'vitest'
import { sql } from 'drizzle-orm'
import { makeTestApp } from './test-app.ts'
it('dbg', async () => {
  let t0 = Date.now()
  const t = await makeTestApp()
  console.log('app', Date.now() - t0)
  const h = await t.auth(t.superadmin)
  const time = async (label: string, n: number, f: () => Promise<unknown>) => { const s = performance.now(); for (let i = 0; i < n; i++) await f(); console.log(label, ((performance.now() - s) / n).toFixed(2), 'ms') }
  await time('401', 300, () => t.app.inject({ method: 'POST', url: '/api/admin/declineAccessRequest', headers: { 'content-type': 'application/json' }, payload: '{"id":"key"}' }))
  await time('400 authed', 300, () => t.app.inject({ method: 'POST', url: '/api/admin/declineAccessRequest', headers: { ...h, 'content-type': 'application/json' }, payload: '{"id":""}' }))
  await time('404 authed', 300, () => t.app.inject({ method: 'POST', url: '/api/admin/declineAccessRequest', headers: { ...h, 'content-type': 'application/json' }, payload: '{"id":"key"}' }))
  await time('select 1', 300, () => t.handle.db.execute(sql`select 1`))
  await t.handle.db.execute(sql.raw('create table fuzz_changes (id bigserial primary key, tbl text not null, op text not null, old jsonb, new jsonb)'))
  await time('drain', 300, () => t.handle.db.execute(sql.raw('delete from fuzz_changes returning tbl, op, old, new')))
  t0 = Date.now()
  await t.close()
  console.log('close', Date.now() - t0)
}, 600_000)
