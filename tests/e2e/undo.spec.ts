/**
 * Undo: a delete's toast offers Undo for its seconds, a reload within them brings the
 * toast back, and Undo (its button, or Ctrl+Z) puts the record back at its place in the preference
 * order. The palette's Freeze, the restricted countries' Delete All, a social link's and the
 * version's trash button and Delete view offer it too.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { z } from 'zod'
import { gradientIcon } from '../../server/db/png.ts'
import { test, expect, superadminHeaders } from './fixtures.ts'

const CONFIRM = 'Are you sure you want to remove this Link'
const NOTE = 'You can undo this for a few seconds afterwards.'
const LinkPage = z.object({ result: z.array(z.object({ _id: z.string(), buyLink: z.string(), preference: z.number() })) })


async function call(request: APIRequestContext, path: string, data: Record<string, unknown>): Promise<unknown> {
  const response = await request.post(`/api/admin${path}`, { headers: await superadminHeaders(request), data })
  return response.json()
}

async function read(request: APIRequestContext, path: string, params: Record<string, string | number> = {}): Promise<unknown> {
  const response = await request.get(`/api/admin${path}`, { headers: await superadminHeaders(request), params })
  return response.json()
}

/** The Undo button of the toast saying `message`. */
const undoOf = (page: Page, message: string) =>
  page.getByRole('status').locator('div').filter({ hasText: message }).last().getByRole('button', { name: 'Undo', exact: true })
const toastSaying = (page: Page, message: string) => page.getByRole('status').filter({ hasText: message })

/** The run's buy links in list order, as `url:preference`. */
async function linksOf(request: APIRequestContext, run: string): Promise<string[]> {
  const page = LinkPage.parse(await call(request, '/ListBuyLink', { page: 1, limit: 100, search: run }))
  return page.result.map((l) => `${l.buyLink}:${l.preference}`)
}

test('a deleted link comes back at its place with Undo, after a reload within the window', async ({ adminPage: page }) => {
  const run = `undo-${Date.now().toString(36)}`
  const [first, second, third] = ['a', 'b', 'c'].map((n) => `https://${run}-${n}.example.com/`)
  if (first === undefined || second === undefined || third === undefined) throw new Error('three links')
  for (const link of [first, second, third]) await call(page.request, '/addbuyLink', { buylink: link })
  const places = (await linksOf(page.request, run)).map((l) => Number(l.split(':').at(-1)))
  const before = await linksOf(page.request, run)

  await page.goto(`/admin/buy_list?search=${run}`)
  const rows = page.getByRole('table').locator('tbody tr')
  await expect(rows).toHaveCount(3)
  await page.getByRole('button', { name: `Delete ${second}` }).click()
  const dialog = page.getByRole('alertdialog', { name: CONFIRM })
  await expect(dialog).toContainText('You can undo this for a few seconds afterwards.')
  await dialog.getByRole('button', { name: 'Yes, remove' }).click()
  const toast = page.getByRole('status').locator('div').filter({ hasText: 'Buy link deleted successfully' }).last()
  await expect(toast.getByRole('button', { name: 'Undo', exact: true })).toBeVisible()
  await expect(rows).toHaveCount(2)
  expect(await linksOf(page.request, run)).toEqual([`${first}:${places[0]}`, `${third}:${places[1]}`])

  await page.reload()
  await expect(rows).toHaveCount(2)
  const back = page.getByRole('status').locator('div').filter({ hasText: 'Buy link deleted successfully' }).last()
  const undo = back.getByRole('button', { name: 'Undo', exact: true })
  await expect(undo).toBeVisible()
  // Keyboard reachable: focus the button and press Enter.
  await undo.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('status').filter({ hasText: 'Buy link restored successfully' })).toBeVisible()
  await expect(rows).toHaveCount(3)
  await expect(rows.nth(1)).toContainText(second)
  expect(await linksOf(page.request, run)).toEqual(before)
  // Used: a further reload offers nothing.
  await page.reload()
  await expect(rows).toHaveCount(3)
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toHaveCount(0)

  // Ctrl+Z, outside fields, presses the latest Undo.
  await page.getByRole('button', { name: `Delete ${third}` }).click()
  await dialog.getByRole('button', { name: 'Yes, remove' }).click()
  await expect(rows).toHaveCount(2)
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeVisible()
  await page.getByRole('heading', { name: 'Buy List' }).click()
  await page.keyboard.press('Control+z')
  await expect(rows).toHaveCount(3)
  expect(await linksOf(page.request, run)).toEqual(before)
})

test('the palette Freeze offers Undo, which unfreezes the game', async ({ adminPage: page }) => {
  const title = `Undo freeze ${Date.now().toString(36)}`
  const Categories = z.object({ result: z.object({ data: z.array(z.object({ _id: z.string(), categoryName: z.string() })) }) })
  const image = (name: string) => ({ name, mimeType: 'image/png', buffer: gradientIcon(64, [30, 80, 160], [40, 30, 200]) })
  const auth = await superadminHeaders(page.request)
  let category = Categories.parse(await read(page.request, '/categoryDropdown')).result.data.find((c) => c.categoryName === 'Undo games')
  if (category === undefined) {
    expect((await page.request.post('/api/admin/addcategory', { headers: auth, multipart: { categoryName: 'Undo games', image: image('category.png') } })).ok()).toBe(true)
    category = Categories.parse(await read(page.request, '/categoryDropdown')).result.data.find((c) => c.categoryName === 'Undo games')
  }
  const game = { title, categoryName: category?._id ?? '', operatingsystem: 'both', description: `About ${title}`, liveLink: 'https://games.example/play', isGameBackend: 'false', image: image('shot.png') }
  expect((await page.request.post('/api/admin/addcms', { headers: auth, multipart: game })).ok()).toBe(true)
  const frozen = async () => z.object({ result: z.array(z.object({ freeze: z.boolean() })) }).parse(await read(page.request, '/listCms', { page: 1, limit: 5, search: title })).result[0]?.freeze

  await page.goto(`/admin/cms?search=${encodeURIComponent(title)}`)
  await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(1)
  await page.keyboard.press('Control+k')
  await page.getByPlaceholder(/Type a screen/).fill(`Freeze game: ${title}`)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: `UnFreeze ${title}` })).toBeVisible()
  expect(await frozen()).toBe(true)

  await undoOf(page, `${title} is frozen`).click()
  await expect(toastSaying(page, 'Game unfrozen successfully')).toBeVisible()
  await expect(page.getByRole('button', { name: `Freeze ${title}`, exact: true })).toBeVisible()
  expect(await frozen()).toBe(false)
})

