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
import { API_PREFIX } from '../kit/api.ts'
import { accessRequests, categories, links, siteSettings, socialMedia, type AdminRow } from '../db/schema.ts'
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
  /** Per kind of link: one to read and edit, one to delete. */
  linkIds: Record<'buy' | 'sell' | 'bridge', { kept: string; deleted: string }>
}

export async function makeFixtures(t: TestApp): Promise<Fixtures> {
  const victim = await t.createAdmin({ name: 'Victim', accessLevel: 'View Only', restrictions: ['/users'] })
  const [category] = await t.handle.db.insert(categories).values({ categoryName: `Fixture ${unique()}`, image: 'fixture.png' }).returning({ id: categories.id })
  if (category === undefined) throw new Error('category insert returned no row')
  const [socialRow] = await t.handle.db.insert(socialMedia).values({}).returning({ id: socialMedia.id })
  const [settingsRow] = await t.handle.db.insert(siteSettings).values({ version: '1.0.0' }).returning({ id: siteSettings.id })
  const passwordHash = await t.passwords.hash(NEW_PASSWORD)
  const [approve, decline] = await t.handle.db
    .insert(accessRequests)
    .values([1, 2].map((n) => ({ name: `Applicant ${n}`, email: `applicant${n}-${unique()}@example.com`, passwordHash })))
    .returning({ id: accessRequests.id, email: accessRequests.email })
  if (socialRow === undefined || settingsRow === undefined || approve === undefined || decline === undefined) throw new Error('fixture insert returned no row')
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
  return { linkIds, victim, categoryId: category.id, socialId: socialRow.id, settingsId: settingsRow.id, approveRequest: approve, declineRequestId: decline.id }
}

const unique = (): string => randomBytes(4).toString('hex')
const png = (): UploadFile => ({ field: 'image', name: 'a.png', type: 'image/png', content: encodePng(4, 4, () => [200, 40, 40]) })
const NEW_PASSWORD = 'Fresh#2024'

/** A payload each registered endpoint accepts from a caller it permits (fresh values per call). */
export const samples: Record<string, (f: Fixtures) => Payload> = {
  login: () => ({ json: { email: SUPERADMIN_EMAIL, password: TEST_PASSWORD, twoFACode: '' } }),
  getProfile: () => ({ json: {} }),
  editProfile: () => ({ json: { name: `Name ${unique()}` } }),
  getuser: () => ({ json: { page: 1, limit: 10, search: '' } }),
  DownloadFile: () => ({ json: {} }),
  getContactUS: () => ({ json: {} }),
  addcategory: () => ({ form: { fields: { categoryName: `Category ${unique()}` }, files: [png()] } }),
  listCategory: () => ({ json: { page: 1, limit: 10 } }),
  editCategoryData: (f) => ({ json: { id: f.categoryId, categoryName: `Renamed ${unique()}`, preference: 1 } }),
  deleteCategory: (f) => ({ json: { id: f.categoryId } }),
  categoryDropdown: () => ({ json: {} }),
  getCategory: (f) => ({ json: { id: f.categoryId } }),
  getSubAdminUser: (f) => ({ json: { _id: f.victim.id } }),
  addbuyLink: () => ({ json: { buylink: `https://buy.example.com/${unique()}` } }),
  getbuyLink: (f) => ({ json: { _id: f.linkIds.buy.kept } }),
  ListBuyLink: () => ({ json: { page: 1, limit: 10, search: '' } }),
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
  updateSettings: () => ({ form: { fields: { sitename: `Site ${unique()}`, email: 'support@example.com', forcedliq: 'Enable' }, files: [{ ...png(), field: 'sitelogo' }] } }),
  register: () => ({ json: { name: 'Applicant', email: `applicant-${unique()}@example.com`, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD } }),
  listAccessRequests: () => ({ json: { page: 1, limit: 10, search: '' } }),
  approveAccessRequest: (f) => ({ json: { _id: f.approveRequest.id, name: 'Applicant 1', email: f.approveRequest.email, accessLevel: 'View Only', restrictions: ['/users'] } }),
  declineAccessRequest: (f) => ({ json: { id: f.declineRequestId } }),
  getAccessRequest: (f) => ({ json: { id: f.declineRequestId } }),
}

/** Whether the app serves this endpoint (it has a handler). */
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
