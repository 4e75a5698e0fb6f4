/**
 * Buy List, Swap out and Swap in (requirements R2.18, R3.8, R5.5, R6.5): the add pages with the
 * required messages, the "Edit List" modal with Title and Preference, delete after the required question,
 * View Only without write controls, tablets, offline, and axe.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { z } from 'zod'
import { createStaff, test, expect, accounts, apiToken, signInPage, bodyRows } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const CONFIRM = 'Are you sure you want to remove this Link'
const Answer = z.object({ message: z.string() })
const LinkPage = z.object({ result: z.array(z.object({ _id: z.string(), buyLink: z.string(), preference: z.number() })), count: z.number() })

/** A link unique to this test run, so every spec can share one server. */
const uniqueLink = (label: string): string => `https://${label}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}.example.com/`

/** Adds a buy link through the Add page and returns the server's message. */
async function addBuyLink(page: Page, link: string): Promise<string> {
  await page.goto('/admin/add_buylink')
  await page.getByLabel('Buy Link', { exact: true }).fill(link)
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/addbuyLink'))
  await page.getByRole('button', { name: 'Submit' }).click()
  return Answer.parse(await (await answer).json()).message
}

/** Buy links as the server lists them, searched for `search`. */
async function buyLinks(request: APIRequestContext, search: string): Promise<z.output<typeof LinkPage>> {
  const token = await apiToken(request, accounts.superadmin)
  const response = await request.post('/api/admin/ListBuyLink', {
    headers: { authorization: `Bearer ${token}` },
    data: { page: 1, limit: 100, search },
  })
  return LinkPage.parse(await response.json())
}


/** A pattern matching `text` literally. */
const literally = (text: string): RegExp => new RegExp(text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))

