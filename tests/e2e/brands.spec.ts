/**
 * Brand Tab (requirements R2.23, R2.24, R5.10, R6.5, R9.3): the Brand List, Add and Edit Brand
 * with the required messages, View Brand with its referral link (copied to the clipboard), the visits counted
 * through it and the emails 2 at a time with 'Load More...', delete after a question, View Only
 * read-only, and axe.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { z } from 'zod'
import { SEEDED_BRAND, leadEmail } from './accounts.ts'
import { createStaff, test, expect, referrerSentToStore, signInPage, bodyRows, superadminHeaders } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const BrandPage = z.object({ result: z.array(z.object({ _id: z.string(), brandname: z.string(), type: z.string() })) })

/** A brand name unique to this run, so specs can share one server. */
const uniqueName = (label: string): string => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

async function createBrand(request: APIRequestContext, brandname: string, type = 'web3auth'): Promise<void> {
  const answer = await request.post('/api/admin/addBrand', { headers: await superadminHeaders(request), data: { brandname, type } })
  expect(answer.ok(), await answer.text()).toBe(true)
}

async function brandsNamed(request: APIRequestContext, search: string): Promise<z.output<typeof BrandPage>['result']> {
  const answer = await request.get('/api/admin/listbrand', { headers: await superadminHeaders(request), params: { page: 1, limit: 100, search } })
  return BrandPage.parse(await answer.json()).result
}

const visits = (page: Page) => page.locator('dt', { hasText: 'Visits' }).locator('+ dd')
const emails = (page: Page) => page.getByRole('list', { name: 'Emails' }).getByRole('listitem')

async function chooseType(page: Page, type: string): Promise<void> {
  await page.getByLabel('Type').click()
  await page.getByRole('option', { name: type, exact: true }).click()
}

