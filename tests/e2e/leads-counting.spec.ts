/**
 * A broad search on Leads shows its rows before its count: the pager says "counting…" while the
 * count call (getuserCount) is on its way, held here by the browser, then the exact count. Paging
 * on works meanwhile: Next while the page is full; the last page's button comes with the count.
 */
import type { Page, Route } from '@playwright/test'
import { leadName } from './accounts.ts'
import { expect, serviceWorkerReady, test, bodyRows } from './fixtures.ts'

const pager = (page: Page) => page.getByText(/^Showing /)

/** Holds every getuserCount request until `release()`; `asked` lists their URLs. */
async function holdCounts(page: Page): Promise<{ release: () => void; asked: string[] }> {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  const asked: string[] = []
  await page.route('**/api/admin/getuserCount*', async (route: Route) => {
    asked.push(route.request().url())
    await held
    await route.continue()
  })
  return { release, asked }
}

/** The pager while counting, light and dark, for a look at it (.tmp/ is not kept). */
async function shoot(page: Page, width: number): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await pager(page).scrollIntoViewIfNeeded()
    await page.screenshot({ path: `.tmp/leads-counting-${width}-${scheme}.png`, animations: 'disabled' })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test.describe('Leads: rows first, then the count', () => {
  test('shows a new search\'s rows with "counting…", then its exact count', async ({ adminPage: page }) => {
    const { release, asked } = await holdCounts(page)
    // 'ead0' is in the emails lead001 to lead099: two pages of 50, and a search no other test asks for.
    await page.goto('/admin/users?search=ead0')
    await expect(bodyRows(page)).toHaveCount(50)
    await expect(bodyRows(page).first()).toContainText(leadName(1))
    await expect(pager(page)).toHaveText('Showing 1–50 of counting…')
    await expect(page.getByRole('button', { name: 'Next' })).toBeEnabled()
    await expect(page.getByRole('button', { name: 'Page 2' })).toHaveCount(0)
    await expect.poll(() => asked.length).toBe(1)
    expect(new URL(asked[0] ?? '').searchParams.get('search')).toBe('ead0')
    await shoot(page, 1280)

    release()
    await expect(pager(page)).toHaveText('Showing 1–50 of 99')
    await expect(page.getByRole('button', { name: 'Page 2' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Next' })).toBeEnabled()
  })

  test('pages on with Next while counting, and a repeat of the search answers its count at once', async ({ adminPage: page }) => {
    const { release, asked } = await holdCounts(page)
    // 'ead' is in every lead's name and email: six pages of 20.
    await page.setViewportSize({ width: 820, height: 900 })
    await page.goto('/admin/users?search=ead&limit=20')
    await expect(bodyRows(page)).toHaveCount(20)
    await expect(pager(page)).toHaveText('Showing 1–20 of counting…')
    await shoot(page, 820)
    await page.getByRole('button', { name: 'Next' }).click()
    await expect(page).toHaveURL(/page=2/)
    await expect(bodyRows(page).first()).toContainText(leadName(21))
    // The server counted the search as it answered page 1: page 2 comes with the count.
    await expect(pager(page)).toHaveText('Showing 21–40 of 120')
    await expect(page.getByRole('button', { name: 'Page 6' })).toBeVisible()
    release()
    await expect.poll(() => asked.length).toBe(1)

    // Searched again (a reload): answered with its count, without a count call.
    await page.reload()
    await expect(bodyRows(page).first()).toContainText(leadName(21))
    await page.goto('/admin/users?search=ead&limit=20')
    await expect(pager(page)).toHaveText('Showing 1–20 of 120')
    expect(asked).toHaveLength(1)
  })

  test('keeps the count it was given in the offline copy of the page', async ({ adminPage: page, context }) => {
    await serviceWorkerReady(page)
    const { release, asked } = await holdCounts(page)
    // '2e.te' is in every lead's email, and asked for nowhere else.
    await page.goto('/admin/users?search=2e.te&limit=20')
    await expect(pager(page)).toHaveText('Showing 1–20 of counting…')
    release()
    await expect(pager(page)).toHaveText('Showing 1–20 of 120')
    expect(asked).toHaveLength(1)

    await context.setOffline(true)
    await page.reload()
    await expect(page.getByRole('status').filter({ hasText: /You are offline — showing data from / })).toBeVisible()
    await expect(bodyRows(page).first()).toContainText(leadName(1))
    await expect(pager(page)).toHaveText('Showing 1–20 of 120')
    await context.setOffline(false)
  })
})
