import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sniff } from './kit/ground/uploads.ts'
import { forecast, rulesFor } from './kit/rules/audience.ts'
import { Passwords } from './kit/ground/access/auth.ts'
import { DEMO_LEADS, DEMO_SECOND_ADMIN, loginLines, seedDemo } from './demo.ts'
import { openDb, type DbHandle } from './db/index.ts'
import { accessRequests, admins, auditLog, categories, contactEnquiries, games, homepageContent, leads, promotionDeliveries, siteSettings, socialMedia, tokenSettings, promotions } from './db/schema.ts'

let handle: DbHandle
let uploads: string

beforeAll(async () => {
  handle = await openDb({ kind: 'pglite', dir: null })
  uploads = await mkdtemp(join(tmpdir(), 'bo-demo-'))
})
afterAll(async () => {
  await handle.close()
  await rm(uploads, { recursive: true, force: true })
})

describe('demo data', () => {
  it('seeds varied leads over a year, 40 enquiries, 8 categories with real PNG files, the site records and two access requests, once', async () => {
    const now = Date.UTC(2026, 5, 1)
    const passwords = new Passwords({ memoryCost: 1024, timeCost: 1, parallelism: 1 })
    // As `npm run demo` does: the superadmin exists before the seed.
    const [superadmin] = await handle.db
      .insert(admins)
      .values({ name: 'Super Admin', email: 'admin@example.com', passwordHash: 'x', role: 'superadmin', accessLevel: 'Admin', restrictions: [] })
      .returning({ id: admins.id })
    expect(await seedDemo(handle.db, uploads, now, passwords)).toEqual({ leads: DEMO_LEADS, enquiries: 40, categories: 8, accessRequests: 2 })
    const rows = await handle.db.select().from(leads)
    expect(rows.length).toBeGreaterThan(1000)
    expect(rows.every((r) => /^0x[0-9a-f]{40}$/.test(r.walletaddress))).toBe(true)
    expect(new Set(rows.map((r) => r.provider))).toEqual(new Set(['ipfs', 'web3auth']))
    expect(new Set(rows.map((r) => r.operatingsystem)).size).toBeGreaterThanOrEqual(4)
    expect(new Set(rows.map((r) => r.name)).size).toBeGreaterThan(300)
    const ages = rows.map((r) => (now - r.createdAt.getTime()) / (24 * 3600 * 1000))
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...ages)).toBeGreaterThan(300)
    expect(Math.max(...ages)).toBeLessThanOrEqual(365)
    expect(await handle.db.select().from(contactEnquiries)).toHaveLength(40)
    const cats = await handle.db.select().from(categories)
    expect(cats).toHaveLength(8)
    const [site, ...moreSites] = await handle.db.select().from(siteSettings)
    expect(moreSites).toEqual([])
    expect(site).toMatchObject({ sitename: 'Wallet Back Office', version: '2.4.1', forcedliq: 'Disable' })
    expect(site?.socialLink1).toMatch(/^https:\/\//)
    const blocks = await handle.db.select().from(homepageContent)
    expect(blocks.map((b) => b.title).sort()).toEqual(['Bridge to any network', 'Play games, win tokens', 'Swap in seconds'])
    expect(site?.homepageCmsVisible).toBe(true)
    expect(await handle.db.select().from(tokenSettings)).toEqual([expect.objectContaining({ tokenName: 'Game Ticket', price: '0.2500000000', ticketCount: 100 })])
    const gameImages = (await handle.db.select().from(games)).flatMap((g) => g.images)
    expect(gameImages).toHaveLength(10)
    const thumbs = [...gameImages, ...cats.map((c) => c.image), ...blocks.map((b) => b.image)].map((name) => name.replace('.png', '-thumb.webp'))
    const promotionImages = (await handle.db.select().from(promotions)).map((p) => p.image).filter((image) => image !== '')
    expect((await readdir(uploads)).sort()).toEqual([...cats.map((c) => c.image), ...blocks.map((b) => b.image), ...gameImages, ...thumbs, ...promotionImages, site?.sitelogo ?? 'missing'].sort())
    for (const name of await readdir(uploads)) if (!thumbs.includes(name)) expect(sniff(await readFile(join(uploads, name)))).toBe('png')
    const social = await handle.db.select().from(socialMedia)
    expect(social).toHaveLength(1)
    expect(Object.values(social[0] ?? {}).every((v) => v !== '')).toBe(true)
    const requests = await handle.db.select().from(accessRequests)
    expect(requests).toHaveLength(2)
    // Requests, never accounts: the accounts are the start's superadmin and the demo's second Admin.
    const staff = await handle.db.select().from(admins)
    expect(staff.map((a) => a.email).sort()).toEqual([DEMO_SECOND_ADMIN.email, 'admin@example.com'])
    const ada = staff.find((a) => a.email === DEMO_SECOND_ADMIN.email)
    expect(ada).toMatchObject({ role: 'subadmin', accessLevel: 'Admin', activate: 1 })
    expect(await passwords.verify(ada?.passwordHash ?? '', DEMO_SECOND_ADMIN.password)).toBe(true)

    // Her promotion to every lead waits for another Admin; the others were sent by both admins.
    const sends = await handle.db.select().from(promotions)
    const awaiting = sends.filter((p) => p.status === 'awaiting')
    expect(awaiting).toEqual([expect.objectContaining({ approvalRequestedBy: ada?.id, createdBy: ada?.id, total: DEMO_LEADS, recipientCount: DEMO_LEADS, sent: 0 })])
    const pending = await handle.db.select({ status: promotionDeliveries.status }).from(promotionDeliveries).where(eq(promotionDeliveries.promotionId, awaiting[0]?.id ?? ''))
    expect(pending).toHaveLength(DEMO_LEADS)
    expect(new Set(sends.map((p) => p.createdBy))).toEqual(new Set([ada?.id, superadmin?.id]))
    // Audit entries of more than one admin.
    const audited = await handle.db.select({ adminId: auditLog.adminId, action: auditLog.action }).from(auditLog)
    expect(new Set(audited.map((a) => a.adminId))).toEqual(new Set([ada?.id, superadmin?.id]))
    expect(audited).toContainEqual({ adminId: ada?.id, action: '/addNotification' })
    // Entries with what they changed, field by field (a buy link's address before and after).
    const [linkEdit] = await handle.db.select({ changes: auditLog.changes }).from(auditLog).where(eq(auditLog.action, '/editBuylink'))
    expect(linkEdit?.changes).toMatchObject({ rows: [{ table: 'links', op: 'update', fields: [{ field: 'url', before: 'https://buy.moonpay.example/app', after: 'https://buy.moonpay.example/wallet' }] }] })

    // An unsubscribed lead, subscribers, and enquiries from leads (their page lists them), open and resolved.
    expect(rows.filter((r) => r.unsubscribedAt !== null && !r.subscribed)).toHaveLength(1)
    expect(rows.filter((r) => r.subscribed).length).toBeGreaterThan(300)
    expect(rows.filter((r) => r.country !== '').length).toBeGreaterThan(1000)
    const enquiries = await handle.db.select().from(contactEnquiries)
    const leadEmails = new Set(rows.map((r) => r.email))
    expect(enquiries.filter((e) => leadEmails.has(e.email)).length).toBeGreaterThanOrEqual(25)
    expect(new Set(enquiries.map((e) => e.status))).toEqual(new Set(['Open', 'Resolved']))
    expect((await handle.db.select().from(games)).filter((g) => g.freeze)).toHaveLength(1)

    // A newsletter to every lead would leave some out for each reason the demo can show.
    const everyLead = sql`select id as lead_id, name, email, country, subscribed from leads`
    const newsletter = await forecast(handle.db, { rows: everyLead, rules: await rulesFor(handle.db, 'newsletter') })
    const left = new Map(newsletter.excluded.map((e) => [e.reason, e.count]))
    expect(left.get('restricted-country')).toBe(3)
    expect(left.get('suppressed')).toBe(3)
    expect(left.get('unsubscribed')).toBeGreaterThan(0)
    // Russia's restriction is hidden: its lead is not left out for it.
    expect(rows.filter((r) => r.country === 'RU')).toHaveLength(1)

    // A second start leaves the data alone.
    expect(await seedDemo(handle.db, uploads, now)).toBeNull()
    expect(await handle.db.select().from(leads)).toHaveLength(DEMO_LEADS)
  })
})

describe("the start's login lines", () => {
  const demo = { demo: true, secondAdmin: true, adminEmail: 'admin@example.com', adminPassword: 'Demo@1234' }
  it('prints the demo logins with SMTP_URL set, and only them', () => {
    expect(loginLines({ ...demo, mailToLog: false })).toEqual([
      'Log in with admin@example.com / Demo@1234',
      `A second Admin, whose promotion awaits approval: ${DEMO_SECOND_ADMIN.email} / ${DEMO_SECOND_ADMIN.password}`,
    ])
  })
  it('adds the mail note without SMTP_URL, and leaves out a second Admin older demo data lacks', () => {
    expect(loginLines({ ...demo, secondAdmin: false, mailToLog: true })).toEqual([
      'Log in with admin@example.com / Demo@1234',
      'Mail: no SMTP_URL, so mails (OTP codes included) are printed to this log instead of sent (MAIL_LOG_BODIES=1).',
    ])
  })
  it('points elsewhere for the password outside the demo', () => {
    expect(loginLines({ ...demo, demo: false, mailToLog: false })).toEqual([
      'Log in with admin@example.com and the password you set (ADMIN_PASSWORD) or the one printed on the first start.',
    ])
  })
})
