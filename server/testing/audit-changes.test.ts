/**
 * Every write's audit row says what it changed, field by field (server/kit/request/audit-changes.ts):
 * each write the server serves is called with its sample payload, and its new audit row must
 * carry its changes, unless the call is one that changes no watched table (listed below with
 * why). Secrets never appear: no stored change holds a password hash, a 2FA secret or a token,
 * only that it changed. An edit of three fields is exactly three lines.
 */
import { desc, eq, sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { changesData, type Endpoint } from '#contract/define'
import { loadAreas } from '../kit/request/areas.ts'
import { CAPTURE_LIMIT, LEFT_OUT, StoredChanges, watchedTables } from '../kit/request/audit-changes.ts'
import { COUNTRIES } from '../kit/rules/countries.ts'
import { admins, auditLog, passwordSetups, restrictedCountries, socialMedia } from '../db/schema.ts'
import { newConfirmToken } from '../areas/access-requests/routes.ts'
import { isServed, makeFixtures, missingSample, runLast, samples, send } from './endpoint-samples.ts'
import { TEST_PASSWORD, bodyOf, makeTestApp } from './test-app.ts'
import { totpCode, totpStep } from '../kit/ground/access/two-factor-code.ts'

const { endpoints } = (await loadAreas()).index

const t = await makeTestApp()
afterAll(async () => {
  await t.close()
})
const fixtures = await makeFixtures(t)

/**
 * Writes that change no watched table, and so keep no changes: what they do is in tables left
 * out on purpose (LEFT_OUT), or nothing at all when their sample finds nothing to do.
 */
const NO_CHANGES: Readonly<Record<string, string>> = {
  logout: 'ends its session (session_tokens)',
  login: 'opens a session (session_tokens, admin_devices)',
  proveIdentity: "renews the session's proof (session_tokens)",
  endOtherSessions: 'ends sessions (session_tokens)',
  passkeyRegistrationOptions: 'keeps a challenge (passkey_challenges)',
  sendMail: 'mails a code (otp_codes, mail_outbox)',
  sendTestTemplate: 'mails a test (mail_outbox)',
  sendTestPromotion: 'mails a test to the caller (mail_outbox)',
  sendTestNewsletter: 'mails a test to the caller (mail_outbox)',
  setFrequencyCap: 'its sample sets the cap it already has (off, 3 in 7 days)',
  unlockAdmin: 'clears a sign-in counter (login_failures)',
  setRestrictedCountryRule: 'its sample sets the value the rule already has',
  setTwoAdminLinks: 'its sample sets the value the setting already has (off)',
  rejectLinkChange: 'a rejected link change was never written: its row says what it would have changed, in its detail',
  withdrawLinkChange: 'a withdrawn link change was never written: its row says what it would have changed, in its detail',
  setOutwardLinkDomains: 'its sample sets the list it already has (empty: every host, so the links of the other samples stay allowed)',
  removeStaffPasskeys: "its sample's staff member has no passkey",
  applyGamesBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  applyContactBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  applyCategoriesBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  applyBrandsBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  applyBuyLinksBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  applySellLinksBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  applyBridgeLinksBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  applyHomepageBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  applyStaffBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  applyPromotionsBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  applyNewsletterBulk: 'queues the run (bulk_runs, bulk_run_rows); its job changes the rows after the call',
  cancelBulkRun: 'stops the run (bulk_runs)',
  startViewAs: "starts View as on the caller's session (session_tokens)",
  endViewAs: "ends View as on the caller's session (session_tokens)",
}

/** Writes whose sample may or may not find something to do, by timing: a cancel racing the delivery job. */
const UNSETTLED: ReadonlySet<string> = new Set(['cancelPromotion'])

/** Public calls that write no audit row: nobody signed in acted (their effects are the public's). */
const NO_ROW: Readonly<Record<string, string>> = {
  register: 'an access request from the public',
  referralVisit: "a visitor's click (a brand's visit count)",
  unsubscribe: "a lead's unsubscribe link",
  passkeySignInOptions: 'a challenge before sign-in',
  ForgotSendMail: 'a code mailed before sign-in',
}

/** The newest audit row of a call. */
async function lastRow(e: Endpoint) {
  const [row] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, e.path)).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(1)
  return row
}

