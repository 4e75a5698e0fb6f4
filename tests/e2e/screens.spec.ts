/**
 * Screens as staff see them: every screen reachable from the side menu (the entries of requirements R2.6 in
 * their order, the others placed among them), the top bar's screen title when the menu is folded, and
 * contact enquiries worked through: their status, its filter and the menu's count of open ones.
 */
import type { Page } from '@playwright/test'
import { SEEDED_ENQUIRIES } from './accounts.ts'
import { test, expect, accounts, apiToken, socketJoined, bodyRows, choose, reopenAllEnquiries, Enquiries } from './fixtures.ts'
import { menuOrder } from '#contract/routes'

/** An Admin's top-level menu links in order (the CMS group is a button, not a link), as the route table declares them. */
const ADMIN_MENU = menuOrder.filter((title) => title !== 'CMS')

test.describe('side menu', () => {
  test('offers an Admin every screen, the CMS group after Contact Us', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/admin/users')
    const menu = page.getByRole('navigation', { name: 'Main' })
    const top = menu.locator(':scope > ul > li > a')
    await expect(top).toHaveCount(ADMIN_MENU.length)
    for (const [i, title] of ADMIN_MENU.entries()) await expect(top.nth(i)).toContainText(title)
    await expect(menu.locator(':scope > ul > li').nth(menuOrder.indexOf('CMS')).getByRole('button', { name: 'CMS' })).toBeVisible()
    for (const [title, path] of [['Contact Us', '/contactus'], ['Newsletter', '/newsletter'], ['Restriction List', '/restriction'], ['Settings', '/settings']] as const) {
      await menu.getByRole('link', { name: title }).click()
      await expect(page).toHaveURL(new RegExp(`/admin${path}$`))
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    }
  })

  test('offers a restricted member of staff only their screens', async ({ page, signIn }) => {
    await signIn(accounts.viewOnly)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/admin/users')
    const menu = page.getByRole('navigation', { name: 'Main' })
    await expect(menu.getByRole('link')).toHaveText([/^Dashboard/, /^Leads/, /^Contact Us/, /^Category List/])
    for (const absent of ['Newsletter', 'Restriction List', 'Settings', 'Users and Access']) await expect(menu.getByRole('link', { name: absent })).toHaveCount(0)
  })
})

test.describe('top bar', () => {
  test('names the screen when the menu is folded at tablet width', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 820, height: 1180 })
    await page.goto('/admin/contactus')
    const toggle = page.getByRole('button', { name: 'Toggle menu' })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    const banner = page.getByRole('banner')
    await expect(banner.getByText('Contact Us', { exact: true })).toBeVisible()
    // At this width the enquiries fold their message away (the View modal shows it), so the status keeps its room.
    await expect(page.getByRole('columnheader', { name: 'Status' })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: 'Message' })).toBeHidden()
    await page.goto('/admin/add-category')
    await expect(banner.getByText('Add Category', { exact: true })).toBeVisible()
    // With the menu open, the menu itself says where the admin is.
    await toggle.click()
    await expect(banner.getByText('Add Category', { exact: true })).toHaveCount(0)
  })
})

const contactEntry = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Contact Us/ })

test.describe('contact enquiries', () => {
  test.beforeEach(async ({ request }) => reopenAllEnquiries(request))
  test.afterAll(async ({ request }) => reopenAllEnquiries(request))

  test('an Admin resolves one: its status, the filter in the URL, and the menu count follow', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/admin/contactus')
    await expect(bodyRows(page)).toHaveCount(SEEDED_ENQUIRIES)
    await expect(contactEntry(page)).toHaveAccessibleName(`Contact Us ${SEEDED_ENQUIRIES} open enquiries`)
    const row = bodyRows(page).filter({ hasText: 'Enquirer 2' })
    await expect(row.getByRole('cell', { name: 'Open', exact: true })).toBeVisible()
    await row.getByRole('button', { name: 'Mark Resolved Enquirer 2' }).click()
    await expect(row.getByRole('cell', { name: 'Resolved', exact: true })).toBeVisible()
    await expect(contactEntry(page)).toHaveAccessibleName(`Contact Us ${SEEDED_ENQUIRIES - 1} open enquiries`)

    await choose(page, 'Filter by Status', 'Resolved')
    await expect(page).toHaveURL(/status=Resolved/)
    await expect(bodyRows(page)).toHaveCount(1)
    await expect(bodyRows(page).first()).toContainText('Enquirer 2')
    // The filter lives in the address: a reload keeps it.
    await page.reload()
    await expect(bodyRows(page)).toHaveCount(1)
    await choose(page, 'Filter by Status', 'Open')
    await expect(page).toHaveURL(/status=Open/)
    await expect(bodyRows(page)).toHaveCount(SEEDED_ENQUIRIES - 1)
    await expect(bodyRows(page).filter({ hasText: 'Enquirer 2' })).toHaveCount(0)

    await page.goto('/admin/contactus?status=Resolved')
    await bodyRows(page).first().getByRole('button', { name: 'Reopen Enquirer 2' }).click()
    await expect(page.getByText('No Record Found', { exact: true })).toBeVisible()
    await expect(contactEntry(page)).toHaveAccessibleName(`Contact Us ${SEEDED_ENQUIRIES} open enquiries`)
  })

  test('View Only staff see the status and the count, follow another session live, and cannot change it', async ({ page, signIn }) => {
    const joined = socketJoined(page)
    await signIn(accounts.viewOnly)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/admin/contactus')
    await joined
    await expect(bodyRows(page)).toHaveCount(SEEDED_ENQUIRIES)
    await expect(page.getByRole('columnheader', { name: 'Status' })).toBeVisible()
    await expect(page.getByRole('button', { name: /^(Mark Resolved|Reopen)\b/ })).toHaveCount(0)
    await expect(contactEntry(page)).toHaveAccessibleName(`Contact Us ${SEEDED_ENQUIRIES} open enquiries`)

    // An Admin elsewhere resolves one: the count here follows without a reload.
    const headers = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
    const list = Enquiries.parse(await (await page.request.get('/api/admin/getContactUS?page=1&limit=50&search=Enquirer%203', { headers })).json())
    const target = list.result[0]
    if (target === undefined) throw new Error('Enquirer 3 is seeded')
    const res = await page.request.post('/api/admin/setContactStatus', { headers, data: { _id: target._id, status: 'Resolved' } })
    expect(res.ok(), await res.text()).toBe(true)
    await expect(contactEntry(page)).toHaveAccessibleName(`Contact Us ${SEEDED_ENQUIRIES - 1} open enquiries`)
  })
})
