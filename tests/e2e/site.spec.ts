/**
 * Social Links, Version and Settings (requirements R2.17, R2.29, R2.34, R4.5, R5.4, R8.5): the single-record screens. Each
 * reads its one record and saves it in place; fields are locked (social links) or disabled until
 * the pencil (version); deletes ask first; View Only staff read the values and get no control.
 */
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { APIRequestContext, Page } from '@playwright/test'
import { z } from 'zod'
import { encodePng } from '../../server/db/png.ts'
import { createStaff, test, expect, signInPage, type Account, toast, answerOf } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const LINKS = ['Discord', 'Facebook', 'Twitter', 'Instagram', 'Telegram'] as const
const SETTINGS_LABELS = [
  'Contact Person',
  'Email',
  'Site Name',
  'Site Description',
  'Address',
  'Register Code',
  'Phone Number',
  'Mobile Number',
  'Company Information Link',
  'Wallet License Information Link',
  'Twitter',
  'Medium',
  'Telegram',
  'Facebook',
  'Linkedin',
  'Copyright Text',
  'Forced Liquidation',
  'Site Logo',
]

/** A View Only staff member who may open the three screens (created once per run). */
async function viewOnlySiteStaff(request: APIRequestContext): Promise<Account> {
  return createStaff(request, { name: 'Sita Viewer', screens: ['/social-links', '/version', '/settings', '/profile', '/resetpassword'] })
}

/** Runs `act` and returns the server's message of the call to `endpoint` it made. */

async function noSevereViolations(page: Page, path: string): Promise<void> {
  await page.goto(path)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
  await expectNoSevereViolations(page, path)
}

test.describe('Social Links', () => {
  test('each link is locked until unlocked; a filled link must be a URL; Update saves them all', async ({ adminPage: page }) => {
    await page.goto('/admin/social-links')
    await expect(page.getByRole('heading', { name: 'Social Links' })).toBeVisible()
    await expect(page.getByText('press its lock to edit it, and Update saves all five and locks them again')).toBeVisible()
    for (const label of LINKS) {
      await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('readonly', '')
      await expect(page.getByRole('button', { name: `Unlock ${label}` })).toHaveAttribute('aria-pressed', 'false')
    }

    await page.getByRole('button', { name: 'Unlock Discord' }).click()
    const discord = page.getByLabel('Discord', { exact: true })
    await expect(discord).not.toHaveAttribute('readonly', '')
    await expect(discord).toBeFocused()
    await discord.fill('not a link')
    await page.getByRole('button', { name: 'Update' }).click()
    await expect(page.getByText('Incorrect format')).toBeVisible()
    await expect(discord).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('Telegram', { exact: true })).toHaveAttribute('readonly', '')

    await discord.fill('https://discord.gg/backoffice')
    await page.getByRole('button', { name: 'Unlock Twitter' }).click()
    await page.getByLabel('Twitter', { exact: true }).fill('www.twitter.com/backoffice')
    const message = await answerOf(page, 'updatesocialmedia', () => page.getByRole('button', { name: 'Update' }).click())
    await expect(toast(page, message)).toBeVisible()
    // Saved: every field locked again, showing the stored values, also after a reload.
    await expect(discord).toHaveAttribute('readonly', '')
    await page.reload()
    await expect(page.getByLabel('Discord', { exact: true })).toHaveValue('https://discord.gg/backoffice')
    await expect(page.getByLabel('Twitter', { exact: true })).toHaveValue('www.twitter.com/backoffice')
  })

  test('deletes one link after the confirmation, sending its name and the form; Cancel keeps it', async ({ adminPage: page }) => {
    await page.goto('/admin/social-links')
    await page.getByRole('button', { name: 'Unlock Instagram' }).click()
    await page.getByLabel('Instagram', { exact: true }).fill('https://instagram.com/backoffice')
    await answerOf(page, 'updatesocialmedia', () => page.getByRole('button', { name: 'Update' }).click())
    await expect(page.getByLabel('Instagram', { exact: true })).toHaveAttribute('readonly', '')

    await page.getByRole('button', { name: 'Delete Instagram' }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Are you sure you want to remove this Instagram link' })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByLabel('Instagram', { exact: true })).toHaveValue('https://instagram.com/backoffice')

    await page.getByRole('button', { name: 'Delete Instagram' }).click()
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/admin/Delete-socialmedia'))
    const message = await answerOf(page, 'Delete-socialmedia', () => dialog.getByRole('button', { name: 'Yes, remove' }).click())
    const body = z.object({ linkdata: z.string(), datas: z.record(z.string(), z.string()) }).parse((await sent).postDataJSON())
    expect(body.linkdata).toBe('instagramLink')
    expect(body.datas['instagramLink']).toBe('https://instagram.com/backoffice')
    expect(body.datas['_id']).toBeTruthy()
    await expect(toast(page, message)).toBeVisible()
    await expect(page.getByLabel('Instagram', { exact: true })).toHaveValue('')
    await expect(page.getByRole('button', { name: 'Delete Instagram' })).toBeDisabled()
    await page.reload()
    await expect(page.getByLabel('Instagram', { exact: true })).toHaveValue('')
  })
})

