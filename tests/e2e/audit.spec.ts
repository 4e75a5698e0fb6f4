import type { Locator } from '@playwright/test'
import { z } from 'zod'
import { encodePng } from '../../server/db/png.ts'
import { test, expect, accounts, apiToken, toast } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

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
    const row = page.getByRole('row').filter({ hasText: 'Brand added' }).first()
    await expect(row).toContainText('Brands')
    await expect(row).toContainText('root@e2e.test')

    await page.getByRole('combobox', { name: 'Filter by Area' }).click()
    await page.getByRole('option', { name: 'Brands' }).click()
    await expect(page).toHaveURL(/area=Brands/)
    await expect(page.getByRole('row').filter({ hasText: 'Brand added' }).first()).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: 'Category added' })).toHaveCount(0)

    const today = new Date().toISOString().slice(0, 10)
    await page.getByLabel('From').fill(today)
    await expect(page).toHaveURL(new RegExp(`from=${today}`))
    await expect(page.getByRole('row').filter({ hasText: 'Brand added' }).first()).toBeVisible()

    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export CSV' }).click()
    const file = await download
    expect(file.suggestedFilename()).toBe('audit-log.csv')
    const text = await (await file.createReadStream()).toArray()
    const csv = Buffer.concat(text.map((c: unknown) => (Buffer.isBuffer(c) ? c : Buffer.from(String(c))))).toString('utf8')
    expect(csv.split('\n')[0]).toBe('When (UTC),Name,Email,Area,Action,Record,Address,Detail')
    expect(csv).toContain('/addBrand')
    expect(csv).not.toContain('/addcategory')

    // The record is named as its list names it, and opens there.
    await page.getByRole('row').filter({ hasText: 'Brand added' }).first().getByRole('link', { name }).click()
    await expect(page).toHaveURL(/\/admin\/brand\?search=/)
    await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(1)
  })

  test('is not in the menu of staff not granted it, and its URL is refused', async ({ page, signIn }) => {
    await signIn(accounts.categoriesOnly)
    await page.goto('/admin/category')
    await expect(page.getByRole('link', { name: 'Audit Log' })).toHaveCount(0)
    await page.goto('/admin/audit')
    await expect(page.getByRole('heading', { name: 'Audit Log' })).toHaveCount(0)
  })
})

