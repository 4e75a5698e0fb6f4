/**
 * Test support for the contract-wide proofs (authz-matrix, mass-assignment): a payload per
 * endpoint that its handler accepts, so that a refused call is refused for who sent it and not for
 * what it carried, and a way to send any endpoint a payload.
 *
 * A new handler needs a row in `samples`; the matrix test says which ones are missing.
 */
import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import type { Endpoint } from '#contract/define'
import { API_PREFIX } from '../kit/ground/services.ts'
import { accessRequests, admins, auditLog, bulkRuns, passwordSetups, brands, categories, contactEnquiries, emailTemplates, emailTemplateVersions, games, homepageContent, leads, links, newsletterRecipients, newsletterSends, promotionDeliveries, promotionRecipients, promotions, restrictedCountries, siteSettings, socialMedia, suppressedAddresses, type AdminRow, savedViews, trash } from '../db/schema.ts'
import { eq } from 'drizzle-orm'
import { newConfirmToken } from '../areas/access-requests/routes.ts'
import { unsubscribeToken } from '../areas/newsletter/unsubscribe.ts'
import { encodePng } from '../db/png.ts'
import { SUPERADMIN_EMAIL, TEST_PASSWORD, multipart, type TestApp, type UploadFile } from './test-app.ts'

export type Payload = { json: Record<string, unknown> } | { form: { fields: Record<string, string>; files: UploadFile[] } }

