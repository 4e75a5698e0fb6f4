/**
 * The account screens: Profile (name edit, 2FA on and off), Reset Password, Forgot, 2FA login and
 * a staff creation that asks for the creator's code.
 *
 * These tests change passwords and 2FA, and read the mailed OTPs, so they run against a server of
 * their own (the same script as the shared one, on its own port and data folder) whose SMTP_URL
 * points at a real SMTP receiver started here. The other specs' accounts stay as they were.
 */
import type { Page } from '@playwright/test'
import { totpCode, totpStep } from '../../server/kit/ground/access/two-factor-code.ts'
import { accounts } from './accounts.ts'
import { test, expect, signInPage, type Account } from './fixtures.ts'
import { mailTo, otpFrom, ownServerWithMail } from './own-server.ts'
import { expectNoSevereViolations } from './axe.ts'

const { mails } = ownServerWithMail('account')

/** The OTP of the newest mail to `address` that arrived after `since` mails. */
const otpFor = async (address: string, since: number): Promise<string> => otpFrom(await mailTo(mails, address, { since, having: (text) => text.includes('one-time code is:') }))

/**
 * A code the server has not seen yet: each code is good once and only later steps count after
 * it, within one step of drift. Never the previous step's code: on a loaded machine the request
 * can reach the server after the next step has begun, when that code is no longer accepted.
 * Waits for the clock when the next usable step is still ahead.
 */
