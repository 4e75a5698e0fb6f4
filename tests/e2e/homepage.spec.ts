/**
 * Home Page Content and Edit Token (requirements R2.16, R2.30, R4.8, R5.12): the list with its landing-page switch,
 * the add and edit forms with each form's own messages, delete after the required question, the
 * token record form, View Only without write controls, and axe.
 */
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { APIRequestContext, Page } from '@playwright/test'
import { z } from 'zod'
import { encodePng } from '../../server/db/png.ts'
import { createStaff, test, expect, accounts, apiToken, signInPage, bodyRows, toast, answerOf, choose } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const SWITCH = 'Show this CMS content on landing page'
const CONFIRM = 'Are you sure you want to remove this content'
const ADD_IMAGE_MESSAGE = 'Please upload file having extensions  .png,.jpeg,.jpg only.'
const EDIT_IMAGE_MESSAGE = 'Please upload an image with .png, .jpeg,.jpg extension.'
const Preference = z.object({ result: z.object({ status: z.boolean() }) })

/** A PNG and a GIF on disk for the file inputs. */
async function imageFiles(): Promise<{ png: string; gif: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'bo-e2e-homepage-'))
  const png = join(dir, 'block.png')
  const gif = join(dir, 'block.gif')
  await writeFile(png, encodePng(12, 8, (x, y) => [(x * 20) % 256, 90, (y * 30) % 256]))
  await writeFile(gif, 'GIF89a not really')
  return { png, gif }
}

/** A title unique to this run, so specs can share one server. */
const uniqueTitle = (label: string): string => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

/** Runs `act` and returns the server's message of the POST to `endpoint` it made. */

async function addBlock(page: Page, title: string, png: string): Promise<void> {
  await page.goto('/admin/add-homepage-content')
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByLabel('Link', { exact: true }).fill('https://wallet.example/landing')
  await page.getByLabel('Image', { exact: true }).setInputFiles(png)
  await answerOf(page, 'addHomePageCms', () => page.getByRole('button', { name: 'Submit' }).click())
  await expect(page).toHaveURL(/\/admin\/homepage-content$/)
}

async function preferenceOf(request: APIRequestContext): Promise<boolean> {
  const token = await apiToken(request, accounts.superadmin)
  const response = await request.get('/api/admin/getHomepageCmsPreference', { headers: { authorization: `Bearer ${token}` } })
  return Preference.parse(await response.json()).result.status
}

/** Axe on a screen once its heading shows and nothing is loading. */
async function expectSettledScreenAccessible(page: Page, where: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
  await expectNoSevereViolations(page, where)
}

