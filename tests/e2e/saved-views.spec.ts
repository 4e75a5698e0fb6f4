/**
 * Saved views: a list's search and page size saved under a name, reopened from the
 * list's dropdown and from the palette, and refused under a name already used.
 */
import { test, expect } from './fixtures.ts'

test.describe('saved views', () => {
  test('saves the current search and page size, reopens it from the list and from the palette', async ({ adminPage: page }) => {
    const name = `Lead 7 ${Date.now().toString(36)}`
    await page.goto('/admin/users?search=lead007&limit=20')
    await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(1)

    await page.getByRole('button', { name: 'Save view' }).click()
    const dialog = page.getByRole('dialog', { name: 'Save view' })
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog.getByText('Name is required')).toBeVisible()
    await dialog.getByLabel('Name').fill(name)
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText(`View “${name}” saved`)).toBeVisible()

    // Saving the same name again is refused with a clear message.
    await page.getByRole('button', { name: 'Save view' }).click()
    await page.getByRole('dialog', { name: 'Save view' }).getByLabel('Name').fill(name.toUpperCase())
    await page.getByRole('dialog', { name: 'Save view' }).getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('A view with this name already exists for this list')).toBeVisible()
    await page.keyboard.press('Escape')

    await page.goto('/admin/users')
    await page.getByRole('combobox', { name: 'Saved views' }).click()
    await page.getByRole('option', { name }).click()
    await expect(page).toHaveURL(/\/admin\/users\?search=lead007&limit=20$/)
    await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(1)

    await page.goto('/admin/category')
    await expect(page.getByRole('heading', { name: 'Category List' })).toBeVisible()
    await page.keyboard.press('Control+k')
    await page.getByPlaceholder(/Type a screen/).fill(name)
    await expect(page.getByRole('option', { name: new RegExp(name) })).toBeVisible()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/admin\/users\?search=lead007&limit=20$/)

    await page.getByRole('button', { name: 'Delete view' }).click()
    await expect(page.getByText(`View “${name}” deleted`)).toBeVisible()
    await expect(page.getByRole('combobox', { name: 'Saved views' })).toContainText('No saved views')
  })
})
