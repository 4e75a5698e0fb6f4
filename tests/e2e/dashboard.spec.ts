/**
 * The dashboard (ours): first in the menu, cards with the numbers of the areas the admin may
 * open (leads, promotions, links), each linking to its list, the sign-ups chart with its summary
 * and table for screen readers, no card outside a restricted admin's access, offline reload, axe.
 */
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { z } from 'zod'
import { SEEDED_LEADS } from './accounts.ts'
import { test, expect, accounts, apiToken, storedSnapshots } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const Count = z.object({ count: z.number() })

/** The count a list answers, read through its own call. */
async function listCount(request: APIRequestContext, path: string, method: 'GET' | 'POST' = 'POST'): Promise<number> {
  const headers = { authorization: `Bearer ${await apiToken(request, accounts.superadmin)}` }
  const query = { page: 1, limit: 10, search: '' }
  const answer = method === 'GET' ? await request.get(`/api/admin/${path}`, { headers, params: query }) : await request.post(`/api/admin/${path}`, { headers, data: query })
  return Count.parse(await answer.json()).count
}

const card = (page: Page, name: string) => page.getByRole('article', { name })
const figure = (page: Page | Locator, term: string) => page.locator('dt', { hasText: term }).locator('+ dd')

test('is first in the menu and shows each card with its numbers, the chart and links to the lists', async ({ adminPage: page }) => {
  const menu = page.getByRole('navigation', { name: 'Main' })
  await expect(menu.getByRole('link').first()).toHaveText('Dashboard')
  await menu.getByRole('link', { name: 'Dashboard' }).click()
  await expect(page).toHaveURL(/\/admin\/dashboard$/)
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible()

  const users = card(page, 'Users')
  // The seeded leads were all created in the last two hours.
  await expect(figure(users, 'Total leads')).toHaveText(String(SEEDED_LEADS))
  await expect(figure(users, 'New in the last 7 days')).toHaveText(String(SEEDED_LEADS))
  const chart = users.getByRole('img', { name: /^Sign-ups per day from / })
  await expect(chart).toHaveAccessibleName(new RegExp(`: ${SEEDED_LEADS} in total, the most on `))
  await expect(users.locator('svg rect')).toHaveCount(30)
  const table = users.getByRole('table', { name: 'Sign-ups per day' })
  await expect(table.locator('tbody tr')).toHaveCount(30)

  const promotions = card(page, 'Promotions')
  const promotionCount = await listCount(page.request, 'listNotification', 'GET')
  await expect(figure(promotions, 'Promotions')).toHaveText(String(promotionCount))
  await expect(figure(promotions, 'Deliveries in flight')).toHaveText(/^\d+$/)
  await expect(promotions.getByText(/^Last sent: /)).toBeVisible()

  const links = card(page, 'Links')
  const [buy, swapOut, swapIn] = await Promise.all(['ListBuyLink', 'ListSelLink', 'ListBridgeLink'].map((p) => listCount(page.request, p)))
  await expect(figure(links, 'Buy List')).toHaveText(String(buy))
  await expect(figure(links, 'Swap out')).toHaveText(String(swapOut))
  await expect(figure(links, 'Swap in')).toHaveText(String(swapIn))

  await expectNoSevereViolations(page)

  await links.getByRole('link', { name: 'Swap in' }).click()
  await expect(page).toHaveURL(/\/admin\/swapin_list$/)
  await page.goBack()
  await users.getByRole('link', { name: 'Open Leads' }).click()
  await expect(page).toHaveURL(/\/admin\/users$/)
})

