import type { APIRequestContext, APIResponse, Locator, Page } from '@playwright/test'
import { z } from 'zod'
import { encodePng } from '../../server/db/png.ts'
import { test, expect, accounts, apiToken, serviceWorkerReady } from './fixtures.ts'
import { leadEmail } from './accounts.ts'

test('opens with Ctrl+K and goes to a screen with the keyboard', async ({ adminPage: page }) => {
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await expect(palette).toBeVisible()
  await expect(palette.getByRole('combobox')).toBeFocused()
  await page.keyboard.type('Category List')
  await page.keyboard.press('Enter')
  await expect(palette).toHaveCount(0)
  await expect(page).toHaveURL(/\/admin\/category$/)
})

test('finds a lead already in the cache and opens its page', async ({ adminPage: page }) => {
  await expect(page.getByRole('cell', { name: leadEmail(3), exact: true })).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await expect(palette.getByRole('combobox')).toBeFocused()
  await page.keyboard.type(leadEmail(3))
  // Enter acts on the highlighted option, as a user would see it.
  await expect(palette.getByRole('option', { name: new RegExp(leadEmail(3)) })).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/admin\/lead\?id=/)
  await expect(page.locator('dl').getByText(leadEmail(3), { exact: true })).toBeVisible()
})

test('lists Add Category for an Admin and no write action for View Only staff', async ({ page, signIn }) => {
  await signIn(accounts.superadmin)
  await page.goto('/admin/category')
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await page.keyboard.press('Control+k')
  let palette = page.getByRole('dialog', { name: 'Command palette' })
  await expect(palette.getByRole('option', { name: /Add Category/ })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)

  await signIn(accounts.viewOnly)
  await page.goto('/admin/category')
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await page.keyboard.press('Control+k')
  palette = page.getByRole('dialog', { name: 'Command palette' })
  await expect(palette.getByRole('option', { name: 'Category List' })).toBeVisible()
  await expect(palette.getByRole('option', { name: /Add Category/ })).toHaveCount(0)
  // Screens outside the restrictions are not offered either.
  await expect(palette.getByRole('option', { name: /Users and Access/ })).toHaveCount(0)
})

/** A PNG for the forms that need an image. */
const image = (name: string) => ({ name, mimeType: 'image/png', buffer: encodePng(8, 8, (x, y) => [(x * 32) % 256, (y * 32) % 256, 160]) })

/**
 * The areas built since the palette came: each one's records, once its list
 * has been read, and its Add action. `create` stores a record named `name` through the API.
 */
const areas: { list: string; heading: string; add: string; addPath: string; create: (request: APIRequestContext, auth: Record<string, string>, name: string) => Promise<string> }[] = [
  {
    list: '/cms',
    heading: 'Games',
    add: 'Add Games',
    addPath: '/add-cms',
    create: async (request, auth, name) => {
      const category = `${name} category`
      await ok(request.post('/api/admin/addcategory', { headers: auth, multipart: { categoryName: category, image: image('category.png') } }))
      const found = Dropdown.parse(await (await request.get('/api/admin/categoryDropdown', { headers: auth })).json()).result.data.find((c) => c.categoryName === category)
      await ok(
        request.post('/api/admin/addcms', {
          headers: auth,
          multipart: { title: name, category: found?._id ?? '', categoryName: found?._id ?? '', operatingsystem: 'Android', description: `About ${name}`, liveLink: 'https://games.example/play', isGameBackend: 'false', image: image('shot.png') },
        }),
      )
      return name
    },
  },
  {
    list: '/buy_list',
    heading: 'Buy links',
    add: 'Add Buy Link',
    addPath: '/add_buylink',
    create: async (request, auth, name) => {
      const link = `https://${name.toLowerCase().replace(/\W+/g, '-')}.example.com/`
      await ok(request.post('/api/admin/addbuyLink', { headers: auth, data: { buylink: link } }))
      return link
    },
  },
  {
    list: '/brand',
    heading: 'Brands',
    add: 'Add Brand',
    addPath: '/addbrand',
    create: async (request, auth, name) => {
      await ok(request.post('/api/admin/addBrand', { headers: auth, data: { brandname: name, type: 'ipfs' } }))
      return name
    },
  },
  {
    list: '/restriction',
    heading: 'Restricted countries',
    add: 'Add Restriction',
    addPath: '/add-restriction',
    // Countries are a fixed list: one no other spec restricts (adding it again changes nothing).
    create: async (request, auth) => {
      await request.post('/api/admin/AddRestrictions', { headers: auth, data: { country: ['Mongolia'] } })
      return 'Mongolia'
    },
  },
  {
    list: '/notificationlist',
    heading: 'Promotions',
    add: 'Add Promotion',
    addPath: '/addnotification',
    create: async (request, auth, name) => {
      await ok(request.post('/api/admin/addNotification', { headers: auth, multipart: { title: name, content: `About ${name}`, selectall: 'true' } }))
      return name
    },
  },
  {
    list: '/homepage-content',
    heading: 'Home page content',
    add: 'Add Homepage Content',
    addPath: '/add-homepage-content',
    create: async (request, auth, name) => {
      await ok(request.post('/api/admin/addHomePageCms', { headers: auth, multipart: { title: name, link: 'https://wallet.example/palette', image: image('block.png') } }))
      return name
    },
  },
]

