/**
 * Mass assignment: every write the server serves, sent with extra `role`, `accessLevel`,
 * `restrictions`, `_id`, password-hash and 2FA-secret fields (and their column names), stores
 * none of them: the marked values appear in no table afterwards, no second superadmin exists,
 * and the caller's own role, level, pages, activation and token version stay as they were.
 */
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { loadAreas } from '../kit/request/areas.ts'
import type { Endpoint } from '#contract/define'
import { admins, type AdminRow } from '../db/schema.ts'
import { isServed, makeFixtures, samples, send, type Payload } from './endpoint-samples.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp } from './test-app.ts'
import { base32Encode, totpCode, totpStep } from '../kit/ground/access/two-factor-code.ts'

/** Every endpoint the areas declare (server/kit/request/areas.ts). */
const { endpoints } = (await loadAreas()).index

const t = await makeTestApp()
afterAll(async () => {
  await t.close()
})
const fixtures = await makeFixtures(t)

const MARK = `INJECTED${randomBytes(4).toString('hex')}`
const INJECTED_HASH = `$argon2id$v=19$m=1024,t=1,p=1$${MARK}$${MARK}`
const INJECTED_SECRET = base32Encode(Buffer.from(MARK.padEnd(20, 'x')))
/** What a hostile client adds to a payload: privileges, identity, and the secrets' columns under both spellings. */
const extras: Record<string, unknown> = {
  role: 'superadmin',
  accessLevel: 'Admin',
  restrictions: [],
  _id: `${MARK}-id`,
  id: `${MARK}-id`,
  passwordHash: INJECTED_HASH,
  password_hash: INJECTED_HASH,
  totpSecret: INJECTED_SECRET,
  totp_secret: INJECTED_SECRET,
  secret: INJECTED_SECRET,
  totpEnabled: true,
  totp_enabled: true,
  tokenVersion: 99,
  token_version: 99,
  activate: 0,
  failedLogins: 0,
  lockedUntil: null,
  createdAt: '2000-01-01T00:00:00Z',
}

/** The sample's own fields win: an endpoint that legitimately takes `restrictions` still gets its own. */
function withExtras(payload: Payload): Payload {
  if ('form' in payload) {
    const fields: Record<string, string> = {}
    for (const [key, value] of Object.entries(extras)) fields[key] = typeof value === 'string' ? value : JSON.stringify(value)
    return { form: { fields: { ...fields, ...payload.form.fields }, files: payload.form.files } }
  }
  return { json: { ...extras, ...payload.json } }
}

const Rows = z.object({ rows: z.array(z.record(z.string(), z.unknown())) })
const tableNames = Rows.parse(await t.handle.db.execute(sql`select tablename from pg_tables where schemaname = 'public'`)).rows.map((r) => String(r['tablename']))

/** Every table, as text, for finding the marked values. */
async function everything(): Promise<string> {
  const parts: string[] = []
  for (const name of tableNames) {
    const result = Rows.parse(await t.handle.db.execute(sql.raw(`select coalesce(string_agg(x::text, '|'), '') as v from "${name}" x`)))
    parts.push(`${name}: ${String(result.rows[0]?.['v'])}`)
  }
  return parts.join('\n')
}

const rowOf = async (id: string): Promise<AdminRow> => {
  const [row] = await t.handle.db.select().from(admins).where(eq(admins.id, id))
  if (row === undefined) throw new Error('no such admin')
  return row
}
const privileges = (a: AdminRow) => ({ role: a.role, accessLevel: a.accessLevel, restrictions: a.restrictions, activate: a.activate, tokenVersion: a.tokenVersion })

const writes = endpoints.filter((e: Endpoint) => e.method === 'POST' && isServed(t, e))
/** Non-staff calls also run as a sub-admin allowed everything but staff writes, the likeliest escalator. */
const staffMember = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })

describe('mass assignment', () => {
  for (const e of writes) {
    it(`${e.path} stores none of the extra fields`, async () => {
      const sample = samples[e.name]
      expect(sample, `add a sample for ${e.name} in server/testing/endpoint-samples.ts`).toBeDefined()
      if (sample === undefined) return
      const callers = e.access.kind === 'screen' && e.access.staff === true ? [t.superadmin] : [t.superadmin, staffMember]
      for (const caller of callers) {
        const before = await rowOf(caller.id)
        const res = await send(t, e, await t.auth(before), withExtras(sample(fixtures)))
        expect(res.statusCode, res.body).toBeLessThan(500)
        expect(privileges(await rowOf(caller.id))).toEqual(privileges(before))
      }
      expect(await everything()).not.toContain(MARK)
      const supers = await t.handle.db.select({ id: admins.id }).from(admins).where(eq(admins.role, 'superadmin'))
      expect(supers).toEqual([{ id: t.superadmin.id }])
    })
  }

  it('creates a plain sub-admin whatever else the create payload says', async () => {
    const email = `plain-${MARK.toLowerCase()}@example.com`
    const create = writes.find((e) => e.name === 'createSubAdminUsers')
    if (create === undefined) throw new Error('createSubAdminUsers is not served')
    const res = await send(t, create, await t.auth(t.superadmin), {
      json: { ...extras, name: 'Plain', email, password: 'Passw0rd!', accessLevel: 'View Only', restrictions: ['/users'] },
    })
    expect(bodyOf(res)['status']).toBe('success')
    const [row] = await t.handle.db.select().from(admins).where(eq(admins.email, email))
    expect(row).toMatchObject({ role: 'subadmin', accessLevel: 'View Only', restrictions: ['/users'], activate: 1, tokenVersion: 0, totpEnabled: false, totpSecret: null })
    expect(row?.id).not.toContain(MARK)
    expect(await t.passwords.verify(row?.passwordHash ?? '', 'Passw0rd!')).toBe(true)
  })

  it('edits a sub-admin without touching role, password, 2FA or activation', async () => {
    const target = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/UpdateSubAdminUsers',
      headers: await t.auth(t.superadmin),
      payload: { ...extras, password: 'Other#2024', _id: target.id, name: 'Edited', email: target.email, accessLevel: 'View Only', restrictions: ['/users'] },
    })
    expect(bodyOf(res)['status']).toBe('success')
    const row = await rowOf(target.id)
    expect(row).toMatchObject({ name: 'Edited', role: 'subadmin', activate: 1, totpEnabled: false, totpSecret: null, passwordHash: target.passwordHash })
  })

  it('enables 2FA with the secret from setup, never one from the payload', async () => {
    const staff = await t.createAdmin()
    const setup = bodyOf(await t.app.inject({ method: 'POST', url: '/api/admin/twofa-setup', headers: await t.auth(staff), payload: { ...extras } }))
    const secret = String(setup['secret'])
    expect(secret).not.toBe(INJECTED_SECRET)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/twofa-enable',
      headers: await t.auth(staff),
      payload: { ...extras, code: totpCode(secret, totpStep()), password: TEST_PASSWORD },
    })
    expect(bodyOf(res)['status']).toBe('success')
    expect(await rowOf(staff.id)).toMatchObject({ totpEnabled: true, role: 'subadmin' })
    expect((await t.totpSecretOf(staff.id)).opened).toBe(secret)
  })
})
