/**
 * A lead's page: opened from the Leads list (its email) and from the palette, every field with
 * the wallet address copyable, the brand it came through, its enquiries and promotions, the
 * newsletter; an unknown id says so. A reader of Leads alone is told the enquiries and
 * promotions are not shown, instead of them.
 */
import { createStaff, signInPage, test, expect } from './fixtures.ts'
import { SEEDED_BRAND, leadEmail, leadName } from './accounts.ts'
import { expectNoSevereViolations } from './axe.ts'

test('opens from the Leads list with every field, the wallet address copyable, and the brand it came through', async ({ adminPage: page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const lead = SEEDED_BRAND.leads[0]
  await page.goto(`/admin/users?search=${encodeURIComponent(leadEmail(lead))}`)
  await page.getByRole('link', { name: leadEmail(lead), exact: true }).click()
  await expect(page).toHaveURL(/\/admin\/lead\?id=/)
  await expect(page.getByRole('heading', { name: 'Lead', exact: true })).toBeVisible()
  const details = page.locator('dl')
  await expect(details.getByText(leadName(lead), { exact: true })).toBeVisible()
  await expect(details.getByRole('link', { name: SEEDED_BRAND.brandname })).toHaveAttribute('href', /\/view-brand\?id=/)
  await expect(details.getByText(/receive the newsletter/)).toBeVisible()
  await page.getByRole('button', { name: 'Copy wallet address' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^0x[0-9a-f]{40}$/)
  await expect(page.getByRole('heading', { name: 'Contact enquiries' })).toBeVisible()
  await expect(page.getByText('No enquiry came from this email.')).toBeVisible()
  await expect(page.getByText('No promotion was sent to this lead.')).toBeVisible()
  await expectNoSevereViolations(page)
})

test('says the lead is not found for an unknown id', async ({ adminPage: page }) => {
  await page.goto('/admin/lead?id=00000000-0000-0000-0000-000000000000')
  await expect(page.getByRole('alert').filter({ hasText: 'This record was not found. It may have been removed.' })).toBeVisible()
})

test('a reader of Leads alone is told the enquiries and promotions are not shown', async ({ page }) => {
  const staff = await createStaff(page.request, { name: 'Lead Reader', screens: ['/users'], accessLevel: 'View Only' })
  await signInPage(page, staff)
  const lead = SEEDED_BRAND.leads[0]
  await page.goto(`/admin/users?search=${encodeURIComponent(leadEmail(lead))}`)
  await page.getByRole('link', { name: leadEmail(lead), exact: true }).click()
  await expect(page.locator('dl').getByText(leadName(lead), { exact: true })).toBeVisible()
  const enquiries = page.getByRole('region', { name: 'Contact enquiries' })
  await expect(enquiries.getByText('Not shown: you do not have access to Contact Us.')).toBeVisible()
  await expect(enquiries.getByText('No enquiry came from this email.')).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Promotions sent' }).getByText('Not shown: you do not have access to Messaging.')).toBeVisible()
})
