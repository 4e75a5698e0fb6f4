/**
 * View as (contract/staff.ts): the superadmin's session reads as a chosen staff member, read only.
 * The server keeps it: the session's row names the member (session_tokens.viewing_as), the access
 * check reads as them, and every write but its end and Logout is refused with 403 and changes
 * nothing, whatever the member's own access. Start and end are in the audit log. A second app on
 * the same database sees the same state (the session store is the database).
 */
import { and, desc, eq, sql } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { FastifyInstance } from 'fastify'
import { STEP_UP_REQUIRED } from '#contract/common'
import { changesData } from '#contract/define'
import { NOT_VIEWING_AS, VIEW_AS_READ_ONLY, VIEW_AS_SELF, VIEW_AS_SUPERADMIN, endViewAs, startViewAs } from '#contract/staff'
import { buildApp } from '../app.ts'
import { openDb } from '../db/index.ts'
import { auditLog, sessionTokens, type AdminRow } from '../db/schema.ts'
import { loadAreas } from '../kit/request/areas.ts'
import { isServed, makeFixtures, samples, send } from './endpoint-samples.ts'
import { bodyOf, makeTestApp, testEngine, type TestApp } from './test-app.ts'

const { endpoints } = (await loadAreas()).index

let t: TestApp
/** A View Only member holding Users (the leads list) only. */
let member: AdminRow
beforeAll(async () => {
  t = await makeTestApp({ env: { UNDO_SECONDS: '3600' } })
  member = await t.createAdmin({ name: 'Viewed Member', accessLevel: 'View Only', restrictions: ['/users'] })
})
afterAll(async () => await t.close())

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
const get = (token: string, path: string, query: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/admin${path}`, headers: bearer(token), query })
const post = (token: string, path: string, payload: Record<string, unknown> = {}) => t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: bearer(token), payload })
const start = (token: string, id: string) => post(token, startViewAs.path, { id })
const end = (token: string) => post(token, endViewAs.path)

/** The newest audit row of a call. */
async function lastRow(path: string) {
  const [row] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, path)).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(1)
  return row
}

describe('starting View as', () => {
  it('is refused to a staff member, even an Admin with every screen', async () => {
    const admin = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
    const res = await start(await t.tokenFor(admin), member.id)
    expect(res.statusCode).toBe(403)
    expect((await get(await t.tokenFor(admin), '/get-profile')).json()).toMatchObject({ data: { _id: admin.id } })
  })

  it('is refused as oneself and as a superadmin, and changes nothing', async () => {
    const root = await t.tokenFor(t.superadmin)
    const self = await start(root, t.superadmin.id)
    expect(self.statusCode).toBe(403)
    expect(bodyOf(self)['message']).toBe(VIEW_AS_SELF)
    const other = await t.createAdmin({ role: 'superadmin', accessLevel: 'Admin', restrictions: [] })
    const superTarget = await start(root, other.id)
    expect(superTarget.statusCode).toBe(403)
    expect(bodyOf(superTarget)['message']).toBe(VIEW_AS_SUPERADMIN)
    const [row] = await t.handle.db.select({ viewingAs: sessionTokens.viewingAs }).from(sessionTokens).where(eq(sessionTokens.jti, String(decodeJwt(root).jti)))
    expect(row?.viewingAs).toBeNull()
    expect((await get(root, '/get-profile')).json()).toMatchObject({ data: { _id: t.superadmin.id, role: 'superadmin' } })
  })

  it('answers 404 for an unknown member', async () => {
    expect((await start(await t.tokenFor(t.superadmin), '00000000-0000-0000-0000-000000000000')).statusCode).toBe(404)
  })

  it('needs a recent proof, as the other staff access calls', async () => {
    const root = await t.tokenFor(t.superadmin)
    await t.handle.db
      .update(sessionTokens)
      .set({ provedAt: new Date(Date.now() - 24 * 3600_000) })
      .where(eq(sessionTokens.jti, String(decodeJwt(root).jti)))
    const res = await start(root, member.id)
    expect(res.statusCode).toBe(403)
    expect(bodyOf(res)['code']).toBe(STEP_UP_REQUIRED)
  })
})

describe('while viewing as a View Only member with one screen', () => {
  it('reads as the member: their profile, their screen, never a screen they lack, no export they could not make', async () => {
    const root = await t.tokenFor(t.superadmin)
    const started = await start(root, member.id)
    expect(started.statusCode, started.body).toBe(200)
    expect(started.json()).toMatchObject({ data: { _id: member.id, name: 'Viewed Member', accessLevel: 'View Only', restrictions: ['/users'] } })

    const profile = (await get(root, '/get-profile')).json()
    expect(profile).toMatchObject({ data: { _id: member.id, accessLevel: 'View Only', restrictions: ['/users'], viewAs: { by: { _id: t.superadmin.id } } } })
    // Their screen reads, as they would; the superadmin's other screens are refused.
    expect((await get(root, '/getuser', { page: '1', limit: '10' })).statusCode).toBe(200)
    expect((await get(root, '/FetchSubAdminUsers', { page: '1', limit: '10' })).statusCode).toBe(403)
    expect((await get(root, '/listAudit', { page: '1', limit: '10' })).statusCode).toBe(403)
    expect((await get(root, '/exportAudit')).statusCode).toBe(403)
    // The leads export is theirs to make (Users, read).
    expect((await get(root, '/DownloadFile')).statusCode).toBe(200)
    // The superadmin's own token elsewhere is untouched: View as is this session's only.
    const elsewhere = await t.tokenFor(t.superadmin)
    expect((await get(elsewhere, '/FetchSubAdminUsers', { page: '1', limit: '10' })).statusCode).toBe(200)

    const back = await end(root)
    expect(back.statusCode, back.body).toBe(200)
    expect((await get(root, '/FetchSubAdminUsers', { page: '1', limit: '10' })).statusCode).toBe(200)
    expect((await get(root, '/get-profile')).json()).toMatchObject({ data: { _id: t.superadmin.id, role: 'superadmin' } })
    expect(bodyOf(await get(root, '/get-profile'))['data']).not.toHaveProperty('viewAs')
  })

  it('refuses every write of the contract with 403, and no table changes', async () => {
    const fixtures = await makeFixtures(t)
    const root = await t.tokenFor(t.superadmin)
    expect((await start(root, member.id)).statusCode).toBe(200)
    const writes = endpoints.filter((e) => changesData(e) && e.whileViewingAs !== true && e.access.kind !== 'public' && isServed(t, e))
    expect(writes.length).toBeGreaterThan(50)
    const before = await snapshot()
    const wrong: string[] = []
    for (const e of writes) {
      const sample = samples[e.name]
      expect(sample, `a sample for ${e.name}`).toBeDefined()
      if (sample === undefined) continue
      const res = await send(t, e, bearer(root), sample(fixtures))
      const body: unknown = JSON.parse(res.body)
      const code = z.object({ code: z.string() }).safeParse(body)
      if (res.statusCode !== 403 || !code.success || code.data.code !== VIEW_AS_READ_ONLY) wrong.push(`${e.name}: ${res.statusCode} ${res.body.slice(0, 120)}`)
    }
    expect(wrong).toEqual([])
    expect(await snapshot()).toEqual(before)
    expect((await end(root)).statusCode).toBe(200)
  }, 120_000)

  it('keeps the start and the end in the audit log, naming the member', async () => {
    const root = await t.tokenFor(t.superadmin)
    expect((await start(root, member.id)).statusCode).toBe(200)
    const started = await lastRow(startViewAs.path)
    expect(started).toMatchObject({ adminId: t.superadmin.id, recordId: member.id })
    expect(started?.detail).toContain('Viewed Member')
    expect((await end(root)).statusCode).toBe(200)
    const ended = await lastRow(endViewAs.path)
    expect(ended).toMatchObject({ adminId: t.superadmin.id, recordId: member.id })
    expect(ended?.detail).toContain('Viewed Member')
  })

  it('ending when not viewing as anyone answers 409 and writes no row', async () => {
    const root = await t.tokenFor(t.superadmin)
    const [before] = await t.handle.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(eq(auditLog.action, endViewAs.path))
    const res = await end(root)
    expect(res.statusCode).toBe(409)
    expect(bodyOf(res)['message']).toBe(NOT_VIEWING_AS)
    const [after] = await t.handle.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(eq(auditLog.action, endViewAs.path))
    expect(after?.n).toBe(before?.n)
  })

  it('a second start is refused until the first ends (it is a write)', async () => {
    const root = await t.tokenFor(t.superadmin)
    const other = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
    expect((await start(root, member.id)).statusCode).toBe(200)
    const again = await start(root, other.id)
    expect(again.statusCode).toBe(403)
    expect(bodyOf(again)['code']).toBe(VIEW_AS_READ_ONLY)
    expect((await get(root, '/get-profile')).json()).toMatchObject({ data: { _id: member.id } })
    expect((await end(root)).statusCode).toBe(200)
  })

  it('ends with Logout: the row says so, and the token is refused after', async () => {
    const root = await t.tokenFor(t.superadmin)
    expect((await start(root, member.id)).statusCode).toBe(200)
    const out = await post(root, '/logout')
    expect(out.statusCode, out.body).toBe(200)
    const row = await lastRow('/logout')
    expect(row?.detail).toContain('View as ended by signing out')
    const [session] = await t.handle.db.select({ viewingAs: sessionTokens.viewingAs }).from(sessionTokens).where(eq(sessionTokens.jti, String(decodeJwt(root).jti)))
    expect(session?.viewingAs).toBeNull()
    expect((await get(root, '/get-profile')).statusCode).toBe(401)
  })
})

describe('View as on two app instances sharing the database', () => {
  let b: FastifyInstance
  beforeAll(async () => {
    // On PostgreSQL the second app has connections of its own; PGlite has one connection, shared.
    b = await buildApp(t.config, { handle: testEngine() === 'pg' ? await openDb(t.config.database) : t.handle })
  })
  afterAll(async () => {
    await b.close()
    if (testEngine() === 'pg') await b.services.handle.close()
  })

  it('started on one, holds on the other, and ends there', async () => {
    const root = await t.tokenFor(t.superadmin)
    expect((await start(root, member.id)).statusCode).toBe(200)
    const onB = (method: 'GET' | 'POST', path: string, payload?: Record<string, unknown>) =>
      b.inject({ method, url: `/api/admin${path}`, headers: bearer(root), ...(payload === undefined ? { query: { page: '1', limit: '10' } } : { payload }) })
    expect((await onB('GET', '/FetchSubAdminUsers')).statusCode).toBe(403)
    expect((await onB('GET', '/getuser')).statusCode).toBe(200)
    const write = await onB('POST', '/edit-profile', { name: 'Renamed' })
    expect(write.statusCode).toBe(403)
    expect((await onB('POST', endViewAs.path, {})).statusCode).toBe(200)
    expect((await get(root, '/FetchSubAdminUsers', { page: '1', limit: '10' })).statusCode).toBe(200)
    const [session] = await t.handle.db
      .select({ viewingAs: sessionTokens.viewingAs })
      .from(sessionTokens)
      .where(and(eq(sessionTokens.jti, String(decodeJwt(root).jti))))
    expect(session?.viewingAs).toBeNull()
  })
})

const Rows = z.object({ rows: z.array(z.record(z.string(), z.unknown())) })
/**
 * Row count and hash of every table but the session rows (each call records its use there) and
 * the job queue (its workers' bookkeeping): a refused write must leave the rest as it was.
 */
async function snapshot(): Promise<Record<string, string>> {
  const names = Rows.parse(await t.handle.db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`))
    .rows.map((r) => String(r['tablename']))
    .filter((name) => name !== 'jobs' && name !== 'session_tokens')
  const out: Record<string, string> = {}
  for (const name of names) {
    const result = Rows.parse(await t.handle.db.execute(sql.raw(`select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${name}" x`)))
    out[name] = `${String(result.rows[0]?.['n'])}:${String(result.rows[0]?.['h'])}`
  }
  return out
}
