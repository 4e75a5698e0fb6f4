/**
 * Who else is there, as two admins see it: both open Edit Category for the same category; each
 * sees the other on the form, the Category List marks the row the other is editing, and when
 * one saves, the other's form says who changed the record and Reload brings the change in.
 */
import type { Page } from '@playwright/test'
import { test, expect, accounts } from './fixtures.ts'
import { openEdit, twoAdminsOnACategory } from './two-admins.ts'

/** The "Also here" line of a record's screen. */
const alsoHere = (page: Page) => page.getByRole('status').filter({ hasText: 'Also here:' })

test('two admins on one category see each other, the list marks it, and a save by one is announced to the other with Reload', async ({ browser, baseURL }) => {
  const { first, second, name } = await twoAdminsOnACategory(browser, baseURL, 'Shared')

  const a = await openEdit(first, accounts.superadmin, name)
  const b = await openEdit(second, accounts.categoriesOnly, name)

  // Each sees the other (never themselves), with since when.
  await expect(alsoHere(a)).toContainText(accounts.categoriesOnly.name)
  await expect(alsoHere(a)).toContainText('editing since')
  await expect(alsoHere(b)).toContainText(accounts.superadmin.name)
  await expect(alsoHere(b)).toContainText('editing since')
  await expect(alsoHere(a)).not.toContainText(accounts.superadmin.name)

  // The list, in another tab of the first admin, marks the row the second is editing.
  const list = await first.newPage()
  await list.goto(`/admin/category?search=${encodeURIComponent(name)}`)
  const row = list.getByRole('row').filter({ hasText: name })
  await expect(row.getByTitle(`${accounts.categoriesOnly.name} is editing this record`)).toBeVisible()

  // B saves; A's form says who changed it, and Reload brings the new name in.
  await b.getByLabel('Category Name').fill(`${name} by B`)
  await b.getByRole('button', { name: 'Submit' }).click()
  await expect(b).toHaveURL(/\/admin\/category$/)
  const banner = a.getByRole('alert').filter({ hasText: `${accounts.categoriesOnly.name} changed this record at` })
  await expect(banner).toBeVisible()
  // B left the form: gone from A's line and from the list's mark.
  await expect(alsoHere(a)).toHaveCount(0)
  await expect(row.getByTitle(`${accounts.categoriesOnly.name} is editing this record`)).toHaveCount(0)
  await banner.getByRole('button', { name: 'Reload' }).click()
  await expect(a.getByLabel('Category Name')).toHaveValue(`${name} by B`)
  await expect(banner).toHaveCount(0)

  // A's own save announces nothing to A.
  await a.getByLabel('Category Name').fill(`${name} by A`)
  await a.getByRole('button', { name: 'Submit' }).click()
  await expect(a).toHaveURL(/\/admin\/category$/)

  await first.close()
  await second.close()
})

test('a tab that closes is gone from the other admin\'s form at once', async ({ browser, baseURL }) => {
  const { first, second, name } = await twoAdminsOnACategory(browser, baseURL, 'Leaving')
  const a = await openEdit(first, accounts.superadmin, name)
  const b = await openEdit(second, accounts.categoriesOnly, name)
  await expect(alsoHere(a)).toContainText(accounts.categoriesOnly.name)
  await b.close()
  await expect(alsoHere(a)).toHaveCount(0, { timeout: 10_000 })
  await first.close()
  await second.close()
})