test.describe('Version', () => {
  test('the field is disabled until the pencil; Update saves; an empty version is refused', async ({ adminPage: page }) => {
    await page.goto('/admin/version')
    await expect(page.getByRole('heading', { name: 'Version' })).toBeVisible()
    const field = page.getByRole('textbox', { name: 'Version', exact: true })
    await expect(field).toBeDisabled()
    await page.getByRole('button', { name: 'Edit Version' }).click()
    await expect(field).toBeEnabled()
    await expect(field).toBeFocused()

    await field.fill('')
    await page.getByRole('button', { name: 'Update' }).click()
    await expect(page.getByText('version is required')).toBeVisible()

    await field.fill('2.4.1')
    const message = await answerOf(page, 'updateVersion', () => page.getByRole('button', { name: 'Update' }).click())
    await expect(toast(page, message)).toBeVisible()
    await expect(field).toBeDisabled()
    await page.reload()
    await expect(page.getByRole('textbox', { name: 'Version', exact: true })).toHaveValue('2.4.1')
  })

  test("a 'failed' answer puts its field errors under the field and its message in a toast", async ({ adminPage: page }) => {
    await page.route('**/api/admin/updateVersion', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ status: 'failed', message: 'Version was refused', errors: { version: 'Version is out of range' } }) }),
    )
    await page.goto('/admin/version')
    await page.getByRole('button', { name: 'Edit Version' }).click()
    await page.getByRole('textbox', { name: 'Version', exact: true }).fill('9.9.9')
    await page.getByRole('button', { name: 'Update' }).click()
    await expect(page.getByText('Version is out of range')).toBeVisible()
    await expect(page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'Version was refused' })).toBeVisible()
  })

  test('the trash button clears the version after the confirmation', async ({ adminPage: page }) => {
    await page.goto('/admin/version')
    await page.getByRole('button', { name: 'Edit Version' }).click()
    await page.getByRole('textbox', { name: 'Version', exact: true }).fill('3.0.0')
    await answerOf(page, 'updateVersion', () => page.getByRole('button', { name: 'Update' }).click())
    await expect(page.getByRole('textbox', { name: 'Version', exact: true })).toHaveValue('3.0.0')

    await page.getByRole('button', { name: 'Delete Version' }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Are you sure you want to remove this version' })
    // The confirmation names the value that goes and says what removing it does.
    await expect(dialog).toContainText('Version 3.0.0 will be removed. Removing leaves the site settings with no version until a new one is saved with Update.')
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/admin/DeleteVersion'))
    const message = await answerOf(page, 'DeleteVersion', () => dialog.getByRole('button', { name: 'Yes, remove' }).click())
    expect(z.object({ datas: z.object({ _id: z.string().min(1) }) }).safeParse((await sent).postDataJSON()).success).toBe(true)
    await expect(toast(page, message)).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'Version', exact: true })).toHaveValue('')
    await page.reload()
    await expect(page.getByRole('textbox', { name: 'Version', exact: true })).toHaveValue('')
  })
})

