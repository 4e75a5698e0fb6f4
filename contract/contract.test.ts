import { describe, expect, it } from 'vitest'
import { z } from 'zod/mini'
import { fieldErrors } from './common.ts'
import { endpoint, changesData, nameEndpoints, publicAccess, type Endpoint } from './define.ts'
import { screens, screenPaths } from './routes.ts'
import { contractModules, endpointsOf } from './testing/endpoint-table.ts'
import { addBridgeLink, addbuyLink, addsellLink, editBridgeink, editBuylink, editSellink, ListBuyLink } from './links.ts'
import { addcms, Editcms, listCms } from './games.ts'
import { createSubAdminUsers, UpdateSubAdminUsers } from './staff.ts'
import { addHomePageCms, editHomePageCms, updateHomepageCmsPreference } from './homepage.ts'
import { addBrand, editbrandUser } from './brands.ts'
import { addNotification } from './promotions.ts'
import { DeleteSocialmedia, updatesocialmedia } from './social.ts'
import { changePassword, forgotPassword, ForgotSendMail } from './password.ts'
import { AddRestrictions } from './restrictions.ts'
import { updateSettings } from './settings.ts'
import { updateVersion } from './version.ts'
import { editTemplate } from './emails.ts'

/** Every module of the contract and every endpoint they export (contract/testing/endpoint-table.ts). */
const modules = await contractModules(import.meta.dirname)
const endpoints: readonly Endpoint[] = endpointsOf(modules)

/** Every call of requirements R7, spelled as it is there. */
const SPEC_CALLS = [
  // Authentication and profile
  ['POST', '/login'],
  ['POST', '/change-password'],
  ['POST', '/forgot-password'],
  ['POST', '/ForgotSend-mail'],
  ['POST', '/send-mail'],
  ['GET', '/get-profile'],
  ['POST', '/edit-profile'],
  // Leads, contact, email templates
  ['GET', '/getuser'],
  ['GET', '/DownloadFile'],
  ['GET', '/getContactUS'],
  ['GET', '/getemail'],
  ['POST', '/editTemplate'],
  ['GET', '/allUser'],
  ['POST', '/FilterOption'],
  ['GET', '/listCountry'],
  // Promotions
  ['POST', '/addNotification'],
  ['GET', '/listNotification'],
  ['POST', '/DeletePromotion'],
  ['POST', '/listnotfiyuser'],
  ['POST', '/ResendData'],
  // Links
  ['POST', '/addbuyLink'],
  ['GET', '/getbuyLink'],
  ['POST', '/ListBuyLink'],
  ['POST', '/editBuylink'],
  ['POST', '/DeleteBuyLink'],
  ['POST', '/addsellLink'],
  ['GET', '/getsellLink'],
  ['POST', '/ListSelLink'],
  ['POST', '/editSellink'],
  ['POST', '/DeleteSellLink'],
  ['POST', '/addBridgeLink'],
  ['GET', '/getBridgeLink'],
  ['POST', '/ListBridgeLink'],
  ['POST', '/editBridgeink'],
  ['POST', '/DeleteBridgeLink'],
  // Social media
  ['POST', '/socialmedia-get'],
  ['POST', '/updatesocialmedia'],
  ['POST', '/Delete-socialmedia'],
  // Categories and games
  ['POST', '/addcategory'],
  ['GET', '/listCategory'],
  ['POST', '/editCategoryData'],
  ['POST', '/deleteCategory'],
  ['GET', '/categoryDropdown'],
  ['POST', '/addcms'],
  ['GET', '/listCms'],
  ['POST', '/DeleteCms'],
  ['POST', '/Editcms'],
  ['POST', '/FreezeCms'],
  // Brands
  ['POST', '/addBrand'],
  ['GET', '/listbrand'],
  ['POST', '/listbrandUser'],
  ['POST', '/editbrandUser'],
  ['POST', '/deleteBrand'],
  // Restrictions
  ['GET', '/FetchRestrictions'],
  ['POST', '/AddRestrictions'],
  ['POST', '/HideRestrictions'],
  ['POST', '/CheckBoxDelete'],
  // Sub-admins
  ['POST', '/createSubAdminUsers'],
  ['GET', '/FetchSubAdminUsers'],
  ['POST', '/UpdateSubAdminUsers'],
  ['POST', '/ActivateSubadminStatusUpdate'],
  // Version
  ['POST', '/updateVersion'],
  ['POST', '/DeleteVersion'],
  ['POST', '/get_version'],
  // Homepage content
  ['POST', '/addHomePageCms'],
  ['GET', '/listHomePageCms'],
  ['POST', '/editHomePageCms'],
  ['POST', '/deleteHomePageCms'],
  ['POST', '/updateHomepageCmsPreference'],
  ['GET', '/getHomepageCmsPreference'],
] as const

