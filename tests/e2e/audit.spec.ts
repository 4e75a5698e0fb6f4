import { test, expect } from './fixtures.ts'

test.describe('audit log', () => {
  test('lists a write with who and what, filters it, and exports what is shown', async ({ adminPage: page }) => {
    // A write to find: a brand added through the screen.
    const name = `Audit brand ${Date.now()}`
    await page.goto('/admin/addbrand')
    await page.getByLabel('Brand Name').fill(name)
    await page.getByRole('combobox', { name: 'Type' }).click()
    await page.getByRole('option', { name: 'ipfs' }).click()
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page).toHaveURL(/\/admin\/brand$/)

    await page.goto('/admin/audit')
    await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible()
    const row = page.getByRole('row').filter({ hasText: '/addBrand' }).first()
    await expect(row).toContainText('Brands')
    await expect(row).toContainText('root@e2e.test')

    await page.getByRole('combobox', { name: 'Filter by Area' }).click()
    await page.getByRole('option', { name: 'Brands' }).click()
    await expect(page).toHaveURL(/area=Brands/)
    await expect(page.getByRole('row').filter({ hasText: '/addBrand' }).first()).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: '/addcategory' })).toHaveCount(0)

    const today = new Date().toISOString().slice(0, 10)
    await page.getByLabel('From').fill(today)
    await expect(page).toHaveURL(new RegExp(`from=${today}`))
    await expect(page.getByRole('row').filter({ hasText: '/addBrand' }).first()).toBeVisible()

    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export CSV' }).click()
    const file = await download
    expect(file.suggestedFilename()).toBe('audit-log.csv')
    const text = await (await file.createReadStream()).toArray()
    const csv = Buffer.concat(text.map((c: unknown) => (Buffer.isBuffer(c) ? c : Buffer.from(String(c))))).toString('utf8')
    expect(csv.split('\n')[0]).toBe('When (UTC),Name,Email,Area,Action,Record,Address,Detail')
    expect(csv).toContain('/addBrand')
    expect(csv).not.toContain('/addcategory')
  })

  test('is not in the menu of staff not granted it, and its URL is refused', async ({ page, signIn }) => {
    const { accounts } = await import('./accounts.ts')
    await signIn(accounts.categoriesOnly)
    await page.goto('/admin/category')
    await expect(page.getByRole('link', { name: 'Audit Log' })).toHaveCount(0)
    await page.goto('/admin/audit')
    await expect(page.getByRole('heading', { name: 'Audit Log' })).toHaveCount(0)
  })
})
