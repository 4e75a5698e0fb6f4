/**
 * The records the endpoint samples point at (server/areas/<area>/samples.ts): a staff member to
 * edit, a category to delete, held sends to approve... made once per test app by `makeFixtures`,
 * shared by every area's samples because many of them cross areas (a lead to promote, a game in a
 * category of its own).
 */
import { randomBytes } from 'node:crypto'
import { API_PREFIX } from '../kit/ground/services.ts'
import { accessRequests, admins, auditLog, bulkRuns, passwordSetups, brands, categories, contactEnquiries, emailTemplates, emailTemplateVersions, games, homepageContent, leads, links, newsletterRecipients, newsletterSends, promotionDeliveries, promotionRecipients, promotions, restrictedCountries, siteSettings, socialMedia, suppressedAddresses, type AdminRow, savedViews, trash } from '../db/schema.ts'
import { eq } from 'drizzle-orm'
import { newConfirmToken } from '../areas/access-requests/routes.ts'
import { unsubscribeToken } from '../areas/newsletter/unsubscribe.ts'
import type { TestApp, UploadFile } from './test-app.ts'

/** What a sample sends: JSON (the query string of a GET), or a multipart form with files. */
export type Payload = { json: Record<string, unknown> } | { form: { fields: Record<string, string>; files: UploadFile[] } }

/** A few random hex characters, so repeated samples do not collide on unique columns. */
export const unique = (): string => randomBytes(4).toString('hex')

/** Records the samples point at: a staff member to edit and toggle, a category to edit and delete. */
export interface Fixtures {
  /** What each area's own setup made (`defineSamplesWith`, server/testing/sample-kit.ts), by its key. */
  own: ReadonlyMap<symbol, unknown>
  victim: AdminRow
  categoryId: string
  /** The one social links record, the one site settings record, and two pending access requests. */
  socialId: string
  settingsId: string
  approveRequest: { id: string; email: string }
  declineRequestId: string
  /** The mailed link's secret of a third request, not yet confirmed. */
  confirmToken: string
  /** Per kind of link: one to read and edit, one to delete. */
  linkIds: Record<'buy' | 'sell' | 'bridge', { kept: string; deleted: string }>
  /** Homepage content: one block to read and edit, one to delete. */
  homepageIds: { kept: string; deleted: string }
  /** One brand to read and edit, one to delete. */
  brandIds: { kept: string; deleted: string }
  /** A contact enquiry whose status is set. */
  enquiryId: string
  /** Two restricted countries: one to hide, one to delete. */
  restrictionIds: { kept: string; deleted: string }
  /** Two games (in a category of their own, so deleteCategory's category stays unused): one to edit and freeze, one to delete. */
  gameIds: { kept: string; deleted: string; categoryId: string }
  /** A saved view of the superadmin's (others deleting it get 404). */
  savedViewId: string
  /** An undo ticket of the superadmin's: a freeze of the kept game (others undoing it get 404). */
  undoToken: string
  /** The Reset Password OTP's email template (installed at start) and one saved version of it. */
  template: { id: string; versionId: string }
  /** A lead to send promotions to, and two delivered promotions to it: one to resend and cancel, one to delete. */
  promotion: { leadId: string; kept: string; deleted: string; scheduled: string }
  /**
   * Newsletter: a subscribed lead to send to, an unsubscribe link's token (another lead), and
   * three sends without a job: one being sent (to pause), one paused (to resume), one to cancel.
   */
  newsletter: { leadId: string; token: string; sending: string; paused: string; cancelled: string; scheduled: string }
  /** An approved member with no password yet, and the secret of their set-password link. */
  unset: { id: string; token: string }
  /** Four eyes: a promotion and a newsletter awaiting approval each to approve, and each to reject, asked for by another admin. */
  fourEyes: { approvePromotion: string; rejectPromotion: string; approveNewsletter: string; rejectNewsletter: string }
  /**
   * Two admins for outward links: held new buy links, one to approve and one to reject asked for
   * by another admin, one to withdraw asked for by the superadmin (the samples' caller).
   */
  linkChanges: { approve: string; reject: string; withdraw: string }
  /** A suppressed address to take off the list. */
  suppressed: string
  /**
   * An audit entry to revert: a revert's own, which every caller the Audit Log's write rule admits
   * is refused alike (400, a revert is not reverted). A real change's entry also needs its own
   * call's screen, which the matrix's one-screen caller lacks (server/testing/audit-revert.test.ts
   * reverts real ones).
   */
  auditEntryId: string
  /**
   * Bulk actions: a game to freeze and an enquiry to resolve, each with its preview's token (the
   * first Apply runs; any after it is refused, the set having changed), and a run of the
   * superadmin's with no job, to read and cancel.
   */
  bulk: { gameId: string; gameToken: string; enquiryId: string; enquiryToken: string; categoryId: string; categoryToken: string; runId: string }
}

