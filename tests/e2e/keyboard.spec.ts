/**
 * Keyboard-driven lists: a whole task without the mouse, and the shortcut sheet.
 */
import { test, expect, accounts, apiToken } from './fixtures.ts'

test.describe('keyboard-driven lists', () => {
  test('adds a brand, finds it and opens it, with the keyboard only', async ({ adminPage: page }) => {
    const name = `Keys ${Date.now().toString(36)}`
    await page.goto('/admin/brand')
    await expect(page.getByRole('heading', { name: 'Brand List' })).toBeVisible()
    await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible()

    // n: Add, where this admin may add.
    await page.keyboard.press('n')
    await expect(page).toHaveURL(/\/admin\/addbrand$/)
    await page.getByLabel('Brand Name').focus()
    await page.keyboard.type(name)
    await page.keyboard.press('Tab')
    // The Type select opens from the keyboard and takes its choice from it.
    await page.keyboard.press('Enter')
    await expect(page.getByRole('listbox')).toBeVisible()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await expect(page.getByRole('listbox')).toHaveCount(0)
    // The closing list hands the focus back to its control a moment later: Tab before that would
    // start from wherever the focus was meanwhile.
    await expect(page.getByRole('combobox', { name: 'Type' })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: 'Submit' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/admin\/brand$/)

    // /: the search; ↓ goes down onto the first row found, which a screen reader reads as it takes focus.
    await page.keyboard.press('/')
    await expect(page.getByRole('searchbox', { name: 'Search' })).toBeFocused()
    await page.keyboard.type(name)
    // The list follows the typing after a pause: wait for the whole term, not a prefix of it.
    await expect(page).toHaveURL(/search=Keys\+/)
    await expect(page).toHaveURL(new RegExp(`search=${name.replace(' ', '\\+')}$`))
    // The one row found, not the one row of the loading state the table shows meanwhile.
    const row = page.getByRole('table').locator('tbody tr').first()
    await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(1)
    await expect(row).toContainText(name)
    await page.keyboard.press('ArrowDown')
    await expect(row).toBeFocused()
    await expect(row).toContainText(name)

    // Enter opens the row's view.
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/admin\/view-brand/)
    await expect(page.getByText(name).first()).toBeVisible()
  })

  test('j and k move the row focus, x selects, and ? shows every shortcut', async ({ adminPage: page }) => {
    // Two countries to move between (adding one already listed changes nothing).
    const headers = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
    const added = await page.request.post('/api/admin/AddRestrictions', { headers, data: { country: ['Iceland', 'Norway'] } })
    expect(added.ok(), await added.text()).toBe(true)
    await page.goto('/admin/restriction')
    await expect(page.getByRole('heading', { name: 'Restriction List' })).toBeVisible()
    const rows = page.getByRole('table').locator('tbody tr')
    // The rows themselves, not the five rows of the loading state the table shows before them (a
    // key pressed over the loading state has no row to move to, and is rightly lost).
    await expect(rows.filter({ hasText: 'Iceland' })).toBeVisible()
    await expect(rows.filter({ hasText: 'Norway' })).toBeVisible()
    // Keys quicker than the list renders (one task, no render between them) still each move on
    // from the row the previous one reached: j to row 1, j to row 2, k back to row 1.
    await page.evaluate(() => {
      for (const key of ['j', 'j', 'k']) (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }))
    })
    await expect(rows.first()).toBeFocused()
    await page.keyboard.press('j')
    await expect(rows.nth(1)).toBeFocused()
    await page.keyboard.press('k')
    await expect(rows.first()).toBeFocused()
    await page.keyboard.press('x')
    await expect(page.getByText(/1 selected/)).toBeVisible()

    await page.keyboard.press('?')
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    await expect(sheet).toBeVisible()
    for (const does of ['Next row', 'Previous row', 'Show these shortcuts', 'Open the command palette']) {
      await expect(sheet.getByText(does)).toBeVisible()
    }
    await page.keyboard.press('Escape')
    await expect(sheet).toHaveCount(0)
    // Opened by a key, not a button: focus still goes back to where it was, the row.
    await expect(rows.first()).toBeFocused()

    // The palette shows the shortcuts too.
    await page.keyboard.press('Control+k')
    await page.getByPlaceholder(/Type a screen/).fill('Add Brand')
    await expect(page.getByLabel('Shortcut: n').first()).toBeVisible()
  })
})
