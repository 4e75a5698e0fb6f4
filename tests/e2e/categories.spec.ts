import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { z } from 'zod'
import { encodePng } from '../../server/db/png.ts'
import { test, expect, accounts, signInPage } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const Answer = z.object({ message: z.string() })
const CONFIRM = 'Are you sure you want to remove this Category'
const WRONG_KIND = 'Please upload an image with .png, .jpeg,.jpg extension.'

/** A real 8x8 PNG and a file that is not an image, written once per run. */
async function files(): Promise<{ png: string; gif: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'bo-e2e-files-'))
  const png = join(dir, 'tile.png')
  const gif = join(dir, 'tile.gif')
  await writeFile(png, encodePng(8, 8, (x, y) => [(x * 32) % 256, (y * 32) % 256, 160]))
  await writeFile(gif, 'GIF89a not really')
  return { png, gif }
}

/** Names unique per test run, since every spec shares one server. */
const unique = (base: string): string => `${base} ${Date.now().toString(36)}`

/** Adds a category through the form and returns the server's answer message. */
async function addCategory(page: Page, name: string, png: string): Promise<string> {
  await page.goto('/admin/add-category')
  await page.getByLabel('Category Name').fill(name)
  await page.getByLabel('Image').setInputFiles(png)
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/addcategory'))
  await page.getByRole('button', { name: 'Submit' }).click()
  return Answer.parse(await (await answer).json()).message
}

test.describe('Category', () => {
  test('Add Category shows the required messages for a missing name and a missing or wrong image', async ({ adminPage: page }) => {
    const { gif, png } = await files()
    await page.goto('/admin/category')
    await expect(page.getByRole('heading', { name: 'Category List' })).toBeVisible()
    await page.getByRole('link', { name: 'Add Category' }).click()
    await expect(page).toHaveURL(/\/admin\/add-category$/)

    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('categoryName is required')).toBeVisible()
    await expect(page.getByText('image is required')).toBeVisible()
    await expect(page.getByLabel('Category Name')).toBeFocused()

    const image = page.getByLabel('Image')
    await image.setInputFiles(gif)
    await expect(page.getByText(WRONG_KIND)).toBeVisible()
    await image.setInputFiles([])
    await expect(page.getByText('No file selected.')).toBeVisible()
    await image.setInputFiles(png)
    await expect(page.getByText('No file selected.')).toHaveCount(0)
    await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible()
  })

  test('adds a category, toasts the server message and returns to the list', async ({ adminPage: page }) => {
    const { png } = await files()
    const name = unique('Arcade')
    const message = await addCategory(page, name, png)
    await expect(page).toHaveURL(/\/admin\/category$/)
    await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible()
    const row = page.getByRole('row').filter({ hasText: name })
    await expect(row).toBeVisible()
    await expect(row.getByRole('img', { name })).toBeVisible()
    // The thumbnail really loads (the upload is served back).
    await expect.poll(() => row.getByRole('img', { name }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8)
  })

  test('edits a category from the list, also after a reload, and checks preference', async ({ adminPage: page, browser }) => {
    const { png } = await files()
    const name = unique('Puzzle')
    await addCategory(page, name, png)
    await expect(page).toHaveURL(/\/admin\/category$/)

    await page.getByRole('button', { name: `Edit ${name}` }).click()
    await expect(page).toHaveURL(/\/admin\/edit-category\?id=/)
    await expect(page.getByLabel('Category Name')).toHaveValue(name)
    await expect(page.getByRole('img', { name: 'Current image' })).toBeVisible()

    // Without the navigation state (a reload, a pasted link) the record is found again.
    await page.reload()
    await expect(page.getByLabel('Category Name')).toHaveValue(name)
    await page.goto(page.url())
    await expect(page.getByLabel('Category Name')).toHaveValue(name)
    // A browser that never opened the list (no cache either) asks the server for the record.
    const fresh = await browser.newContext({ baseURL: new URL(page.url()).origin })
    const other = await fresh.newPage()
    await signInPage(other, accounts.superadmin)
    await other.goto(page.url())
    await expect(other.getByLabel('Category Name')).toHaveValue(name)
    await fresh.close()

    await page.getByLabel('Preference').fill('')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('preference is required')).toBeVisible()

    const renamed = `${name} Deluxe`
    await page.getByLabel('Category Name').fill(renamed)
    await page.getByLabel('Preference').fill('3')
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/editCategoryData'))
    await page.getByRole('button', { name: 'Submit' }).click()
    const { message } = Answer.parse(await (await answer).json())
    await expect(page).toHaveURL(/\/admin\/category$/)
    await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: renamed })).toBeVisible()
  })

  test('puts the server field errors under the input (a duplicate name)', async ({ adminPage: page }) => {
    const { png } = await files()
    const name = unique('Strategy')
    await addCategory(page, name, png)
    await expect(page).toHaveURL(/\/admin\/category$/)

    const message = await addCategory(page, name, png)
    await expect(page).toHaveURL(/\/admin\/add-category$/)
    await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: message })).toBeVisible()
    const input = page.getByLabel('Category Name')
    await expect(input).toHaveAttribute('aria-invalid', 'true')
    // Described as required, then by the error under it (the last of its descriptions).
    await expect(input).toHaveAccessibleDescription(/^Required ./)
    const describedBy = (await input.getAttribute('aria-describedby'))?.split(' ') ?? []
    await expect(page.locator(`[id="${describedBy.at(-1)}"]`)).not.toBeEmpty()
  })

  test('deletes after the required confirmation, and Cancel keeps the row', async ({ adminPage: page }) => {
    const { png } = await files()
    const name = unique('Trivia')
    await addCategory(page, name, png)
    await expect(page).toHaveURL(/\/admin\/category$/)
    const row = page.getByRole('row').filter({ hasText: name })

    await page.getByRole('button', { name: `Delete ${name}` }).click()
    const dialog = page.getByRole('alertdialog', { name: CONFIRM })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(row).toBeVisible()

    await page.getByRole('button', { name: `Delete ${name}` }).click()
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/deleteCategory'))
    await dialog.getByRole('button', { name: 'Yes, remove' }).click()
    const { message } = Answer.parse(await (await answer).json())
    await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible()
    await expect(row).toHaveCount(0)
  })

  test('offline, write controls stay but say why they cannot be used', async ({ adminPage: page, context }) => {
    const { png } = await files()
    const name = unique('Offline')
    await addCategory(page, name, png)
    await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible()

    await context.setOffline(true)
    // aria-disabled keeps them focusable, with a tooltip, where the offline banner explains why.
    const remove = page.getByRole('button', { name: `Delete ${name}` })
    await expect(remove).toBeDisabled()
    await expect(page.getByRole('button', { name: `Edit ${name}` })).toBeDisabled()
    await expect(page.getByRole('button', { name: 'Add Category' })).toBeDisabled()
    await remove.click({ force: true })
    await expect(page.getByRole('alertdialog')).toHaveCount(0)
    await expect(page.getByRole('alert').filter({ hasText: /You are offline. Changes need a connection/ })).toBeVisible()
    await context.setOffline(false)
    await expect(page.getByRole('link', { name: 'Add Category' })).toBeVisible()
  })

  test('the list and the form have no serious or critical accessibility violation', async ({ adminPage: page }) => {
    const { png } = await files()
    await addCategory(page, unique('Axe'), png)
    await expect(page).toHaveURL(/\/admin\/category$/)
    for (const path of ['/admin/category', '/admin/add-category']) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
      await expectNoSevereViolations(page, path)
    }
  })
})
