/**
 * The controls a list's first render does without (src/ui/deferred.ts): the account menu, the
 * Columns menu, the page-size select and the row tooltips fetch their Radix code on first use. These tests slow that
 * code down, so every press lands on the placeholder, and check the user still gets what Radix
 * gives: the control opens, the keyboard and the focus behave, the tooltip shows.
 */
import type { Page } from '@playwright/test'
import { test, expect } from './fixtures.ts'

/** Every script fetched from now on arrives `ms` later. */
async function slowScripts(page: Page, ms = 400): Promise<void> {
  await page.route('**/admin/assets/*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms))
    await route.continue()
  })
}

const firstRow = (page: Page) => page.getByRole('table').locator('tbody tr').first()

test.describe('deferred controls on a list', () => {
  test.beforeEach(async ({ adminPage: page }) => {
    await expect(firstRow(page)).toBeVisible()
    await slowScripts(page)
  })

  test('the first load of Leads fetches none of their code', async ({ adminPage: page }) => {
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.endsWith('.js')),
    )
    expect(scripts.length).toBeGreaterThan(0)
    // Chunks are named after their first module, plus a hash of 8 characters.
    const deferredChunk = /\/(account-menu|columns-menu|dropdown-menu|select|tooltip-radix|view-dialog)-[\w-]{8}\.js$/
    expect(scripts.filter((name) => deferredChunk.test(name))).toEqual([])
  })

  test('a press on the page-size menu before its code arrives opens it', async ({ adminPage: page }) => {
    const size = page.getByRole('combobox', { name: 'Rows per page' })
    await size.click()
    await page.getByRole('option', { name: '20' }).click()
    await expect(page).toHaveURL(/limit=20/)
    await expect(size).toHaveText('20')
    await expect(size).toBeFocused()
  })

  test('the page-size menu opens from the keyboard and gives the focus back', async ({ adminPage: page }) => {
    const size = page.getByRole('combobox', { name: 'Rows per page' })
    await size.focus()
    await expect(size).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(page.getByRole('listbox')).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('listbox')).toHaveCount(0)
    await expect(size).toBeFocused()
  })

  test('Enter on the account menu before its code arrives opens it on its first item', async ({ adminPage: page }) => {
    const trigger = page.getByRole('button', { name: /^Account menu/ })
    await trigger.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('menuitem').first()).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(trigger).toBeFocused()
  })

  test('Enter on the Columns button before its code arrives opens it on its first column, and Space takes that away', async ({ adminPage: page }) => {
    const trigger = page.getByRole('button', { name: 'Columns', exact: true })
    await trigger.focus()
    await page.keyboard.press('Enter')
    const first = page.getByRole('menuitemcheckbox', { name: 'Date Created' })
    await expect(first).toBeFocused()
    await page.keyboard.press(' ')
    await expect(first).toHaveAttribute('aria-checked', 'false')
    await expect(page.getByRole('table').getByRole('columnheader', { name: 'Date Created' })).toHaveCount(0)
    await page.keyboard.press('Escape')
    await expect(trigger).toBeFocused()
  })

  test('a row button shows its tooltip on hover, and its first click opens the record', async ({ adminPage: page }) => {
    const view = firstRow(page).getByRole('button', { name: /^View / })
    await view.hover()
    await expect(page.getByRole('tooltip', { name: 'View' })).toBeVisible()
    await view.click()
    await expect(page.getByRole('dialog', { name: 'User Details' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(view).toBeFocused()
  })
})
