/**
 * Concurrent edits, as two admins see them: both open Edit Category for the same
 * category; the first saves; the second's save is refused with the conflict message instead of
 * silently writing over the first, and Reload brings the first one's change into the form.
 */
import type { BrowserContext, Page } from '@playwright/test'
import { test, expect, accounts, apiToken, signInPage } from './fixtures.ts'
import { openEdit, twoAdminsOnACategory } from './two-admins.ts'

const CONFLICT = 'This record was changed by someone else. Reload to see the latest version.'

test('the second of two admins saving the same category is told, and Reload brings the new value', async ({ browser, baseURL }) => {
  const { first, second, name } = await twoAdminsOnACategory(browser, baseURL, 'Contested')

  const a = await openEdit(first, accounts.superadmin, name)
  const b = await openEdit(second, accounts.categoriesOnly, name)

  await a.getByLabel('Category Name').fill(`${name} by A`)
  await a.getByRole('button', { name: 'Submit' }).click()
  await expect(a).toHaveURL(/\/admin\/category$/)

  await b.getByLabel('Category Name').fill(`${name} by B`)
  await b.getByRole('button', { name: 'Submit' }).click()
  const notice = b.getByRole('alert').filter({ hasText: CONFLICT })
  await expect(notice).toBeVisible()
  // B stays on the form with their edit, and nothing of theirs was written.
  await expect(b).toHaveURL(/\/admin\/edit-category\?id=/)
  await expect(b.getByLabel('Category Name')).toHaveValue(`${name} by B`)
  const reload = notice.getByRole('button', { name: 'Reload' })
  await expect(reload).toBeFocused()
  await b.screenshot({ path: test.info().outputPath('conflict.png') })

  await reload.click()
  await expect(b.getByLabel('Category Name')).toHaveValue(`${name} by A`)
  await expect(notice).toHaveCount(0)
  // A page reload keeps the latest record, not the one the list passed along before.
  await b.reload()
  await expect(b.getByLabel('Category Name')).toHaveValue(`${name} by A`)

  // Now B saves over what they have seen.
  await b.getByLabel('Category Name').fill(`${name} by B`)
  await b.getByRole('button', { name: 'Submit' }).click()
  await expect(b).toHaveURL(/\/admin\/category$/)
  await expect(b.getByRole('row').filter({ hasText: `${name} by B` })).toBeVisible()

  await first.close()
  await second.close()
})

test('the Edit List dialog of a link list says the same, and its Reload shows the saved link', async ({ browser, baseURL }) => {
  const first = await browser.newContext({ baseURL })
  const second = await browser.newContext({ baseURL })
  const token = await apiToken(first.request, accounts.superadmin)
  const url = `https://buy.example.com/contested-${Date.now().toString(36)}`
  const added = await first.request.post('/api/admin/addbuyLink', { headers: { authorization: `Bearer ${token}` }, data: { buylink: url } })
  expect(added.ok(), await added.text()).toBe(true)

  const open = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage()
    await signInPage(page, accounts.superadmin)
    await page.goto(`/admin/buy_list?search=${encodeURIComponent(url)}`)
    await page.getByRole('button', { name: `Edit ${url}` }).click()
    await expect(page.getByRole('dialog', { name: 'Edit List' }).getByLabel('Title')).toHaveValue(url)
    return page
  }
  const a = await open(first)
  const b = await open(second)

  const dialogA = a.getByRole('dialog', { name: 'Edit List' })
  await dialogA.getByLabel('Title').fill(`${url}/a`)
  await dialogA.getByRole('button', { name: 'Submit' }).click()
  await expect(dialogA).toHaveCount(0)

  const dialogB = b.getByRole('dialog', { name: 'Edit List' })
  await dialogB.getByLabel('Title').fill(`${url}/b`)
  await dialogB.getByRole('button', { name: 'Submit' }).click()
  const notice = dialogB.getByRole('alert').filter({ hasText: CONFLICT })
  await expect(notice).toBeVisible()
  await notice.getByRole('button', { name: 'Reload' }).click()
  await expect(dialogB.getByLabel('Title')).toHaveValue(`${url}/a`)

  await first.close()
  await second.close()
})