test.describe('Home Page Content', () => {
  test('Add shows the add form’s messages, checks the image kind, then adds the block with a preview and returns to the list', async ({ adminPage: page }) => {
    const { png, gif } = await imageFiles()
    await page.goto('/admin/homepage-content')
    await expect(page.getByRole('heading', { name: 'Homepage Content List' })).toBeVisible()
    await expect(page.getByRole('columnheader')).toHaveText(['', 'S.No', 'Title', 'Link', 'Image', 'Action'], { useInnerText: true })
    await page.getByRole('link', { name: 'Add', exact: true }).click()
    await expect(page).toHaveURL(/\/admin\/add-homepage-content$/)

    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Title is required', { exact: true })).toBeVisible()
    await expect(page.getByText('link is required', { exact: true })).toBeVisible()
    await expect(page.getByText('image is required', { exact: true })).toBeVisible()
    await page.getByLabel('Link', { exact: true }).fill('wallet.example')
    await page.getByLabel('Image', { exact: true }).setInputFiles(gif)
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Incorrect format', { exact: true })).toBeVisible()
    await expect(page.getByText(ADD_IMAGE_MESSAGE, { exact: true })).toBeVisible()

    const title = uniqueTitle('Landing block')
    await page.getByLabel('Title', { exact: true }).fill(title)
    await page.getByLabel('Link', { exact: true }).fill('www.wallet.example/promo')
    await page.getByLabel('Image', { exact: true }).setInputFiles(png)
    await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible()
    const message = await answerOf(page, 'addHomePageCms', () => page.getByRole('button', { name: 'Submit' }).click())
    await expect(page).toHaveURL(/\/admin\/homepage-content$/)
    await expect(toast(page, message)).toBeVisible()
    const row = page.getByRole('row').filter({ hasText: title })
    await expect(row).toContainText('www.wallet.example/promo')
    const thumbnail = row.getByRole('img', { name: title })
    await expect(thumbnail).toBeVisible()
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(12)
  })

  test('Edit is prefilled, also after a reload, shows the edit form’s messages, and saves a new title and image', async ({ adminPage: page }) => {
    const { png, gif } = await imageFiles()
    const title = uniqueTitle('Editable block')
    await addBlock(page, title, png)
    await page.getByRole('button', { name: `Edit ${title}` }).click()
    await expect(page).toHaveURL(/\/admin\/edit-homepage-content\?id=/)
    await expect(page.getByRole('heading', { name: 'Edit Homepage Content' })).toBeVisible()
    await page.reload()
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title)
    await expect(page.getByLabel('Link', { exact: true })).toHaveValue('https://wallet.example/landing')
    await expect(page.getByRole('img', { name: 'Current image' })).toBeVisible()

    await page.getByLabel('Title', { exact: true }).fill('')
    await page.getByLabel('Link', { exact: true }).fill('')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('title is required', { exact: true })).toBeVisible()
    await expect(page.getByText('link is required', { exact: true })).toBeVisible()
    const image = page.getByLabel('Image', { exact: true })
    await image.setInputFiles(gif)
    await expect(page.getByText(EDIT_IMAGE_MESSAGE, { exact: true })).toBeVisible()
    await image.setInputFiles([])
    await expect(page.getByText('No file selected.', { exact: true })).toBeVisible()

    const renamed = `${title} renamed`
    await page.getByLabel('Title', { exact: true }).fill(renamed)
    await page.getByLabel('Link', { exact: true }).fill('https://wallet.example/renamed')
    await image.setInputFiles(png)
    const message = await answerOf(page, 'editHomePageCms', () => page.getByRole('button', { name: 'Submit' }).click())
    await expect(page).toHaveURL(/\/admin\/homepage-content$/)
    await expect(toast(page, message)).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: renamed })).toContainText('https://wallet.example/renamed')
  })

  test('deletes after the required question; Cancel keeps the row', async ({ adminPage: page }) => {
    const { png } = await imageFiles()
    const title = uniqueTitle('Doomed block')
    await addBlock(page, title, png)
    await page.goto(`/admin/homepage-content?search=${encodeURIComponent(title)}`)
    const row = page.getByRole('row').filter({ hasText: title })
    await page.getByRole('button', { name: `Delete ${title}` }).click()
    const dialog = page.getByRole('alertdialog', { name: CONFIRM })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(row).toBeVisible()

    await page.getByRole('button', { name: `Delete ${title}` }).click()
    const message = await answerOf(page, 'deleteHomePageCms', () => dialog.getByRole('button', { name: 'Yes, remove' }).click())
    await expect(toast(page, message)).toBeVisible()
    await expect(row).toHaveCount(0)
    await expect(bodyRows(page).first()).toContainText('No Record Found')
  })

  test('the landing-page switch saves each change and shows what the server re-read', async ({ adminPage: page }) => {
    await page.goto('/admin/homepage-content')
    const toggle = page.getByRole('switch', { name: SWITCH })
    await expect(toggle).not.toHaveAttribute('aria-busy', 'true')
    const before = await preferenceOf(page.request)
    await expect(toggle).toHaveAttribute('aria-checked', String(before))

    const reread = page.waitForResponse((r) => r.url().includes('/api/admin/getHomepageCmsPreference') && r.request().method() === 'GET')
    const message = await answerOf(page, 'updateHomepageCmsPreference', () => toggle.click())
    await reread
    await expect(toast(page, message)).toBeVisible()
    await expect(toggle).toHaveAttribute('aria-checked', String(!before))
    // The state in words beside the switch, not only its position.
    const word = toggle.locator('xpath=..').locator('[data-switch-state]')
    await expect(word).toHaveText(before ? 'Off' : 'On')
    expect(await preferenceOf(page.request)).toBe(!before)
    await page.reload()
    await expect(page.getByRole('switch', { name: SWITCH })).toHaveAttribute('aria-checked', String(!before))

    await answerOf(page, 'updateHomepageCmsPreference', () => page.getByRole('switch', { name: SWITCH }).press('Space'))
    await expect(page.getByRole('switch', { name: SWITCH })).toHaveAttribute('aria-checked', String(before))
    await expect(word).toHaveText(before ? 'On' : 'Off')
    expect(await preferenceOf(page.request)).toBe(before)
  })

  test('the list, the add and edit pages have no serious or critical accessibility violation', async ({ adminPage: page }) => {
    const { png } = await imageFiles()
    const title = uniqueTitle('Axe block')
    await addBlock(page, title, png)
    await expectSettledScreenAccessible(page, '/admin/homepage-content')
    await page.getByRole('button', { name: `Edit ${title}` }).click()
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(title)
    await expectSettledScreenAccessible(page, '/admin/edit-homepage-content')
    await page.goto('/admin/add-homepage-content')
    await expectSettledScreenAccessible(page, '/admin/add-homepage-content')
  })
})