/** Previews a bulk action on one record as the superadmin, for the token its Apply takes. */
export async function bulkPreviewer(t: TestApp): Promise<(path: string, action: string, id: string) => Promise<string>> {
  const headers = await t.auth(t.superadmin)
  return async (path, action, id) => {
    const res = await t.app.inject({ method: 'POST', url: `${API_PREFIX}${path}`, headers, payload: { action, selection: { ids: [id] } } })
    const token: unknown = res.json<Record<string, unknown>>()['token']
    if (typeof token !== 'string') throw new Error(`no bulk preview: ${res.body}`)
    return token
  }
}

/** The bulk actions' records, each previewed by the superadmin for its token. */
async function bulkFixtures(t: TestApp, categoryId: string): Promise<Fixtures['bulk']> {
  const [game] = await t.handle.db
    .insert(games)
    .values({ title: 'Bulk game', description: 'A game', categoryId, operatingsystem: 'both', liveLink: 'https://play.example/bulk', images: ['fixture.png'], preference: 3 })
    .returning({ id: games.id })
  const [enquiry] = await t.handle.db.insert(contactEnquiries).values({ name: 'Bulk fixture', email: `bulk-${unique()}@example.com`, message: 'Many questions' }).returning({ id: contactEnquiries.id })
  const [unused] = await t.handle.db.insert(categories).values({ categoryName: `Bulk ${unique()}`, image: 'fixture.png' }).returning({ id: categories.id })
  const [run] = await t.handle.db.insert(bulkRuns).values({ list: 'games', action: 'freeze', adminId: t.superadmin.id, total: 1 }).returning({ id: bulkRuns.id })
  if (game === undefined || enquiry === undefined || unused === undefined || run === undefined) throw new Error('bulk fixture insert returned no row')
  const tokenOf = await bulkPreviewer(t)
  return { gameId: game.id, gameToken: await tokenOf('/previewGamesBulk', 'freeze', game.id), enquiryId: enquiry.id, enquiryToken: await tokenOf('/previewContactBulk', 'resolve', enquiry.id),
    categoryId: unused.id,
    categoryToken: await tokenOf('/previewCategoriesBulk', 'delete', unused.id),
    runId: run.id,
  }
}

