/**
 * Undo (issue 13): a delete's toast offers Undo for its seconds, a reload within them brings the
 * toast back, and Undo (its button, or Ctrl+Z) puts the record back at its place in the preference
 * order.
 */
import type { APIRequestContext } from '@playwright/test'
import { z } from 'zod'
import { test, expect, accounts, apiToken } from './fixtures.ts'

const CONFIRM = 'Are you sure you want to remove this Link'
const LinkPage = z.object({ result: z.array(z.object({ _id: z.string(), buyLink: z.string(), preference: z.number() })) })

async function call(request: APIRequestContext, path: string, data: Record<string, unknown>): Promise<unknown> {
  const token = await apiToken(request, accounts.superadmin)
  const response = await request.post(`/api/admin${path}`, { headers: { authorization: `Bearer ${token}` }, data })
  return response.json()
}

/** The run's buy links in list order, as `url:preference`. */
async function linksOf(request: APIRequestContext, run: string): Promise<string[]> {
  const page = LinkPage.parse(await call(request, '/ListBuyLink', { page: 1, limit: 100, search: run }))
  return page.result.map((l) => `${l.buyLink}:${l.preference}`)
}

test('a deleted link comes back at its place with Undo, after a reload within the window', async ({ adminPage: page }) => {
  const run = `undo-${Date.now().toString(36)}`
  const [first, second, third] = ['a', 'b', 'c'].map((n) => `https://${run}-${n}.example.com/`)
  if (first === undefined || second === undefined || third === undefined) throw new Error('three links')
  for (const link of [first, second, third]) await call(page.request, '/addbuyLink', { buylink: link })
  const places = (await linksOf(page.request, run)).map((l) => Number(l.split(':').at(-1)))
  const before = await linksOf(page.request, run)

  await page.goto(`/admin/buy_list?search=${run}`)
  const rows = page.getByRole('table').locator('tbody tr')
  await expect(rows).toHaveCount(3)
  await page.getByRole('button', { name: `Delete ${second}` }).click()
  const dialog = page.getByRole('alertdialog', { name: CONFIRM })
  await expect(dialog).toContainText('You can undo this for a few seconds afterwards.')
  await dialog.getByRole('button', { name: 'Yes, remove' }).click()
  const toast = page.getByRole('status').locator('div').filter({ hasText: 'Buy link deleted successfully' }).last()
  await expect(toast.getByRole('button', { name: 'Undo', exact: true })).toBeVisible()
  await expect(rows).toHaveCount(2)
  expect(await linksOf(page.request, run)).toEqual([`${first}:${places[0]}`, `${third}:${places[1]}`])

  await page.reload()
  await expect(rows).toHaveCount(2)
  const back = page.getByRole('status').locator('div').filter({ hasText: 'Buy link deleted successfully' }).last()
  const undo = back.getByRole('button', { name: 'Undo', exact: true })
  await expect(undo).toBeVisible()
  // Keyboard reachable: focus the button and press Enter.
  await undo.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('status').filter({ hasText: 'Buy link restored successfully' })).toBeVisible()
  await expect(rows).toHaveCount(3)
  await expect(rows.nth(1)).toContainText(second)
  expect(await linksOf(page.request, run)).toEqual(before)
  // Used: a further reload offers nothing.
  await page.reload()
  await expect(rows).toHaveCount(3)
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toHaveCount(0)

  // Ctrl+Z, outside fields, presses the latest Undo.
  await page.getByRole('button', { name: `Delete ${third}` }).click()
  await dialog.getByRole('button', { name: 'Yes, remove' }).click()
  await expect(rows).toHaveCount(2)
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeVisible()
  await page.getByRole('heading', { name: 'Buy List' }).click()
  await page.keyboard.press('Control+z')
  await expect(rows).toHaveCount(3)
  expect(await linksOf(page.request, run)).toEqual(before)
})
