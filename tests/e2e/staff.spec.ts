/**
 * Users and Access (requirements R2.27, R2.28): the list, Create User and Edit User with the required messages
 * and access rules, the Active/DeActive toggle, what a sub-admin may open, and a forced logout
 * reaching an open browser.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { z } from 'zod'
import { PASSWORD } from './accounts.ts'
import { createStaff, uniqueEmail, test, expect, accounts, apiToken, signInPage, socketJoined } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const Staff = z.object({
  _id: z.string(),
  email: z.string(),
  accessLevel: z.string(),
  restrictions: z.array(z.string()),
  activate: z.number(),
})
const StaffPage = z.object({ result: z.array(Staff), count: z.number() })

/** The stored record of a staff user, as the server lists it. */
async function staffRecord(request: APIRequestContext, email: string): Promise<z.output<typeof Staff>> {
  const token = await apiToken(request, accounts.superadmin)
  const response = await request.get(`/api/admin/FetchSubAdminUsers?page=1&limit=10&search=${encodeURIComponent(email)}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  const record = StaffPage.parse(await response.json()).result.find((r) => r.email === email)
  if (!record) throw new Error(`${email} is not in the staff list`)
  return record
}

async function chooseUserType(page: Page, type: 'Admin' | 'View Only'): Promise<void> {
  await page.getByLabel('User Type').click()
  await page.getByRole('option', { name: type, exact: true }).click()
}

/** The access list a form sent to `endpoint` once `submit` ran. */
async function sentAccess(page: Page, endpoint: string, submit: () => Promise<void>): Promise<string[]> {
  const sent = page.waitForRequest((r) => r.url().endsWith(`/api/admin/${endpoint}`))
  await submit()
  return z.object({ restrictions: z.array(z.string()) }).parse((await sent).postDataJSON()).restrictions
}

/** Checks pages in the Access menu, then closes it. */
async function chooseAccess(page: Page, titles: string[]): Promise<void> {
  await page.getByLabel('Access', { exact: true }).click()
  for (const title of titles) await page.getByRole('menuitemcheckbox', { name: title, exact: true }).click()
  await page.keyboard.press('Escape')
}

const staffRow = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email })

/**
 * Opens the staff list searched for one user: the tests keep adding staff, newest first, so a
 * seeded user soon leaves the first page.
 */
async function findStaff(page: Page, email: string) {
  await page.goto(`/admin/sub-admin?search=${encodeURIComponent(email)}`)
  const row = staffRow(page, email)
  await expect(row).toBeVisible()
  return row
}

test.describe('Users and Access list', () => {
  test('shows S.No, Name, Email, User Type and Access: page titles, or -- only for every page', async ({ adminPage: page }) => {
    const everyPage = await createStaff(page.request, { name: 'Staff every-page', screens: [], accessLevel: 'Admin' })
    await page.goto('/admin/sub-admin')
    await expect(page.getByRole('heading', { name: 'Users and Access' })).toBeVisible()
    for (const header of ['S.No', 'Name', 'Email', 'User Type', 'Access', 'Action']) {
      await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible()
    }
    // The superadmin manages staff: Add is there.
    await expect(page.getByRole('link', { name: 'Add', exact: true })).toBeVisible()

    const viewer = await findStaff(page, accounts.viewOnly.email)
    await expect(viewer.getByRole('cell', { name: 'View Only', exact: true })).toBeVisible()
    await expect(viewer.getByRole('cell', { name: 'Leads, Contact Us, Category List, Profile, Reset Password', exact: true })).toBeVisible()
    // An Admin restricted to some pages (through the API) shows them: '--' would claim every page.
    const admin = await findStaff(page, accounts.categoriesOnly.email)
    await expect(admin.getByRole('cell', { name: 'Admin', exact: true })).toBeVisible()
    await expect(admin.getByRole('cell', { name: 'Category List, Add Category, Edit Category', exact: true })).toBeVisible()
    await expect(admin.getByRole('cell', { name: '--', exact: true })).toHaveCount(0)
    // Edit and the toggle are there for the superadmin.
    await expect(admin.getByRole('button', { name: `Edit ${accounts.categoriesOnly.name}` })).toBeVisible()
    await expect(admin.getByRole('switch', { name: `Active ${accounts.categoriesOnly.name}` })).toBeChecked()
    const unrestricted = await findStaff(page, everyPage.email)
    await expect(unrestricted.getByRole('cell', { name: 'Admin', exact: true })).toBeVisible()
    await expect(unrestricted.getByRole('cell', { name: '--', exact: true })).toBeVisible()

    await page.goto('/admin/sub-admin?search=nobody-at-all')
    await expect(page.getByText('No Record Found')).toBeVisible()
  })

  test('has no serious or critical accessibility violation', async ({ adminPage: page }) => {
    await findStaff(page, accounts.viewOnly.email)
    await expectNoSevereViolations(page)
  })
})

test.describe('Create User', () => {
  test('shows the required messages', async ({ adminPage: page }) => {
    await page.goto('/admin/add-subAdmin')
    await page.getByRole('button', { name: 'Submit' }).click()
    for (const message of ['Name is required', 'Email is required', 'Password is required', 'User type is required']) {
      await expect(page.getByText(message, { exact: true })).toBeVisible()
    }
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByLabel('Password', { exact: true }).fill('short')
    await expect(page.getByText('Incorrect format', { exact: true })).toHaveCount(2)
    await chooseUserType(page, 'View Only')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Access is required', { exact: true })).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/add-subAdmin$/)
  })

  test('has a password eye and no serious or critical accessibility violation', async ({ adminPage: page }) => {
    await page.goto('/admin/add-subAdmin')
    const password = page.getByLabel('Password', { exact: true })
    await password.fill('Secret@123')
    await expect(password).toHaveAttribute('type', 'password')
    const eye = page.getByRole('button', { name: 'Show password' })
    await eye.click()
    await expect(eye).toHaveAttribute('aria-pressed', 'true')
    await expect(password).toHaveAttribute('type', 'text')
    await eye.click()
    await expect(password).toHaveAttribute('type', 'password')

    await chooseUserType(page, 'View Only')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Access is required')).toBeVisible()
    await expectNoSevereViolations(page)
  })

  test('creates a View Only user with the chosen pages and no child page, even after a switch to Admin and back', async ({ adminPage: page }) => {
    const email = uniqueEmail('viewer')
    await page.goto('/admin/sub-admin')
    await page.getByRole('link', { name: 'Add', exact: true }).click()
    await expect(page).toHaveURL(/\/admin\/add-subAdmin$/)
    await expect(page.getByRole('heading', { name: 'Create User' })).toBeVisible()
    await page.getByLabel('Name').fill('Olga Onlyview')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await chooseUserType(page, 'View Only')
    await chooseAccess(page, ['Leads', 'Category List'])
    await expect(page.getByRole('button', { name: 'Remove Category List' })).toBeVisible()
    // Admin adds the child pages of Category List to the hidden choice; View Only removes them again.
    await chooseUserType(page, 'Admin')
    await expect(page.getByLabel('Access', { exact: true })).toHaveCount(0)
    await chooseUserType(page, 'View Only')
    await expect(page.getByRole('button', { name: 'Remove Category List' })).toBeVisible()
    const sent = await sentAccess(page, 'createSubAdminUsers', () => page.getByRole('button', { name: 'Submit' }).click())
    expect(sent).toEqual(['/users', '/category'])

    await expect(page.getByRole('status').filter({ hasText: 'User created successfully' })).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/sub-admin$/)
    await page.goto(`/admin/sub-admin?search=${encodeURIComponent(email)}`)
    await expect(staffRow(page, email).getByRole('cell', { name: 'Leads, Category List', exact: true })).toBeVisible()
    const record = await staffRecord(page.request, email)
    expect(record.accessLevel).toBe('View Only')
    expect(record.restrictions).toEqual(['/users', '/category'])
  })

  test('creates an Admin user: Access hides, and every page is sent (--), not the earlier choice', async ({ adminPage: page }) => {
    const email = uniqueEmail('admin')
    await page.goto('/admin/add-subAdmin')
    await page.getByLabel('Name').fill('Ada Admin')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await chooseUserType(page, 'View Only')
    await chooseAccess(page, ['Category List'])
    await chooseUserType(page, 'Admin')
    await expect(page.getByLabel('Access', { exact: true })).toHaveCount(0)
    // Back to View Only: the choice is still there (its child pages went with the switch).
    await chooseUserType(page, 'View Only')
    await expect(page.getByRole('button', { name: 'Remove Category List' })).toBeVisible()
    await chooseUserType(page, 'Admin')
    // The hidden choice is not sent: an Admin gets every page, which the list shows as '--'.
    expect(await sentAccess(page, 'createSubAdminUsers', () => page.getByRole('button', { name: 'Submit' }).click())).toEqual([])

    await expect(page).toHaveURL(/\/admin\/sub-admin$/)
    await page.goto(`/admin/sub-admin?search=${encodeURIComponent(email)}`)
    const row = staffRow(page, email)
    await expect(row.getByRole('cell', { name: 'Admin', exact: true })).toBeVisible()
    await expect(row.getByRole('cell', { name: '--', exact: true })).toBeVisible()
    const record = await staffRecord(page.request, email)
    expect(record.accessLevel).toBe('Admin')
    expect(record.restrictions).toEqual([])
  })
})

test.describe('Edit User', () => {
  test('says, before saving, what the member gains and loses, page by page', async ({ adminPage: page }) => {
    const user = await createStaff(page.request, { name: 'Staff changes', screens: ['/users', '/brand'] })
    await page.goto(`/admin/sub-admin?search=${encodeURIComponent(user.email)}`)
    await staffRow(page, user.email).getByRole('button', { name: `Edit ${user.name}` }).click()
    const changes = page.getByRole('region', { name: 'Access changes' })
    await expect(changes).toHaveText('Saving changes no access.')
    await chooseUserType(page, 'Admin')
    await expect(changes).toContainText('Saving gives them')
    await expect(changes.getByRole('listitem').filter({ hasText: /^Leads:/ })).toHaveText('Leads: read only → read and write')
    await expect(changes.getByRole('listitem').filter({ hasText: /^Games:/ })).toHaveText('Games: no access → read and write')
    await expect(changes).not.toContainText('Saving takes away')
    await chooseUserType(page, 'View Only')
    await page.getByRole('button', { name: 'Remove Brand Tab' }).click()
    await expect(changes).toContainText('Saving takes away')
    await expect(changes.getByRole('listitem')).toHaveText(['Brand Tab: read only → no access'])
    await expectNoSevereViolations(page)
  })

  test('shows its messages, applies the access rules and always keeps Profile and Reset Password', async ({ adminPage: page }) => {
    const user = await createStaff(page.request, { name: 'Staff edit', screens: ['/brand'] })
    await page.goto(`/admin/sub-admin?search=${encodeURIComponent(user.email)}`)
    await staffRow(page, user.email).getByRole('button', { name: `Edit ${user.name}` }).click()
    await expect(page.getByRole('heading', { name: 'Edit User' })).toBeVisible()
    await expect(page.getByLabel('Name')).toHaveValue(user.name)
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Remove Brand Tab' })).toBeVisible()

    await page.getByRole('button', { name: 'Remove Brand Tab' }).click()
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Restrictions is required', { exact: true })).toBeVisible()

    // Reset Password is an option on edit only.
    await chooseAccess(page, ['Brand Tab', 'Reset Password'])
    await page.getByLabel('Name').fill('Edna Edited')
    // Admin: Access hides as on Create User, and every page is sent.
    await chooseUserType(page, 'Admin')
    await expect(page.getByLabel('Access', { exact: true })).toHaveCount(0)
    expect(await sentAccess(page, 'UpdateSubAdminUsers', () => page.getByRole('button', { name: 'Submit' }).click())).toEqual([])

    await expect(page.getByRole('status').filter({ hasText: 'User updated successfully' })).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/sub-admin$/)
    await page.goto(`/admin/sub-admin?search=${encodeURIComponent(user.email)}`)
    const row = staffRow(page, user.email)
    await expect(row.getByRole('cell', { name: 'Edna Edited', exact: true })).toBeVisible()
    await expect(row.getByRole('cell', { name: '--', exact: true })).toBeVisible()
    const admin = await staffRecord(page.request, user.email)
    expect(admin.accessLevel).toBe('Admin')
    expect(admin.restrictions).toEqual([])

    // And back to View Only: Access shows again and is required; a chosen list keeps Profile and Reset Password.
    await row.getByRole('button', { name: 'Edit Edna Edited' }).click()
    await chooseUserType(page, 'View Only')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Restrictions is required', { exact: true })).toBeVisible()
    await chooseAccess(page, ['Brand Tab'])
    const sent = await sentAccess(page, 'UpdateSubAdminUsers', () => page.getByRole('button', { name: 'Submit' }).click())
    expect([...sent].sort()).toEqual(['/brand', '/profile', '/resetpassword'])
    await expect(page).toHaveURL(/\/admin\/sub-admin$/)
    await page.goto(`/admin/sub-admin?search=${encodeURIComponent(user.email)}`)
    await expect(staffRow(page, user.email).getByRole('cell', { name: 'Brand Tab, Profile, Reset Password', exact: true })).toBeVisible()
    const viewer = await staffRecord(page.request, user.email)
    expect([...viewer.restrictions].sort()).toEqual(['/brand', '/profile', '/resetpassword'])
  })

  test('saving an Admin restricted to some pages gives them every page: the list then shows --', async ({ adminPage: page }) => {
    const user = await createStaff(page.request, { name: 'Staff restricted-admin', screens: ['/category'], accessLevel: 'Admin' })
    await page.goto(`/admin/sub-admin?search=${encodeURIComponent(user.email)}`)
    const row = staffRow(page, user.email)
    await expect(row.getByRole('cell', { name: 'Category List, Add Category, Edit Category', exact: true })).toBeVisible()
    await row.getByRole('button', { name: `Edit ${user.name}` }).click()
    await expect(page.getByRole('heading', { name: 'Edit User' })).toBeVisible()
    await expect(page.getByLabel('Access', { exact: true })).toHaveCount(0)
    expect(await sentAccess(page, 'UpdateSubAdminUsers', () => page.getByRole('button', { name: 'Submit' }).click())).toEqual([])
    await expect(page).toHaveURL(/\/admin\/sub-admin$/)
    await page.goto(`/admin/sub-admin?search=${encodeURIComponent(user.email)}`)
    await expect(row.getByRole('cell', { name: '--', exact: true })).toBeVisible()
    expect((await staffRecord(page.request, user.email)).restrictions).toEqual([])
  })
})

test.describe('Active/DeActive', () => {
  test('flips a user off and on; a deactivated user cannot log in', async ({ adminPage: page }) => {
    const user = await createStaff(page.request, { name: 'Staff toggle', screens: ['/users'] })
    await page.goto(`/admin/sub-admin?search=${encodeURIComponent(user.email)}`)
    const toggle = page.getByRole('switch', { name: `Active ${user.name}` })
    await expect(toggle).toBeChecked()
    // The switch writes its state (On / Off) beside its position, then the requirements' label.
    await expect(toggle).toHaveText('On Active')
    await toggle.click()
    await expect(page.getByRole('status').filter({ hasText: 'User deactivated successfully' })).toBeVisible()
    await expect(toggle).not.toBeChecked()
    await expect(toggle).toHaveText('Off DeActive')
    expect((await staffRecord(page.request, user.email)).activate).toBe(0)
    await expect(apiToken(page.request, user)).rejects.toThrow(/login of .* failed/)

    await page.reload()
    await expect(toggle).toHaveText('Off DeActive')
    await toggle.click()
    await expect(toggle).toBeChecked()
    expect(await apiToken(page.request, user)).toMatch(/\./)
  })

  test('ends the session of a deactivated admin in their open browser within 2 seconds', async ({ adminPage: page, browser }) => {
    const user = await createStaff(page.request, { name: 'Staff forced', screens: [], accessLevel: 'Admin' })
    const other = await browser.newContext()
    const theirs = await other.newPage()
    try {
      await signInPage(theirs, user)
      // Their real-time link has joined its room before the change.
      const joined = socketJoined(theirs)
      await theirs.goto('/admin/users')
      await expect(theirs.getByRole('navigation', { name: 'Main' })).toBeVisible()
      await joined

      await page.goto(`/admin/sub-admin?search=${encodeURIComponent(user.email)}`)
      await page.getByRole('switch', { name: `Active ${user.name}` }).click()
      await expect(page.getByRole('switch', { name: `Active ${user.name}` })).not.toBeChecked()
      await expect(theirs).toHaveURL(/\/admin\/login$/, { timeout: 2_000 })
      expect(await theirs.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
    } finally {
      await other.close()
    }
  })
})

test.describe('a sub-admin', () => {
  test('sees only their routes and is sent from others to the first allowed one', async ({ page, signIn }) => {
    await signIn(accounts.viewOnly)
    await page.goto('/admin/users')
    const menu = page.getByRole('navigation', { name: 'Main' })
    await expect(menu.getByRole('link', { name: 'Leads' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Users and Access' })).toHaveCount(0)
    for (const path of ['/admin/sub-admin', '/admin/add-subAdmin', '/admin/edit-subAdmin?id=x']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/admin\/users$/)
    }
    // Profile and Reset Password stay open to every signed-in admin, from the account menu.
    await page.getByRole('button', { name: /^Account menu/ }).click()
    await page.getByRole('menuitem', { name: 'Profile' }).click()
    await expect(page).toHaveURL(/\/admin\/profile$/)
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible()
  })

  test('with Admin access but role subadmin reads the staff list without Add, edit or toggle', async ({ page }) => {
    const user = await createStaff(page.request, { name: 'Staff subadmin', screens: [], accessLevel: 'Admin' })
    await signInPage(page, user)
    await findStaff(page, accounts.viewOnly.email)
    await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0)
    await expect(page.getByRole('switch')).toHaveCount(0)
    await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0)
    // Create User and Edit User send such a session back to the list, as View Only is sent.
    for (const path of ['/admin/add-subAdmin', '/admin/edit-subAdmin?id=x']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/admin\/sub-admin$/)
    }
    // The palette offers this Admin the other write actions, but not Create User.
    await page.keyboard.press('Control+k')
    const palette = page.getByRole('dialog', { name: 'Command palette' })
    await expect(palette.getByRole('option', { name: /Add Category/ })).toBeVisible()
    await expect(palette.getByRole('option', { name: /Users and Access/ })).toBeVisible()
    await expect(palette.getByRole('option', { name: /Create User/ })).toHaveCount(0)
  })
})