/** Records the samples point at: a staff member to edit and toggle, a category to edit and delete. */
export interface Fixtures {
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
  bulk: {
    gameId: string
    gameToken: string
    enquiryId: string
    enquiryToken: string
    categoryId: string
    categoryToken: string
    runId: string
    /** The other lists' bulk samples: a record of each, and its preview's token, by the apply call's name. */
    more: Record<string, { action: string; id: string; token: string }>
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
  const headers = await t.auth(t.superadmin)
  const tokenOf = async (path: string, action: string, id: string): Promise<string> => {
    const res = await t.app.inject({ method: 'POST', url: `${API_PREFIX}${path}`, headers, payload: { action, selection: { ids: [id] } } })
    const token: unknown = res.json<Record<string, unknown>>()['token']
    if (typeof token !== 'string') throw new Error(`no bulk preview: ${res.body}`)
    return token
  }
  return { gameId: game.id, gameToken: await tokenOf('/previewGamesBulk', 'freeze', game.id), enquiryId: enquiry.id, enquiryToken: await tokenOf('/previewContactBulk', 'resolve', enquiry.id),
    categoryId: unused.id,
    categoryToken: await tokenOf('/previewCategoriesBulk', 'delete', unused.id),
    runId: run.id,
    more: await moreBulkFixtures(t, tokenOf),
  }
}

/** A record for each other list's bulk sample (deleted, cancelled or deactivated by it), with its token. */
async function moreBulkFixtures(t: TestApp, tokenOf: (path: string, action: string, id: string) => Promise<string>): Promise<Fixtures['bulk']['more']> {
  const db = t.handle.db
  const one = <R extends { id: string }>(rows: R[]): string => {
    const [row] = rows
    if (row === undefined) throw new Error('bulk fixture insert returned no row')
    return row.id
  }
  const linkOf = async (kind: 'buy' | 'sell' | 'bridge') =>
    one(await db.insert(links).values({ kind, url: `https://bulk.example/${kind}-${unique()}`, preference: (await db.$count(links, eq(links.kind, kind))) + 1 }).returning({ id: links.id }))
  const later = new Date(Date.now() + 24 * 3600 * 1000)
  const records: [string, string, string][] = [
    ['Brands', 'delete', one(await db.insert(brands).values({ brandname: `Bulk brand ${unique()}`, type: 'web3auth' }).returning({ id: brands.id }))],
    ['BuyLinks', 'delete', await linkOf('buy')],
    ['SellLinks', 'delete', await linkOf('sell')],
    ['BridgeLinks', 'delete', await linkOf('bridge')],
    ['Homepage', 'delete', one(await db.insert(homepageContent).values({ title: `Bulk block ${unique()}`, link: 'https://bulk.example/home', image: 'fixture.png' }).returning({ id: homepageContent.id }))],
    ['Staff', 'deactivate', (await t.createAdmin({ name: 'Bulk staff', accessLevel: 'View Only', restrictions: ['/users'] })).id],
    ['Promotions', 'cancel', one(await db.insert(promotions).values({ title: `Bulk promotion ${unique()}`, content: 'Soon', status: 'scheduled', recipientCount: 0, total: 0, scheduledAt: later }).returning({ id: promotions.id }))],
    ['Newsletter', 'cancel', one(await db.insert(newsletterSends).values({ subject: `Bulk send ${unique()}`, content: 'Soon', status: 'scheduled', total: 0, scheduledAt: later }).returning({ id: newsletterSends.id }))],
  ]
  const more: Fixtures['bulk']['more'] = {}
  for (const [list, action, id] of records) more[`apply${list}Bulk`] = { action, id, token: await tokenOf(`/preview${list}Bulk`, action, id) }
  return more
}

export async function makeFixtures(t: TestApp): Promise<Fixtures> {
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
  return { bulk, auditEntryId: renamed.id, suppressed, linkChanges, enquiryId: enquiry.id, undoToken: undoEntry.id, savedViewId: view.id, fourEyes, newsletter, promotion, template, gameIds, restrictionIds, brandIds, homepageIds, linkIds, victim, categoryId: category.id, socialId: socialRow.id, settingsId: settingsRow.id, approveRequest: approve, declineRequestId: decline.id, confirmToken: link.token, unset: { id: unsetMember.id, token: setup.token } }
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

const unique = (): string => randomBytes(4).toString('hex')

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
const png = (): UploadFile => ({ field: 'image', name: 'a.png', type: 'image/png', content: encodePng(4, 4, () => [200, 40, 40]) })
const NEW_PASSWORD = 'Fresh#2024'
const b64url = (text: string | Buffer): string => Buffer.from(text).toString('base64url')
const clientData = (type: string): string => b64url(JSON.stringify({ type, challenge: b64url(randomBytes(32)), origin: 'http://localhost' }))
/** A passkey registration's shape (contract/passkeys.ts), for a challenge nobody was given. */
const sampleRegistration = () => ({
  id: b64url(randomBytes(16)),
  rawId: b64url(randomBytes(16)),
  response: { clientDataJSON: clientData('webauthn.create'), attestationObject: b64url(randomBytes(64)), transports: ['internal'] },
  clientExtensionResults: {},
  type: 'public-key',
})
/** A passkey assertion's shape, of a credential nobody has. */
const sampleAssertion = () => ({
  id: b64url(randomBytes(16)),
  rawId: b64url(randomBytes(16)),
  response: { clientDataJSON: clientData('webauthn.get'), authenticatorData: b64url(randomBytes(37)), signature: b64url(randomBytes(64)), userHandle: b64url('nobody') },
  clientExtensionResults: {},
  type: 'public-key',
})

/** A payload each registered endpoint accepts from a caller it permits (fresh values per call). */
/** The other lists' preview and apply samples, each on its own fixture record. */
function moreBulkSamples(): Record<string, (f: Fixtures) => Payload> {
  const out: Record<string, (f: Fixtures) => Payload> = {}
  for (const list of ['Brands', 'BuyLinks', 'SellLinks', 'BridgeLinks', 'Homepage', 'Staff', 'Promotions', 'Newsletter']) {
    const of = (f: Fixtures) => {
      const found = f.bulk.more[`apply${list}Bulk`]
      if (found === undefined) throw new Error(`no bulk fixture for ${list}`)
      return found
    }
    out[`preview${list}Bulk`] = (f) => ({ json: { action: of(f).action, selection: { ids: [of(f).id] } } })
    out[`apply${list}Bulk`] = (f) => ({ json: { action: of(f).action, selection: { ids: [of(f).id] }, token: of(f).token } })
  }
  return out
}

export const samples: Record<string, (f: Fixtures) => Payload> = {
  login: () => ({ json: { email: SUPERADMIN_EMAIL, password: TEST_PASSWORD, twoFACode: '' } }),
  getProfile: () => ({ json: {} }),
  editProfile: () => ({ json: { name: `Name ${unique()}` } }),
  logout: () => ({ json: {} }),
  keepAlive: () => ({ json: {} }),
  listSessions: () => ({ json: {} }),
  proveIdentity: () => ({ json: { password: TEST_PASSWORD, twoFACode: '' } }),
  // Nobody's session: an unknown id is answered 404, as another admin's is.
  endSession: () => ({ json: { id: `no-session-${unique()}` } }),
  endOtherSessions: () => ({ json: {} }),
  listPasskeys: () => ({ json: {} }),
  passkeyRegistrationOptions: () => ({ json: {} }),
  // Well-formed answers to no challenge the server gave: refused as unproved (400), never 401/403.
  addPasskey: () => ({ json: { name: `Laptop ${unique()}`, response: sampleRegistration() } }),
  removePasskey: () => ({ json: { id: `no-passkey-${unique()}` } }),
  passkeySignInOptions: () => ({ json: {} }),
  passkeySignIn: () => ({ json: { response: sampleAssertion() } }),
  passkeyStepUpOptions: () => ({ json: {} }),
  provePasskey: () => ({ json: { response: sampleAssertion() } }),
  getuser: () => ({ json: { page: 1, limit: 10, search: '', sortBy: 'name', sortOrder: 'desc', provider: 'ipfs', operatingsystem: 'Android', from: '2026-01-01', to: '2026-12-31', tz: 'Europe/Lisbon', count: 'later' } }),
  getuserCount: () => ({ json: { search: 'a', provider: 'ipfs', operatingsystem: 'Android', from: '2026-01-01', to: '2026-12-31', tz: 'Europe/Lisbon' } }),
  DownloadFile: () => ({ json: { search: 'a', sortBy: 'email', provider: 'web3auth', from: '2026-01-01', tz: 'America/New_York' } }),
  getContactUS: () => ({ json: { page: 1, limit: 10, status: 'Open', sortBy: 'createdAt', sortOrder: 'asc' } }),
  setContactStatus: (f) => ({ json: { _id: f.enquiryId, status: 'Resolved' } }),
  addcategory: () => ({ form: { fields: { categoryName: `Category ${unique()}` }, files: [png()] } }),
  listCategory: () => ({ json: { page: 1, limit: 10 } }),
  editCategoryData: (f) => ({ json: { id: f.categoryId, categoryName: `Renamed ${unique()}`, preference: 1 } }),
  deleteCategory: (f) => ({ json: { id: f.categoryId } }),
  categoryDropdown: () => ({ json: {} }),
  getCategory: (f) => ({ json: { id: f.categoryId } }),
  getLead: (f) => ({ json: { id: f.promotion.leadId } }),
  getSubAdminUser: (f) => ({ json: { _id: f.victim.id } }),
  addbuyLink: () => ({ json: { buylink: `https://buy.example.com/${unique()}` } }),
  getbuyLink: (f) => ({ json: { _id: f.linkIds.buy.kept } }),
  ListBuyLink: () => ({ json: { page: 1, limit: 10, search: '', sortBy: 'buyLink', sortOrder: 'asc' } }),
  editBuylink: (f) => ({ json: { _id: f.linkIds.buy.kept, buyLink: `https://buy.example.com/${unique()}`, preference: 1 } }),
  DeleteBuyLink: (f) => ({ json: { id: f.linkIds.buy.deleted } }),
  addsellLink: () => ({ json: { sellink: `www.sell.example.com/${unique()}`, preference: 1 } }),
  getsellLink: (f) => ({ json: { _id: f.linkIds.sell.kept } }),
  ListSelLink: () => ({ json: { page: 1, limit: 10, search: 'sell' } }),
  editSellink: (f) => ({ json: { _id: f.linkIds.sell.kept, selLink: `https://sell.example.com/${unique()}`, preference: 2 } }),
  DeleteSellLink: (f) => ({ json: { id: f.linkIds.sell.deleted } }),
  addBridgeLink: () => ({ json: { bridgelink: `https://bridge.example.com/${unique()}` } }),
  getBridgeLink: (f) => ({ json: { _id: f.linkIds.bridge.kept } }),
  ListBridgeLink: () => ({ json: { page: 1, limit: 10, search: '' } }),
  editBridgeink: (f) => ({ json: { _id: f.linkIds.bridge.kept, bridgeLink: `https://bridge.example.com/${unique()}`, preference: 1 } }),
  DeleteBridgeLink: (f) => ({ json: { id: f.linkIds.bridge.deleted } }),
  publicInfo: () => ({ json: {} }),
  createSubAdminUsers: () => ({
    json: { name: 'New Staff', email: `new-${unique()}@example.com`, password: 'Passw0rd!', accessLevel: 'View Only', restrictions: ['/users'] },
  }),
  FetchSubAdminUsers: () => ({ json: { page: 1, limit: 10 } }),
  UpdateSubAdminUsers: (f) => ({ json: { _id: f.victim.id, name: `Victim ${unique()}`, email: f.victim.email, accessLevel: 'View Only', restrictions: ['/users', '/cms'] } }),
  ActivateSubadminStatusUpdate: (f) => ({ json: { id: f.victim.id } }),
  unlockAdmin: (f) => ({ json: { id: f.victim.id } }),
  signOutStaff: (f) => ({ json: { id: f.victim.id } }),
  removeStaffPasskeys: (f) => ({ json: { id: f.victim.id } }),
  sendMail: () => ({ json: {} }),
  changePassword: () => ({ json: { otp: '123456', oldPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email: SUPERADMIN_EMAIL } }),
  ForgotSendMail: () => ({ json: { email: `someone-${unique()}@example.com` } }),
  forgotPassword: () => ({ json: { otp: '123456', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD, email: `someone-${unique()}@example.com` } }),
  twofaSetup: () => ({ json: {} }),
  twofaEnable: () => ({ json: { code: '123456', password: TEST_PASSWORD } }),
  twofaDisable: () => ({ json: { code: '123456' } }),
  socialmediaGet: () => ({ json: {} }),
  updatesocialmedia: (f) => ({ json: { _id: f.socialId, discordLink: `https://discord.gg/${unique()}`, twitterLink: 'https://x.com/example', facebookLink: '', instagramLink: '', telegramLink: '' } }),
  DeleteSocialmedia: (f) => ({ json: { linkdata: 'discordLink', datas: { _id: f.socialId } } }),
  getSiteSettings: () => ({ json: {} }),
  updateVersion: (f) => ({ json: { _id: f.settingsId, version: `2.${unique()}` } }),
  DeleteVersion: (f) => ({ json: { datas: { _id: f.settingsId, version: '' } } }),
  get_version: () => ({ json: {} }),
  getSettings: () => ({ json: {} }),
  setRestrictedCountryRule: () => ({ json: { on: true } }),
  setOutwardLinkDomains: () => ({ json: { domains: [] } }),
  setFrequencyCap: () => ({ json: { on: false, messages: 3, days: 7 } }),
  updateSettings: () => ({ form: { fields: { sitename: `Site ${unique()}`, email: 'support@example.com', forcedliq: 'Enable' }, files: [{ ...png(), field: 'sitelogo' }] } }),
  register: () => ({ json: { name: 'Applicant', email: `applicant-${unique()}@example.com` } }),
  getRequestToConfirm: (f) => ({ json: { token: f.confirmToken } }),
  setFirstPassword: (f) => ({ json: { token: f.unset.token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD } }),
  sendPasswordLink: (f) => ({ json: { id: f.unset.id } }),
  listAccessRequests: () => ({ json: { page: 1, limit: 10, search: '' } }),
  approveAccessRequest: (f) => ({ json: { _id: f.approveRequest.id, name: 'Applicant 1', email: f.approveRequest.email, accessLevel: 'View Only', restrictions: ['/users'] } }),
  declineAccessRequest: (f) => ({ json: { id: f.declineRequestId } }),
  getAccessRequest: (f) => ({ json: { id: f.declineRequestId } }),
  confirmAccessRequest: (f) => ({ json: { token: f.confirmToken } }),
  addBrand: () => ({ json: { brandname: `Brand ${unique()}`, type: 'web3auth' } }),
  listbrand: () => ({ json: { page: 1, limit: 10, search: '' } }),
  listbrandUser: (f) => ({ json: { id: f.brandIds.kept, page: 1, limit: 2 } }),
  editbrandUser: (f) => ({ json: { _id: f.brandIds.kept, brandname: `Renamed brand ${unique()}`, type: 'ipfs' } }),
  deleteBrand: (f) => ({ json: { id: f.brandIds.deleted } }),
  referralVisit: () => ({ json: { code: 'U2FsdGVkX1+not-a-brand' } }),
  addHomePageCms: () => ({ form: { fields: { title: `Block ${unique()}`, link: 'https://wallet.example/new' }, files: [png()] } }),
  listHomePageCms: () => ({ json: { page: 1, limit: 10, search: '' } }),
  getHomePageCms: (f) => ({ json: { _id: f.homepageIds.kept } }),
  editHomePageCms: (f) => ({ form: { fields: { _id: f.homepageIds.kept, title: `Edited ${unique()}`, link: 'www.wallet.example/edited' }, files: [] } }),
  deleteHomePageCms: (f) => ({ json: { _id: f.homepageIds.deleted } }),
  updateHomepageCmsPreference: () => ({ json: { status: true } }),
  getHomepageCmsPreference: () => ({ json: {} }),
  getToken: () => ({ json: {} }),
  listCountry: () => ({ json: {} }),
  FetchRestrictions: () => ({ json: {} }),
  AddRestrictions: () => ({ json: { country: ['France', 'Japan'] } }),
  HideRestrictions: (f) => ({ json: { hide: true, country: f.restrictionIds.kept } }),
  CheckBoxDelete: (f) => ({ json: { deleteData: [f.restrictionIds.deleted] } }),
  restrictedCountries: () => ({ json: {} }),
  addcms: (f) => ({
    form: { fields: { title: `Game ${unique()}`, description: 'A game', categoryName: f.gameIds.categoryId, operatingsystem: 'Android', liveLink: 'https://play.example/new', isGameBackend: 'true' }, files: [png()] },
  }),
  listCms: (f) => ({ json: { page: 1, limit: 10, search: '', category: f.gameIds.categoryId, operatingsystem: '', sortBy: 'categoryName' } }),
  getCms: (f) => ({ json: { _id: f.gameIds.kept } }),
  Editcms: (f) => ({
    form: {
      fields: { _id: f.gameIds.kept, preference: '1', title: `Edited ${unique()}`, description: 'A game', categoryName: JSON.stringify({ _id: f.gameIds.categoryId }), operatingsystem: 'ios', liveLink: 'https://play.example/edited', isGameBackend: 'false' },
      files: [],
    },
  }),
  DeleteCms: (f) => ({ json: { id: f.gameIds.deleted } }),
  FreezeCms: (f) => ({ json: { id: f.gameIds.kept } }),
  updateToken: () => ({ json: { tokenName: `Ticket ${unique()}`, price: '0.25', currency: 'USDT', productId: 'com.wallet.ticket', ticketCount: 10 } }),
  getemail: () => ({ json: { page: 1, limit: 10, search: '' } }),
  getTemplate: (f) => ({ json: { id: f.template.id } }),
  editTemplate: (f) => ({ json: { id: f.template.id, subject: `Code ${unique()}`, identifier: 'change-password-otp', content: `<p>Your code: {{otp}} (${unique()})</p>` } }),
  listTemplateVersions: (f) => ({ json: { id: f.template.id, page: 1, limit: 10 } }),
  restoreTemplateVersion: (f) => ({ json: { id: f.template.id, versionId: f.template.versionId } }),
  previewTemplate: () => ({ json: { subject: 'Preview', identifier: 'change-password-otp', content: '<p>{{otp}}</p>' } }),
  sendTestTemplate: (f) => ({ json: { id: f.template.id } }),
  sendTestPromotion: () => ({ json: { title: `Test ${unique()}`, content: 'Fresh games' } }),
  sendTestNewsletter: () => ({ json: { all: true, subject: 'Hello {{name}}', content: '<p>This month.</p>' } }),
  getDashboard: () => ({ json: {} }),
  getMenuCounts: () => ({ json: {} }),
  allUser: () => ({ json: { page: 1, limit: 50, search: '' } }),
  countNewsletterRecipients: (f) => ({ json: { all: false, id: [f.newsletter.leadId] } }),
  forecastNewsletter: () => ({ json: { all: true } }),
  forecastNewsletterSend: (f) => ({ json: { id: f.newsletter.sending } }),
  forecastNewsletterLeads: (f) => ({ json: { all: false, id: [f.newsletter.leadId], reason: 'unsubscribed' } }),
  forecastNewsletterCsv: (f) => ({ json: { send: f.newsletter.sending, reason: 'suppressed' } }),
  sendNewsletter: (f) => ({ json: { all: false, id: [f.newsletter.leadId], subject: `News ${unique()}`, content: '<p>This month in the wallet.</p>' } }),
  listNewsletterSends: () => ({ json: { page: 1, limit: 10, search: '' } }),
  getNewsletterMail: (f) => ({ json: { id: f.newsletter.sending } }),
  pauseNewsletter: (f) => ({ json: { id: f.newsletter.sending } }),
  resumeNewsletter: (f) => ({ json: { id: f.newsletter.paused } }),
  cancelNewsletter: (f) => ({ json: { id: f.newsletter.cancelled } }),
  rescheduleNewsletter: (f) => ({ json: { id: f.newsletter.scheduled, sendAt: new Date(Date.now() + 86_400_000 + Math.floor(Math.random() * 3_600_000)).toISOString() } }),
  unsubscribeStatus: (f) => ({ json: { token: f.newsletter.token } }),
  unsubscribe: (f) => ({ json: { token: f.newsletter.token } }),
  FilterOption: () => ({ json: { page: 1, limit: 100, data: { email: 'lead', provider: 'ipfs', country: 'Portugal' } } }),
  countRecipients: (f) => ({ json: { id: [f.promotion.leadId] } }),
  forecastPromotion: () => ({ json: { selectall: true, email: '', provider: '', country: '' } }),
  forecastPromotionRound: (f) => ({ json: { id: f.promotion.kept } }),
  forecastPromotionLeads: (f) => ({ json: { id: [f.promotion.leadId], reason: 'duplicate', page: 1, limit: 50 } }),
  forecastPromotionCsv: (f) => ({ json: { promotion: f.promotion.kept, reason: 'invalid-address' } }),
  addNotification: (f) => ({ form: { fields: { title: `Promotion ${unique()}`, content: 'Hello again', id: f.promotion.leadId }, files: [png()] } }),
  listNotification: () => ({ json: { page: 1, limit: 10, search: '' } }),
  listnotfiyuser: (f) => ({ json: { id: f.promotion.kept, page: 1, limit: 100 } }),
  // The first accepted call starts round 2; a repeat of round 1 is answered as already started.
  ResendData: (f) => ({ json: { id: f.promotion.kept, round: 1, only: 'all' } }),
  cancelPromotion: (f) => ({ json: { id: f.promotion.kept } }),
  // A new time each call, a day or so ahead of now: every sample changes the row.
  reschedulePromotion: (f) => ({ json: { id: f.promotion.scheduled, sendAt: new Date(Date.now() + 86_400_000 + Math.floor(Math.random() * 3_600_000)).toISOString() } }),
  DeletePromotion: (f) => ({ json: { id: f.promotion.deleted } }),
  approveLinkChange: (f) => ({ json: { id: f.linkChanges.approve } }),
  rejectLinkChange: (f) => ({ json: { id: f.linkChanges.reject } }),
  withdrawLinkChange: (f) => ({ json: { id: f.linkChanges.withdraw } }),
  listLinkChanges: () => ({ json: {} }),
  setTwoAdminLinks: () => ({ json: { on: false } }),
  approvePromotion: (f) => ({ json: { id: f.fourEyes.approvePromotion, round: 1 } }),
  rejectPromotion: (f) => ({ json: { id: f.fourEyes.rejectPromotion, round: 1 } }),
  approveNewsletter: (f) => ({ json: { id: f.fourEyes.approveNewsletter } }),
  rejectNewsletter: (f) => ({ json: { id: f.fourEyes.rejectNewsletter } }),
  listAudit: (f) => ({ json: { page: 1, limit: 10, search: '', from: '2026-01-01', record: f.categoryId } }),
  auditOptions: () => ({ json: {} }),
  exportAudit: () => ({ json: { action: '/login' } }),
  revertAuditEntry: (f) => ({ json: { id: f.auditEntryId, force: true } }),
  listSavedViews: () => ({ json: {} }),
  findRecords: () => ({ json: { q: 'example' } }),
  saveView: () => ({ json: { route: '/profile', name: `View ${unique()}`, query: '?search=a' } }),
  deleteView: (f) => ({ json: { id: f.savedViewId } }),
  undo: (f) => ({ json: { token: f.undoToken } }),
  previewGamesBulk: (f) => ({ json: { action: 'freeze', selection: { ids: [f.bulk.gameId] } } }),
  applyGamesBulk: (f) => ({ json: { action: 'freeze', selection: { ids: [f.bulk.gameId] }, token: f.bulk.gameToken } }),
  previewContactBulk: () => ({ json: { action: 'resolve', selection: { matching: { search: 'Bulk fixture', filters: { status: 'Open' } } } } }),
  applyContactBulk: (f) => ({ json: { action: 'resolve', selection: { ids: [f.bulk.enquiryId] }, token: f.bulk.enquiryToken } }),
  previewCategoriesBulk: (f) => ({ json: { action: 'delete', selection: { ids: [f.bulk.categoryId] } } }),
  applyCategoriesBulk: (f) => ({ json: { action: 'delete', selection: { ids: [f.bulk.categoryId] }, token: f.bulk.categoryToken } }),
  ...moreBulkSamples(),
  getBulkRun: (f) => ({ json: { id: f.bulk.runId } }),
  cancelBulkRun: (f) => ({ json: { id: f.bulk.runId } }),
  listSuppressedAddresses: () => ({ json: { page: 1, limit: 10, search: '', sortBy: 'address', sortOrder: 'asc' } }),
  addSuppressedAddress: () => ({ json: { address: `Manual-${unique()}@Example.com` } }),
  removeSuppressedAddress: (f) => ({ json: { address: f.suppressed } }),
  // Off (404) in the test app, which sets no MAIL_EVENTS_SECRET; server/areas/suppression covers it signed.
  mailEvents: () => ({ json: { id: `evt-${unique()}`, type: 'bounce', email: `bounced-${unique()}@example.com` } }),
}

/** Whether the app serves this endpoint (it has a handler). */
/**
 * Calls that end the caller's own session when they succeed (Logout revokes the token it was
 * sent with): a test that reuses one token per caller runs these last, or gives them a token of
 * their own, or every later call of that caller is a 401.
 */
export const endsSession: ReadonlySet<string> = new Set(['logout'])

export const isServed = (t: TestApp, e: Endpoint): boolean => t.app.hasRoute({ method: e.method, url: API_PREFIX + e.path })

let address = 0
/** Each call from its own address: the per-address limits (login, OTP) are not what these tests are about. */
const nextAddress = (): string => `10.9.${Math.floor(++address / 250) % 250}.${address % 250}`

/** Sends `payload` to `e`: a query for GET, JSON or multipart for POST. */
export async function send(t: TestApp, e: Endpoint, headers: Record<string, string>, payload: Payload): Promise<LightMyRequestResponse> {
  const url = API_PREFIX + e.path
  const remoteAddress = nextAddress()
  if ('form' in payload) {
    const form = await multipart(payload.form.fields, payload.form.files)
    return t.app.inject({ method: e.method, url, headers: { ...headers, ...form.headers }, payload: form.payload, remoteAddress })
  }
  if (e.method === 'GET') {
    const query: Record<string, string> = {}
    for (const [key, value] of Object.entries(payload.json)) query[key] = typeof value === 'string' ? value : JSON.stringify(value)
    return t.app.inject({ method: 'GET', url, headers, query, remoteAddress })
  }
  return t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload.json), remoteAddress })
}
