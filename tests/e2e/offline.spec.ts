import { test, expect, serviceWorkerReady, storedSnapshots } from './fixtures.ts'
import type { Page } from '@playwright/test'
import { leadEmail } from './accounts.ts'

/** Keys of every entry in Cache Storage (what the service worker keeps). */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) {
      const cache = await caches.open(name)
      for (const request of await cache.keys()) urls.push(request.url)
    }
    return urls
  })
}

test('after visiting Leads, the shell and the list still appear offline, through two reloads', async ({ adminPage: page, context }) => {
  const newest = page.getByRole('cell', { name: leadEmail(1), exact: true })
  await expect(newest).toBeVisible()
  await serviceWorkerReady(page)
  await expect.poll(() => storedSnapshots(page)).toBeGreaterThan(0)

  await context.setOffline(true)
  for (let reload = 1; reload <= 2; reload++) {
    await page.reload()
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await expect(newest).toBeVisible()
    await expect(page.getByRole('status').filter({ hasText: /You are offline — showing data from / })).toBeVisible()
  }
  await context.setOffline(false)
})

test('a list reloaded offline the moment it appeared still shows: its copy is saved at once, not after a delay', async ({ adminPage: page, context }) => {
  await serviceWorkerReady(page)
  await page.goto('/admin/users?page=2')
  const row = page.getByRole('cell', { name: leadEmail(51), exact: true })
  await expect(row).toBeVisible()
  // No wait for the snapshot here: a user may reload right away.
  await context.setOffline(true)
  await page.reload()
  await expect(row).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: /You are offline — showing data from / })).toBeVisible()
  await context.setOffline(false)
})

test('disables write actions offline and says why', async ({ adminPage: page, context }) => {
  await page.goto('/admin/category')
  await expect(page.getByRole('heading', { name: 'Category List' })).toBeVisible()
  await serviceWorkerReady(page)
  await context.setOffline(true)
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await expect(palette).toBeVisible()
  const add = palette.getByRole('option', { name: /Add Category/ })
  await expect(add).toHaveAttribute('aria-disabled', 'true')
  await expect(palette.getByText(/You are offline\. Changes need a connection/)).toBeVisible()
  await context.setOffline(false)
})

test('the service worker precaches the shell and never caches the API', async ({ adminPage: page }) => {
  await serviceWorkerReady(page)
  await page.reload()
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  const urls = await cachedUrls(page)
  expect(urls.some((u) => u.includes('/admin/index.html'))).toBe(true)
  expect(urls.some((u) => /\/admin\/assets\/index-[\w-]+\.js/.test(u))).toBe(true)
  expect(urls.filter((u) => u.includes('/api/'))).toEqual([])
})

test('offers a web app manifest Chromium can install', async ({ page }) => {
  await page.goto('/admin/login')
  await serviceWorkerReady(page)
  const cdp = await page.context().newCDPSession(page)
  const manifest = await cdp.send('Page.getAppManifest')
  expect(manifest.errors).toEqual([])
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
  // Test contexts are incognito, where Chromium never installs; anything else would be ours.
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([])
})

/** A valid 2x2 PNG (the server checks uploads by content). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==',
  'base64',
)

test('keeps uploaded images in the cache, so they still show offline', async ({ adminPage: page, context }) => {
  const token = await page.evaluate(() => localStorage.getItem('admin_token'))
  const name = `Cached image ${Date.now()}`
  const created = await page.request.post('/api/admin/addcategory', {
    headers: { authorization: token ?? '' },
    multipart: { categoryName: name, image: { name: 'dot.png', mimeType: 'image/png', buffer: PNG } },
  })
  expect(created.ok(), await created.text()).toBe(true)
  await serviceWorkerReady(page)
  await page.goto(`/admin/category?search=${encodeURIComponent(name)}`)
  const image = page.getByRole('row', { name: new RegExp(name) }).getByRole('img')
  await expect(image).toBeVisible()
  const src = await image.getAttribute('src')
  expect(src).toMatch(/\/uploads\//)
  await expect.poll(async () => (await cachedUrls(page)).some((u) => src !== null && u.endsWith(src))).toBe(true)

  await context.setOffline(true)
  await page.reload()
  await expect(image).toBeVisible()
  await expect.poll(() => image.evaluate((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0)).toBe(true)
  await context.setOffline(false)
})