const writes = endpoints.filter((e) => changesData(e) && isServed(t, e))
// Logout ends the token it was sent with: last.
const ordered = [...writes].sort(runLast)

describe('every write keeps its changes', () => {
  const missed: string[] = []
  for (const e of ordered) {
    it(`${e.path}`, async () => {
      const sample = samples[e.name]
      expect(sample, missingSample(e)).toBeDefined()
      if (sample === undefined) return
      const before = await lastRow(e)
      const res = await send(t, e, await t.auth(t.superadmin), sample(fixtures))
      expect(res.statusCode, res.body).toBeLessThan(500)
      if (bodyOf(res)['status'] !== 'success') {
        missed.push(`${e.name}: ${res.statusCode} ${res.body.slice(0, 200)}`)
        return
      }
      const row = await lastRow(e)
      if (Object.hasOwn(NO_ROW, e.name)) {
        expect(e.access.kind, `${e.name} is listed as public`).toBe('public')
        expect(row?.id).toBe(before?.id)
        return
      }
      expect(row?.id, `${e.name} wrote no audit row`).not.toBe(before?.id)
      const changes = row?.changes === null || row?.changes === undefined ? null : StoredChanges.parse(row.changes)
      if (Object.hasOwn(NO_CHANGES, e.name)) {
        expect(changes, `${e.name} is listed as changing nothing`).toBeNull()
        return
      }
      if (!UNSETTLED.has(e.name)) expect(changes?.rows.length ?? 0, `${e.name}: no changes in its audit row (${res.body.slice(0, 200)})`).toBeGreaterThan(0)
      for (const change of changes?.rows ?? []) {
        expect(change.fields.length).toBeGreaterThan(0)
        for (const f of change.fields) if (f.secret === true) expect(f).toEqual({ field: f.field, secret: true })
      }
    })
  }
  it('reports the samples that did not succeed', () => {
    console.log(missed.join('\n'))
  })
})

