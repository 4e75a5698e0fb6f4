/**
 * The authorization matrix, generated from the contract: every endpoint the server
 * serves x nine callers, with the answer the endpoint's Access rule says they get. Refused calls
 * carry a payload the handler would accept, and must leave every table exactly as it was. Every
 * answer of the run is then scanned for password hashes, OTP hashes and 2FA secrets. The parts of
 * a page read from another screen (a lead's enquiries and deliveries) follow that screen's rule.
 */
import { and, count, desc, eq, isNull, lte, notInArray, sql } from 'drizzle-orm'
import { SignJWT } from 'jose'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AUDIT_EVENTS } from '#contract/audit'
import { loadAreas } from '../kit/request/areas.ts'
import { isWrite, type Access, type Endpoint } from '#contract/define'
import { expectedAccess, type Caller, type Expected } from './access-expectation.ts'
import { screens } from '#contract/routes'
import { leadPageParts, type LeadPagePart } from '#contract/leads'
import { admins, auditLog, contactEnquiries, jobs, leads, mailOutbox, otpCodes, type AdminRow } from '../db/schema.ts'
import { endsSession, isServed, makeFixtures, samples, send, type Payload } from './endpoint-samples.ts'
import { bodyOf, makeTestApp } from './test-app.ts'

/** Every endpoint the areas declare (server/kit/request/areas.ts). */
const { endpoints } = (await loadAreas()).index

// Undo windows outlast the run: a purge falling due between two snapshots would look like a change.
const t = await makeTestApp({ env: { UNDO_SECONDS: '3600' } })
afterAll(async () => {
  await t.close()
})
const fixtures = await makeFixtures(t)
// Logout revokes the token it is sent with, and each caller keeps one token: it goes last.
const served = endpoints.filter((e) => isServed(t, e)).sort((a, b) => Number(endsSession.has(a.name)) - Number(endsSession.has(b.name)))

const callers: readonly Exclude<Caller, 'Admin'>[] = ['no token', 'bad signature', 'expired token', 'revoked token', 'deactivated admin', 'View Only', 'subadmin without the route', 'subadmin with the route', 'superadmin']

// The callers' tokens. Each admin below is used only as a caller, never as a sample's target.
const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` })
const now = Math.floor(Date.now() / 1000)
const claimsOf = (a: AdminRow) => ({ _id: a.id, email: a.email, role: a.role, accessLevel: a.accessLevel, restrictions: a.restrictions, tv: a.tokenVersion })
const superToken = await t.tokenFor(t.superadmin)
const otherKey = new TextEncoder().encode('not-the-server-key-not-the-server-key-!!')
const revoked = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
const revokedToken = await t.tokenFor(revoked)
await t.handle.db.update(admins).set({ tokenVersion: revoked.tokenVersion + 1 }).where(eq(admins.id, revoked.id))
const deactivated = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
const deactivatedToken = await t.tokenFor(deactivated)
await t.handle.db.update(admins).set({ activate: 0 }).where(eq(admins.id, deactivated.id))
const viewOnly = await t.createAdmin({ accessLevel: 'View Only', restrictions: [] })

const fixed: Partial<Record<Caller, Record<string, string>>> = {
  'no token': {},
  'bad signature': bearer(
    await new SignJWT(claimsOf(t.superadmin)).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setJti('x').setExpirationTime('1h').sign(otherKey),
  ),
  'expired token': bearer(
    await new SignJWT(claimsOf(t.superadmin))
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now - 7200)
      .setJti('x')
      .setExpirationTime(now - 3600)
      .sign(t.config.jwtSecret),
  ),
  'revoked token': bearer(revokedToken),
  'deactivated admin': bearer(deactivatedToken),
  'View Only': bearer(await t.tokenFor(viewOnly)),
  superadmin: bearer(superToken),
}

/** Admin-level sub-admins holding exactly one list screen: the endpoint's, or another one. */
/** The admin id behind each signed-in caller's headers, for the audit check. */
const adminOf = new Map<Record<string, string>, string>()
for (const [caller, admin] of [['View Only', viewOnly], ['superadmin', t.superadmin]] as const) {
  const headers = fixed[caller]
  if (headers !== undefined) adminOf.set(headers, admin.id)
}
const byRestriction = new Map<string, Record<string, string>>()
async function subadminHolding(route: string): Promise<Record<string, string>> {
  const known = byRestriction.get(route)
  if (known !== undefined) return known
  const admin = await t.createAdmin({ accessLevel: 'Admin', restrictions: [route] })
  const headers = bearer(await t.tokenFor(admin))
  byRestriction.set(route, headers)
  adminOf.set(headers, admin.id)
  return headers
}
const listScreens = screens.filter((s) => !('parent' in s) && s.path !== '/profile' && s.path !== '/resetpassword').map((s) => s.path)

async function headersFor(caller: Caller, access: Access): Promise<Record<string, string>> {
  const route = access.kind === 'screen' ? access.route : '/users'
  if (caller === 'subadmin with the route') return subadminHolding(route)
  if (caller === 'subadmin without the route') return subadminHolding(listScreens.find((p) => p !== route) ?? '/users')
  const headers = fixed[caller]
  if (headers === undefined) throw new Error(`no headers for ${caller}`)
  return headers
}

const Rows = z.object({ rows: z.array(z.record(z.string(), z.unknown())) })
// The job queue's own table is the workers' bookkeeping, not a caller's write: a paused send's
// job is looked at again every few seconds (its run_at moves) whatever the calls do. A job a
// refused call could add would show in the tables its handler writes, which are compared.
const tableNames = Rows.parse(await t.handle.db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`))
  .rows.map((r) => String(r['tablename']))
  .filter((name) => name !== 'jobs')

