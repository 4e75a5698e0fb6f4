/**
 * View as: the superadmin views the back office as a View Only member with two screens, from the
 * member's row on Users and Access: a banner says so on every screen, the menu is the member's,
 * writing is not offered, and Back to my view brings the superadmin's own menu back.
 */
import { createStaff, expect, test, uniqueEmail } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

test('the superadmin views as a View Only member and goes back to their own view', async ({ adminPage: page }) => {
  const email = uniqueEmail('view-as')
  const member = await createStaff(page.request, { name: 'Vera Viewed', screens: ['/users', '/cms'], accessLevel: 'View Only', email })

  await page.goto('/admin/sub-admin')
  await page.getByPlaceholder('Search').fill(email)
  const row = page.getByRole('row').filter({ hasText: email })
  await expect(row).toHaveCount(1)
  await row.getByRole('button', { name: /^View as/ }).click()
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'))
  await expect(dialog).toContainText(`View the back office as ${member.name}`)
  await dialog.getByRole('button', { name: 'View as' }).click()

  const banner = page.getByRole('region', { name: 'View as' })
  await expect(banner).toContainText(`Viewing as ${member.name} (View Only)`)
  // Users and Access is not theirs: the guard takes the page to their first screen.
  await expect(page).not.toHaveURL(/\/admin\/sub-admin/)
  const menu = page.getByRole('navigation', { name: 'Main' })
  await expect(menu.getByRole('link', { name: 'Leads' })).toBeVisible()
  await expect(menu).not.toContainText('Users and Access')
  await expect(menu).not.toContainText('Messaging')

  // Games, read only: the list shows, its Add does not; the banner stays on every screen.
  await page.goto('/admin/cms')
  await expect(banner).toContainText(`Viewing as ${member.name}`)
  await expect(page.getByRole('heading', { name: 'Games', level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0)
  await expectNoSevereViolations(page)
  // The server keeps it: a reload is still viewing as the member.
  await page.reload()
  await expect(banner).toContainText(`Viewing as ${member.name} (View Only)`)
  await expect(menu).not.toContainText('Users and Access')
  // A screen they lack is not opened, even by its address.
  await page.goto('/admin/audit')
  await expect(page).not.toHaveURL(/\/admin\/audit/)

  await banner.getByRole('button', { name: 'Back to my view' }).click()
  await expect(banner).toHaveCount(0)
  await expect(page).toHaveURL(/\/admin\/sub-admin/)
  await expect(menu).toContainText('Users and Access')
  await expect(page.getByRole('link', { name: 'Add', exact: true })).toBeVisible()
})
