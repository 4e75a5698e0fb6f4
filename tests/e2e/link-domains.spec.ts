/**
 * Allowed domains for outward links: the superadmin keeps the list on Settings; a buy link to
 * another host is then refused under its field with the host named, and one to a listed domain's
 * subdomain is added. An Admin reads the list without a control to change it.
 */
import { accounts, apiToken, createStaff, expect, signInPage, test } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

test.describe('allowed domains for outward links', () => {
  test.afterEach(async ({ request }) => {
    // The worker's server is shared by the specs after this one: every host allowed again.
    const token = await apiToken(request, accounts.superadmin)
    const reset = await request.post('/api/admin/setOutwardLinkDomains', { headers: { authorization: `Bearer ${token}` }, data: { domains: [] } })
    expect(reset.ok()).toBe(true)
  })

  test('the superadmin lists the domains; a link elsewhere is refused by name', async ({ adminPage: page }) => {
    await page.goto('/admin/settings')
    const section = page.getByRole('region', { name: 'Allowed domains for outward links' })
    // The list's own state (the section also says whether two admins are asked for).
    const listState = section.getByRole('status').filter({ hasText: /Any domain|allowed/ })
    await expect(listState).toHaveText(/Any domain/)
    await section.getByLabel('Domains').fill('not a domain')
    await section.getByRole('button', { name: 'Save domains' }).click()
    await expect(section.getByRole('alert')).toHaveText('Not a domain: not a domain')
    await section.getByLabel('Domains').fill('moonpay.example\n*.transak.example')
    await section.getByRole('button', { name: 'Save domains' }).click()
    await expect(listState).toHaveText(/^2 allowed/)
    await expectNoSevereViolations(page)

    await page.goto('/admin/add_buylink')
    const field = page.getByLabel('Buy Link', { exact: true })
    await field.fill('https://moonpay.example.evil.example/buy')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('moonpay.example.evil.example is not an allowed domain for outward links (Settings)').first()).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/add_buylink$/)
    // What was typed is still there to correct.
    await expect(field).toHaveValue('https://moonpay.example.evil.example/buy')

    await field.fill(`https://buy.transak.example/${Date.now().toString(36)}`)
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page).toHaveURL(/\/admin\/buy_list$/)
  })

  test('an Admin reads the list and cannot change it', async ({ page, request }) => {
    const token = await apiToken(request, accounts.superadmin)
    await request.post('/api/admin/setOutwardLinkDomains', { headers: { authorization: `Bearer ${token}` }, data: { domains: ['moonpay.example'] } })
    const admin = await createStaff(request, { name: 'Domains Reader', screens: ['/settings'], accessLevel: 'Admin' })
    await signInPage(page, admin)
    await page.goto('/admin/settings')
    const section = page.getByRole('region', { name: 'Allowed domains for outward links' })
    await expect(section.getByRole('listitem')).toHaveText(['moonpay.example'])
    // Said of the list and of the two-admins setting beside it.
    await expect(section.getByText('Only the superadmin can change this.')).toHaveCount(2)
    await expect(section.getByRole('button', { name: 'Save domains' })).toHaveCount(0)
  })
})