const Dropdown = z.object({ result: z.object({ data: z.array(z.object({ _id: z.string(), categoryName: z.string() })) }) })

async function ok(answer: Promise<APIResponse>): Promise<void> {
  const response = await answer
  expect(response.ok(), await response.text()).toBe(true)
}

async function openPalette(page: Page): Promise<Locator> {
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await expect(palette.getByRole('combobox')).toBeFocused()
  return palette
}

test("finds every newer area's records once read, offline too, and each area's Add action opens its page", async ({ adminPage: page, context }) => {
  test.slow()
  const auth = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
  const run = Date.now().toString(36)
  const labels: string[] = []
  for (const area of areas) {
    const label = await area.create(page.request, auth, `Palette ${area.heading} ${run}`)
    labels.push(label)
    // Reading the list puts its records in the cache the palette searches.
    await page.goto(`/admin${area.list}?search=${encodeURIComponent(label)}`)
    await expect(page.getByRole('table').locator('tbody tr').filter({ hasText: label }).first()).toBeVisible()
  }

  // Offline, the palette's own code comes from the service worker's copy.
  await serviceWorkerReady(page)
  await context.setOffline(true)
  for (const [i, area] of areas.entries()) {
    const label = labels[i] ?? ''
    const palette = await openPalette(page)
    await page.keyboard.type(label)
    await expect(palette.getByRole('group', { name: area.heading }).getByRole('option', { name: new RegExp(escape(label)) })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(palette).toHaveCount(0)
  }
  await context.setOffline(false)

  for (const area of areas) {
    const palette = await openPalette(page)
    await page.keyboard.type(area.add)
    const option = palette.getByRole('group', { name: 'Actions' }).getByRole('option', { name: new RegExp(`^${escape(area.add)}`) })
    await expect(option).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`/admin${escape(area.addPath)}$`))
  }
})

/** A pattern matching `text` literally. */
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

test('finds a lead no list has read by asking the server, opens it, and says server search is unavailable offline', async ({ adminPage: page, context }) => {
  // lead005 is among the oldest: not on the first page of Leads, so only the server knows it.
  const palette = await openPalette(page)
  const asked = page.waitForResponse((r) => r.url().includes('/api/admin/findRecords'))
  await page.keyboard.type('lead005@e2e')
  expect((await asked).status()).toBe(200)
  const option = palette.getByRole('option', { name: new RegExp(leadEmail(5)) })
  await expect(option).toHaveAttribute('aria-selected', 'true')
  await expect(palette.getByRole('group', { name: 'Leads' })).toBeVisible()
  await page.keyboard.press('Enter')
  // A lead opens on its own page.
  await expect(page).toHaveURL(/\/admin\/lead\?id=/)
  await expect(page.locator('dl').getByText(leadEmail(5), { exact: true })).toBeVisible()

  await context.setOffline(true)
  const offline = await openPalette(page)
  await page.keyboard.type('lead00')
  await expect(offline.getByText('Server search is unavailable offline: the records shown are those this device holds.')).toBeVisible()
  await context.setOffline(false)
})
