/**
 * Restriction List and Add Restriction (requirements R2.25, R2.26, R4.7, R5.14, R6.5): the searchable country list
 * with its All option ('*' never sent, no duplicates), Select All and Delete All after the
 * question, the hide/unhide toggle with hidden rows marked, View Only read-only, and axe.
 * The restricted countries are one list on the shared server: each test starts from an empty one.
 */
import type { APIRequestContext, Page, Request } from '@playwright/test'
import { z } from 'zod'
import { createStaff, test, expect, accounts, apiToken, signInPage, bodyRows } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const CONFIRM = 'Are you sure you want to remove these countries'
const Entries = z.object({ result: z.array(z.object({ Restrictedcountry: z.array(z.object({ _id: z.string(), country: z.string(), hide: z.boolean() })) })) })
const Names = z.object({ result: z.array(z.string()) })
const Sent = z.object({ country: z.array(z.string()) })
const Public = z.object({ result: z.array(z.object({ country: z.string(), code: z.string() })) })

async function api(request: APIRequestContext) {
  const token = await apiToken(request, accounts.superadmin)
  const headers = { authorization: `Bearer ${token}` }
  return {
    entries: async () => Entries.parse(await (await request.get('/api/admin/FetchRestrictions', { headers })).json()).result[0]?.Restrictedcountry ?? [],
    countries: async () => Names.parse(await (await request.get('/api/admin/listCountry', { headers })).json()).result,
    add: async (country: string[]) => expect((await request.post('/api/admin/AddRestrictions', { headers, data: { country } })).ok()).toBe(true),
    removeAll: async (ids: string[]) => {
      if (ids.length > 0) expect((await request.post('/api/admin/CheckBoxDelete', { headers, data: { deleteData: ids } })).ok()).toBe(true)
    },
  }
}

/** Empties the list, so each test starts from 'No Record Found'. */
async function emptyList(request: APIRequestContext): Promise<Awaited<ReturnType<typeof api>>> {
  const server = await api(request)
  await server.removeAll((await server.entries()).map((e) => e._id))
  return server
}

const countryField = (page: Page) => page.getByRole('button', { name: /^Country/ })
const sentCountries = (request: Request) => Sent.parse(request.postDataJSON()).country