test('shows the work waiting, each count opening the list of what it counts', async ({ adminPage: page }) => {
  const headers = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
  const openList = await page.request.get('/api/admin/getContactUS', { headers, params: { page: 1, limit: 10, search: '', status: 'Open' } })
  const open = Count.parse(await openList.json()).count
  const awaitingList = await page.request.get('/api/admin/listNotification', { headers, params: { page: 1, limit: 10, search: '', status: 'awaiting' } })
  const awaiting = Count.parse(await awaitingList.json()).count

  await page.goto('/admin/dashboard')
  const work = card(page, 'Work waiting')
  await expect(work.getByRole('link')).toHaveText([
    /^\d+Open enquiries$/,
    /^\d+Access requests to review$/,
    /^\d+Promotions awaiting approval$/,
    /^\d+Newsletters awaiting approval$/,
    /^\d+Promotions queued$/,
    /^\d+Promotions sending$/,
    /^\d+Newsletters sending$/,
    /^\d+Newsletters paused$/,
  ])
  await expect(work.getByRole('link', { name: /Open enquiries$/ })).toHaveText(`${open}Open enquiries`)
  await expect(work.getByRole('link', { name: /Promotions awaiting approval$/ })).toHaveText(`${awaiting}Promotions awaiting approval`)
  await page.screenshot({ path: '.tmp/dashboard-work.png', fullPage: true })

  await work.getByRole('link', { name: /Open enquiries$/ }).click()
  await expect(page).toHaveURL(/\/admin\/contactus\?status=Open$/)
  await expect(page.getByRole('combobox', { name: 'Filter by Status' })).toHaveText('Open')
  if (open > 0 && open <= 10) await expect(page.locator('tbody tr')).toHaveCount(open)

  await page.goBack()
  await work.getByRole('link', { name: /Promotions awaiting approval$/ }).click()
  await expect(page).toHaveURL(/\/admin\/notificationlist\?status=awaiting$/)
  await expect(page.getByRole('combobox', { name: 'Filter by Status' })).toHaveText('Awaiting approval')
  if (awaiting === 0) await expect(page.getByText('No Record Found')).toBeVisible()
  else if (awaiting <= 10) await expect(page.locator('tbody tr')).toHaveCount(awaiting)

  await page.goBack()
  await work.getByRole('link', { name: /Newsletters sending$/ }).click()
  await expect(page).toHaveURL(/\/admin\/newsletter\?status=sending$/)
  await expect(page.getByRole('combobox', { name: 'Filter by Status' })).toHaveText('Sending')
})

test('shows a restricted sub-admin only the cards of their pages', async ({ page, signIn }) => {
  // View Only on Leads, Contact Us and Category List: the users card, nothing of links or messaging.
  await signIn(accounts.viewOnly)
  await page.goto('/admin/dashboard')
  await expect(figure(card(page, 'Users'), 'Total leads')).toHaveText(String(SEEDED_LEADS))
  await expect(card(page, 'Links')).toHaveCount(0)
  await expect(card(page, 'Promotions')).toHaveCount(0)
  // Of the work waiting, only the enquiries: messaging, the newsletter and staff are not theirs.
  const work = card(page, 'Work waiting')
  await expect(work.getByRole('link')).toHaveCount(1)
  await expect(work.getByRole('link', { name: /Open enquiries$/ })).toBeVisible()

  // Category screens only: no card at all, and a word on why.
  await signIn(accounts.categoriesOnly)
  await page.goto('/admin/dashboard')
  await expect(page.getByText('Your access does not include leads, enquiries, messaging, the newsletter or links')).toBeVisible()
  await expect(page.getByRole('article')).toHaveCount(0)
})

test('still shows its cards and chart after an offline reload', async ({ adminPage: page, context }) => {
  await page.goto('/admin/dashboard')
  const total = figure(card(page, 'Users'), 'Total leads')
  await expect(total).toHaveText(String(SEEDED_LEADS))
  await expect(page.getByRole('img', { name: /^Sign-ups per day from / })).toBeVisible()
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await expect.poll(() => storedSnapshots(page)).toBeGreaterThan(0)

  await context.setOffline(true)
  await page.reload()
  await expect(total).toHaveText(String(SEEDED_LEADS))
  await expect(page.getByRole('img', { name: /^Sign-ups per day from / })).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: /You are offline — showing data from / })).toBeVisible()
  await context.setOffline(false)
})