/** The shared records; server/testing/endpoint-samples.ts's `makeFixtures` adds each area's own. */
export async function makeSharedFixtures(t: TestApp): Promise<Fixtures> {
  const victim = await t.createAdmin({ name: 'Victim', accessLevel: 'View Only', restrictions: ['/users'] })
  const [category] = await t.handle.db.insert(categories).values({ categoryName: `Fixture ${unique()}`, image: 'fixture.png' }).returning({ id: categories.id })
  if (category === undefined) throw new Error('category insert returned no row')
  const [socialRow] = await t.handle.db.insert(socialMedia).values({}).returning({ id: socialMedia.id })
  const [settingsRow] = await t.handle.db.insert(siteSettings).values({ version: '1.0.0' }).returning({ id: siteSettings.id })
  const [approve, decline] = await t.handle.db
    .insert(accessRequests)
    .values([1, 2].map((n) => ({ name: `Applicant ${n}`, email: `applicant${n}-${unique()}@example.com`, confirmedAt: new Date() })))
    .returning({ id: accessRequests.id, email: accessRequests.email })
  if (socialRow === undefined || settingsRow === undefined || approve === undefined || decline === undefined) throw new Error('fixture insert returned no row')
  const link = newConfirmToken()
  await t.handle.db
    .insert(accessRequests)
    .values({ name: 'Applicant 3', email: `applicant3-${unique()}@example.com`, confirmTokenHash: link.hash, confirmExpiresAt: new Date(Date.now() + 3600_000) })
  const unsetMember = await t.createAdmin({ name: 'Unset', accessLevel: 'View Only', restrictions: ['/users'] })
  await t.handle.db.update(admins).set({ passwordHash: null }).where(eq(admins.id, unsetMember.id))
  const setup = newConfirmToken()
  await t.handle.db.insert(passwordSetups).values({ adminId: unsetMember.id, tokenHash: setup.hash, expiresAt: new Date(Date.now() + 3600_000) })
  const linkRows = await t.handle.db
    .insert(links)
    .values((['buy', 'sell', 'bridge'] as const).flatMap((kind) => [1, 2].map((preference) => ({ kind, url: `https://${kind}.example.com/${preference}`, preference }))))
    .returning({ id: links.id, kind: links.kind, preference: links.preference })
  const linkOf = (kind: 'buy' | 'sell' | 'bridge', preference: number): string => {
    const row = linkRows.find((r) => r.kind === kind && r.preference === preference)
    if (row === undefined) throw new Error('link insert returned no row')
    return row.id
  }
  const linkIds = { buy: { kept: linkOf('buy', 1), deleted: linkOf('buy', 2) }, sell: { kept: linkOf('sell', 1), deleted: linkOf('sell', 2) }, bridge: { kept: linkOf('bridge', 1), deleted: linkOf('bridge', 2) } }
  const [keptBlock, deletedBlock] = await t.handle.db
    .insert(homepageContent)
    .values([1, 2].map((n) => ({ title: `Block ${n}`, link: `https://wallet.example/${n}`, image: `fixture-${n}.png` })))
    .returning({ id: homepageContent.id })
  if (keptBlock === undefined || deletedBlock === undefined) throw new Error('homepage insert returned no row')
  const homepageIds = { kept: keptBlock.id, deleted: deletedBlock.id }
  const [keptBrand, deletedBrand] = await t.handle.db
    .insert(brands)
    .values([1, 2].map((n) => ({ brandname: `Fixture brand ${n} ${unique()}`, type: 'ipfs' as const })))
    .returning({ id: brands.id })
  if (keptBrand === undefined || deletedBrand === undefined) throw new Error('brand insert returned no row')
  const brandIds = { kept: keptBrand.id, deleted: deletedBrand.id }
  const [keptCountry, deletedCountry] = await t.handle.db
    .insert(restrictedCountries)
    .values([1, 2].map((n) => ({ code: `F${n}-${unique()}`, country: `Fixture country ${n} ${unique()}` })))
    .returning({ id: restrictedCountries.id })
  if (keptCountry === undefined || deletedCountry === undefined) throw new Error('restricted country insert returned no row')
  const restrictionIds = { kept: keptCountry.id, deleted: deletedCountry.id }
  const [enquiry] = await t.handle.db.insert(contactEnquiries).values({ name: 'Fixture Enquirer', email: `enquirer-${unique()}@example.com`, message: 'A question' }).returning({ id: contactEnquiries.id })
  if (enquiry === undefined) throw new Error('no enquiry')
  const [gameCategory] = await t.handle.db.insert(categories).values({ categoryName: `Games ${unique()}`, image: 'fixture.png' }).returning({ id: categories.id })
  if (gameCategory === undefined) throw new Error('category insert returned no row')
  const [keptGame, deletedGame] = await t.handle.db
    .insert(games)
    .values([1, 2].map((n) => ({ title: `Game ${n}`, description: 'A game', categoryId: gameCategory.id, operatingsystem: 'both' as const, liveLink: `https://play.example/${n}`, images: ['fixture.png'], preference: n })))
    .returning({ id: games.id })
  if (keptGame === undefined || deletedGame === undefined) throw new Error('game insert returned no row')
  const gameIds = { kept: keptGame.id, deleted: deletedGame.id, categoryId: gameCategory.id }
  const [otpTemplate] = await t.handle.db.select({ id: emailTemplates.id }).from(emailTemplates).where(eq(emailTemplates.identifier, 'change-password-otp'))
  if (otpTemplate === undefined) throw new Error('the email templates were not installed')
  const [version] = await t.handle.db
    .insert(emailTemplateVersions)
    .values({ templateId: otpTemplate.id, subject: 'Earlier code', content: '<p>Earlier: {{otp}}</p>', savedAt: new Date(0) })
    .returning({ id: emailTemplateVersions.id })
  if (version === undefined) throw new Error('template version insert returned no row')
  const template = { id: otpTemplate.id, versionId: version.id }
  const promotion = await promotionFixtures(t)
  const newsletter = await newsletterFixtures(t)
  const fourEyes = await fourEyesFixtures(t)
  const [view] = await t.handle.db.insert(savedViews).values({ adminId: t.superadmin.id, route: '/users', name: `Fixture view ${unique()}`, query: '?search=a' }).returning({ id: savedViews.id })
  if (view === undefined) throw new Error('saved view insert returned no row')
  const [undoEntry] = await t.handle.db
    .insert(trash)
    .values({ action: 'update', kind: 'games', recordId: keptGame.id, endpoint: 'FreezeCms', rows: { set: { freeze: false }, expect: { freeze: true } }, message: 'Game unfrozen successfully', deletedBy: t.superadmin.id, expiresAt: new Date(Date.now() + 3_600_000) })
    .returning({ id: trash.id })
  if (undoEntry === undefined) throw new Error('trash insert returned no row')
  const suppressed = `suppressed-${unique()}@example.com`
  const [renamed] = await t.handle.db
    .insert(auditLog)
    .values({
      adminId: t.superadmin.id,
      action: '/revertAuditEntry',
      recordId: keptBrand.id,
      changes: { rows: [{ table: 'brands', record: keptBrand.id, op: 'update', fields: [{ field: 'brandname', before: `Reverted brand ${unique()}`, after: 'unknown' }] }], partial: false },
    })
    .returning({ id: auditLog.id })
  if (renamed === undefined) throw new Error('audit insert returned no row')
  await t.handle.db.insert(suppressedAddresses).values({ address: suppressed, reason: 'manual', source: 'fixture' })
  const bulk = await bulkFixtures(t, gameCategory.id)
  const linkChanges = await linkChangeFixtures(t)
  return { own: new Map(), bulk, auditEntryId: renamed.id, suppressed, linkChanges, enquiryId: enquiry.id, undoToken: undoEntry.id, savedViewId: view.id, fourEyes, newsletter, promotion, template, gameIds, restrictionIds, brandIds, homepageIds, linkIds, victim, categoryId: category.id, socialId: socialRow.id, settingsId: settingsRow.id, approveRequest: approve, declineRequestId: decline.id, confirmToken: link.token, unset: { id: unsetMember.id, token: setup.token } }
}

