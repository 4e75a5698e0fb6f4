import type { Page } from '@playwright/test'
import { test, expect } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

/** The page's background colour, as the browser computed it. */
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor)
/** The side menu's background and text colours. */
const sideMenu = (page: Page) =>
  page.locator('#side-menu').evaluate((menu) => {
    const link = menu.querySelector('a')
    return [getComputedStyle(menu).backgroundColor, link ? getComputedStyle(link).color : '']
  })

test.describe('themes', () => {
  test('follows the system: dark when the system is dark, before any choice', async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'dark' })
    const page = await context.newPage()
    await page.goto('/admin/login')
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible()
    const dark = await background(page)
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await background(page)).not.toBe(dark)
    await context.close()
  })

  test('switches from the account menu and the palette, is kept, and passes axe in both themes', async ({ adminPage: page }) => {
    await page.emulateMedia({ colorScheme: 'light' })
    for (const path of ['/admin/users', '/admin/sub-admin']) {
      await page.goto(path)
      await expect(page.getByRole('table')).toBeVisible()
      await expectNoSevereViolations(page)
    }
    const light = await background(page)
    const menuInLight = await sideMenu(page)

    await page.getByRole('button', { name: /account/i }).click()
    await page.getByRole('menuitemradio', { name: 'Dark theme' }).click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    expect(await background(page)).not.toBe(light)
    // The side menu is dark in both themes: its colours do not change.
    expect(await sideMenu(page)).toEqual(menuInLight)
    for (const path of ['/admin/users', '/admin/sub-admin']) {
      await page.goto(path)
      await expect(page.getByRole('table')).toBeVisible()
      // Kept across loads.
      await expect(page.locator('html')).toHaveClass(/dark/)
      await expectNoSevereViolations(page)
    }

    await page.keyboard.press('Control+k')
    await page.getByPlaceholder(/Type a screen/).fill('light theme')
    await page.keyboard.press('Enter')
    await expect(page.locator('html')).toHaveClass(/light/)
    expect(await background(page)).toBe(light)
  })
})