test.describe('Brand List, Add and Edit Brand', () => {
  test('Add shows the required messages, refuses a taken name in any case, then adds and returns to the list', async ({ adminPage: page }) => {
    await page.goto('/admin/brand')
    await expect(page.getByRole('heading', { name: 'Brand List' })).toBeVisible()
    await expect(page.getByRole('columnheader')).toHaveText(['', 'S.No', 'Brand Name', 'Type', 'Action'], { useInnerText: true })
    await page.getByRole('link', { name: 'Add', exact: true }).click()
    await expect(page).toHaveURL(/\/admin\/addbrand$/)

    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Brandname is required')).toBeVisible()
    await expect(page.getByText('type is required')).toBeVisible()

    await page.getByLabel('Brand Name').fill(SEEDED_BRAND.brandname.toUpperCase())
    await chooseType(page, 'web3auth')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Brandname already exists').first()).toBeVisible()

    const name = uniqueName('Arcade')
    await page.getByLabel('Brand Name').fill(name)
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page).toHaveURL(/\/admin\/brand$/)
    await expect(page.getByRole('status').filter({ hasText: 'Brand added successfully' })).toBeVisible()
    await page.getByRole('searchbox', { name: 'Search' }).fill(name)
    await expect(bodyRows(page)).toHaveCount(1)
    await expect(bodyRows(page).first()).toContainText(name)
    await expect(bodyRows(page).first()).toContainText('web3auth')
  })

  test('Edit opens prefilled from the list, and after a reload from the server; saving returns to the list', async ({ adminPage: page }) => {
    const name = uniqueName('Editable')
    await createBrand(page.request, name, 'ipfs')
    await page.goto(`/admin/brand?search=${encodeURIComponent(name)}`)
    await page.getByRole('button', { name: `Edit ${name}` }).click()
    await expect(page).toHaveURL(/\/admin\/edit-brand\?id=/)
    await expect(page.getByRole('heading', { name: 'Edit Brand' })).toBeVisible()
    await expect(page.getByLabel('Brand Name')).toHaveValue(name)
    await page.reload()
    await expect(page.getByLabel('Brand Name')).toHaveValue(name)
    await expect(page.getByLabel('Type')).toContainText('ipfs')

    const renamed = `${name} renamed`
    await page.getByLabel('Brand Name').fill(renamed)
    await chooseType(page, 'web3auth')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page).toHaveURL(/\/admin\/brand$/)
    await expect(page.getByRole('status').filter({ hasText: 'Brand updated successfully' })).toBeVisible()
    expect(await brandsNamed(page.request, renamed)).toEqual([expect.objectContaining({ brandname: renamed, type: 'web3auth' })])
  })

  test('deletes after the question; Cancel keeps the brand', async ({ adminPage: page }) => {
    const name = uniqueName('Doomed')
    await createBrand(page.request, name)
    await page.goto(`/admin/brand?search=${encodeURIComponent(name)}`)
    const row = page.getByRole('row').filter({ hasText: name })
    await page.getByRole('button', { name: `Delete ${name}` }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Are you sure you want to remove this Brand' })
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(row).toBeVisible()

    await page.getByRole('button', { name: `Delete ${name}` }).click()
    await dialog.getByRole('button', { name: 'Yes, remove' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Brand deleted successfully' })).toBeVisible()
    await expect(row).toHaveCount(0)
    expect(await brandsNamed(page.request, name)).toEqual([])
  })
})

test.describe('View Brand', () => {
  test('shows the referral link, copies it, lists the emails 2 at a time with Load More..., and counts a visit through the link', async ({ adminPage: page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.goto(`/admin/brand?search=${encodeURIComponent(SEEDED_BRAND.brandname)}`)
    await page.getByRole('button', { name: `View ${SEEDED_BRAND.brandname}` }).click()
    await expect(page).toHaveURL(/\/admin\/view-brand\?id=/)
    await expect(page.getByRole('heading', { name: 'View Brand' })).toBeVisible()
    await expect(page.locator('dt', { hasText: 'Brand Name' }).locator('+ dd')).toHaveText(SEEDED_BRAND.brandname)

    // The oldest of the brand's leads last: 2 at first, 2 more per Load More..., then no button.
    const [a, b, c, d, e] = SEEDED_BRAND.leads.map(leadEmail)
    await expect(emails(page)).toHaveText([a, b].map(String))
    const more = page.getByRole('button', { name: 'Load More...' })
    await more.click()
    await expect(emails(page)).toHaveText([a, b, c, d].map(String))
    await more.click()
    await expect(emails(page)).toHaveText([a, b, c, d, e].map(String))
    await expect(more).toHaveCount(0)
    await expect(page.getByText('Showing 5 of 5')).toBeVisible()

    const link = await page.getByLabel('Referral link').inputValue()
    const origin = new URL(page.url()).origin
    expect(link.startsWith(`${origin}/admin/app/`)).toBe(true)
    const segment = link.slice(`${origin}/admin/app/`.length)
    // The code is URL-encoded into one path segment: no raw '/', '+' or '=' is left in it.
    expect(segment).not.toMatch(/[/+=]/)
    expect(decodeURIComponent(segment)).toMatch(/^U2FsdGVkX1[A-Za-z0-9+/]+=*$/)
    await page.getByRole('button', { name: 'Copy link' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Link copy successfully' })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)

    const before = Number(await visits(page).textContent())
    expect(await referrerSentToStore(page, link)).toBe(decodeURIComponent(segment))
    // A garbled code still goes to the store, and counts nowhere.
    expect(await referrerSentToStore(page, '/admin/app/U2FsdGVkX1%2Bgarbled')).toBe('U2FsdGVkX1+garbled')
    // The server writes counted visits every REFERRAL_FLUSH_MS (0.1 s for these tests): View Brand
    // is opened again until the visit shows.
    await expect
      .poll(async () => {
        await page.goto(`/admin/brand?search=${encodeURIComponent(SEEDED_BRAND.brandname)}`)
        await page.getByRole('button', { name: `View ${SEEDED_BRAND.brandname}` }).click()
        return Number(await visits(page).textContent())
      })
      .toBe(before + 1)
  })

  test('says the brand is not found for an unknown id', async ({ adminPage: page }) => {
    await page.goto('/admin/view-brand?id=00000000-0000-0000-0000-000000000000')
    await expect(page.getByRole('alert').filter({ hasText: 'This record was not found. It may have been removed.' })).toBeVisible()
  })
})

test.describe('View Only staff on the brands', () => {
  test('read the list and View Brand (opened with the list alone) without Add, Edit or Delete, and get no form on the add page', async ({ page }) => {
    const viewer = await createStaff(page.request, { name: 'Bram Brands', screens: ['/brand'] })
    await signInPage(page, viewer)

    await page.goto(`/admin/brand?search=${encodeURIComponent(SEEDED_BRAND.brandname)}`)
    await expect(page.getByRole('row').filter({ hasText: SEEDED_BRAND.brandname })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0)
    await expect(page.getByRole('button', { name: /^(Add|Edit|Delete)\b/ })).toHaveCount(0)
    await page.getByRole('button', { name: `View ${SEEDED_BRAND.brandname}` }).click()
    await expect(page.getByRole('heading', { name: 'View Brand' })).toBeVisible()
    await expect(emails(page)).toHaveCount(2)
    await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible()

    await page.goto('/admin/addbrand')
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0)
  })
})

test('the brand screens have no serious or critical accessibility violation', async ({ adminPage: page }) => {
  for (const path of ['/admin/brand', '/admin/addbrand']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
    await expectNoSevereViolations(page, path)
  }
  await page.goto(`/admin/brand?search=${encodeURIComponent(SEEDED_BRAND.brandname)}`)
  await page.getByRole('button', { name: `View ${SEEDED_BRAND.brandname}` }).click()
  await expect(page.getByRole('list', { name: 'Emails' })).toBeVisible()
  await expectNoSevereViolations(page, '/admin/view-brand')
})
