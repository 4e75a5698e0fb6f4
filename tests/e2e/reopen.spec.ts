/**
 * Reopening a list: the rows it showed last are painted from the document's early script, with
 * their age, before the app's code has run (src/lib/rows-snapshot.ts); the app then takes over
 * with the same rows. The app's entry is held back here so the painted rows can be looked at;
 * without a service worker, so the page's own routing sees the entry's request.
 */
import type { Page, Route } from '@playwright/test'
import { test, expect, accounts, signInPage } from './fixtures.ts'

test.use({ serviceWorkers: 'block' })

/** Holds every request for the app's module entry until the returned function is called. */
async function holdTheApp(page: Page): Promise<() => Promise<void>> {
  const held: Route[] = []
  let holding = true
  await page.route(/\/admin\/assets\/index-[\w-]+\.js$/, (route) => (holding ? held.push(route) : route.continue()))
  return async () => {
    holding = false
    await Promise.all(held.map((route) => route.continue()))
  }
}

/** Opens `path` with the app's entry held: the early script paints no kept rows, then the app runs. */
async function expectNothingPainted(page: Page, path: string): Promise<void> {
  const release = await holdTheApp(page)
  await page.goto(path, { waitUntil: 'commit' })
  await expect(page.locator('#root')).toBeAttached()
  await expect(page.locator('[data-rows-age]')).toHaveCount(0)
  await expect(page.locator('main tbody tr')).toHaveCount(0)
  await release()
}

const firstEmail = async (page: Page): Promise<string> => (await page.locator('main tbody tr').first().getByText('@').first().textContent()) ?? ''

test('a reopened list paints its last rows with their age before the app runs, then the app takes over', async ({ page }) => {
  await signInPage(page, accounts.superadmin)
  await page.goto('/admin/users')
  await expect(page.locator('main tbody tr').first()).toContainText('@')
  const email = await firstEmail(page)

  const release = await holdTheApp(page)
  await page.reload({ waitUntil: 'commit' })
  const notice = page.locator('[data-rows-age]')
  await expect(notice).toHaveText(/^Rows as of .+, updating…$/)
  await expect(notice).toHaveAttribute('title', /\d/)
  await expect(page.locator('main tbody tr').first()).toContainText(email)
  // Read only: nothing painted can be used before the app runs (the entry is still held, so
  // DOMContentLoaded has not fired: the rows came from the early script).
  expect(await page.locator('#root > :first-child').getAttribute('inert')).toBe('')
  // Nor is it read as the app: no landmark of the painted copy is offered (the menu is the app's).
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
  await expect(page.getByRole('status')).toHaveText(/^Rows as of /)

  await release()
  await expect(notice).toHaveCount(0)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await expect(page.locator('main tbody tr').first()).toContainText(email)
  await expect(page.getByRole('button', { name: 'Columns' })).toBeEnabled()
})

test('logout wipes the kept rows, and another session never sees them', async ({ page }) => {
  await signInPage(page, accounts.superadmin)
  await page.goto('/admin/users')
  await expect(page.locator('main tbody tr').first()).toContainText('@')
  await page.goto('/admin/category')
  expect(await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem('admin_rows_snapshots') ?? '{}') as object))).toContain('/admin/users')

  // Another session in the same browser (a token it did not save under) paints nothing.
  await signInPage(page, accounts.superadmin)
  await expectNothingPainted(page, '/admin/users')

  await page.getByRole('button', { name: /Account menu/ }).click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/admin\/login/)
  expect(await page.evaluate(() => localStorage.getItem('admin_rows_snapshots'))).toBeNull()
})

test('rows on screen when the stored token is replaced behind the app are not kept for the new session', async ({ page }) => {
  await signInPage(page, accounts.superadmin)
  await page.goto('/admin/users')
  await expect(page.locator('main tbody tr').first()).toContainText('@')
  // A token written in this document fires no storage event: the app still shows the first
  // session's rows when the page is left, and they must not be painted for the second.
  await signInPage(page, accounts.viewOnly)
  await expectNothingPainted(page, '/admin/users')
})