async function newsletterFixtures(t: TestApp): Promise<Fixtures['newsletter']> {
  const [reader, leaver] = await t.handle.db
    .insert(leads)
    .values([1, 2].map((n) => ({ name: `Reader ${n}`, email: `reader${n}-${unique()}@example.com`, subscribed: true, subscribedAt: new Date() })))
    .returning({ id: leads.id })
  const [sending, paused, cancelled] = await t.handle.db
    .insert(newsletterSends)
    .values((['sending', 'paused', 'sending'] as const).map((status) => ({ subject: `Fixture ${status}`, content: '<p>Fixture</p>', status, total: 0 })))
    .returning({ id: newsletterSends.id })
  if (reader === undefined || leaver === undefined || sending === undefined || paused === undefined || cancelled === undefined) throw new Error('newsletter fixture insert returned no row')
  // A recipient still to go, so the two running sends are really running (not finished).
  await t.handle.db.insert(newsletterRecipients).values([sending, cancelled].map((s) => ({ sendId: s.id, leadId: reader.id })))
  // "Send later": one a week ahead, whose time the samples move.
  const [scheduled] = await t.handle.db
    .insert(newsletterSends)
    .values({ subject: 'Fixture scheduled', content: '<p>Fixture</p>', status: 'scheduled', total: 0, scheduledAt: new Date(Date.now() + 7 * 24 * 3600 * 1000), audience: { all: true, id: [] } })
    .returning({ id: newsletterSends.id })
  if (scheduled === undefined) throw new Error('newsletter fixture insert returned no row')
  return { leadId: reader.id, token: unsubscribeToken(t.config, leaver.id), sending: sending.id, paused: paused.id, cancelled: cancelled.id, scheduled: scheduled.id }
}


