/**
 * Active sessions on Profile: a staff member signed in on two browsers sees both, "This device"
 * marked, and signing out of the other from Profile logs that browser out at once; a staff
 * manager's Sign out everywhere on Users and Access does the same to every session of a member,
 * and Remove passkeys is offered beside it.
 */
import { createStaff, test, expect, signInPage, socketJoined, uniqueEmail } from './fixtures.ts'

test('ending the other session from Profile logs that browser out', async ({ page, browser, baseURL }) => {
  const staff = await createStaff(page.request, { name: 'Sam Sessions', screens: ['/users'], accessLevel: 'Admin' })

  // The other browser: its own context, signed in first, its socket up.
  const otherContext = await browser.newContext({ baseURL })
  const other = await otherContext.newPage()
  try {
    const joined = socketJoined(other)
    await signInPage(other, staff)
    await other.goto('/admin/users')
    await expect(other.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await joined

    await signInPage(page, staff)
    await page.goto('/admin/profile')
    const section = page.getByRole('region', { name: 'Active sessions' })
    const rows = section.getByTestId('active-session')
    await expect(rows).toHaveCount(2)
    await expect(rows.first()).toContainText('This device')
    await expect(rows.nth(1)).not.toContainText('This device')
    await expect(rows.nth(1)).toContainText('Last active')

    await rows.nth(1).getByRole('button', { name: 'Sign out' }).click()
    await expect(page.getByText('Session signed out')).toBeVisible()
    await expect(rows).toHaveCount(1)

    await expect(other).toHaveURL(/\/admin\/login$/, { timeout: 2000 })
    expect(await other.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
    // This browser stays signed in.
    await page.reload()
    await expect(page.getByRole('region', { name: 'Active sessions' }).getByTestId('active-session')).toHaveCount(1)
  } finally {
    await otherContext.close()
  }
})

test('a staff manager signs a member out everywhere from Users and Access', async ({ adminPage: page, browser, baseURL }) => {
  const email = uniqueEmail('sign-out-everywhere')
  const staff = await createStaff(page.request, { name: 'Eve Everywhere', screens: ['/users'], email })
  const otherContext = await browser.newContext({ baseURL })
  const other = await otherContext.newPage()
  try {
    const joined = socketJoined(other)
    await signInPage(other, staff)
    await other.goto('/admin/users')
    await expect(other.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await joined

    await page.goto('/admin/sub-admin')
    await page.getByPlaceholder('Search').fill(email)
    const row = page.getByRole('row').filter({ hasText: email })
    await expect(row).toHaveCount(1)
    await row.getByRole('button', { name: /^Sign out everywhere/ }).click()
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'))
    await expect(dialog).toContainText('Are you sure you want to sign this user out everywhere')
    await expect(dialog).toContainText(email)
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click()
    await expect(page.getByText('User signed out everywhere')).toBeVisible()
    await expect(other).toHaveURL(/\/admin\/login$/, { timeout: 2000 })
  } finally {
    await otherContext.close()
  }
})

test('a staff manager removes a member’s passkeys from Users and Access', async ({ adminPage: page }) => {
  const email = uniqueEmail('remove-passkeys')
  await createStaff(page.request, { name: 'Pia Passkeys', screens: ['/users'], email })
  await page.goto('/admin/sub-admin')
  await page.getByPlaceholder('Search').fill(email)
  const row = page.getByRole('row').filter({ hasText: email })
  await expect(row).toHaveCount(1)
  await row.getByRole('button', { name: /^Remove passkeys/ }).click()
  const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'))
  await expect(dialog).toContainText("Are you sure you want to remove this user's passkeys")
  await expect(dialog).toContainText(email)
  await dialog.getByRole('button', { name: 'Remove passkeys' }).click()
  await expect(page.getByText('This user has no passkey')).toBeVisible()
})