test("one Undo brings back every country the restriction list's Delete All removed", async ({ adminPage: page }) => {
  const Entries = z.object({ result: z.array(z.object({ Restrictedcountry: z.array(z.object({ _id: z.string(), country: z.string(), hide: z.boolean() })) })) })
  const entries = async () => Entries.parse(await read(page.request, '/FetchRestrictions')).result[0]?.Restrictedcountry ?? []
  const listed = (await entries()).map((e) => e._id)
  if (listed.length > 0) await call(page.request, '/CheckBoxDelete', { deleteData: listed })
  await call(page.request, '/AddRestrictions', { country: ['Chile', 'Japan', 'Spain'] })
  const spain = (await entries()).find((e) => e.country === 'Spain')
  await call(page.request, '/HideRestrictions', { hide: true, country: spain?._id })
  const before = await entries()

  await page.goto('/admin/restriction')
  const rows = page.getByRole('table').locator('tbody tr')
  await expect(rows).toHaveCount(3)
  const bar = page.getByRole('region', { name: 'Selected rows' })
  await page.getByRole('button', { name: 'Select All' }).click()
  await bar.getByRole('button', { name: 'Delete All' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Are you sure you want to remove these countries' })
  await expect(dialog).toContainText(NOTE)
  await dialog.getByRole('button', { name: 'Yes, remove' }).click()
  await expect(rows.first()).toContainText('No Record Found')

  await undoOf(page, '3 countries removed from the restriction list').click()
  await expect(toastSaying(page, '3 countries restored to the restriction list')).toBeVisible()
  await expect(rows).toHaveCount(3)
  await expect(page.getByRole('row').filter({ hasText: 'Spain' })).toContainText('Not enforced')
  expect(await entries()).toEqual(before)
})

test("a social link's delete is undone: the link is back in its field", async ({ adminPage: page }) => {
  const link = `https://instagram.com/undo-${Date.now().toString(36)}`
  const Social = z.object({ data: z.object({ data: z.array(z.object({ _id: z.string() }).passthrough()) }) })
  const [record] = Social.parse(await call(page.request, '/socialmedia-get', {})).data.data
  await call(page.request, '/updatesocialmedia', { _id: record?._id, discordLink: '', twitterLink: '', facebookLink: '', instagramLink: link, telegramLink: '' })

  await page.goto('/admin/social-links')
  const field = page.getByLabel('Instagram', { exact: true })
  await expect(field).toHaveValue(link)
  await page.getByRole('button', { name: 'Delete Instagram' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Are you sure you want to remove this Instagram link' })
  await expect(dialog).toContainText(NOTE)
  await dialog.getByRole('button', { name: 'Yes, remove' }).click()
  await expect(field).toHaveValue('')

  await undoOf(page, 'Social media link deleted successfully').click()
  await expect(toastSaying(page, 'Social media link restored successfully')).toBeVisible()
  await expect(field).toHaveValue(link)
  await page.reload()
  await expect(page.getByLabel('Instagram', { exact: true })).toHaveValue(link)
})

test("the version's trash button is undone: the version is back", async ({ adminPage: page }) => {
  const version = `7.${Date.now() % 1000}.1`
  const Site = z.object({ result: z.array(z.object({ _id: z.string() })) })
  const [record] = Site.parse(await read(page.request, '/getSiteSettings')).result
  await call(page.request, '/updateVersion', { _id: record?._id, version })

  await page.goto('/admin/version')
  const field = page.getByRole('textbox', { name: 'Version', exact: true })
  await expect(field).toHaveValue(version)
  await page.getByRole('button', { name: 'Delete Version' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Are you sure you want to remove this version' })
  await expect(dialog).toContainText(NOTE)
  await dialog.getByRole('button', { name: 'Yes, remove' }).click()
  await expect(field).toHaveValue('')

  await undoOf(page, 'Version deleted successfully').click()
  await expect(toastSaying(page, 'Version restored successfully')).toBeVisible()
  await expect(field).toHaveValue(version)
})

test('a deleted saved view comes back with Undo', async ({ adminPage: page }) => {
  const name = `Undo view ${Date.now().toString(36)}`
  await call(page.request, '/saveView', { route: '/users', name, query: '?search=lead007' })

  await page.goto('/admin/users?search=lead007')
  const views = page.getByRole('combobox', { name: 'Saved views' })
  await expect(views).toContainText(name)
  await page.getByRole('button', { name: 'Delete view' }).click()
  await expect(views).not.toContainText(name)

  await undoOf(page, `View “${name}” deleted`).click()
  await expect(toastSaying(page, 'View restored')).toBeVisible()
  await expect(views).toContainText(name)
  await expect(page.getByRole('button', { name: 'Delete view' })).toBeVisible()
})
