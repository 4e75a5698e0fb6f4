/**
 * Settings and the audit log at a desk (1280 px) and on a tablet (820 px), in both themes: the
 * sections and the save bar of Settings, the audit log's headers and events in words, recent dates
 * relative with the exact moment to hover, and the contrasts a theme can break (the sign-in card
 * against its page, disabled controls against their background), measured from computed styles.
 */
import type { Locator, Page } from '@playwright/test'
import { test, expect, accounts, apiToken, signInPage, unique } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 820, height: 1000 },
] as const
const THEMES = ['light', 'dark'] as const
const SECTIONS = ['Contact', 'Site', 'Links', 'Legal', 'Trading']

/**
 * The WCAG contrast ratio of an element's colour (`color`, or its background with `background`)
 * against what is painted behind it: colours are resolved by a canvas (computed styles are
 * oklch here), translucent backgrounds composited over their ancestors' up to the page's.
 */
async function contrast(target: Locator, what: 'text' | 'background' | 'file-button' | 'luminance'): Promise<number> {
  return target.evaluate((el, part) => {
    const canvas = document.createElement('canvas')
    canvas.width = 1
    canvas.height = 1
    const ctx = canvas.getContext('2d', { willReadFrequently: true })
    if (!ctx) throw new Error('no canvas')
    const rgba = (color: string): [number, number, number, number] => {
      ctx.clearRect(0, 0, 1, 1)
      ctx.fillStyle = '#000'
      ctx.fillStyle = color
      ctx.fillRect(0, 0, 1, 1)
      const [r = 0, g = 0, b = 0, a = 0] = ctx.getImageData(0, 0, 1, 1).data
      return [r, g, b, a / 255]
    }
    const over = (top: [number, number, number, number], under: [number, number, number]): [number, number, number] => [
      top[0] * top[3] + under[0] * (1 - top[3]),
      top[1] * top[3] + under[1] * (1 - top[3]),
      top[2] * top[3] + under[2] * (1 - top[3]),
    ]
    /** The background painted at `from` (itself included): its own over its ancestors', down to the page's. */
    const backdrop = (from: Element | null): [number, number, number] => {
      const layers: [number, number, number, number][] = []
      for (let e = from; e; e = e.parentElement) layers.push(rgba(getComputedStyle(e).backgroundColor))
      // Under everything, the canvas: the page's own background covers it on every screen measured.
      let paint: [number, number, number] = [255, 255, 255]
      for (const layer of layers.reverse()) paint = over(layer, paint)
      return paint
    }
    const luminance = ([r, g, b]: [number, number, number]) => {
      const lin = (c: number) => {
        const s = c / 255
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
      }
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }
    const ratio = (a: [number, number, number], b: [number, number, number]) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
      return (hi + 0.05) / (lo + 0.05)
    }
    if (part === 'luminance') return luminance(backdrop(el))
    if (part === 'file-button') {
      // A file input's own button: its text against its background, over the input's.
      const button = getComputedStyle(el, '::file-selector-button')
      const face = over(rgba(button.backgroundColor), backdrop(el))
      return ratio(over(rgba(button.color), face), face)
    }
    if (part === 'text') return ratio(over(rgba(getComputedStyle(el).color), backdrop(el)), backdrop(el))
    return ratio(backdrop(el), backdrop(el.parentElement))
  }, what)
}

/** Scrolls the page and every scrolling box in it to its top or its bottom. */
async function scrollAll(page: Page, to: 'top' | 'bottom'): Promise<void> {
  await page.evaluate((end) => {
    const boxes = [document.scrollingElement, ...document.querySelectorAll('*')].filter((e): e is Element => e !== null && e.scrollHeight > e.clientHeight + 1)
    for (const box of boxes) box.scrollTop = end === 'top' ? 0 : box.scrollHeight
  }, to)
}

/** Whether the whole of `target` is inside the viewport. */
async function inViewport(page: Page, target: Locator): Promise<boolean> {
  const box = await target.boundingBox()
  const size = page.viewportSize()
  return box !== null && size !== null && box.y >= 0 && box.y + box.height <= size.height + 0.5
}

