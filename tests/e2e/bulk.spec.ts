/**
 * Bulk actions chosen by the server: on Games, Shift+click ticks a range, "Select all N matching"
 * chooses every game the search finds (the page shows 10 of them), the preview dialog counts
 * what will change and what is skipped, Apply freezes exactly those, and one Undo unfreezes them all.
 * Users and Access deactivates staff in bulk, and the Brand List deletes brands, each undone in one step.
 * On Leads, a View Only member selects for export only: every lead matching the search, as CSV.
 */
import { readFile } from 'node:fs/promises'
import type { APIRequestContext } from '@playwright/test'
import { leadEmail } from './accounts.ts'
import { z } from 'zod'
import { bodyRows, createStaff, expect, png, signInPage, superadminHeaders, test, toast } from './fixtures.ts'

const Categories = z.object({ result: z.object({ data: z.array(z.object({ _id: z.string(), categoryName: z.string() })) }) })

async function addCategory(request: APIRequestContext, name: string): Promise<string> {
  const auth = await superadminHeaders(request)
  const added = await request.post('/api/admin/addcategory', { headers: auth, multipart: { categoryName: name, image: png('category.png', 90) } })
  expect(added.ok(), await added.text()).toBe(true)
  const listed = Categories.parse(await (await request.get('/api/admin/categoryDropdown', { headers: auth })).json())
  const found = listed.result.data.find((c) => c.categoryName === name)
  if (found === undefined) throw new Error('the category was not added')
  return found._id
}

test('Select all matching on Games, preview, apply as one job, and undo it in one step', async ({ adminPage: page }) => {
  const prefix = `Bulk ${Date.now().toString(36)}`
  const category = await addCategory(page.request, `${prefix} category`)
  const headers = await superadminHeaders(page.request)
  for (let n = 1; n <= 12; n++) {
    const response = await page.request.post('/api/admin/addcms', {
      headers,
      multipart: { title: `${prefix} game ${String(n).padStart(2, '0')}`, categoryName: category, operatingsystem: 'both', description: 'A game', liveLink: 'https://games.example/play', isGameBackend: 'false', image: png('shot.png', 30 + n) },
    })
    expect(response.ok(), await response.text()).toBe(true)
  }
  // One frozen already: the preview counts it as skipped.
  const listed = z.object({ result: z.array(z.object({ _id: z.string(), title: z.string() })) }).parse(
    await (await page.request.get('/api/admin/listCms', { headers, params: { page: 1, limit: 50, search: `${prefix} game 12` } })).json(),
  )
  const last = listed.result[0]
  if (last === undefined) throw new Error('no game')
  expect((await page.request.post('/api/admin/FreezeCms', { headers, data: { id: last._id } })).ok()).toBe(true)

  await page.goto(`/admin/cms?search=${encodeURIComponent(prefix)}`)
  await expect(bodyRows(page)).toHaveCount(10)

  // Shift+click ticks the rows between.
  await page.getByRole('checkbox', { name: `Select ${prefix} game 01` }).click()
  await page.getByRole('checkbox', { name: `Select ${prefix} game 04` }).click({ modifiers: ['Shift'] })
  const bar = page.getByRole('region', { name: 'Selected rows' })
  await expect(bar.getByRole('status')).toHaveText('4 selected')
  await expect(page.getByRole('checkbox', { name: `Select ${prefix} game 03` })).toBeChecked()

  await bar.getByRole('button', { name: 'Select all 12 matching' }).click()
  await expect(bar.getByRole('status')).toHaveText('All 12 matching selected')
  await bar.getByRole('button', { name: 'Freeze', exact: true }).click()

  const dialog = page.getByRole('dialog', { name: 'Freeze: games' })
  await expect(dialog.getByRole('heading', { name: 'Will change: 11 games' })).toBeVisible()
  await expect(dialog.getByRole('region', { name: 'Will change' }).getByRole('listitem')).toHaveCount(11)
  await expect(dialog.getByRole('heading', { name: 'Skipped, already in that state: 1' })).toBeVisible()
  await expect(dialog.getByRole('region', { name: 'Skipped: Already in that state' })).toContainText(`${prefix} game 12`)
  await dialog.getByRole('button', { name: 'Freeze 11 games' }).click()
  await expect(dialog).toBeHidden()

  const done = toast(page, 'Freeze: 11 of 11 games')
  await expect(done).toBeVisible()
  await expect(bodyRows(page).getByText('Frozen', { exact: true })).toHaveCount(10)
  await expect(page.getByRole('region', { name: 'Selected rows' })).toBeHidden()

  await done.getByRole('button', { name: 'Undo' }).click()
  await expect(toast(page, 'Freeze undone: 11 games')).toBeVisible()
  // The game frozen before the action stays frozen; the others are live again.
  await expect(bodyRows(page).getByText('Live', { exact: true })).toHaveCount(10)
  await page.goto(`/admin/cms?search=${encodeURIComponent(`${prefix} game 12`)}`)
  await expect(bodyRows(page).getByText('Frozen', { exact: true })).toHaveCount(1)
})

