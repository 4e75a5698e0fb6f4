import { test, expect, accounts } from './fixtures.ts'
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

test('finds a lead already in the cache and opens the list searched for it', async ({ adminPage: page }) => {
  await expect(page.getByRole('cell', { name: leadEmail(3), exact: true })).toBeVisible()
  await page.keyboard.press('Control+k')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await expect(palette.getByRole('combobox')).toBeFocused()
  await page.keyboard.type(leadEmail(3))
  // Enter acts on the highlighted option, as a user would see it.
  await expect(palette.getByRole('option', { name: new RegExp(leadEmail(3)) })).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`/admin/users\\?search=${encodeURIComponent(leadEmail(3))}$`))
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