test.describe("a record's History", () => {
  const Added = z.object({ result: z.array(z.object({ _id: z.string(), brandname: z.string() })) })

  test('an edit page lists the record’s own changes, who made them and when; another record’s are not there', async ({ adminPage: page }) => {
    const auth = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
    const name = `History brand ${Date.now().toString(36)}`
    for (const brandname of [name, `${name} other`]) {
      expect((await page.request.post('/api/admin/addBrand', { headers: auth, data: { brandname, type: 'ipfs' } })).ok()).toBe(true)
    }
    await page.goto(`/admin/brand?search=${encodeURIComponent(name)}`)
    await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click()
    await expect(page.getByRole('heading', { name: 'Edit Brand' })).toBeVisible()
    await page.getByLabel('Brand Name').fill(`${name} renamed`)
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page).toHaveURL(/\/admin\/brand$/)

    const listed = Added.parse(await (await page.request.get('/api/admin/listbrand', { headers: auth, params: { search: `${name} renamed` } })).json())
    const id = listed.result[0]?._id ?? ''
    await page.goto(`/admin/edit-brand?id=${id}`)
    await expect(page.getByLabel('Brand Name')).toHaveValue(`${name} renamed`)
    await page.getByRole('button', { name: 'History' }).click()
    const dialog = page.getByRole('dialog', { name: 'History' })
    const items = dialog.getByRole('list', { name: 'History' }).getByRole('listitem')
    await expect(items).toHaveCount(2)
    // Newest first: the edit, then the add, each by the superadmin.
    await expect(items.nth(0)).toContainText('Brand edited')
    await expect(items.nth(1)).toContainText('Brand added')
    await expect(items.nth(0)).toContainText('Super Admin (root@e2e.test)')
    await expect(items.nth(0).locator('time')).toHaveAttribute('datetime', new RegExp(`^${new Date().toISOString().slice(0, 10)}`))
    await expect(dialog.getByText('Showing 2 of 2')).toBeVisible()
  })

  test('an edit dialog offers it too (the links’ Edit List)', async ({ adminPage: page }) => {
    const auth = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
    const link = `https://history-${Date.now().toString(36)}.example.com/`
    expect((await page.request.post('/api/admin/addbuyLink', { headers: auth, data: { buylink: link } })).ok()).toBe(true)
    await page.goto(`/admin/buy_list?search=${encodeURIComponent(link)}`)
    await page.getByRole('button', { name: `Edit ${link}` }).click()
    const edit = page.getByRole('dialog', { name: 'Edit List' })
    await edit.getByRole('button', { name: 'History' }).click()
    const items = page.getByRole('dialog', { name: 'History' }).getByRole('list', { name: 'History' }).getByRole('listitem')
    await expect(items).toHaveCount(1)
    await expect(items.first()).toContainText('Buy link added')
  })

  test('a single-record page (Social Links) offers it too, with its save', async ({ adminPage: page }) => {
    await page.goto('/admin/social-links')
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/admin/updatesocialmedia'))
    await page.getByRole('button', { name: 'Update' }).click()
    expect((await saved).ok()).toBe(true)
    await page.getByRole('button', { name: 'History' }).click()
    const first = page.getByRole('dialog', { name: 'History' }).getByRole('list', { name: 'History' }).getByRole('listitem').first()
    await expect(first).toContainText('Social links updated')
    await expect(first).toContainText('Super Admin (root@e2e.test)')
  })

  test('is not offered to staff not granted the audit log', async ({ page, signIn }) => {
    await signIn(accounts.superadmin)
    const auth = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
    const name = `History category ${Date.now().toString(36)}`
    const png = { name: 'tile.png', mimeType: 'image/png', buffer: encodePng(8, 8, (x, y) => [(x * 32) % 256, (y * 32) % 256, 160]) }
    expect((await page.request.post('/api/admin/addcategory', { headers: auth, multipart: { categoryName: name, image: png } })).ok()).toBe(true)
    // The superadmin sees it on this very page: the control exists, so its absence below means something.
    await page.goto(`/admin/category?search=${encodeURIComponent(name)}`)
    await page.getByRole('button', { name: `Edit ${name}` }).click()
    await expect(page.getByLabel('Category Name')).toHaveValue(name)
    await expect(page.getByRole('button', { name: 'History' })).toBeVisible()
    const editUrl = page.url()

    await signIn(accounts.categoriesOnly)
    await page.goto(editUrl)
    await expect(page.getByLabel('Category Name')).toHaveValue(name)
    await expect(page.getByRole('button', { name: 'History' })).toHaveCount(0)
  })
})

test.describe('what a change changed', () => {
  test('an edit of three fields shows three lines, before and after, in the Audit Log and the History', async ({ adminPage: page }) => {
    const stamp = Date.now().toString(36)
    const values = { Discord: `https://discord.gg/diff-${stamp}`, Facebook: `https://facebook.com/diff-${stamp}`, Twitter: `https://x.com/diff-${stamp}` }
    await page.goto('/admin/social-links')
    const before: Record<string, string> = {}
    for (const [label, value] of Object.entries(values)) {
      before[label] = await page.getByLabel(label, { exact: true }).inputValue()
      await page.getByRole('button', { name: `Unlock ${label}` }).click()
      await page.getByLabel(label, { exact: true }).fill(value)
    }
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/admin/updatesocialmedia'))
    await page.getByRole('button', { name: 'Update' }).click()
    expect((await saved).ok()).toBe(true)

    const expectLines = async (scope: Locator) => {
      const change = scope.getByTestId('audit-change').first()
      const lines = change.locator('tbody tr')
      await expect(lines).toHaveCount(3)
      for (const [label, value] of Object.entries(values)) {
        const line = lines.filter({ has: page.getByRole('rowheader', { name: `${label} link` }) })
        await expect(line.getByRole('cell').nth(1)).toHaveText(value)
        await expect(line.getByRole('cell').nth(0)).toHaveText(before[label] === '' ? 'empty' : (before[label] ?? ''))
      }
    }

    await page.getByRole('button', { name: 'History' }).click()
    const history = page.getByRole('dialog', { name: 'History' })
    const first = history.getByRole('list', { name: 'History' }).getByRole('listitem').first()
    await expect(first).toContainText('Social links updated')
    await expectLines(first)
    await expectNoSevereViolations(page, 'History with changes')
    await page.keyboard.press('Escape')

    await page.goto(`/admin/audit?search=${encodeURIComponent('/updatesocialmedia')}`)
    const row = page.getByRole('row').filter({ hasText: 'Social links updated' }).first()
    for (const label of Object.keys(values)) await expect(row).toContainText(`${label} link`)
    await row.getByRole('button', { name: /^View / }).click()
    const entry = page.getByRole('dialog', { name: 'Audit Entry' })
    await expectLines(entry)
    await expectNoSevereViolations(page, 'Audit Entry with changes')
  })
})

