/**
 * Passkeys in Chromium with the DevTools virtual authenticator (a platform authenticator with
 * user verification, as a laptop's fingerprint reader): a View Only staff member adds one on
 * Profile, logs out, signs in with it (the button, then the email field's autofill) and lands where
 * the password's sign-in lands; a removed passkey signs nobody in, nor does a deactivated admin's.
 *
 * WebAuthn refuses an IP address as the relying party, so the pages are opened at localhost, on
 * the worker's shared server (which has no PUBLIC_URL: the relying party is the page's own address).
 */
import type { CDPSession, Page } from '@playwright/test'
import { z } from 'zod'
import { accounts, apiToken, createStaff, expect, signInPage, test, type Account } from './fixtures.ts'
import { sharedServer } from './shared-servers.ts'

test.use({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern: none here.
  baseURL: async ({}, provide, testInfo) => {
    await provide(sharedServer(testInfo.parallelIndex).origin.replace('//127.0.0.1:', '//localhost:'))
  },
})

const Added = z.object({ authenticatorId: z.string() })
const Credentials = z.object({ credentials: z.array(z.object({ credentialId: z.string(), isResidentCredential: z.boolean() })) })

/** A virtual platform authenticator on the page's browser, answering every prompt with a verified user. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const added = Added.parse(
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    }),
  )
  return { cdp, id: added.authenticatorId }
}

const credentialsOf = async (authenticator: { cdp: CDPSession; id: string }) =>
  Credentials.parse(await authenticator.cdp.send('WebAuthn.getCredentials', { authenticatorId: authenticator.id })).credentials

async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Account menu/ }).click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/admin\/login$/)
}

/** Adds a passkey named `name` on Profile (the session just signed in: no step-up question). */
async function addOnProfile(page: Page, name: string): Promise<void> {
  await page.goto('/admin/profile')
  const section = page.getByRole('region', { name: 'Passkeys' })
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible()
  await section.getByRole('button', { name: 'Add a passkey' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' })
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('Passkey added')).toBeVisible()
  await expect(dialog).toBeHidden()
  const row = section.getByTestId('passkey')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText(name)
  await expect(row).toContainText('Never used')
}

/** Where the password's sign-in lands this account (its first allowed screen). */
async function passwordLanding(page: Page, account: Account): Promise<string> {
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).not.toHaveURL(/\/admin\/login$/)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  return new URL(page.url()).pathname
}

test('a passkey added on Profile signs in without a password and lands where the password does; removed, it signs nobody in', async ({ page }) => {
  const authenticator = await virtualAuthenticator(page)
  const staff = await createStaff(page.request, { name: 'Pia Passkey', screens: ['/category'], accessLevel: 'View Only' })

  const landing = await passwordLanding(page, staff)
  expect(landing).not.toBe('/users')
  // View Only: their own account, so they manage their passkeys too.
  await addOnProfile(page, 'Work laptop')
  const [credential] = await credentialsOf(authenticator)
  expect(credential?.isResidentCredential).toBe(true)

  await logOut(page)
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page).toHaveURL(new RegExp(`${landing}$`))
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()

  // The email field's autofill: its request starts when the field takes the focus, and the
  // virtual authenticator answers it as a person picking the passkey from the autofill would.
  await logOut(page)
  await page.getByLabel('Email').focus()
  await expect(page).toHaveURL(new RegExp(`${landing}$`))
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()

  // A session like any other: listed on Profile, the passkey now used.
  await page.goto('/admin/profile')
  await expect(page.getByRole('region', { name: 'Active sessions' }).getByTestId('active-session')).toHaveCount(1)
  const section = page.getByRole('region', { name: 'Passkeys' })
  await expect(section.getByTestId('passkey')).toContainText('Last used')

  // Removed (the passkey's sign-in is a fresh proof, so no step-up question), it is refused.
  await section.getByRole('button', { name: 'Remove' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, remove' }).click()
  await expect(page.getByText('Passkey removed')).toBeVisible()
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible()
  await logOut(page)
  // The authenticator still holds it: the server is what refuses it.
  expect(await credentialsOf(authenticator)).toHaveLength(1)
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page.getByText('This passkey could not be checked. Try again, or use your password.')).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/login$/)
  expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
})

test("a deactivated admin's passkey is refused as their password is", async ({ page }) => {
  await virtualAuthenticator(page)
  const staff = await createStaff(page.request, { name: 'Dora Deactivated', screens: ['/users'], accessLevel: 'Admin' })
  await signInPage(page, staff)
  await addOnProfile(page, 'Security key')

  const root = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
  const list = await page.request.get(`/api/admin/FetchSubAdminUsers?search=${encodeURIComponent(staff.email)}`, { headers: root })
  const id = z.object({ result: z.array(z.object({ _id: z.string(), email: z.string() })) }).parse(await list.json()).result.find((s) => s.email === staff.email)?._id
  expect(id).toBeTruthy()
  const deactivated = await page.request.post('/api/admin/ActivateSubadminStatusUpdate', { headers: root, data: { id } })
  expect(deactivated.ok(), await deactivated.text()).toBe(true)
  await expect(page).toHaveURL(/\/admin\/login$/, { timeout: 5000 })

  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page.getByText('Your account has been deactivated')).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/login$/)
  expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
})

test("the palette's Add a passkey opens Profile's Passkeys with its Add button focused, for View Only too", async ({ page }) => {
  await signInPage(page, accounts.viewOnly)
  await page.goto('/admin/category')
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  for (const from of ['another screen', 'Profile itself']) {
    await page.keyboard.press('Control+k')
    const palette = page.getByRole('dialog', { name: 'Command palette' })
    await expect(palette.getByRole('combobox')).toBeFocused()
    await page.keyboard.type('Add a passkey')
    await expect(palette.getByRole('option', { name: /Add a passkey/ })).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Enter')
    await expect(page, from).toHaveURL(/\/admin\/profile#passkeys$/)
    await expect(page.getByRole('region', { name: 'Passkeys' }).getByRole('button', { name: 'Add a passkey' })).toBeFocused()
    // Away from the button, so the second round shows the palette moved the focus again.
    await page.getByRole('heading', { name: 'Profile', level: 1 }).click()
  }
})