/** Row count and a hash of every row of every table: any insert, update or delete changes it. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const name of tableNames) {
    const result = Rows.parse(
      await t.handle.db.execute(sql.raw(`select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${name}" x`)),
    )
    out[name] = `${String(result.rows[0]?.['n'])}:${String(result.rows[0]?.['h'])}`
  }
  return out
}

/**
 * Waits for background work of earlier calls (the mail queue's jobs and the mails they mark) to be
 * done, so it does not look like a change made by a refused call.
 */
async function settle(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const [pending] = await t.handle.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'pending'))
    // Due jobs only: an undo window's purge waits for its hour.
    const [queued] = await t.handle.db.select({ n: count() }).from(jobs).where(and(isNull(jobs.failedAt), lte(jobs.runAt, sql`now()`)))
    if ((pending?.n ?? 0) === 0 && (queued?.n ?? 0) === 0) return
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * Keys of an answer that name a secret (hash, secret, otp, password). The `errors` object is
 * skipped: it is keyed by the payload's field names (an `otp` field's message is no secret).
 */
function secretKeys(body: string): string[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return [] // the CSV export; its cells are covered by the value scan
  }
  const found: string[] = []
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk)
    if (typeof value !== 'object' || value === null) return
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'errors') continue
      if (/hash|secret|otp|password/i.test(key)) found.push(key)
      walk(inner)
    }
  }
  walk(parsed)
  return found
}

const payloadFor = (e: Endpoint): Payload => samples[e.name]?.(fixtures) ?? { json: {} }
/** Every answer body of the run, for the secret scan. */
const answers: { endpoint: string; caller: Caller; body: string }[] = []