test.describe('Restriction List', () => {
  test('adds one country found by a search, then every country with All, never sending * nor duplicating', async ({ adminPage: page }) => {
    const server = await emptyList(page.request)
    const every = await server.countries()
    await page.goto('/admin/restriction')
    await expect(page.getByRole('heading', { name: 'Restriction List' })).toBeVisible()
    await expect(bodyRows(page).first()).toContainText('No Record Found')
    await expect(page.getByRole('columnheader', { name: 'S.No' })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: 'Country' })).toBeVisible()
    await page.getByRole('link', { name: 'Add', exact: true }).click()
    await expect(page).toHaveURL(/\/admin\/add-restriction$/)
    await expect(page.getByRole('heading', { name: 'Add Restriction' })).toBeVisible()

    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Country is required')).toBeVisible()

    // All selects every country; unchecking All clears them again.
    await countryField(page).click()
    await page.getByRole('option', { name: 'All', exact: true }).click()
    await expect(page.getByText(`${every.length} of ${every.length} selected`)).toBeVisible()
    await page.getByRole('option', { name: 'All', exact: true }).click()
    await expect(page.getByText(`0 of ${every.length} selected`)).toBeVisible()
    // A search narrows the list (and hides All, which would be ambiguous there).
    await page.getByPlaceholder('Search…').fill('fran')
    await expect(page.getByRole('option', { name: 'All', exact: true })).toHaveCount(0)
    await page.getByRole('option', { name: 'France', exact: true }).click()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('list', { name: 'Selected' })).toHaveText(/France/)

    const first = page.waitForRequest((r) => r.url().endsWith('/api/admin/AddRestrictions'))
    await page.getByRole('button', { name: 'Submit' }).click()
    expect(sentCountries(await first)).toEqual(['France'])
    await expect(page).toHaveURL(/\/admin\/restriction$/)
    await expect(bodyRows(page)).toHaveCount(1)
    await expect(bodyRows(page).first()).toContainText('France')

    await page.goto('/admin/add-restriction')
    await countryField(page).click()
    await page.getByRole('option', { name: 'All', exact: true }).click()
    await page.keyboard.press('Escape')
    const all = page.waitForRequest((r) => r.url().endsWith('/api/admin/AddRestrictions'))
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/AddRestrictions'))
    await page.getByRole('button', { name: 'Submit' }).click()
    const sent = sentCountries(await all)
    expect(sent).not.toContain('*')
    expect([...sent].sort()).toEqual([...every].sort())
    const { message } = z.object({ message: z.string() }).parse(await (await answer).json())
    expect(message).toBe(`${every.length - 1} countries added to the restriction list, 1 was already listed`)
    await expect(page).toHaveURL(/\/admin\/restriction$/)
    await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible()
    const stored = (await server.entries()).map((e) => e.country)
    expect(stored).toHaveLength(every.length)
    expect(stored.filter((c) => c === 'France')).toHaveLength(1)
    // Paged and searched on the page: 10 rows, and a search finds one country.
    await expect(bodyRows(page)).toHaveCount(10)
    await page.getByRole('searchbox', { name: 'Search' }).fill('japan')
    await expect(bodyRows(page)).toHaveCount(1)
    await expect(bodyRows(page).first()).toContainText('Japan')
  })

  test('Select All then Delete All asks first, Cancel keeps the rows, Yes removes every country', async ({ adminPage: page }) => {
    const server = await emptyList(page.request)
    const every = await server.countries()
    await server.add(every)
    await page.goto('/admin/restriction')
    await expect(bodyRows(page)).toHaveCount(10)
    const bar = page.getByRole('region', { name: 'Selected rows' })
    await page.getByRole('button', { name: 'Select All' }).click()
    await expect(bar.getByRole('status')).toHaveText(`${every.length} selected`)

    await bar.getByRole('button', { name: 'Delete All' }).click()
    const dialog = page.getByRole('alertdialog', { name: CONFIRM })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(bodyRows(page)).toHaveCount(10)

    await bar.getByRole('button', { name: 'Delete All' }).click()
    const request = page.waitForRequest((r) => r.url().endsWith('/api/admin/CheckBoxDelete'))
    await dialog.getByRole('button', { name: 'Yes, remove' }).click()
    const ids = z.object({ deleteData: z.array(z.string()) }).parse((await request).postDataJSON()).deleteData
    expect(ids).toHaveLength(every.length)
    await expect(bodyRows(page).first()).toContainText('No Record Found')
    // Nothing is selected any more: the bar goes.
    await expect(bar).toHaveCount(0)
    expect(await server.entries()).toEqual([])
  })

  test('Delete All appears with a selection and sends only the rows ticked', async ({ adminPage: page }) => {
    const server = await emptyList(page.request)
    await server.add(['Chile', 'Japan', 'Spain'])
    await page.goto('/admin/restriction')
    await expect(bodyRows(page)).toHaveCount(3)
    const bar = page.getByRole('region', { name: 'Selected rows' })
    // With nothing ticked there is no bar: Select All alone, and no Delete All to press.
    await expect(bar).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Select All' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Delete All' })).toHaveCount(0)

    await page.getByRole('checkbox', { name: 'Select Japan' }).check()
    await expect(bar.getByRole('status')).toHaveText('1 selected')
    await bar.getByRole('button', { name: 'Delete All' }).click()
    await page.getByRole('alertdialog', { name: CONFIRM }).getByRole('button', { name: 'Yes, remove' }).click()
    await expect(bodyRows(page)).toHaveCount(2)
    expect((await server.entries()).map((e) => e.country)).toEqual(['Chile', 'Spain'])
  })

  test('hides and unhides a country: it stays listed, marked Not enforced, and leaves the public list', async ({ adminPage: page }) => {
    const server = await emptyList(page.request)
    await server.add(['Japan', 'Spain'])
    await page.goto('/admin/restriction')
    const japan = page.getByRole('row').filter({ hasText: 'Japan' })
    const enforced = japan.getByText('Enforced', { exact: true })
    const notEnforced = japan.getByText('Not enforced', { exact: true })
    await expect(enforced).toBeVisible()
    // What hiding means is said once, above the list.
    await expect(page.getByText('A hidden country stays on this list, but the apps no longer enforce its restriction')).toHaveCount(1)

    await page.getByRole('button', { name: 'Hide Japan' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Japan hidden' })).toBeVisible()
    await expect(notEnforced).toBeVisible()
    await expect(enforced).toHaveCount(0)
    const hidden = Public.parse(await (await page.request.get('/api/admin/restricted-countries')).json()).result
    expect(hidden.map((c) => c.code)).toEqual(['ES'])

    await page.getByRole('button', { name: 'Unhide Japan' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Japan shown again' })).toBeVisible()
    await expect(enforced).toBeVisible()
    await expect(notEnforced).toHaveCount(0)
    const shown = Public.parse(await (await page.request.get('/api/admin/restricted-countries')).json()).result
    expect(shown.map((c) => c.code)).toEqual(['JP', 'ES'])
  })

  test('has no serious accessibility violations on the list and the open country list', async ({ adminPage: page }) => {
    const server = await emptyList(page.request)
    await server.add(['Chile', 'Japan'])
    await page.goto('/admin/restriction')
    await expect(bodyRows(page)).toHaveCount(2)
    await page.getByRole('checkbox', { name: 'Select Chile' }).check()
    await expectNoSevereViolations(page, '/restriction')
    await page.goto('/admin/add-restriction')
    await countryField(page).click()
    await expect(page.getByRole('option', { name: 'All', exact: true })).toBeVisible()
    await expectNoSevereViolations(page, '/add-restriction')
  })
})

test.describe('View Only staff on the restrictions', () => {
  test('read the list, hidden rows marked, without Add, checkboxes, Select All, Delete All or Hide', async ({ page }) => {
    const server = await emptyList(page.request)
    await server.add(['Chile', 'Japan'])
    const token = await apiToken(page.request, accounts.superadmin)
    const japan = (await server.entries()).find((e) => e.country === 'Japan')
    await page.request.post('/api/admin/HideRestrictions', { headers: { authorization: `Bearer ${token}` }, data: { hide: true, country: japan?._id ?? '' } })
    const viewer = await createStaff(page.request, { name: 'Rhea Restrictions', screens: ['/restriction'] })
    await signInPage(page, viewer)

    await page.goto('/admin/restriction')
    await expect(bodyRows(page)).toHaveCount(2)
    await expect(page.getByRole('row').filter({ hasText: 'Japan' })).toContainText('Not enforced')
    await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0)
    await expect(page.getByRole('checkbox')).toHaveCount(0)
    await expect(page.getByRole('button', { name: /^(Select All|Delete All|Hide|Unhide)\b/ })).toHaveCount(0)
    await expect(page.getByRole('columnheader', { name: 'Action' })).toHaveCount(0)
    await expectNoSevereViolations(page, '/restriction (View Only)')

    await page.goto('/admin/add-restriction')
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0)
  })
})