test.describe('Edit Token', () => {
  test('opens from the palette, checks each field, and saves the exact price', async ({ adminPage: page }) => {
    await page.keyboard.press('Control+k')
    const palette = page.getByRole('dialog', { name: 'Command palette' })
    await expect(palette.getByRole('combobox')).toBeFocused()
    await page.keyboard.type('Edit Token')
    await expect(palette.getByRole('option', { name: /Edit Token/ })).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/admin\/edit-token$/)
    await expect(page.getByRole('heading', { name: 'Edit Token' })).toBeVisible()

    const field = (label: string) => page.getByLabel(label, { exact: true })
    await field('Token Name').fill('')
    await field('Price').fill('')
    await field('Product ID').fill('')
    await field('Ticket Count').fill('')
    await page.getByRole('button', { name: 'Update' }).click()
    for (const text of ['Token name is required', 'Price is required', 'Product id is required', 'Ticket count is required']) {
      await expect(page.getByText(text, { exact: true })).toBeVisible()
    }
    await field('Price').fill('-1')
    await field('Ticket Count').fill('2.5')
    await page.getByRole('button', { name: 'Update' }).click()
    await expect(page.getByText('Price must be 0 or more, with at most 20 digits before the point and 10 after', { exact: true })).toBeVisible()
    await expect(page.getByText('Ticket count must be a whole number of 0 or more', { exact: true })).toBeVisible()

    const name = uniqueTitle('Gold Ticket')
    await field('Token Name').fill(name)
    await field('Price').fill('12345678901234567.0123456789')
    await field('Product ID').fill('com.wallet.gold')
    await field('Ticket Count').fill('40')
    await choose(page, 'Currency', 'USDT')
    // The price reaches users at once: Update lists each change with its old and new value first.
    await page.getByRole('button', { name: 'Update' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Update the token with these changes?' })
    await expect(confirm.getByRole('listitem').filter({ hasText: 'Price' })).toContainText('12345678901234567.0123456789')
    await expect(confirm.getByRole('listitem').filter({ hasText: 'Ticket Count' })).toContainText('40')
    await expect(confirm.getByRole('listitem').filter({ hasText: 'Currency' })).toContainText('USDT')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect(confirm).toBeHidden()
    await expect(field('Price')).toHaveValue('12345678901234567.0123456789')
    await page.getByRole('button', { name: 'Update' }).click()
    const message = await answerOf(page, 'updateToken', () => confirm.getByRole('button', { name: 'Yes, update' }).click())
    await expect(toast(page, message)).toBeVisible()
    await page.reload()
    await expect(field('Token Name')).toHaveValue(name)
    await expect(field('Price')).toHaveValue('12345678901234567.0123456789')
    await expect(field('Product ID')).toHaveValue('com.wallet.gold')
    await expect(field('Ticket Count')).toHaveValue('40')
    await expect(page.getByRole('combobox', { name: 'Currency' })).toContainText('USDT')
    await expectSettledScreenAccessible(page, '/admin/edit-token')
  })
})

test.describe('View Only staff on Home Page Content and Edit Token', () => {
  test('read the list and the landing-page state without any write control, and get no token form', async ({ page }) => {
    const token = await apiToken(page.request, accounts.superadmin)
    const title = uniqueTitle('Read-only block')
    const added = await page.request.post('/api/admin/addHomePageCms', {
      headers: { authorization: `Bearer ${token}` },
      multipart: { title, link: 'https://wallet.example/read-only', image: { name: 'block.png', mimeType: 'image/png', buffer: encodePng(4, 4, () => [10, 120, 200]) } },
    })
    expect(added.ok(), await added.text()).toBe(true)
    const viewer = await createStaff(page.request, { name: 'Hana Homepage', screens: ['/homepage-content', '/cms'] })
    await signInPage(page, viewer)

    await page.goto(`/admin/homepage-content?search=${encodeURIComponent(title)}`)
    await expect(page.getByRole('row').filter({ hasText: title })).toBeVisible()
    await expect(page.getByText(/^(Shown|Not shown) on the landing page$/)).toBeVisible()
    await expect(page.getByRole('switch')).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0)
    await expect(page.getByRole('button', { name: /^(Add|Edit|Delete)\b/ })).toHaveCount(0)
    await expect(page.getByRole('columnheader', { name: 'Action' })).toHaveCount(0)

    // Write pages send View Only staff back: no form on the add page or the token page.
    for (const path of ['/admin/add-homepage-content', '/admin/edit-token']) {
      await page.goto(path)
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
      await expect(page).not.toHaveURL(new RegExp(`${path}$`))
      await expect(page.getByLabel('Title', { exact: true })).toHaveCount(0)
      await expect(page.getByLabel('Token Name', { exact: true })).toHaveCount(0)
    }
    await page.keyboard.press('Control+k')
    await expect(page.getByRole('dialog', { name: 'Command palette' }).getByRole('option', { name: /Edit Token/ })).toHaveCount(0)
  })
})
