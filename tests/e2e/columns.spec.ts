/**
 * Table columns: at 1280 px with the side menu open every column of Games, Leads and Audit Log is
 * on screen with its header whole; the Columns menu hides and shows columns, per staff member and
 * list, kept across a reload and restored by a saved view; at a tablet's 820 px it names the
 * folded columns and brings one back.
 */
import type { Page } from '@playwright/test'
import { expectNoSevereViolations } from './axe.ts'
import { accounts, apiToken, createStaff, expect, signInPage, test, unique, png } from './fixtures.ts'

// First, the bulk actions' checkbox column (its header is the page's checkbox, without text).
const GAMES = ['', 'S.No', 'Title', 'Operating System', 'Category Name', 'Game ID', 'Category ID', 'Live Link', 'Game Backend', 'Status', 'Action']
const LEADS = ['', 'Date Created', 'Name', 'Email', 'Operating System', 'Wallet Address', 'Provider', 'Country', 'Action']
const AUDIT = ['When', 'Who', 'Area', 'Event', 'Record', 'Changes', 'Address', 'Action']


/** A game with a long title and link, so the table is as wide as real ones get. */
async function addLongGame(page: Page): Promise<string> {
  const auth = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
  const categoryName = `Racing ${Math.random().toString(36).slice(2, 6)}`
  const added = await page.request.post('/api/admin/addcategory', { headers: auth, multipart: { categoryName, image: png('category.png', 90) } })
  expect(added.ok(), await added.text()).toBe(true)
  const listed = (await (await page.request.get('/api/admin/categoryDropdown', { headers: auth })).json()) as { result: { data: Array<{ _id: string; categoryName: string }> } }
  const category = listed.result.data.find((c) => c.categoryName === categoryName)?._id ?? ''
  const title = `A racing game with a rather long title ${Math.random().toString(36).slice(2, 6)}`
  const game = await page.request.post('/api/admin/addcms', {
    headers: auth,
    multipart: {
      title,
      categoryName: category,
      operatingsystem: 'Android',
      description: 'Columns',
      liveLink: 'https://games.example/play/a-racing-game-with-a-long-address?ref=columns',
      isGameBackend: 'true',
      image: png('shot.png', 30),
    },
  })
  expect(game.ok(), await game.text()).toBe(true)
  return title
}

/**
 * The table's headers, in order, each whole (its text not cut: scrollWidth within clientWidth) and
 * on screen: the table does not scroll sideways, and no header hides under the sticky Action one.
 */
async function expectHeadersOnScreen(page: Page, names: readonly string[]) {
  await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible()
  await expect(page.getByRole('table').locator('tbody [data-slot="skeleton"], tbody .animate-pulse')).toHaveCount(0)
  const measured = await page.getByRole('table').evaluate((table) => {
    const box = table.parentElement
    if (!box) throw new Error('no table box')
    const cells = [...table.querySelectorAll('thead th')].filter((th) => getComputedStyle(th).display !== 'none')
    const last = cells.at(-1)?.getBoundingClientRect()
    return {
      boxScroll: box.scrollWidth,
      boxWidth: box.clientWidth,
      boxRight: box.getBoundingClientRect().right,
      windowWidth: window.innerWidth,
      cells: cells.map((th) => {
        const r = th.getBoundingClientRect()
        return { text: (th.textContent ?? '').trim(), width: Math.round(r.width), scroll: th.scrollWidth, client: th.clientWidth, right: r.right, beforeLast: last === undefined || r.right <= last.left + 1 || th === cells.at(-1) }
      }),
    }
  })
  expect(measured.cells.map((c) => c.text)).toEqual(names)
  expect(measured.boxScroll, `the table scrolls sideways: ${measured.cells.map((c) => `${c.text} ${c.width}`).join(', ')}`).toBeLessThanOrEqual(measured.boxWidth)
  expect(measured.boxRight).toBeLessThanOrEqual(measured.windowWidth)
  for (const cell of measured.cells) {
    expect(cell.scroll, `header "${cell.text}" is cut`).toBeLessThanOrEqual(cell.client)
    expect(cell.beforeLast, `header "${cell.text}" is under the Action column`).toBe(true)
  }
}

