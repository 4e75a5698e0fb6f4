import { z } from 'zod'
import { encodePng } from '../../server/db/png.ts'
import { test, expect, accounts, apiToken } from './fixtures.ts'

// The settings record as the Settings screen reads it (contract/settings.ts), to put it back.
const Settings = z.object({ result: z.array(z.record(z.string(), z.unknown())) })
const SAVED_FIELDS = [
  'contact_person', 'email', 'sitename', 'site_description', 'address', 'reg_code', 'phone_number', 'mobile_number',
  'google_analytics', 'company_info_link', 'license_info_link', 'social_link1', 'social_link2', 'social_link3',
  'social_link4', 'social_link5', 'copyright_text', 'forcedliq',
] as const

test.describe('side menu header', () => {
  test('shows the site name and logo once Settings has saved them', async ({ page, signIn }) => {
    const token = await apiToken(page.request, accounts.superadmin)
    const headers = { authorization: `Bearer ${token}` }
    const read = await page.request.get('/api/admin/settings-get', { headers })
    expect(read.ok(), await read.text()).toBe(true)
    const before = Settings.parse(await read.json()).result[0] ?? {}
    const fields = { ...Object.fromEntries(SAVED_FIELDS.map((key) => [key, String(before[key] ?? '')])), forcedliq: String(before['forcedliq'] ?? 'Disable') }
    const previousName = String(before['sitename'] ?? '')
    const name = `Wallet HQ ${Date.now().toString(36)}`
    const save = (sitename: string, logo?: Buffer) =>
      page.request.post('/api/admin/settings-update', {
        headers,
        multipart: { ...fields, sitename, ...(logo ? { sitelogo: { name: 'logo.png', mimeType: 'image/png', buffer: logo } } : {}) },
      })
    const saved = await save(name, encodePng(8, 8, () => [40, 60, 160]))
    expect(saved.ok(), await saved.text()).toBe(true)
    try {
      await signIn(accounts.superadmin)
      for (const width of [1280, 820]) {
        await page.setViewportSize({ width, height: 900 })
        await page.goto('/admin/users')
        if (width < 992) await page.getByRole('button', { name: 'Toggle menu' }).click()
        const menu = page.locator('#side-menu')
        const logo = menu.getByRole('img', { name })
        await expect(logo).toBeVisible()
        await expect.poll(() => logo.evaluate((img) => img instanceof HTMLImageElement && img.naturalWidth > 0)).toBe(true)
        await expect(menu.getByText(name, { exact: true })).toBeVisible()
        await expect(menu.getByText('Back Office', { exact: true })).toHaveCount(0)
      }
    } finally {
      await save(previousName)
    }
  })

  test("says 'Back Office', with no image, when no name or logo is set", async ({ adminPage: page }) => {
    // The answer of an unconfigured server, whatever earlier tests saved into this one.
    await page.route('**/api/admin/public-info', async (route) => {
      const response = await route.fetch()
      const body = z.looseObject({ data: z.record(z.string(), z.unknown()) }).parse(await response.json())
      await route.fulfill({ response, json: { ...body, data: { ...body.data, sitename: '', sitelogo: '' } } })
    })
    await page.reload()
    const menu = page.locator('#side-menu')
    await expect(menu.getByText('Back Office', { exact: true })).toBeVisible()
    await expect(menu.getByRole('img')).toHaveCount(0)
  })
})
