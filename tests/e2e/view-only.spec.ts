import { encodePng } from '../../server/db/png.ts'
import { leadName } from './accounts.ts'
import { test, expect, accounts, apiToken } from './fixtures.ts'

test.describe('View Only staff', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn(accounts.viewOnly)
  })

  test('sees the category list without add, edit or delete controls', async ({ page }) => {
    // A category to look at, added by the superadmin through the API.
    const name = `Viewable ${Date.now().toString(36)}`
    const token = await apiToken(page.request, accounts.superadmin)
    const added = await page.request.post('/api/admin/addcategory', {
      headers: { authorization: `Bearer ${token}` },
      multipart: { categoryName: name, image: { name: 'v.png', mimeType: 'image/png', buffer: encodePng(4, 4, () => [0, 90, 0]) } },
    })
    expect(added.ok()).toBe(true)

    await page.goto(`/admin/category?search=${encodeURIComponent(name)}`)
    await expect(page.getByRole('heading', { name: 'Category List' })).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Add Category' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Add Category' })).toHaveCount(0)
    await expect(page.getByRole('button', { name: /^(Edit|Delete)\b/ })).toHaveCount(0)
    await expect(page.getByRole('columnheader', { name: 'Action' })).toHaveCount(0)
  })

  test('reads leads: view modal and Download CSV, which are not writes', async ({ page }) => {
    await page.goto('/admin/users')
    await page.getByRole('button', { name: `View ${leadName(1)}` }).click()
    await expect(page.getByRole('dialog', { name: 'User Details' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible()
  })

  test('gets no form on the add and edit pages', async ({ page }) => {
    for (const path of ['/admin/add-category', '/admin/edit-category?id=anything']) {
      await page.goto(path)
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
      await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0)
      await expect(page.getByLabel('Category Name')).toHaveCount(0)
    }
  })
})