test.describe('revert one change', () => {
  const Listed = z.object({ result: z.array(z.object({ _id: z.string(), brandname: z.string() })) })

  test('reverts an edit from its entry, and offers to revert over a newer change', async ({ adminPage: page }) => {
    const auth = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
    const name = `Revert brand ${Date.now().toString(36)}`
    expect((await page.request.post('/api/admin/addBrand', { headers: auth, data: { brandname: name, type: 'ipfs' } })).ok()).toBe(true)
    const id = Listed.parse(await (await page.request.get('/api/admin/listbrand', { headers: auth, params: { search: name } })).json()).result[0]?._id ?? ''
    const rename = async (to: string) => expect((await page.request.post('/api/admin/editbrandUser', { headers: auth, data: { _id: id, brandname: to, type: 'ipfs' } })).ok()).toBe(true)
    const nameNow = async () => Listed.parse(await (await page.request.get('/api/admin/listbrand', { headers: auth, params: { search: name } })).json()).result.find((b) => b._id === id)?.brandname

    await rename(`${name} second`)
    await page.goto(`/admin/audit?search=${id}`)
    await page.getByRole('row').filter({ hasText: 'Brand edited' }).first().getByRole('button', { name: /^View / }).click()
    const entry = page.getByRole('dialog', { name: 'Audit Entry' })
    await entry.getByRole('button', { name: 'Revert this change' }).click()
    await expect(entry.getByRole('status')).toHaveText('Change reverted')
    expect(await nameNow()).toBe(name)
    await page.keyboard.press('Escape')

    // The third edit, changed again since by the fourth: its revert shows the value now and asks.
    await rename(`${name} third`)
    await rename(`${name} fourth`)
    await page.goto(`/admin/audit?search=${id}`)
    const edits = page.getByRole('row').filter({ hasText: 'Brand edited' })
    await expect(edits).toHaveCount(3)
    await edits.nth(1).getByRole('button', { name: /^View / }).click()
    await entry.getByRole('button', { name: 'Revert this change' }).click()
    const conflict = entry.getByRole('alert')
    await expect(conflict).toContainText('This record has changed since this entry. Revert over the newer change?')
    await expect(conflict.getByRole('columnheader', { name: 'Now' })).toBeVisible()
    await expect(conflict.getByRole('row').filter({ hasText: 'Brandname' }).getByRole('cell').nth(1)).toHaveText(`${name} fourth`)
    await expectNoSevereViolations(page, 'Revert conflict')
    expect(await nameNow()).toBe(`${name} fourth`)
    await conflict.getByRole('button', { name: 'Revert anyway' }).click()
    await expect(entry.getByRole('status')).toHaveText('Change reverted')
    // The third edit's before value: the name as the first revert left it.
    expect(await nameNow()).toBe(name)
  })

  test("reverts an edit from the record's own History", async ({ adminPage: page }) => {
    const auth = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
    const name = `History brand ${Date.now().toString(36)}`
    expect((await page.request.post('/api/admin/addBrand', { headers: auth, data: { brandname: name, type: 'ipfs' } })).ok()).toBe(true)
    const id = Listed.parse(await (await page.request.get('/api/admin/listbrand', { headers: auth, params: { search: name } })).json()).result[0]?._id ?? ''
    expect((await page.request.post('/api/admin/editbrandUser', { headers: auth, data: { _id: id, brandname: `${name} renamed`, type: 'ipfs' } })).ok()).toBe(true)

    await page.goto(`/admin/edit-brand?id=${id}`)
    await expect(page.getByLabel('Brand Name')).toHaveValue(`${name} renamed`)
    await page.getByRole('button', { name: 'History' }).click()
    const history = page.getByRole('dialog', { name: 'History' })
    const edit = history.getByRole('listitem').filter({ hasText: 'Brand edited' }).first()
    await edit.getByRole('button', { name: 'Revert this change' }).click()
    // The History is read again after the write: the answer stays in the toast, and the revert is its newest entry.
    await expect(toast(page, 'Change reverted')).toBeVisible()
    await expect(history.getByRole('listitem').first()).toContainText('Change reverted')
    const named = Listed.parse(await (await page.request.get('/api/admin/listbrand', { headers: auth, params: { search: name } })).json()).result.find((b) => b._id === id)
    expect(named?.brandname).toBe(name)
    await expectNoSevereViolations(page, 'History after a revert')
  })
})
