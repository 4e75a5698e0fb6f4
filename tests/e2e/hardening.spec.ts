/**
 * The hardening in the browser: the narrowed style policy (no inline style attribute at all, inline
 * style elements for Radix) and the Permissions-Policy hold on every kind of screen, dialogs,
 * menus, selects and the rich-text editor included; and the superadmin's Unlock of an account
 * that failed logins locked.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { PASSWORD } from './accounts.ts'
import { createStaff, test, expect, accounts } from './fixtures.ts'

/** Collects console errors, page errors, CSP violations and Permissions-Policy warnings. */
async function watchProblems(page: Page): Promise<string[]> {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || (message.type() === 'warning' && /Permissions-Policy/i.test(message.text()))) problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP ${event.effectiveDirective} ${event.blockedURI} @${location.pathname}`))
  })
  return problems
}

const screens = ['/dashboard', '/users', '/contactus', '/category', '/cms', '/social-links', '/buy_list', '/homepage-content', '/brand', '/restriction', '/version', '/sub-admin', '/settings', '/profile', '/resetpassword']

test('walks the screens, a dialog, a menu, a select and the editor with no CSP violation', async ({ page, signIn }) => {
  test.setTimeout(120_000)
  const problems = await watchProblems(page)
  await page.goto('/admin/login')
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible()
  await signIn(accounts.superadmin)
  for (const screen of screens) {
    await page.goto(`/admin${screen}`)
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  }
  // A modal dialog (Radix locks the page's scroll with an injected style element).
  await page.goto('/admin/sub-admin')
  await page.getByRole('button', { name: 'Unlock' }).first().click()
  await expect(page.getByRole('alertdialog').or(page.getByRole('dialog'))).toBeVisible()
  await page.getByRole('button', { name: 'Cancel' }).click()
  // A dropdown menu.
  await page.getByRole('button', { name: /Account menu/ }).click()
  await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeVisible()
  await page.keyboard.press('Escape')
  // A select (its viewport carries a style element of its own).
  await page.goto('/admin/add-subAdmin')
  await page.getByLabel('User Type').click()
  await expect(page.getByRole('option', { name: 'View Only', exact: true })).toBeVisible()
  await page.keyboard.press('Escape')
  // The rich-text editor (an email template's, in its edit dialog), with formatting applied; not saved.
  await page.goto('/admin/emailtemplates')
  await page.getByRole('button', { name: /^Edit / }).first().click()
  const editor = page.getByRole('dialog', { name: 'Edit Template' }).getByRole('textbox', { name: 'Content' })
  await editor.click()
  await page.keyboard.press('Control+End')
  await page.keyboard.press('Enter')
  await page.keyboard.press('Control+b')
  await page.keyboard.type('Typed in bold')
  await expect(editor.locator('strong').filter({ hasText: 'Typed in bold' })).toHaveCount(1)
  expect(problems).toEqual([])
})

const loginAs = (request: APIRequestContext, email: string, password: string) => request.post('/api/admin/login', { data: { email, password, twoFACode: '' } })

test('the superadmin unlocks an account that failed logins locked', async ({ adminPage: page }) => {
  const email = `locked-${Date.now().toString(36)}@e2e.test`
  await createStaff(page.request, { name: 'Locked Out', screens: ['/users'], email })
  for (let i = 0; i < 5; i++) expect((await loginAs(page.request, email, 'Wrong@1234')).status()).toBe(400)
  const locked = await loginAs(page.request, email, PASSWORD)
  expect(locked.status()).toBe(429)
  expect(await locked.json()).toMatchObject({ message: 'Too many failed attempts. Try again in 10 minutes.' })

  await page.goto('/admin/sub-admin')
  await page.getByPlaceholder('Search').fill(email)
  const row = page.getByRole('row').filter({ hasText: email })
  await expect(row).toHaveCount(1)
  await row.getByRole('button', { name: 'Unlock' }).click()
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'))
  await expect(dialog).toContainText('Are you sure you want to unlock this account')
  await expect(dialog).toContainText(email)
  await page.screenshot({ path: test.info().outputPath('unlock-dialog.png') })
  await dialog.getByRole('button', { name: 'Unlock' }).click()
  await expect(page.getByText('Account unlocked successfully')).toBeVisible()
  expect((await loginAs(page.request, email, PASSWORD)).status()).toBe(200)
})