const lastStep = new Map<string, number>()
async function freshCode(secret: string): Promise<string> {
  for (;;) {
    const now = totpStep()
    const step = Math.max(now, (lastStep.get(secret) ?? 0) + 1)
    if (step <= now + 1) {
      lastStep.set(secret, step)
      return totpCode(secret, step)
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

async function openFromAccountMenu(page: Page, item: 'Profile' | 'Reset Password' | 'Logout'): Promise<void> {
  await page.getByRole('button', { name: /^Account menu/ }).click()
  await page.getByRole('menuitem', { name: item }).click()
}

async function loginForm(page: Page, account: Pick<Account, 'email' | 'password'>): Promise<void> {
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Login' }).click()
}

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('admin_token'))

test.describe('Profile', () => {
  test('shows name and email read-only and edits the name in a modal', async ({ page }) => {
    await signInPage(page, accounts.viewOnly)
    await page.goto('/admin/users')
    await openFromAccountMenu(page, 'Profile')
    await expect(page).toHaveURL(/\/admin\/profile$/)
    const name = page.getByRole('textbox', { name: 'Name' })
    await expect(name).toHaveValue(accounts.viewOnly.name)
    await expect(name).toHaveAttribute('readonly', '')
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(accounts.viewOnly.email)
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly', '')

    await page.getByRole('button', { name: 'Edit Profile' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' })
    await expect(dialog.getByLabel('Name')).toHaveValue(accounts.viewOnly.name)
    await expect(dialog.getByLabel('Email')).toHaveCount(0)
    await dialog.getByLabel('Name').fill('')
    await dialog.getByRole('button', { name: 'Submit' }).click()
    await expect(dialog.getByText('Name is required')).toBeVisible()
    await dialog.getByLabel('Name').fill('Vera Renamed')
    await dialog.getByRole('button', { name: 'Submit' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(name).toHaveValue('Vera Renamed')
    await page.reload()
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Vera Renamed')
    await expectNoSevereViolations(page)
  })
})

test.describe('Reset Password', () => {
  test('changes the password with the mailed OTP and logs out to /login', async ({ page }) => {
    const account = accounts.categoriesOnly
    await signInPage(page, account)
    await page.goto('/admin/category')
    await openFromAccountMenu(page, 'Reset Password')
    await expect(page).toHaveURL(/\/admin\/resetpassword$/)
    await page.getByRole('button', { name: 'Submit' }).click()
    for (const message of ['OTP is required', 'Old password is required', 'New password is required', 'Confirm password is required']) {
      await expect(page.getByText(message, { exact: true })).toBeVisible()
    }

    const since = mails.length
    await page.getByRole('button', { name: 'Send OTP' }).click()
    const otp = await otpFor(account.email, since)
    await expect(page.getByRole('button', { name: 'Resend OTP' })).toBeVisible()
    const newPassword = 'Reset@Pass2'
    await page.getByLabel('OTP').fill(otp)
    await page.getByLabel('Old Password', { exact: true }).fill(account.password)
    await page.getByLabel('New Password', { exact: true }).fill(newPassword)
    await page.getByLabel('Confirm Password', { exact: true }).fill('Other@Pass3')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Confirm password does not match')).toBeVisible()
    await page.getByLabel('Confirm Password', { exact: true }).fill(newPassword)
    await page.getByRole('button', { name: 'Submit' }).click()

    await expect(page).toHaveURL(/\/admin\/login$/)
    expect(await storedToken(page)).toBeNull()
    await loginForm(page, { email: account.email, password: account.password })
    await expect(page).toHaveURL(/\/admin\/login$/)
    await loginForm(page, { email: account.email, password: newPassword })
    // Home is /users; this account may open only the category screens, so it lands there.
    await expect(page).toHaveURL(/\/admin\/category$/)
  })
})

test.describe('Forgot', () => {
  test('sets a new password with the mailed OTP', async ({ page }) => {
    const account = accounts.viewOnly
    await page.goto('/admin/login')
    await page.getByRole('link', { name: 'Forgot Password' }).click()
    await expect(page).toHaveURL(/\/admin\/forgot$/)
    await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible()
    await page.getByRole('button', { name: 'Send OTP' }).click()
    await expect(page.getByText('email is required')).toBeVisible()
    await expectNoSevereViolations(page)

    const since = mails.length
    await page.getByLabel('Email').fill(account.email)
    await page.getByRole('button', { name: 'Send OTP' }).click()
    const otp = await otpFor(account.email, since)
    const newPassword = 'Forgot@Pass4'
    await page.getByLabel('OTP').fill(otp)
    await page.getByLabel('New Password', { exact: true }).fill(newPassword)
    await page.getByLabel('Confirm Password', { exact: true }).fill(newPassword)
    // Removing the account's passkeys is offered, ticked unless unticked, and sent with the reset.
    await expect(page.getByLabel('Also remove all passkeys of this account')).toBeChecked()
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/admin/forgot-password'))
    await page.getByRole('button', { name: 'Submit' }).click()
    expect((await sent).postDataJSON()).toMatchObject({ removePasskeys: true })

    await expect(page).toHaveURL(/\/admin\/login$/)
    await loginForm(page, { email: account.email, password: newPassword })
    await expect(page).toHaveURL(/\/admin\/users$/)
  })

  test('asks for the 2FA code of an account that has 2FA on', async ({ page }) => {
    const account = accounts.twoFactor
    await page.goto('/admin/forgot')
    const since = mails.length
    await page.getByLabel('Email').fill(account.email)
    await page.getByRole('button', { name: 'Send OTP' }).click()
    const otp = await otpFor(account.email, since)
    const newPassword = 'Second@Pass5'
    await page.getByLabel('OTP').fill(otp)
    await page.getByLabel('New Password', { exact: true }).fill(newPassword)
    await page.getByLabel('Confirm Password', { exact: true }).fill(newPassword)
    await expect(page.getByLabel('2FA Code')).toHaveCount(0)
    await page.getByRole('button', { name: 'Submit' }).click()

    const code = page.getByLabel('2FA Code')
    await expect(code).toBeFocused()
    await expect(page.locator('form [role="status"]')).toHaveClass(/emerald/)
    await expect(page).toHaveURL(/\/admin\/forgot$/)
    await code.fill(await freshCode(account.totpSecret))
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page).toHaveURL(/\/admin\/login$/)

    await loginForm(page, { email: account.email, password: newPassword })
    await page.getByLabel('2FA Code').fill(await freshCode(account.totpSecret))
    await page.getByRole('button', { name: 'Login' }).click()
    await expect(page).toHaveURL(/\/admin\/users$/)
  })
})

test.describe('two-factor authentication', () => {
  test('is enabled from Profile, then asked at login and when creating staff, and disabled with a code', async ({ page }) => {
    test.setTimeout(120_000)
    const account = accounts.superadmin
    await loginForm(page, account)
    await expect(page).toHaveURL(/\/admin\/users$/)
    await openFromAccountMenu(page, 'Profile')
    await expect(page.getByText(/^Off:/)).toBeVisible()
    await page.getByRole('button', { name: 'Enable 2FA' }).click()

    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' })
    await expect(qr).toBeVisible()
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    const secret = (await page.getByTestId('twofa-secret').textContent())?.trim() ?? ''
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/)
    await page.getByLabel('2FA Code').fill('123')
    await page.getByLabel('Password', { exact: true }).fill(account.password)
    await page.getByRole('button', { name: 'Enable', exact: true }).click()
    await expect(page.getByText('Incorrect format')).toBeVisible()
    await page.getByLabel('2FA Code').fill(await freshCode(secret))
    await page.getByRole('button', { name: 'Enable', exact: true }).click()
    await expect(page.getByText(/^On:/)).toBeVisible()

    // Login now answers TWO_FA until a code comes.
    await openFromAccountMenu(page, 'Logout')
    await expect(page).toHaveURL(/\/admin\/login$/)
    await loginForm(page, account)
    const loginCode = page.getByLabel('2FA Code')
    await expect(loginCode).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/login$/)
    await loginCode.fill(await freshCode(secret))
    await page.getByRole('button', { name: 'Login' }).click()
    await expect(page).toHaveURL(/\/admin\/users$/)

    // Creating staff asks for the creator's code (the TWO_FA answer of createSubAdminUsers).
    const email = `created-${Date.now().toString(36)}@e2e.test`
    await page.goto('/admin/add-subAdmin')
    await page.getByLabel('Name').fill('Carl Created')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('Create@Pass6')
    await page.getByLabel('User Type').click()
    await page.getByRole('option', { name: 'Admin', exact: true }).click()
    await page.getByRole('button', { name: 'Submit' }).click()
    const createCode = page.getByLabel('2FA Code')
    await expect(createCode).toBeFocused()
    await expect(page.locator('form [role="status"]')).toHaveClass(/emerald/)
    await expect(page).toHaveURL(/\/admin\/add-subAdmin$/)
    await createCode.fill(await freshCode(secret))
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page).toHaveURL(/\/admin\/sub-admin$/)
    await expect(page.getByRole('row').filter({ hasText: email })).toBeVisible()

    await openFromAccountMenu(page, 'Profile')
    await page.getByRole('button', { name: 'Disable 2FA' }).click()
    await page.getByLabel('2FA Code').fill(await freshCode(secret))
    await page.getByRole('button', { name: 'Disable', exact: true }).click()
    await expect(page.getByText(/^Off:/)).toBeVisible()
    await openFromAccountMenu(page, 'Logout')
    await loginForm(page, account)
    await expect(page).toHaveURL(/\/admin\/users$/)
  })
})