describe('what a change keeps', () => {
  it('an edit of three fields is three lines, with before and after', async () => {
    const id = fixtures.socialId
    const [was] = await t.handle.db.select().from(socialMedia).where(eq(socialMedia.id, id))
    if (was === undefined) throw new Error('no social links record')
    const payload = { _id: id, discordLink: 'https://discord.gg/three', twitterLink: 'https://x.com/three', facebookLink: 'https://facebook.com/three', instagramLink: was.instagramLink, telegramLink: was.telegramLink }
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/updatesocialmedia', headers: await t.auth(t.superadmin), payload })
    expect(bodyOf(res)['status'], res.body).toBe('success')
    const [row] = await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, id)).orderBy(desc(auditLog.at)).limit(1)
    const changes = StoredChanges.parse(row?.changes)
    expect(changes.rows).toHaveLength(1)
    expect(changes.rows[0]?.op).toBe('update')
    expect(changes.rows[0]?.fields).toEqual([
      { field: 'discord_link', before: was.discordLink, after: 'https://discord.gg/three' },
      { field: 'twitter_link', before: was.twitterLink, after: 'https://x.com/three' },
      { field: 'facebook_link', before: was.facebookLink, after: 'https://facebook.com/three' },
    ])
  })

  it('a password set says only that the password changed', async () => {
    const staff = await t.createAdmin()
    await t.handle.db.update(admins).set({ passwordHash: null }).where(eq(admins.id, staff.id))
    const link = newConfirmToken()
    await t.handle.db.insert(passwordSetups).values({ adminId: staff.id, tokenHash: link.hash, expiresAt: new Date(Date.now() + 3600_000) })
    const newPassword = 'Other#2024x'
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/setFirstPassword', payload: { token: link.token, newPassword, confirmPassword: newPassword } })
    expect(bodyOf(res)['status'], res.body).toBe('success')
    const [row] = await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, staff.id)).orderBy(desc(auditLog.at)).limit(1)
    const text = JSON.stringify(row?.changes)
    const [after] = await t.handle.db.select({ hash: admins.passwordHash }).from(admins).where(eq(admins.id, staff.id))
    expect(text).toContain('"password_hash"')
    expect(text).not.toContain(after?.hash ?? '-')
    expect(text).not.toContain('argon2')
    expect(text).not.toContain(newPassword)
    expect(text).not.toContain(link.token)
    expect(text).not.toContain(link.hash)
    const field = StoredChanges.parse(row?.changes).rows.flatMap((c) => c.fields).find((f) => f.field === 'password_hash')
    expect(field).toEqual({ field: 'password_hash', secret: true })
  })

  it('a staff member created with a password keeps no trace of it', async () => {
    const email = `secret-${Date.now()}@example.com`
    const password = 'Passw0rd!x'
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/createSubAdminUsers', headers: await t.auth(t.superadmin), payload: { name: 'Secretive', email, password, accessLevel: 'View Only', restrictions: ['/users'] } })
    expect(bodyOf(res)['status'], res.body).toBe('success')
    const [created] = await t.handle.db.select().from(admins).where(eq(admins.email, email))
    const [row] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/createSubAdminUsers')).orderBy(desc(auditLog.at)).limit(1)
    const text = JSON.stringify(row?.changes)
    expect(text).toContain(email)
    expect(text).not.toContain(created?.passwordHash ?? '-')
    expect(text).not.toContain(password)
    expect(StoredChanges.parse(row?.changes).rows[0]?.fields).toContainEqual({ field: 'password_hash', secret: true })
  })

  it('turning 2FA on says only that the secret changed', async () => {
    const staff = await t.createAdmin()
    const headers = await t.auth(staff)
    const setup = bodyOf(await t.app.inject({ method: 'POST', url: '/api/admin/twofa-setup', headers, payload: {} }))
    const secret = String(setup['secret'])
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/twofa-enable', headers, payload: { code: totpCode(secret, totpStep()), password: TEST_PASSWORD } })
    expect(bodyOf(res)['status'], res.body).toBe('success')
    const rows = await t.handle.db.select().from(auditLog).where(eq(auditLog.adminId, staff.id))
    const text = JSON.stringify(rows.map((r) => r.changes))
    const stored = (await t.totpSecretOf(staff.id)).stored ?? '-'
    expect(text).toContain('"totp_secret"')
    expect(text).not.toContain(secret)
    expect(text).not.toContain(stored)
    const fields = rows.flatMap((r) => (r.changes === null ? [] : StoredChanges.parse(r.changes).rows.flatMap((c) => c.fields)))
    for (const f of fields.filter((f) => f.field === 'totp_secret' || f.field === 'totp_last_step')) expect(f).toEqual({ field: f.field, secret: true })
  })
})

describe('a big write', () => {
  it('keeps its first rows and says it kept part', async () => {
    // Countries not yet on the list (the samples added two).
    const listed = new Set((await t.handle.db.select({ code: restrictedCountries.code }).from(restrictedCountries)).map((r) => r.code))
    const names = COUNTRIES.filter((c) => !listed.has(c.code)).slice(0, CAPTURE_LIMIT + 20).map((c) => c.name)
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/AddRestrictions', headers: await t.auth(t.superadmin), payload: { country: names } })
    expect(bodyOf(res)['status'], res.body).toBe('success')
    const [row] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/AddRestrictions')).orderBy(desc(auditLog.at)).limit(1)
    const changes = StoredChanges.parse(row?.changes)
    expect(changes.partial).toBe(true)
    expect(changes.rows).toHaveLength(CAPTURE_LIMIT)
    expect(changes.rows.every((c) => c.op === 'create' && c.table === 'restricted_countries')).toBe(true)
  })
})

describe('which tables are watched', () => {
  it('every table of the schema is watched by the triggers or left out with a reason', async () => {
    const Triggers = z.object({ rows: z.array(z.object({ table: z.string() })) })
    const found = Triggers.parse(
      await t.handle.db.execute(sql`select distinct c.relname as "table" from pg_trigger g join pg_class c on c.oid = g.tgrelid where g.tgname like '%\_audit\_update' and not g.tgisinternal`),
    ).rows.map((r) => r.table)
    expect(found.sort()).toEqual([...watchedTables().keys()].sort())
    for (const name of Object.keys(LEFT_OUT)) expect(found).not.toContain(name)
  })
})