const header = (page: Page, name: string) => page.getByRole('table').getByRole('columnheader', { name, exact: true })
const columnsMenu = (page: Page) => page.getByRole('menu')

async function openColumns(page: Page) {
  await page.getByRole('button', { name: 'Columns', exact: true }).click()
  await expect(columnsMenu(page)).toBeVisible()
}

test.describe('table columns', () => {
  test('at 1280 px with the side menu open, every column of Games, Leads and Audit Log is on screen, its header whole', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await signInPage(page, accounts.superadmin)
    const title = await addLongGame(page)
    await page.goto(`/admin/cms?search=${encodeURIComponent(title)}`)
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await expectHeadersOnScreen(page, GAMES)
    // Long ids: the first characters, the whole id on hover, and a copy button.
    const row = page.getByRole('table').locator('tbody tr').first()
    const gameId = row.locator('[title]').filter({ hasText: '…' }).first()
    await expect(gameId).toHaveText(/^[0-9a-f]{8}…$/)
    expect((await gameId.getAttribute('title'))?.length).toBeGreaterThan(8)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    await row.getByRole('button', { name: 'Copy Game ID' }).click()
    await expect(page.getByText('Copied', { exact: true })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await gameId.getAttribute('title'))
    await page.screenshot({ path: '.tmp/columns-games-1280.png', animations: 'disabled' })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: '.tmp/columns-games-1280-dark.png', animations: 'disabled' })
    await page.emulateMedia({ colorScheme: 'light' })

    await page.goto('/admin/users')
    await expectHeadersOnScreen(page, LEADS)
    await page.screenshot({ path: '.tmp/columns-leads-1280.png', animations: 'disabled' })

    await page.goto('/admin/audit')
    await expectHeadersOnScreen(page, AUDIT)
    await page.screenshot({ path: '.tmp/columns-audit-1280.png', animations: 'disabled' })
  })

  test('a hidden column stays hidden after a reload, a saved view restores its columns, the last column stays', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    const staff = await createStaff(page.request, { name: 'Columns Chooser', screens: ['/users'], accessLevel: 'View Only' })
    await signInPage(page, staff)
    await page.goto('/admin/users')
    await expect(header(page, 'Email')).toBeVisible()

    // From the keyboard: the menu opens on Enter, Space checks and unchecks.
    await page.getByRole('button', { name: 'Columns', exact: true }).focus()
    await page.keyboard.press('Enter')
    const email = columnsMenu(page).getByRole('menuitemcheckbox', { name: 'Email' })
    await expect(email).toHaveAttribute('aria-checked', 'true')
    await email.focus()
    await page.keyboard.press(' ')
    await expect(email).toHaveAttribute('aria-checked', 'false')
    await page.keyboard.press('Escape')
    await expect(columnsMenu(page)).toBeHidden()
    await expect(header(page, 'Email')).toHaveCount(0)
    await expect(header(page, 'Name')).toBeVisible()

    await page.reload()
    await expect(header(page, 'Name')).toBeVisible()
    await expect(header(page, 'Email')).toHaveCount(0)

    // Saved with Email hidden; shown again; the view hides it again.
    const name = unique('No email')
    await page.getByRole('button', { name: 'Save view' }).click()
    await page.getByRole('dialog', { name: 'Save view' }).getByLabel('Name').fill(name)
    await page.getByRole('dialog', { name: 'Save view' }).getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText(`View “${name}” saved`)).toBeVisible()
    await expect(page.getByRole('combobox', { name: 'Saved views' })).toContainText(name)

    await openColumns(page)
    await columnsMenu(page).getByRole('menuitem', { name: 'Reset columns' }).click()
    await expect(header(page, 'Email')).toBeVisible()
    // Other columns than the view's: it is no longer the current one.
    await expect(page.getByRole('combobox', { name: 'Saved views' })).not.toContainText(name)

    await page.getByRole('combobox', { name: 'Saved views' }).click()
    await page.getByRole('option', { name }).click()
    await expect(header(page, 'Email')).toHaveCount(0)
    await expect(page).toHaveURL(/\/admin\/users$/)
    await page.reload()
    await expect(header(page, 'Name')).toBeVisible()
    await expect(header(page, 'Email')).toHaveCount(0)

    // The last column on screen cannot be taken away.
    await openColumns(page)
    for (const column of ['Date Created', 'Name', 'Operating System', 'Provider', 'Country']) await columnsMenu(page).getByRole('menuitemcheckbox', { name: column }).click()
    await expect(columnsMenu(page).getByRole('menuitemcheckbox', { name: 'Wallet Address' })).toHaveAttribute('aria-disabled', 'true')
    await page.keyboard.press('Escape')
    await expect(page.getByRole('table').getByRole('columnheader')).toHaveText(['', 'Wallet Address', 'Action'])
    // Hidden columns are read in the view modal.
    await page.getByRole('table').locator('tbody tr').first().getByRole('button', { name: /^View / }).click()
    const details = page.getByRole('dialog', { name: 'User Details' })
    await expect(details).toContainText('Date Created')
    await expect(details).toContainText('Operating System')
    await page.keyboard.press('Escape')

    // Another staff member on this browser has their own columns.
    const other = await createStaff(page.request, { name: 'Columns Other', screens: ['/users'] })
    await signInPage(page, other)
    await page.goto('/admin/users')
    await expect(page.getByRole('table').getByRole('columnheader')).toHaveText(LEADS)
  })

  test('at 820 px the Columns menu names the folded columns and brings one back', async ({ page }) => {
    await page.setViewportSize({ width: 820, height: 1180 })
    await signInPage(page, accounts.superadmin)
    const title = await addLongGame(page)
    await page.goto('/admin/users')
    await expect(header(page, 'Name')).toBeVisible()
    await expect(header(page, 'Wallet Address')).toBeHidden()

    await openColumns(page)
    const wallet = columnsMenu(page).getByRole('menuitemcheckbox', { name: /Wallet Address/ })
    await expect(wallet).toContainText('folded at this width')
    await expect(wallet).toHaveAttribute('aria-checked', 'false')
    await expect(columnsMenu(page).getByRole('menuitemcheckbox', { name: /Operating System/ })).toContainText('folded at this width')
    await expect(columnsMenu(page).getByRole('menuitemcheckbox', { name: 'Email' })).not.toContainText('folded')
    await page.screenshot({ path: '.tmp/columns-leads-820-menu.png', animations: 'disabled' })
    await expectNoSevereViolations(page, 'the Columns menu')
    await wallet.click()
    await expect(wallet).toHaveAttribute('aria-checked', 'true')
    await expect(wallet).not.toContainText('folded at this width')
    await page.keyboard.press('Escape')
    await expect(header(page, 'Wallet Address')).toBeVisible()
    await expect(header(page, 'Operating System')).toBeHidden()
    await page.reload()
    await expect(header(page, 'Wallet Address')).toBeVisible()
    await page.screenshot({ path: '.tmp/columns-leads-820.png', animations: 'disabled' })

    await page.goto(`/admin/cms?search=${encodeURIComponent(title)}`)
    await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(1)
    await openColumns(page)
    for (const folded of ['Game ID', 'Category ID', 'Live Link', 'Game Backend']) {
      await expect(columnsMenu(page).getByRole('menuitemcheckbox', { name: new RegExp(`^${folded}`) })).toContainText('folded at this width')
    }
    await columnsMenu(page).getByRole('menuitemcheckbox', { name: /^Live Link/ }).click()
    await page.keyboard.press('Escape')
    await expect(header(page, 'Live Link')).toBeVisible()
    await page.screenshot({ path: '.tmp/columns-games-820.png', animations: 'disabled' })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: '.tmp/columns-games-820-dark.png', animations: 'disabled' })
    await openColumns(page)
    await page.screenshot({ path: '.tmp/columns-games-820-menu-dark.png', animations: 'disabled' })
  })
})