test.describe('Buy List', () => {
  test('Add shows the required messages, then adds the link and returns to the list', async ({ adminPage: page }) => {
    await page.goto('/admin/buy_list')
    await expect(page.getByRole('heading', { name: 'Buy List' })).toBeVisible()
    await expect(page.getByRole('columnheader')).toHaveText(['', 'S.No', 'Buy Link', 'Action'], { useInnerText: true })
    await page.getByRole('link', { name: 'Add', exact: true }).click()
    await expect(page).toHaveURL(/\/admin\/add_buylink$/)

    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('buylink is required')).toBeVisible()
    await page.getByLabel('Buy Link', { exact: true }).fill('not a link')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Incorrect format')).toBeVisible()
    // The URL pattern of requirements R5.1 also takes a www-prefixed host.
    const link = uniqueLink('add').replace('https://', 'www.')
    await page.getByLabel('Buy Link', { exact: true }).fill(link)
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/addbuyLink'))
    await page.getByRole('button', { name: 'Submit' }).click()
    const { message } = Answer.parse(await (await answer).json())

    await expect(page).toHaveURL(/\/admin\/buy_list$/)
    await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible()
    await page.getByRole('searchbox', { name: 'Search' }).fill(link)
    await expect(bodyRows(page)).toHaveCount(1)
    await expect(bodyRows(page).first()).toContainText(link)
  })

  test('edits Title and Preference in the Edit List modal, and the list follows the preference', async ({ adminPage: page }) => {
    const run = `order-${Date.now().toString(36)}`
    const first = `https://${run}-a.example.com/`
    const second = `https://${run}-b.example.com/`
    await addBuyLink(page, first)
    await addBuyLink(page, second)
    await page.goto(`/admin/buy_list?search=${run}`)
    await expect(bodyRows(page)).toHaveCount(2)
    // A new link goes last: the list shows them in the order they were added.
    await expect(bodyRows(page).nth(0)).toContainText(first)
    const before = await buyLinks(page.request, run)
    const firstPreference = before.result.find((l) => l.buyLink === first)?.preference

    const edit = page.getByRole('button', { name: `Edit ${second}` })
    await edit.click()
    const dialog = page.getByRole('dialog', { name: 'Edit List' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByLabel('Title')).toHaveValue(second)
    await expect(dialog.getByLabel('Preference')).toHaveValue(String(before.result.find((l) => l.buyLink === second)?.preference))

    // The required messages under the inputs, before anything is sent.
    await dialog.getByLabel('Title').fill('')
    await dialog.getByRole('button', { name: 'Submit' }).click()
    await expect(dialog.getByText('buylink is required')).toBeVisible()
    await dialog.getByLabel('Title').fill('ftp://nope')
    await dialog.getByRole('button', { name: 'Submit' }).click()
    await expect(dialog.getByText('Incorrect format')).toBeVisible()

    const renamed = `https://${run}-c.example.com/`
    await dialog.getByLabel('Title').fill(renamed)
    await dialog.getByLabel('Preference').fill(String(firstPreference))
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/editBuylink'))
    await dialog.getByRole('button', { name: 'Submit' }).click()
    const { message } = Answer.parse(await (await answer).json())
    await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible()
    await expect(dialog).toBeHidden()
    // Focus goes back to the button that opened the modal (its row now shows the new link).
    await expect(page.getByRole('button', { name: `Edit ${renamed}` })).toBeFocused()
    // Moved to the first one's place: it now comes first, and the first one moved down by one.
    await expect(bodyRows(page).nth(0)).toContainText(renamed)
    await expect(bodyRows(page).nth(1)).toContainText(first)
    const after = await buyLinks(page.request, run)
    expect(after.result.map((l) => [l.buyLink, l.preference])).toEqual([
      [renamed, firstPreference],
      [first, (firstPreference ?? 0) + 1],
    ])
  })

  test('a preference greater than the record count is ignored: the link keeps its place', async ({ adminPage: page }) => {
    const link = uniqueLink('far')
    await addBuyLink(page, link)
    const { result, count } = await buyLinks(page.request, '')
    const place = result.find((l) => l.buyLink === link)?.preference
    await page.goto(`/admin/buy_list?search=${encodeURIComponent(link)}`)
    await page.getByRole('button', { name: `Edit ${link}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit List' })
    await dialog.getByLabel('Preference').fill(String(count + 5))
    await dialog.getByRole('button', { name: 'Submit' }).click()
    await expect(dialog).toBeHidden()
    expect((await buyLinks(page.request, link)).result[0]?.preference).toBe(place)
  })

  test('Cancel closes the Edit List modal without saving and keeps the list where it was', async ({ adminPage: page }) => {
    const link = uniqueLink('cancel')
    await addBuyLink(page, link)
    await page.goto(`/admin/buy_list?search=${encodeURIComponent(link)}`)
    await page.getByRole('button', { name: `Edit ${link}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit List' })
    await dialog.getByLabel('Title').fill('https://not-saved.example.com/')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(/search=/)
    await expect(bodyRows(page).first()).toContainText(link)
    await expect(page.getByRole('button', { name: `Edit ${link}` })).toBeFocused()
  })

  test('deletes after the required question; Cancel keeps the row', async ({ adminPage: page }) => {
    const link = uniqueLink('remove')
    await addBuyLink(page, link)
    await page.goto(`/admin/buy_list?search=${encodeURIComponent(link)}`)
    const row = page.getByRole('row').filter({ hasText: link })

    await page.getByRole('button', { name: `Delete ${link}` }).click()
    const dialog = page.getByRole('alertdialog', { name: CONFIRM })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(row).toBeVisible()

    await page.getByRole('button', { name: `Delete ${link}` }).click()
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/DeleteBuyLink'))
    await dialog.getByRole('button', { name: 'Yes, remove' }).click()
    const { message } = Answer.parse(await (await answer).json())
    await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible()
    await expect(row).toHaveCount(0)
    await expect(bodyRows(page).first()).toContainText('No Record Found')
  })

  test('on a tablet the Action column stays in view beside a long link', async ({ adminPage: page }) => {
    const link = `${uniqueLink('tablet')}${'a-very-long-path-segment/'.repeat(8)}`
    await addBuyLink(page, link)
    await page.setViewportSize({ width: 820, height: 1000 })
    await page.goto(`/admin/buy_list?search=${encodeURIComponent(link)}`)
    const remove = page.getByRole('button', { name: `Delete ${link}` })
    await expect(remove).toBeVisible()
    const box = await remove.boundingBox()
    expect(box && box.x + box.width).toBeLessThanOrEqual(820)
    await expect(page.getByRole('button', { name: `Edit ${link}` })).toBeInViewport()
  })

  test('offline, the list shows the one offline notice and not its own refresh error', async ({ adminPage: page, context }) => {
    await page.goto('/admin/buy_list')
    await expect(page.getByRole('heading', { name: 'Buy List' })).toBeVisible()
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
    await context.setOffline(true)
    await page.getByRole('searchbox', { name: 'Search' }).fill('anything')
    await expect(page.getByRole('status').filter({ hasText: /You are offline/ }).first()).toBeVisible()
    await page.waitForTimeout(800)
    await expect(page.getByText('Could not refresh this list')).toHaveCount(0)
    await page.getByRole('searchbox', { name: 'Search' }).fill('')
    await expect(page.getByRole('button', { name: 'Add', exact: true })).toHaveAttribute('aria-disabled', 'true')
    await context.setOffline(false)
  })

  test('the palette finds a cached link and opens its list searched for it, and offers Add Buy Link', async ({ adminPage: page }) => {
    const link = uniqueLink('palette')
    await addBuyLink(page, link)
    await expect(page.getByRole('cell', { name: link, exact: true })).toBeVisible()
    await page.keyboard.press('Control+k')
    const palette = page.getByRole('dialog', { name: 'Command palette' })
    await expect(palette.getByRole('combobox')).toBeFocused()
    await expect(palette.getByRole('option', { name: /Add Buy Link/ })).toBeVisible()
    await page.keyboard.type(link)
    await expect(palette.getByRole('option', { name: literally(link) })).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(literally(`/admin/buy_list?search=${encodeURIComponent(link)}`))
    await expect(bodyRows(page)).toHaveCount(1)
  })

  test('the list, the add page and the open modal have no serious or critical accessibility violation', async ({ adminPage: page }) => {
    const link = uniqueLink('axe')
    await addBuyLink(page, link)
    for (const path of ['/admin/buy_list', '/admin/add_buylink']) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
      await expectNoSevereViolations(page, path)
    }
    await page.goto(`/admin/buy_list?search=${encodeURIComponent(link)}`)
    await page.getByRole('button', { name: `Edit ${link}` }).click()
    await expect(page.getByRole('dialog', { name: 'Edit List' })).toBeVisible()
    await expectNoSevereViolations(page, 'Edit List')
  })
})

test.describe('Swap out and Swap in', () => {
  for (const kind of [
    { list: '/admin/swapout_list', title: 'Swap Out List', add: /\/admin\/add_swapout$/, field: 'Swap Out Link', required: 'swap out link is required', call: 'addsellLink' },
    { list: '/admin/swapin_list', title: 'Swap in List', add: /\/admin\/add_swapin$/, field: 'Swap In Link', required: 'Swap in link is required', call: 'addBridgeLink' },
  ]) {
    test(`${kind.title}: Add is reachable, shows the required messages and adds a link`, async ({ adminPage: page }) => {
      await page.goto(kind.list)
      await expect(page.getByRole('heading', { name: kind.title })).toBeVisible()
      await page.getByRole('link', { name: 'Add', exact: true }).click()
      await expect(page).toHaveURL(kind.add)
      await page.getByRole('button', { name: 'Submit' }).click()
      await expect(page.getByText(kind.required)).toBeVisible()
      await page.getByLabel(kind.field, { exact: true }).fill('example.com')
      await page.getByRole('button', { name: 'Submit' }).click()
      await expect(page.getByText('Incorrect format')).toBeVisible()

      const link = uniqueLink(kind.call)
      await page.getByLabel(kind.field, { exact: true }).fill(link)
      const answer = page.waitForResponse((r) => r.url().endsWith(`/api/admin/${kind.call}`))
      await page.getByRole('button', { name: 'Submit' }).click()
      expect((await answer).ok()).toBe(true)
      await expect(page).toHaveURL(new RegExp(`${kind.list}$`))
      await page.getByRole('searchbox', { name: 'Search' }).fill(link)
      await expect(bodyRows(page).first()).toContainText(link)
      await page.getByRole('button', { name: `Edit ${link}` }).click()
      await expect(page.getByRole('dialog', { name: 'Edit List' }).getByLabel('Title')).toHaveValue(link)
    })
  }
})

test.describe('View Only staff on the links', () => {
  test('read the three lists without Add, Edit or Delete, and get no form on the add pages', async ({ page }) => {
    const token = await apiToken(page.request, accounts.superadmin)
    const link = uniqueLink('readonly')
    const added = await page.request.post('/api/admin/addbuyLink', { headers: { authorization: `Bearer ${token}` }, data: { buylink: link } })
    expect(added.ok(), await added.text()).toBe(true)
    const viewer = await createStaff(page.request, { name: 'Lina Links', screens: ['/buy_list', '/swapout_list', '/swapin_list'] })
    await signInPage(page, viewer)

    await page.goto(`/admin/buy_list?search=${encodeURIComponent(link)}`)
    await expect(page.getByRole('row').filter({ hasText: link })).toBeVisible()
    for (const list of ['/admin/buy_list', '/admin/swapout_list', '/admin/swapin_list']) {
      await page.goto(list)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
      await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0)
      await expect(page.getByRole('button', { name: /^(Add|Edit|Delete)\b/ })).toHaveCount(0)
      await expect(page.getByRole('columnheader', { name: 'Action' })).toHaveCount(0)
    }
    // The add pages are child pages the viewer was not given: the guard sends them to a list.
    await page.goto('/admin/add_buylink')
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0)
    await expect(page.getByLabel('Buy Link', { exact: true })).toHaveCount(0)
  })
})