describe('authorization matrix (contract x callers)', () => {
  it('covers the served endpoints, this issue\'s among them, each with a sample payload', () => {
    const names = served.map((e) => e.name)
    for (const mine of ['createSubAdminUsers', 'FetchSubAdminUsers', 'UpdateSubAdminUsers', 'ActivateSubadminStatusUpdate', 'sendMail', 'changePassword', 'ForgotSendMail', 'forgotPassword', 'twofaSetup', 'twofaEnable', 'twofaDisable', 'login', 'getProfile', 'editProfile']) {
      expect(names).toContain(mine)
    }
    // A new handler needs a row in server/testing/endpoint-samples.ts, so its refused calls carry real input.
    expect(names.filter((n) => samples[n] === undefined)).toEqual([])
  })

  for (const e of served) {
    it(`${e.method} ${e.path} (${e.access.kind === 'screen' ? `${e.access.write ? 'write' : 'read'} ${e.access.route}${e.access.staff === true ? ', staff' : ''}` : e.access.kind})`, async () => {
      const unexpected: string[] = []
      const check = (caller: Caller, status: number, want: Expected): void => {
        const ok = want === 'allowed' ? status !== 401 && status !== 403 && status < 500 : status === want
        if (!ok) unexpected.push(`${caller}: got ${status}, expected ${want}`)
      }
      // Callers first: making one inserts an admin, which must not count as a change below.
      const headers = new Map<Caller, Record<string, string>>()
      for (const caller of callers) headers.set(caller, await headersFor(caller, e.access))
      await settle()
      const before = await snapshot()
      const refused = callers.filter((c) => expectedAccess(e.access, c) !== 'allowed')
      for (const caller of refused) {
        const res = await send(t, e, headers.get(caller) ?? {}, payloadFor(e))
        answers.push({ endpoint: e.name, caller, body: res.body })
        check(caller, res.statusCode, expectedAccess(e.access, caller))
        expect(res.json()).toMatchObject({ status: 'failed' })
      }
      expect(await snapshot(), 'a refused call changed the database').toEqual(before)
      for (const caller of callers.filter((c) => !refused.includes(c))) {
        const callerHeaders = headers.get(caller) ?? {}
        // A write's own row; an event it causes besides (a forced logout) is a row of its own kind.
        const writeRows = () => t.handle.db.select({ n: count() }).from(auditLog).where(notInArray(auditLog.action, Object.keys(AUDIT_EVENTS)))
        const [last] = await writeRows()
        const res = await send(t, e, callerHeaders, payloadFor(e))
        answers.push({ endpoint: e.name, caller, body: res.body })
        check(caller, res.statusCode, 'allowed')
        // Item 5: a successful write by a signed-in admin leaves one row naming who, what, which record and when.
        const actor = adminOf.get(callerHeaders)
        // A read made by POST that streams a file (a CSV) writes nothing and answers no JSON.
        if (e.method === 'POST' && e.answer !== 'csv' && res.statusCode === 200 && bodyOf(res)['status'] === 'success' && actor !== undefined && e.access.kind !== 'public') {
          const rows = await t.handle.db.select().from(auditLog).orderBy(desc(auditLog.at)).limit(5)
          const [after] = await writeRows()
          const row = rows.find((r) => r.action === e.path && r.adminId === actor)
          if (isWrite(e) || e.access.kind === 'session') {
            if ((after?.n ?? 0) - (last?.n ?? 0) !== 1 || row === undefined || row.recordId === null || !(row.at instanceof Date)) {
              unexpected.push(`${caller}: no complete audit row for a successful write`)
            }
          } else if ((after?.n ?? 0) !== (last?.n ?? 0)) unexpected.push(`${caller}: a read wrote an audit row`)
        }
      }
      expect(unexpected).toEqual([])
    })
  }

  it('puts no password hash, OTP hash or 2FA secret in any answer', async () => {
    expect(answers.length).toBeGreaterThan(served.length * 5)
    const secrets = [
      ...(await t.handle.db.select({ v: admins.passwordHash }).from(admins)).flatMap((r) => (r.v === null ? [] : [r.v])),
      // Both forms of each 2FA secret: as stored (sealed) and in clear.
      ...(await Promise.all((await t.handle.db.select({ id: admins.id }).from(admins)).map((r) => t.totpSecretOf(r.id))))
        .flatMap((s) => [s.stored, s.opened])
        .filter((v): v is string => v !== null),
      ...(await t.handle.db.select({ v: otpCodes.codeHash }).from(otpCodes)).map((r) => r.v),
    ]
    expect(secrets.length).toBeGreaterThan(5)
    const leaks: string[] = []
    for (const a of answers) {
      // The setup answer shows the caller's own new secret once, by design (contract/two-factor.ts).
      if (a.endpoint === 'twofaSetup') continue
      if (/\$argon2/.test(a.body)) leaks.push(`${a.endpoint}/${a.caller}: argon2 hash`)
      for (const key of secretKeys(a.body)) leaks.push(`${a.endpoint}/${a.caller}: field ${key}`)
      for (const s of secrets) if (a.body.includes(s)) leaks.push(`${a.endpoint}/${a.caller}: a stored secret`)
    }
    expect(leaks).toEqual([])
  })
})

describe("the parts of a lead's page follow the rule of the screen they come from", () => {
  const parts = Object.entries(leadPageParts) as [LeadPagePart, string][]
  const page = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/getLead', query: { id: fixtures.promotion.leadId }, headers })
    expect(res.statusCode, res.body).toBe(200)
    return bodyOf(res)
  }
  const shown = (body: Record<string, unknown>, part: LeadPagePart) => (body[part] as unknown[]).length > 0
  const staff = async (accessLevel: 'Admin' | 'View Only', restrictions: string[]) => bearer(await t.tokenFor(await t.createAdmin({ accessLevel, restrictions })))

  it.each(parts)('%s: given with %s, withheld and named without it', async (part, route) => {
    // The fixture lead has deliveries; an enquiry from its email gives it enquiries too.
    const [lead] = await t.handle.db.select({ email: leads.email }).from(leads).where(eq(leads.id, fixtures.promotion.leadId))
    if (lead === undefined) throw new Error('no fixture lead')
    if ((await t.handle.db.$count(contactEnquiries, eq(contactEnquiries.email, lead.email))) === 0) {
      await t.handle.db.insert(contactEnquiries).values({ name: 'Matrix Enquirer', email: lead.email, message: 'A question' })
    }
    // A token of its own: the matrix's Logout ended the callers' sessions.
    const everything = await page(bearer(await t.tokenFor(t.superadmin)))
    expect(everything['withheld']).toEqual([])
    expect(shown(everything, part)).toBe(true)
    for (const level of ['View Only', 'Admin'] as const) {
      const holder = await page(await staff(level, ['/users', route]))
      expect(holder['withheld'], `${level} with ${route}`).not.toContain(part)
      expect(shown(holder, part), `${level} with ${route}`).toBe(true)
      const other = await page(await staff(level, ['/users', ...listScreens.filter((p) => p !== route && p !== '/users').slice(0, 1)]))
      expect(other['withheld'], `${level} without ${route}`).toContain(part)
      expect(shown(other, part), `${level} without ${route}`).toBe(false)
    }
    // Every part of the answer that a screen's rule holds is in leadPageParts.
    expect(Object.keys(everything).filter((k) => Array.isArray(everything[k]) && k !== 'withheld').sort()).toEqual(parts.map(([p]) => p).sort())
  })
})
