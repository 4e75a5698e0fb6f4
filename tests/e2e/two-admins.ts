/**
 * Two admins in two browsers on one category (the conflict and the presence specs): a category
 * made through the API, and its Edit Category form opened by each.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { expect, accounts, apiToken, signInPage } from './fixtures.ts'

/** A 2x2 PNG, the smallest image a category takes. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==', 'base64')

/** Two fresh browser contexts and a new category named `prefix` and a unique suffix. */
export async function twoAdminsOnACategory(browser: Browser, baseURL: string | undefined, prefix: string): Promise<{ first: BrowserContext; second: BrowserContext; name: string }> {
  const first = await browser.newContext({ baseURL })
  const second = await browser.newContext({ baseURL })
  const name = `${prefix} ${Date.now().toString(36)}`
  const token = await apiToken(first.request, accounts.superadmin)
  const created = await first.request.post('/api/admin/addcategory', {
    headers: { authorization: `Bearer ${token}` },
    multipart: { categoryName: name, image: { name: 'dot.png', mimeType: 'image/png', buffer: PNG } },
  })
  expect(created.ok(), await created.text()).toBe(true)
  return { first, second, name }
}

/** Signs `account` in on a new page of `context` and opens Edit Category for `name` from the list. */
export async function openEdit(context: BrowserContext, account: (typeof accounts)[keyof typeof accounts], name: string): Promise<Page> {
  const page = await context.newPage()
  await signInPage(page, account)
  await page.goto(`/admin/category?search=${encodeURIComponent(name)}`)
  await page.getByRole('button', { name: `Edit ${name}` }).click()
  await expect(page.getByLabel('Category Name')).toHaveValue(name)
  return page
}
