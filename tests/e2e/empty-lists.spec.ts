/**
 * An empty list says "No Record Found" (the requirements' words), then what belongs there and, for
 * an Admin, the link that adds the first one; a search that matches nothing says so and clears in
 * one step. On a server of its own, where no address has been suppressed yet.
 */
import { expect, test } from './fixtures.ts'
import { ownServerWithMail } from './own-server.ts'
import { expectNoSevereViolations } from './axe.ts'

ownServerWithMail('empty-lists')

test('an empty list says what belongs there and offers to add the first one', async ({ adminPage: page }) => {
  await page.goto('/admin/suppressed-addresses')
  const table = page.getByRole('table', { name: 'Suppressed addresses' })
  await expect(table.getByText('No Record Found')).toBeVisible()
  await expect(table.getByText('bounces and complaints add theirs here by themselves')).toBeVisible()
  await expectNoSevereViolations(page)
  await table.getByRole('link', { name: 'Suppress an address' }).click()
  await expect(page).toHaveURL(/\/admin\/add-suppressed-address$/)
})

test('a search that matches nothing says so, and one button brings every row back', async ({ adminPage: page }) => {
  await page.goto('/admin/contactus')
  const table = page.getByRole('table', { name: 'Contact Us' })
  // The seeded enquiries.
  await expect(table.getByRole('row').nth(2)).toBeVisible()
  await page.getByRole('searchbox').fill('nothing-is-called-this')
  await expect(table.getByText('No Record Found')).toBeVisible()
  await expect(table.getByText('Nothing matches the search or the filters.')).toBeVisible()
  await table.getByRole('button', { name: 'Clear the search and filters' }).click()
  await expect(page.getByRole('searchbox')).toHaveValue('')
  await expect(table.getByText('No Record Found')).toHaveCount(0)
  await expect(table.getByRole('row').nth(2)).toBeVisible()
})