test('Users and Access: deactivate every staff member matching the search, and undo it in one step', async ({ adminPage: page }) => {
  const prefix = `Bulkstaff ${Date.now().toString(36)}`
  for (const n of [1, 2, 3]) await createStaff(page.request, { name: `${prefix} ${n}`, screens: ['/users'] })
  await page.goto(`/admin/sub-admin?search=${encodeURIComponent(prefix)}`)
  await expect(bodyRows(page)).toHaveCount(3)
  await expect(bodyRows(page).getByRole('switch', { checked: true })).toHaveCount(3)

  await bodyRows(page).first().getByRole('checkbox').click()
  const bar = page.getByRole('region', { name: 'Selected rows' })
  await expect(bar.getByRole('status')).toHaveText('1 selected')
  await bar.getByRole('button', { name: 'Select all 3 matching' }).click()
  await bar.getByRole('button', { name: 'Deactivate', exact: true }).click()

  const dialog = page.getByRole('dialog', { name: 'Deactivate: users' })
  await expect(dialog.getByRole('heading', { name: 'Will change: 3 users' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Deactivate 3 users' }).click()
  await expect(dialog).toBeHidden()

  const done = toast(page, 'Deactivate: 3 of 3 users')
  await expect(done).toBeVisible()
  await expect(bodyRows(page).getByRole('switch', { checked: false })).toHaveCount(3)
  await done.getByRole('button', { name: 'Undo' }).click()
  await expect(toast(page, 'Deactivate undone: 3 users')).toBeVisible()
  await expect(bodyRows(page).getByRole('switch', { checked: true })).toHaveCount(3)
})

test('Brand List: delete the brands ticked, and undo it in one step', async ({ adminPage: page }) => {
  const prefix = `Bulkbrand ${Date.now().toString(36)}`
  const headers = await superadminHeaders(page.request)
  for (const n of [1, 2, 3]) {
    const added = await page.request.post('/api/admin/addBrand', { headers, data: { brandname: `${prefix} ${n}`, type: 'web3auth' } })
    expect(added.ok(), await added.text()).toBe(true)
  }
  await page.goto(`/admin/brand?search=${encodeURIComponent(prefix)}`)
  await expect(bodyRows(page)).toHaveCount(3)
  // Two of the three: only they are deleted.
  await bodyRows(page).nth(0).getByRole('checkbox').click()
  await bodyRows(page).nth(1).getByRole('checkbox').click()
  const bar = page.getByRole('region', { name: 'Selected rows' })
  await expect(bar.getByRole('status')).toHaveText('2 selected')
  await bar.getByRole('button', { name: 'Delete', exact: true }).click()

  const dialog = page.getByRole('dialog', { name: 'Delete: brands' })
  await expect(dialog.getByRole('heading', { name: 'Will change: 2 brands' })).toBeVisible()
  await dialog.getByRole('button', { name: 'Delete 2 brands' }).click()

  const done = toast(page, 'Delete: 2 of 2 brands')
  await expect(done).toBeVisible()
  await expect(bodyRows(page)).toHaveCount(1)
  await done.getByRole('button', { name: 'Undo' }).click()
  await expect(toast(page, 'Delete undone: 2 brands')).toBeVisible()
  await expect(bodyRows(page)).toHaveCount(3)
})

test('Leads: a View Only member selects every lead matching the search and exports them, and may do nothing else with them', async ({ page }) => {
  const viewer = await createStaff(page.request, { name: 'Bulk export viewer', screens: ['/users'] })
  await signInPage(page, viewer)
  await page.goto(`/admin/users?search=${encodeURIComponent(leadEmail(7))}`)
  await expect(bodyRows(page)).toHaveCount(1)
  await bodyRows(page).first().getByRole('checkbox').click()
  const bar = page.getByRole('region', { name: 'Selected rows' })
  await expect(bar.getByRole('status')).toHaveText('1 selected')
  // The export goes by the search and filters: it is offered once every row matching is chosen.
  await expect(bar.getByRole('button', { name: 'Export the selection' })).toHaveCount(0)
  await bar.getByRole('button', { name: 'Select all 1 matching' }).click()
  await expect(bar.getByRole('status')).toHaveText('All 1 matching selected')
  // An export is all a reader's selection offers.
  await expect(bar.getByRole('button')).toHaveText(['Clear', 'Export the selection'])
  const downloading = page.waitForEvent('download')
  await bar.getByRole('button', { name: 'Export the selection' }).click()
  const file = await downloading
  expect(file.suggestedFilename()).toBe('user.csv')
  const lines = (await readFile(await file.path(), 'utf8')).trim().split('\n')
  expect(lines).toHaveLength(2)
  expect(lines[1]).toContain(leadEmail(7))
})

test('Leads: Promote to these opens Add Promotion with exactly the leads ticked, or every lead matching the filter', async ({ adminPage: page }) => {
  // Two leads outside Japan (every fourth from the second is there), so the restricted-country rule leaves them both in.
  await page.goto('/admin/users?search=lead00')
  const bar = page.getByRole('region', { name: 'Selected rows' })
  await page.getByRole('checkbox', { name: 'Select Lead 001' }).click()
  await page.getByRole('checkbox', { name: 'Select Lead 003' }).click()
  await expect(bar.getByRole('status')).toHaveText('2 selected')
  await bar.getByRole('button', { name: 'Promote to these' }).click()

  await expect(page).toHaveURL(/\/admin\/addnotification$/)
  const dialog = page.getByRole('dialog', { name: 'Add Promotion' })
  await expect(dialog.getByRole('region', { name: 'Audience from Leads' })).toContainText('From Leads: 2 leads chosen')
  await expect(dialog.getByRole('status').filter({ hasText: 'This promotion' })).toHaveText('This promotion will be sent to 2 users.')
  await expect(dialog.getByTestId('send-forecast').locator('dd').first()).toHaveText('2')
  // Clearing the audience goes back to choosing users here.
  await dialog.getByRole('button', { name: 'Clear the audience' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('region', { name: 'Audience from Leads' })).toHaveCount(0)
  await expect(page.getByRole('search', { name: 'Filter users' })).toBeVisible()

  // Every lead matching a filter: the promotion takes the filter, never ids.
  await page.goto('/admin/users?provider=ipfs')
  await bodyRows(page).first().getByRole('checkbox').click()
  const all = bar.getByRole('button', { name: /^Select all \d+ matching$/ })
  const matching = Number(/\d+/.exec((await all.textContent()) ?? '')?.[0])
  await all.click()
  await expect(bar.getByRole('status')).toHaveText(`All ${matching} matching selected`)
  const counted = page.waitForRequest((r) => r.url().endsWith('/api/admin/countRecipients'))
  await bar.getByRole('button', { name: 'Promote to these' }).click()
  expect((await counted).postDataJSON()).toMatchObject({ selectall: true, provider: 'ipfs', email: '', country: '', id: [] })
  const handed = dialog.getByRole('region', { name: 'Audience from Leads' })
  await expect(handed).toContainText(`From Leads: every lead matching (${matching})`)
  await expect(handed).toContainText('Provider: ipfs')
  await expect(dialog.getByTestId('send-forecast').locator('dd').first()).toHaveText(String(matching))

  // A search also matches names and wallets, which a promotion cannot choose by: Promote says so instead.
  await page.goto('/admin/users?search=lead00')
  await bodyRows(page).first().getByRole('checkbox').click()
  await bar.getByRole('button', { name: /^Select all \d+ matching$/ }).click()
  await expect(bar.getByRole('button', { name: 'Promote to these' })).toHaveAttribute('aria-disabled', 'true')
})