const specPaths = new Set<string>(SPEC_CALLS.map(([, path]) => path))

/** The per-field errors a payload gets, as the server's `errors` object would carry them. */
function errorsOf(schema: z.ZodMiniType, input: unknown): Record<string, string> {
  const parsed = schema.safeParse(input)
  return parsed.success ? {} : fieldErrors(parsed.error)
}

describe('the endpoint table', () => {
  it('holds every call of requirements R7 exactly once, with its method', () => {
    for (const [method, path] of SPEC_CALLS) {
      const found = endpoints.filter((e) => e.path === path)
      expect(found, path).toHaveLength(1)
      expect(found[0]?.method, path).toBe(method)
    }
  })

  it('has no duplicate names or paths', () => {
    const names = endpoints.map((e) => e.name)
    const paths = endpoints.map((e) => e.path)
    expect(new Set(names).size).toBe(names.length)
    expect(new Set(paths).size).toBe(paths.length)
  })

  it('exports every endpoint under its own name', () => {
    let seen = 0
    for (const area of modules) {
      for (const [key, value] of Object.entries(area)) {
        const e = endpoints.find((x) => x === value)
        if (e === undefined) continue
        seen += 1
        expect(e.name, key).toBe(key)
      }
    }
    expect(seen).toBe(endpoints.length)
  })

  it('names an endpoint by its export, defaults its path, and refuses one exported under two names', async () => {
    const { z } = await import('zod/mini')
    const definition = { method: 'GET', input: z.object({}), output: z.object({}), access: publicAccess } as const
    const module = { getThing: endpoint(definition), spelled: endpoint({ ...definition, path: '/get_spelled' }) }
    nameEndpoints(module)
    expect([module.getThing.name, module.getThing.path, module.spelled.name, module.spelled.path]).toEqual(['getThing', '/getThing', 'spelled', '/get_spelled'])
    const twice = endpoint(definition)
    expect(() => nameEndpoints({ first: twice, second: twice })).toThrow('The endpoint second is also exported as first')
  })

  it('gives every endpoint an access rule naming a list screen', () => {
    const listScreens = new Set<string>(screens.filter((s) => !('parent' in s)).map((s) => s.path))
    for (const e of endpoints) {
      expect(e.access, e.name).toBeDefined()
      if (e.access.kind === 'screen') {
        expect(screenPaths, e.name).toContain(e.access.route)
        expect(listScreens.has(e.access.route), `${e.name} names ${e.access.route}`).toBe(true)
      }
    }
  })

  it('marks every call not in the requirements as our definition', () => {
    for (const e of endpoints.filter((x) => !specPaths.has(x.path))) {
      expect(e.ours, e.name).toBeTruthy()
    }
  })

  it('lets only Admin-level writes change data, and staff calls refuse sub-admins', () => {
    const staff = endpoints.filter((e) => e.access.kind === 'screen' && e.access.staff === true).map((e) => e.name)
    expect(staff.sort()).toEqual([
      'ActivateSubadminStatusUpdate',
      'UpdateSubAdminUsers',
      'applyStaffBulk',
      'approveAccessRequest',
      'createSubAdminUsers',
      'declineAccessRequest',
      'getAccessRequest',
      'listAccessRequests',
      'removeStaffPasskeys',
      'sendPasswordLink',
      'setFrequencyCap',
      'setOutwardLinkDomains',
      'setRestrictedCountryRule',
      'setTwoAdminLinks',
      'signOutStaff',
      'startViewAs',
      'unlockAdmin',
    ])
    for (const name of ['addbuyLink', 'editBridgeink', 'DeleteCms', 'FreezeCms', 'deleteBrand', 'updateVersion']) {
      const e: Endpoint | undefined = endpoints.find((x) => x.name === name)
      expect(e?.access, name).toMatchObject({ kind: 'screen', write: true })
    }
    expect(ForgotSendMail.access.kind).toBe('public')
    expect(forgotPassword.access.kind).toBe('public')
    expect(changePassword.access.kind).toBe('session')
  })

  it('gives every sorted list call exactly its declared columns as sortBy, with sortOrder', () => {
    const sorted = endpoints.filter((e) => e.sort !== undefined)
    expect(sorted.length).toBeGreaterThan(10)
    for (const e of endpoints) {
      const schema = z.toJSONSchema(e.input, { io: 'input', unrepresentable: 'any' })
      const properties = typeof schema === 'object' && 'properties' in schema ? (schema.properties ?? {}) : {}
      const sortBy = properties['sortBy']
      expect(sortBy === undefined, `${e.name}: sortBy in the input exactly when sort is declared`).toBe(e.sort === undefined)
      if (e.sort === undefined) continue
      expect(sortBy, e.name).toMatchObject({ enum: [...e.sort.columns] })
      expect(properties['sortOrder'], e.name).toMatchObject({ enum: ['asc', 'desc'] })
      if (e.sort.initial) expect(e.sort.columns, e.name).toContain(e.sort.initial.by)
    }
  })

  it('refuses an unknown sort column with a message naming the columns', () => {
    const parsed = listCms.input.safeParse({ sortBy: 'liveLink' })
    expect(parsed.success).toBe(false)
    if (!parsed.success) expect(fieldErrors(parsed.error)).toEqual({ sortBy: 'sortBy must be one of: title, categoryName' })
    expect(listCms.input.safeParse({ sortBy: 'title', sortOrder: 'desc' }).success).toBe(true)
  })

  it('names in words every call that writes an audit row, and only those, each name once', () => {
    const audited = endpoints.filter(changesData)
    expect(audited.length).toBeGreaterThan(50)
    expect(audited.filter((e) => !e.logAs?.trim()).map((e) => e.name)).toEqual([])
    expect(endpoints.filter((e) => !changesData(e) && e.logAs !== undefined).map((e) => e.name)).toEqual([])
    const names = audited.map((e) => e.logAs)
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([])
  })

  it('uses GET only for reads', () => {
    for (const e of endpoints.filter((x) => x.method === 'GET')) {
      expect(e.access.kind === 'screen' ? e.access.write : false, e.name).toBe(false)
    }
  })
})