test.describe('Settings', () => {
  test('shows every field, checks emails, links and phone numbers, and saves with a logo preview', async ({ adminPage: page }) => {
    const dir = await mkdtemp(join(tmpdir(), 'bo-e2e-logo-'))
    const logo = join(dir, 'logo.png')
    await writeFile(logo, encodePng(8, 8, (x, y) => [40, (x * 32) % 256, (y * 32) % 256]))

    await page.goto('/admin/settings')
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible()
    for (const label of SETTINGS_LABELS) await expect(page.getByLabel(label, { exact: true })).toBeVisible()

    await page.getByLabel('Email', { exact: true }).fill('not-an-email')
    await page.getByLabel('Company Information Link', { exact: true }).fill('company info')
    await page.getByLabel('Phone Number', { exact: true }).fill('call me')
    await page.getByRole('button', { name: 'Update Settings' }).click()
    await expect(page.getByText('Incorrect format')).toHaveCount(3)

    await page.getByLabel('Email', { exact: true }).fill('office@example.com')
    await page.getByLabel('Company Information Link', { exact: true }).fill('https://example.com/company')
    await page.getByLabel('Phone Number', { exact: true }).fill('+44 20 7946 0000')
    await page.getByLabel('Site Name', { exact: true }).fill('Wallet Back Office')
    await page.getByLabel('Medium', { exact: true }).fill('https://medium.com/@wallet')
    await page.getByLabel('Forced Liquidation').click()
    await page.getByRole('option', { name: 'Enable', exact: true }).click()
    await page.getByLabel('Site Logo').setInputFiles(logo)
    await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible()

    const message = await answerOf(page, 'settings-update', () => page.getByRole('button', { name: 'Update Settings' }).click())
    await expect(toast(page, message)).toBeVisible()
    await page.reload()
    await expect(page.getByLabel('Site Name', { exact: true })).toHaveValue('Wallet Back Office')
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue('office@example.com')
    await expect(page.getByLabel('Medium', { exact: true })).toHaveValue('https://medium.com/@wallet')
    await expect(page.getByLabel('Forced Liquidation')).toHaveText('Enable')
    const current = page.getByRole('img', { name: 'Current image' })
    await expect(current).toBeVisible()
    await expect.poll(() => current.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8)
  })

  test('a logo of another kind is refused with the required message before sending', async ({ adminPage: page }) => {
    const dir = await mkdtemp(join(tmpdir(), 'bo-e2e-logo-'))
    const gif = join(dir, 'logo.gif')
    await writeFile(gif, 'GIF89a not really')
    await page.goto('/admin/settings')
    await page.getByLabel('Site Logo').setInputFiles(gif)
    await expect(page.getByText('Please upload file having extensions  .png,.jpeg,.jpg only.')).toBeVisible()
  })
})

test.describe('View Only on the site screens', () => {
  test('sees the values read-only, without unlock, pencil, delete or save controls', async ({ page }) => {
    const viewer = await viewOnlySiteStaff(page.request)
    await signInPage(page, viewer)

    await page.goto('/admin/social-links')
    for (const label of LINKS) await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('readonly', '')
    await expect(page.getByText('Your access is View Only')).toBeVisible()
    await expect(page.getByRole('button', { name: /^(Unlock|Delete) / })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Update' })).toHaveCount(0)

    await page.goto('/admin/version')
    await expect(page.getByRole('textbox', { name: 'Version', exact: true })).toHaveAttribute('readonly', '')
    await expect(page.getByRole('button', { name: /^(Edit|Delete) Version$/ })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Update' })).toHaveCount(0)

    await page.goto('/admin/settings')
    await expect(page.getByLabel('Site Name', { exact: true })).toHaveAttribute('readonly', '')
    await expect(page.getByLabel('Forced Liquidation')).toBeDisabled()
    await expect(page.getByLabel('Site Logo')).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Update Settings' })).toHaveCount(0)
  })
})

test('the three screens have no serious or critical accessibility violation', async ({ adminPage: page }) => {
  for (const path of ['/admin/social-links', '/admin/version', '/admin/settings']) await noSevereViolations(page, path)
  // With a link unlocked and the delete confirmation open.
  await page.goto('/admin/social-links')
  await page.getByRole('button', { name: 'Unlock Facebook' }).click()
  await page.getByLabel('Facebook', { exact: true }).fill('https://facebook.com/backoffice')
  await answerOf(page, 'updatesocialmedia', () => page.getByRole('button', { name: 'Update' }).click())
  await page.getByRole('button', { name: 'Unlock Telegram' }).click()
  await page.getByRole('button', { name: 'Delete Facebook' }).click()
  await expect(page.getByRole('alertdialog')).toBeVisible()
  await expectNoSevereViolations(page, 'the delete confirmation')
})