for (const viewport of WIDTHS) {
  for (const theme of THEMES) {
    test.describe(`${viewport.width} px, ${theme}`, () => {
      test.use({ viewport, colorScheme: theme })

      test('Settings: titled sections, what Forced Liquidation and the links are, and one save bar always in view', async ({ page }) => {
        await signInPage(page, accounts.superadmin)
        await page.goto('/admin/settings')
        await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible()
        expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(theme === 'dark')
        for (const title of SECTIONS) {
          await expect(page.getByRole('heading', { name: title, level: 2, exact: true })).toBeVisible()
          await expect(page.getByRole('group', { name: title, exact: true })).toBeVisible()
        }
        await expect(page.getByRole('combobox', { name: 'Forced Liquidation' })).toHaveAccessibleDescription('Required Enable turns forced liquidation on; Disable turns it off.')
        await expect(page.getByRole('group', { name: 'Links' })).toContainText('The Social Links screen keeps a separate set of five (Discord, Facebook, Twitter, Instagram, Telegram)')

        const bar = page.locator('[data-save-bar]')
        const save = bar.getByRole('button', { name: 'Update Settings' })
        await expect(save).toBeDisabled()
        await expect(bar).toContainText('No changes to save.')
        // Disabled, and still plain to see: 3:1 at least, text against the button.
        expect(await contrast(save, 'text')).toBeGreaterThanOrEqual(3)

        // The form is taller than the screen: the bar is in view at the top and at the bottom.
        await scrollAll(page, 'top')
        await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeInViewport()
        const form = page.locator('form').filter({ has: bar })
        expect((await form.boundingBox())?.height ?? 0).toBeGreaterThan(viewport.height)
        expect(await inViewport(page, bar)).toBe(true)
        // On the screen's bottom edge, not a strip above it with the form showing through beneath.
        const barBox = await bar.boundingBox()
        expect(Math.abs((barBox?.y ?? 0) + (barBox?.height ?? 0) - viewport.height)).toBeLessThan(2)
        await page.screenshot({ path: `.tmp/settings-${viewport.width}-${theme}-top.png`, animations: 'disabled' })
        // The form's end (the screen's other sections follow it): the bar is still in view.
        await page.getByRole('combobox', { name: 'Forced Liquidation' }).scrollIntoViewIfNeeded()
        await expect(page.getByRole('combobox', { name: 'Forced Liquidation' })).toBeInViewport()
        expect(await inViewport(page, bar)).toBe(true)
        await page.screenshot({ path: `.tmp/settings-${viewport.width}-${theme}-bottom.png`, animations: 'disabled' })

        // A change enables Save; undoing it disables Save again.
        const site = page.getByLabel('Site Name', { exact: true })
        const before = await site.inputValue()
        await site.fill(`${before} changed`)
        await expect(save).toBeEnabled()
        await expect(bar).toContainText('You have unsaved changes.')
        await site.fill(before)
        await expect(save).toBeDisabled()
        if (viewport.width === 1280) await expectNoSevereViolations(page, `Settings (${theme})`)

        // The other side says the same: which five links these are, and that Settings keeps its own.
        await page.goto('/admin/social-links')
        await expect(page.getByRole('heading', { name: 'Social Links', level: 1 })).toBeVisible()
        await expect(page.getByText('These five links (Discord, Facebook, Twitter, Instagram, Telegram) are the social media settings.', { exact: false })).toBeVisible()
        await expect(page.getByText('Settings keeps a separate set of five with the site settings (Twitter, Medium, Telegram, Facebook, Linkedin)', { exact: false })).toBeVisible()
        await page.screenshot({ path: `.tmp/social-${viewport.width}-${theme}.png`, animations: 'disabled' })
      })

      test('Audit Log: headers once each, events in words, a recent date relative with the exact moment to hover', async ({ page }) => {
        await signInPage(page, accounts.superadmin)
        // A write of its own to find beside the sign-ins: a buy link added through the API.
        const auth = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
        expect((await page.request.post('/api/admin/addbuyLink', { headers: auth, data: { buylink: `https://example.com/${unique('audit')}` } })).ok()).toBe(true)
        await page.goto('/admin/audit')
        await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible()
        const table = page.getByRole('table')
        // The rows of the answer, not a loading state: the two events this test wrote are there.
        await expect(table.getByRole('row').filter({ hasText: 'Buy link added' }).first()).toBeVisible()
        await expect(table.getByRole('row').filter({ hasText: 'Signed in' }).first()).toBeVisible()
        const headers = (await table.getByRole('columnheader').allInnerTexts()).map((h) => h.trim()).filter((h) => h !== '')
        expect(headers).toContain('Event')
        expect(new Set(headers).size).toBe(headers.length)

        // Signing this page in wrote a row: the newest, named in words.
        const cells = await Promise.all(
          (await table.getByRole('row').all()).slice(1, 11).map((row) => row.locator('td').nth(headers.indexOf('Event')).innerText()),
        )
        expect(cells.length).toBeGreaterThan(0)
        for (const text of cells) expect(text, 'an event reads as words, not a path').toMatch(/^[A-Z][a-z]+( [A-Za-z-]+)*$/)
        expect(await table.locator('td .font-mono').filter({ hasText: /^\// }).count()).toBe(0)
        await expect(table.getByRole('row').filter({ hasText: 'Buy link added' }).first()).toBeVisible()
        await expect(table.getByRole('row').filter({ hasText: 'Signed in' }).first()).toBeVisible()

        const newest = table.getByRole('row').nth(1).locator('time').first()
        await expect(newest).toHaveText(/^(now|\d+ (second|minute|hour)s? ago)/)
        const exact = (await newest.getAttribute('title')) ?? ''
        expect(exact).toMatch(/\d{4}/)
        expect(exact).toMatch(/\d{1,2}:\d{2}:\d{2}/)
        await expect(newest.locator('.sr-only')).toContainText(exact)
        await expect(newest).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/)
        await page.screenshot({ path: `.tmp/audit-${viewport.width}-${theme}.png`, animations: 'disabled' })
        await page.goto('/admin/restriction')
        await expect(page.getByRole('heading', { name: 'Restriction List' })).toBeVisible()
        // Nothing selected: no bulk bar (Select All alone).
        await expect(page.getByRole('region', { name: 'Selected rows' })).toHaveCount(0)
        await page.screenshot({ path: `.tmp/restriction-${viewport.width}-${theme}.png`, animations: 'disabled' })
        if (viewport.width === 1280) await expectNoSevereViolations(page, `Audit Log (${theme})`)
      })

      test('the sign-in, register and forgot cards stand apart from the page', async ({ page }) => {
        for (const path of ['/admin/login', '/admin/register', '/admin/forgot']) {
          await page.goto(path)
          const card = page.getByRole('heading', { level: 1 }).locator('xpath=ancestor::div[contains(@class, "rounded-lg")][1]')
          await expect(card).toBeVisible()
          if (path === '/admin/login') await page.screenshot({ path: `.tmp/login-${viewport.width}-${theme}.png`, animations: 'disabled' })
          const ratio = await contrast(card, 'background')
          // Apart by colour in both themes (the same colour in dark would hide the card); the light card also has its border and shadow.
          expect(ratio, `${path}: card against page`).toBeGreaterThanOrEqual(theme === 'dark' ? 1.1 : 1.02)
        }
      })

      test('a file input and an empty video well follow the theme', async ({ page }) => {
        await signInPage(page, accounts.superadmin)
        await page.goto('/admin/add-cms')
        const well = page.getByText('No video', { exact: true })
        await expect(well).toBeVisible()
        const light = (await contrast(well, 'luminance')) > 0.5
        expect(light, 'the empty well is light in light, dark in dark').toBe(theme === 'light')
        const files = page.locator('input[type="file"]')
        expect(await files.count()).toBeGreaterThan(0)
        for (const input of await files.all()) expect(await contrast(input, 'file-button')).toBeGreaterThanOrEqual(4.5)
      })

      test('a disabled input has 3:1 against its background', async ({ page }) => {
        await signInPage(page, accounts.superadmin)
        await page.goto('/admin/version')
        const field = page.getByRole('textbox', { name: 'Version', exact: true })
        await expect(field).toBeDisabled()
        await field.evaluate((el: HTMLInputElement) => {
          // The measure needs text in it: a stored version, or one written in for the check.
          if (el.value === '') el.value = '0.0.0'
        })
        expect(await contrast(field, 'text')).toBeGreaterThanOrEqual(3)
      })
    })
  }
}

/** Every list of the kit: its toolbar's rows are counted at each width. */
const LISTS = ['/users', '/contactus', '/category', '/cms', '/buy_list', '/swapout_list', '/swapin_list', '/homepage-content', '/notificationlist', '/newsletter', '/emailtemplates', '/brand', '/sub-admin', '/audit', '/restriction']

/** How many rows the controls of a list's toolbar take: their tops, grouped. */
async function toolbarRows(page: Page): Promise<number> {
  return page.locator('[data-list-toolbar]').evaluate((bar) => {
    const tops = [...bar.querySelectorAll('input, button, [role="combobox"]')]
      .map((e) => e.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => r.top + r.height / 2)
      .sort((a, b) => a - b)
    let rows = 0
    let last = -Infinity
    for (const middle of tops) {
      if (middle - last > 12) rows += 1
      last = middle
    }
    return rows
  })
}

test.describe('list toolbars', () => {
  for (const { width, height, most } of [
    { width: 1280, height: 800, most: 1 },
    { width: 820, height: 1000, most: 2 },
  ]) {
    test(`take ${most === 1 ? 'one row' : 'two rows at most'} at ${width} px on every list; an empty saved-views menu is not disabled`, async ({ page }) => {
      test.setTimeout(90_000)
      await page.setViewportSize({ width, height })
      await signInPage(page, accounts.superadmin)
      for (const path of LISTS) {
        await page.goto(`/admin${path}`)
        const bar = page.locator('[data-list-toolbar]').first()
        await expect(bar).toBeVisible()
        await expect(bar.getByRole('button', { name: 'Columns' })).toBeVisible()
        expect(await toolbarRows(page), `${path} at ${width} px`).toBeLessThanOrEqual(most)
        if (path === '/audit') await page.screenshot({ path: `.tmp/toolbar-audit-${width}.png`, animations: 'disabled' })
      }
      await page.goto('/admin/brand')
      const views = page.getByRole('combobox', { name: 'Saved views' })
      await expect(views).toBeEnabled()
      await expect(views).not.toHaveAttribute('aria-disabled', 'true')
      if (((await views.textContent()) ?? '').includes('No saved views')) {
        await views.click()
        await expect(page.getByText("None yet: Save view keeps this list's filters, search and columns under a name.")).toBeVisible()
        await page.keyboard.press('Escape')
      }
    })
  }
})