describe('links', () => {
  it('shows buylink is required when the buy link is empty', () => {
    expect(errorsOf(addbuyLink.input, { buylink: '' })).toEqual({ buylink: 'buylink is required' })
    expect(errorsOf(addbuyLink.input, {})).toEqual({ buylink: 'buylink is required' })
  })

  it('shows Incorrect format for a link that is not http(s) or www', () => {
    expect(errorsOf(addbuyLink.input, { buylink: 'ftp://x' })).toEqual({ buylink: 'Incorrect format' })
    expect(errorsOf(addsellLink.input, { sellink: 'example.com' })).toEqual({ sellink: 'Incorrect format' })
    expect(errorsOf(addBridgeLink.input, { bridgelink: 'www.example.com' })).toEqual({})
    expect(errorsOf(addbuyLink.input, { buylink: 'https://example.com/buy', preference: '3' })).toEqual({})
  })

  it('uses the swap-out and swap-in messages on add and edit', () => {
    expect(errorsOf(addsellLink.input, { sellink: ' ' })).toEqual({ sellink: 'swap out link is required' })
    expect(errorsOf(addBridgeLink.input, {})).toEqual({ bridgelink: 'Swap in link is required' })
    expect(errorsOf(editSellink.input, { _id: 'a', selLink: '', preference: 1 })).toEqual({
      selLink: 'swap out link is required',
    })
    expect(errorsOf(editBridgeink.input, { _id: 'a', bridgeLink: 'nope', preference: 1 })).toEqual({
      bridgeLink: 'Incorrect format',
    })
    expect(errorsOf(editBuylink.input, { _id: 'a', buyLink: 'http://b.io', preference: 2 })).toEqual({})
  })

  it('pages the list calls with defaults', () => {
    expect(ListBuyLink.input.parse({})).toEqual({ page: 1, limit: 10, search: '' })
  })
})