/** Sends awaiting a second Admin (server/kit/rules/four-eyes.ts), asked for by an admin no caller is. */
async function fourEyesFixtures(t: TestApp): Promise<Fixtures['fourEyes']> {
  const db = t.handle.db
  const requester = await t.createAdmin({ name: 'Requester', accessLevel: 'Admin', restrictions: [] })
  const [lead] = await db.insert(leads).values({ name: 'Four eyes lead', email: `four-eyes-${unique()}@example.com`, subscribed: true, subscribedAt: new Date() }).returning({ id: leads.id })
  if (lead === undefined) throw new Error('lead insert returned no row')
  const waiting = { status: 'awaiting' as const, total: 1, approvalRequestedBy: requester.id }
  const shown = await db
    .insert(promotions)
    .values([1, 2].map((n) => ({ title: `Awaiting ${n}`, content: 'Hello', recipientCount: 1, ...waiting })))
    .returning({ id: promotions.id })
  await db.insert(promotionRecipients).values(shown.map((r) => ({ promotionId: r.id, leadId: lead.id, email: 'four-eyes@example.com' })))
  await db.insert(promotionDeliveries).values(shown.map((r) => ({ promotionId: r.id, leadId: lead.id, round: 1 })))
  const sends = await db
    .insert(newsletterSends)
    .values([1, 2].map((n) => ({ subject: `Awaiting ${n}`, content: '<p>Fixture</p>', ...waiting })))
    .returning({ id: newsletterSends.id })
  await db.insert(newsletterRecipients).values(sends.map((s) => ({ sendId: s.id, leadId: lead.id })))
  const [approvePromotion, rejectPromotion] = shown
  const [approveNewsletter, rejectNewsletter] = sends
  if (approvePromotion === undefined || rejectPromotion === undefined || approveNewsletter === undefined || rejectNewsletter === undefined) throw new Error('four-eyes fixture insert returned no row')
  return { approvePromotion: approvePromotion.id, rejectPromotion: rejectPromotion.id, approveNewsletter: approveNewsletter.id, rejectNewsletter: rejectNewsletter.id }
}

/** Held link changes, made as a user makes them: the setting on, a new buy link sent, the setting back off. */
async function linkChangeFixtures(t: TestApp): Promise<Fixtures['linkChanges']> {
  const requester = await t.createAdmin({ name: 'Link requester', accessLevel: 'Admin', restrictions: [] })
  await t.handle.db.update(siteSettings).set({ twoAdminLinks: true })
  const held = async (as: AdminRow): Promise<string> => {
    const res = await t.app.inject({ method: 'POST', url: `${API_PREFIX}/addbuyLink`, headers: await t.auth(as), payload: { buylink: `https://buy.example.com/held-${unique()}` } })
    const id = (JSON.parse(res.body) as { held?: { id?: string } }).held?.id
    if (res.statusCode !== 202 || id === undefined) throw new Error(`link change fixture not held: ${res.body}`)
    return id
  }
  const fixtures = { approve: await held(requester), reject: await held(requester), withdraw: await held(t.superadmin) }
  await t.handle.db.update(siteSettings).set({ twoAdminLinks: false })
  return fixtures
}

/** A lead and two promotions already delivered to it (round 1 done), written directly. */
async function promotionFixtures(t: TestApp): Promise<Fixtures['promotion']> {
  const db = t.handle.db
  const [lead] = await db.insert(leads).values({ name: 'Fixture lead', email: `lead-${unique()}@example.com`, provider: 'ipfs', country: 'PT' }).returning({ id: leads.id })
  if (lead === undefined) throw new Error('lead insert returned no row')
  const rows = await db
    .insert(promotions)
    .values([1, 2].map((n) => ({ title: `Promotion ${n}`, content: 'Hello', recipientCount: 1, total: 1, sent: 1, status: 'done' as const })))
    .returning({ id: promotions.id })
  const [kept, deleted] = rows
  if (kept === undefined || deleted === undefined) throw new Error('promotion insert returned no row')
  await db.insert(promotionRecipients).values(rows.map((r) => ({ promotionId: r.id, leadId: lead.id, email: 'fixture@example.com' })))
  await db.insert(promotionDeliveries).values(rows.map((r) => ({ promotionId: r.id, leadId: lead.id, round: 1, status: 'sent' as const, sentAt: new Date() })))
  // "Send later": one a week ahead, whose time the samples move.
  const [scheduled] = await db
    .insert(promotions)
    .values({ title: 'Scheduled', content: 'Hello', recipientCount: 0, total: 0, status: 'scheduled', scheduledAt: new Date(Date.now() + 7 * 24 * 3600 * 1000), audience: { email: '', provider: '', country: '', id: [lead.id] } })
    .returning({ id: promotions.id })
  if (scheduled === undefined) throw new Error('promotion insert returned no row')
  return { leadId: lead.id, kept: kept.id, deleted: deleted.id, scheduled: scheduled.id }
}
