/**
 * Suppressed addresses: an Admin adds an address from the menu's entry, finds it by search with
 * its reason, time and source, and takes it off the list after the question; View Only staff read
 * the list without Add or Remove.
 */
import { z } from 'zod'
import type { APIRequestContext } from '@playwright/test'
import { createStaff, test, expect, signInPage, bodyRows, superadminHeaders } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const Entries = z.object({ result: z.array(z.object({ address: z.string(), reason: z.string(), source: z.string() })) })

/** An address unique to this run, so specs can share one server. */
const uniqueAddress = (label: string): string => `${label}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@example.com`

async function suppressedLike(request: APIRequestContext, search: string): Promise<z.output<typeof Entries>['result']> {
  const answer = await request.get('/api/admin/listSuppressedAddresses', { headers: await superadminHeaders(request), params: { page: 1, limit: 100, search } })
  return Entries.parse(await answer.json()).result
}

test('an Admin adds an address, finds it by search, and removes it after the question', async ({ adminPage: page }) => {
  const address = uniqueAddress('bounced')
  await page.goto('/admin/dashboard')
  // Listed beneath Messaging, in the menu's Messaging group.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('list', { name: 'Messaging' }).getByRole('link', { name: 'Suppressed addresses' }).click()
  await expect(page).toHaveURL(/\/admin\/suppressed-addresses$/)
  await expect(page.getByRole('heading', { name: 'Suppressed addresses' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Messaging' })).toHaveAttribute('href', /\/notificationlist$/)
  await expect(page.getByRole('columnheader')).toHaveText(['Address', 'Reason', 'When', 'Source', 'Action'], { useInnerText: true })

  await page.getByRole('link', { name: 'Add Address' }).click()
  await expect(page).toHaveURL(/\/admin\/add-suppressed-address$/)
  await page.getByLabel('Email Address').fill('not an address')
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Enter a valid email address').first()).toBeVisible()
  await page.getByLabel('Email Address').fill(`  ${address.toUpperCase()} `)
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page).toHaveURL(/\/admin\/suppressed-addresses$/)
  await expect(page.getByRole('status').filter({ hasText: `${address} suppressed` })).toBeVisible()

  await page.getByRole('searchbox', { name: 'Search' }).fill(address.slice(0, 18).toUpperCase())
  await expect(bodyRows(page)).toHaveCount(1)
  const row = bodyRows(page).first()
  await expect(row).toContainText(address)
  await expect(row).toContainText('Manual')
  expect(await suppressedLike(page.request, address)).toMatchObject([{ address, reason: 'manual' }])

  await page.getByRole('button', { name: `Delete ${address}` }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Take this address off the list? Mass sends will reach it again.' })
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(row).toBeVisible()
  await page.getByRole('button', { name: `Delete ${address}` }).click()
  await dialog.getByRole('button', { name: 'Yes, remove' }).click()
  await expect(page.getByRole('status').filter({ hasText: `${address} is no longer suppressed` })).toBeVisible()
  await expect(bodyRows(page).filter({ hasText: address })).toHaveCount(0)
  expect(await suppressedLike(page.request, address)).toEqual([])
})

test('View Only staff read the list without Add or Delete, and get no form on the add page', async ({ page }) => {
  const address = uniqueAddress('readonly')
  const added = await page.request.post('/api/admin/addSuppressedAddress', { headers: await superadminHeaders(page.request), data: { address } })
  expect(added.ok(), await added.text()).toBe(true)
  const viewer = await createStaff(page.request, { name: 'Sam Suppressed', screens: ['/suppressed-addresses'] })
  await signInPage(page, viewer)
  await page.goto(`/admin/suppressed-addresses?search=${encodeURIComponent(address)}`)
  await expect(bodyRows(page).filter({ hasText: address })).toHaveCount(1)
  await expect(page.getByRole('link', { name: 'Add Address' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^(Add|Edit|Delete)\b/ })).toHaveCount(0)
  await page.goto('/admin/add-suppressed-address')
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0)
})

test('the suppressed addresses screens have no serious or critical accessibility violation', async ({ adminPage: page }) => {
  await page.goto('/admin/suppressed-addresses')
  await expect(page.getByRole('heading', { name: 'Suppressed addresses' })).toBeVisible()
  await expectNoSevereViolations(page)
  await page.goto('/admin/add-suppressed-address')
  await expect(page.getByLabel('Email Address')).toBeVisible()
  await expectNoSevereViolations(page)
})