describe('games', () => {
  const add = { liveLink: 'https://g.io', title: 'T', categoryName: 'c1', operatingsystem: 'ios', description: 'd' }

  it('uses the add messages', () => {
    expect(errorsOf(addcms.input, {})).toEqual({
      liveLink: 'liveLink is required',
      title: 'Title is required',
      categoryName: 'category Name is required',
      operatingsystem: 'OperatingSystem is required',
      description: 'description is required',
    })
    expect(errorsOf(addcms.input, { ...add, liveLink: 'x' })).toEqual({ liveLink: 'Invalid format' })
  })

  it('reads the game-backend flag from the text true or false', () => {
    expect(addcms.input.parse({ ...add, isGameBackend: 'true' }).isGameBackend).toBe(true)
    expect(addcms.input.parse(add).isGameBackend).toBe(false)
    expect(errorsOf(addcms.input, { ...add, isGameBackend: 'yes' })).toEqual({ isGameBackend: 'Incorrect format' })
  })

  it('uses the edit messages and reads the category from a JSON string', () => {
    const edit = { ...add, _id: 'g1', preference: '2', categoryName: JSON.stringify({ _id: 'c2', categoryName: 'Cards' }) }
    expect(Editcms.input.parse(edit).categoryName).toEqual({ _id: 'c2' })
    // The form holds the bare id (a select's value); the client sends the parsed { _id } back as JSON.
    expect(Editcms.input.parse({ ...edit, categoryName: 'c2' }).categoryName).toEqual({ _id: 'c2' })
    expect(errorsOf(Editcms.input, { ...edit, operatingsystem: '', liveLink: 'x', preference: '' })).toEqual({
      operatingsystem: 'Operating System is required',
      liveLink: 'Incorrect format',
      preference: 'preference is required',
    })
    expect(errorsOf(Editcms.input, { ...edit, categoryName: '{not json' })).toEqual({ categoryName: 'category Name is required' })
    expect(errorsOf(Editcms.input, { ...edit, categoryName: '{"categoryName":"Cards"}' })).toEqual({ categoryName: 'category Name is required' })
  })

  it('carries the image and video file messages', () => {
    expect(addcms.files?.image).toMatchObject({
      max: 5,
      required: true,
      messages: {
        required: 'image is required',
        kind: 'Please upload file(s) with .png, .jpeg, .jpg extensions only.',
        tooMany: 'You can upload a maximum of 5 images.',
      },
    })
    expect(addcms.files?.video?.messages.kind).toBe('Please upload file(s) with .mp4, .m4a, .webm extensions only.')
    expect(Editcms.files?.image?.required).toBe(false)
  })

  it('filters the list by category and operating system', () => {
    expect(listCms.input.parse({ operatingsystem: 'both', page: '2' })).toMatchObject({ operatingsystem: 'both', page: 2, category: '' })
    expect(errorsOf(listCms.input, { operatingsystem: 'windows' })).toEqual({ operatingsystem: 'Incorrect format' })
  })
})

describe('staff', () => {
  const user = { name: 'Ann', email: 'ann@example.com', password: 'Passw0rd!', accessLevel: 'View Only' }

  it('requires Access when the user type is not Admin', () => {
    expect(errorsOf(createSubAdminUsers.input, user)).toEqual({ restrictions: 'Access is required' })
    expect(errorsOf(createSubAdminUsers.input, { ...user, accessLevel: 'Admin' })).toEqual({})
    expect(errorsOf(createSubAdminUsers.input, { ...user, restrictions: ['/users'] })).toEqual({})
  })

  it('uses the create messages for empty fields', () => {
    expect(errorsOf(createSubAdminUsers.input, {})).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      password: 'Password is required',
      accessLevel: 'User type is required',
    })
    expect(errorsOf(createSubAdminUsers.input, { ...user, email: 'ann@', password: 'short', restrictions: ['/users'] })).toEqual({
      email: 'Incorrect format',
      password: 'Incorrect format',
    })
  })

  it('never takes a role from the client and refuses unknown routes', () => {
    const parsed = createSubAdminUsers.input.parse({ ...user, restrictions: ['/users'], role: 'superadmin' })
    expect('role' in parsed).toBe(false)
    expect(errorsOf(createSubAdminUsers.input, { ...user, restrictions: ['/nowhere'] })).toEqual({ restrictions: 'Incorrect format' })
  })

  it('uses the edit messages', () => {
    expect(errorsOf(UpdateSubAdminUsers.input, { ...user, _id: 'u1' })).toEqual({ restrictions: 'Restrictions is required' })
    expect(errorsOf(UpdateSubAdminUsers.input, { _id: 'u1', name: 'Ann', email: 'ann@example.com' })).toEqual({
      accessLevel: 'AccessLevel is required',
    })
    expect('password' in UpdateSubAdminUsers.input.parse({ ...user, _id: 'u1', accessLevel: 'Admin' })).toBe(false)
  })
})

describe('homepage content', () => {
  it('uses Title on add and title on edit', () => {
    expect(errorsOf(addHomePageCms.input, { title: '', link: '' })).toEqual({ title: 'Title is required', link: 'link is required' })
    expect(errorsOf(editHomePageCms.input, { _id: 'h', title: '', link: 'x' })).toEqual({
      title: 'title is required',
      link: 'Incorrect format',
    })
  })

  it('carries each form its own image message', () => {
    expect(addHomePageCms.files?.image?.messages).toMatchObject({
      required: 'image is required',
      kind: 'Please upload file having extensions  .png,.jpeg,.jpg only.',
    })
    expect(editHomePageCms.files?.image?.messages.kind).toBe('Please upload an image with .png, .jpeg,.jpg extension.')
  })

  it('takes a real boolean for the landing-page switch', () => {
    expect(errorsOf(updateHomepageCmsPreference.input, { status: 'true' })).toEqual({ status: 'Incorrect format' })
    expect(updateHomepageCmsPreference.input.parse({ status: false })).toEqual({ status: false })
  })
})

