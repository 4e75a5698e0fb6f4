/**
 * Screens as staff see them: every screen reachable from the side menu (the spec's entries in its
 * order, the others placed among them), the top bar's screen title when the menu is folded.
 */
import { test, expect, accounts } from './fixtures.ts'

const ADMIN_MENU = [
  'Dashboard',
  'Leads',
  'Contact Us',
  'Messaging',
  'Newsletter',
  'Automated Emails',
  'Brand Tab',
  'Version',
  'Users and Access',
  'Audit Log',
  'Restriction List',
  'Settings',
]

test.describe('side menu', () => {
  test('offers an Admin every screen, the CMS group after Contact Us', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/admin/users')
    const menu = page.getByRole('navigation', { name: 'Main' })
    const top = menu.locator(':scope > ul > li > a')
    await expect(top).toHaveCount(ADMIN_MENU.length)
    for (const [i, title] of ADMIN_MENU.entries()) await expect(top.nth(i)).toContainText(title)
    await expect(menu.locator(':scope > ul > li').nth(3).getByRole('button', { name: 'CMS' })).toBeVisible()
    for (const [title, path] of [['Contact Us', '/contactus'], ['Newsletter', '/newsletter'], ['Restriction List', '/restriction'], ['Settings', '/settings']] as const) {
      await menu.getByRole('link', { name: title }).click()
      await expect(page).toHaveURL(new RegExp(`/admin${path}$`))
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    }
  })

  test('offers a restricted member of staff only their screens', async ({ page, signIn }) => {
    await signIn(accounts.viewOnly)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/admin/users')
    const menu = page.getByRole('navigation', { name: 'Main' })
    await expect(menu.getByRole('link')).toHaveText([/^Dashboard/, /^Leads/, /^Contact Us/, /^Category List/])
    for (const absent of ['Newsletter', 'Restriction List', 'Settings', 'Users and Access']) await expect(menu.getByRole('link', { name: absent })).toHaveCount(0)
  })
})

test.describe('top bar', () => {
  test('names the screen when the menu is folded at tablet width', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 820, height: 1180 })
    await page.goto('/admin/contactus')
    const toggle = page.getByRole('button', { name: 'Toggle menu' })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    const banner = page.getByRole('banner')
    await expect(banner.getByText('Contact Us', { exact: true })).toBeVisible()
    await page.goto('/admin/add-category')
    await expect(banner.getByText('Add Category', { exact: true })).toBeVisible()
    // With the menu open, the menu itself says where the admin is.
    await toggle.click()
    await expect(banner.getByText('Add Category', { exact: true })).toHaveCount(0)
  })
})