describe('brands, promotions, social links, restrictions', () => {
  it('uses the brand messages', () => {
    expect(errorsOf(addBrand.input, {})).toEqual({ brandname: 'Brandname is required', type: 'type is required' })
    expect(errorsOf(editbrandUser.input, { _id: 'b', brandname: 'B', type: 'other' })).toEqual({ type: 'type is required' })
  })

  it('uses the promotion messages and needs recipients unless all are selected', () => {
    expect(errorsOf(addNotification.input, { id: 'u1' })).toEqual({ title: 'Title is required', content: 'content is required' })
    expect(errorsOf(addNotification.input, { title: 'T', content: 'C' })).toEqual({ id: 'Please select at least one user' })
    expect(addNotification.input.parse({ title: 'T', content: 'C', selectall: 'true' }).selectall).toBe(true)
    expect(addNotification.input.parse({ title: 'T', content: 'C', id: '["a","b"]' }).id).toEqual(['a', 'b'])
    expect(addNotification.files?.image?.messages.kind).toBe('Please upload file having extensions  .png,.jpeg,.jpg only.')
  })

  it('accepts empty social links and refuses malformed ones', () => {
    expect(errorsOf(updatesocialmedia.input, { _id: 's', discordLink: '', twitterLink: 'https://x.com/a' })).toEqual({})
    expect(errorsOf(updatesocialmedia.input, { telegramLink: 't.me/a' })).toEqual({ telegramLink: 'Incorrect format' })
    expect(errorsOf(DeleteSocialmedia.input, { linkdata: 'password' })).toEqual({ linkdata: 'Incorrect format' })
  })

  it('never accepts the All option as a country', () => {
    expect(errorsOf(AddRestrictions.input, { country: ['*'] })).toEqual({ country: 'Incorrect format' })
    expect(errorsOf(AddRestrictions.input, { country: [] })).toEqual({ country: 'Country is required' })
  })
})

describe('password, version, settings, templates', () => {
  const reset = { otp: '123456', newPassword: 'N3w!pass', confirmPassword: 'N3w!pass', email: 'a@b.io' }

  it('needs a 6-digit OTP, a strong new password and a matching confirmation', () => {
    expect(errorsOf(forgotPassword.input, reset)).toEqual({})
    expect(errorsOf(forgotPassword.input, { ...reset, otp: '12345' })).toEqual({ otp: 'Incorrect format' })
    expect(errorsOf(forgotPassword.input, { ...reset, otp: { $ne: '' } })).toEqual({ otp: 'OTP is required' })
    expect(errorsOf(forgotPassword.input, { ...reset, newPassword: 'weakpass', confirmPassword: 'weakpass' })).toEqual({
      newPassword: 'Incorrect format',
    })
    expect(errorsOf(forgotPassword.input, { ...reset, confirmPassword: 'N3w!pasS' })).toEqual({
      confirmPassword: 'Confirm password does not match',
    })
    expect(errorsOf(changePassword.input, { ...reset, oldPassword: '' })).toEqual({ oldPassword: 'Old password is required' })
    expect(errorsOf(ForgotSendMail.input, { email: '' })).toEqual({ email: 'email is required' })
  })

  it('validates the version, the settings and the template edit', () => {
    expect(errorsOf(updateVersion.input, { _id: 'v', version: ' ' })).toEqual({ version: 'version is required' })
    expect(errorsOf(updateSettings.input, {})).toEqual({})
    expect(errorsOf(updateSettings.input, { email: 'nope', social_link2: 'medium', forcedliq: 'Maybe' })).toEqual({
      email: 'Incorrect format',
      social_link2: 'Incorrect format',
      forcedliq: 'Incorrect format',
    })
    expect(errorsOf(updateSettings.input, { phone_number: '(351) 912 345 678', mobile_number: '+44 20 7946 0958' })).toEqual({})
    expect(errorsOf(updateSettings.input, { phone_number: '((((', mobile_number: 'call me' })).toEqual({
      phone_number: 'Incorrect format',
      mobile_number: 'Incorrect format',
    })
    expect(errorsOf(editTemplate.input, { id: 't', subject: '', identifier: 'otp', content: '' })).toEqual({
      subject: 'Subject is required',
      content: 'content is required',
    })
  })
})
