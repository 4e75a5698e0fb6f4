/**
 * Access requests: /register asks for an account instead of creating one; the link mailed to the
 * address confirms it (read here from a real SMTP receiver, so this spec runs on a server of its
 * own); a superadmin then sees the request in Users and Access, approves it through Edit User (the
 * new user sets a password from the link then mailed to them, logs in and sees the pages chosen)
 * or declines it. The request carries no password: whoever typed an address never holds a secret
 * of the account.
 */
import type { APIRequestContext, Page } from '@playwright/test'
import { z } from 'zod'
import { PASSWORD } from './accounts.ts'
import { createStaff, uniqueEmail, test, expect, accounts, apiToken, signInPage, toast } from './fixtures.ts'
import { mailTo, ownServerWithMail, readable } from './own-server.ts'
import { expectNoSevereViolations } from './axe.ts'

const { mails } = ownServerWithMail('access-requests', (origin) => ({ PUBLIC_URL: origin }))

const REQUEST_RECEIVED = 'Your request has been received. Open the link we sent to your email to confirm it; an administrator reviews it after that.'
const REQUEST_CONFIRMED = 'Your email address is confirmed. An administrator will review your request; you can log in once it is approved.'
const ALREADY_CONFIRMED = 'This link has already been used: your email address is confirmed and your request is waiting for review.'
const PENDING = 'Pending access requests'

const Pending = z.object({ result: z.array(z.object({ _id: z.string(), email: z.string() })), count: z.number() })
const Answer = z.object({ status: z.string(), message: z.string(), errors: z.record(z.string(), z.string()).optional() })

async function asSuperadmin(request: APIRequestContext) {
  return { authorization: `Bearer ${await apiToken(request, accounts.superadmin)}` }
}

/** The pending requests whose name or email contains `search`, as the server lists them. */
async function pendingRequests(request: APIRequestContext, search = '') {
  const response = await request.get(`/api/admin/listAccessRequests?page=1&limit=100&search=${encodeURIComponent(search)}`, {
    headers: await asSuperadmin(request),
  })
  expect(response.ok(), await response.text()).toBe(true)
  return Pending.parse(await response.json())
}

/** The confirmation link of the newest mail to `address`, once it has come. */
const CONFIRM_LINK = /https?:\/\/[^\s"<>]*\/admin\/confirm-request\?token=[A-Za-z0-9_-]{43}/
async function mailedLink(address: string): Promise<string> {
  const mail = await mailTo(mails, address, { having: (text) => CONFIRM_LINK.test(text) })
  return CONFIRM_LINK.exec(readable(mail))?.[0] ?? ''
}

/** Sends an access request through the API, as the form does, and confirms it from its mail as the page's button does. */
async function requestAccess(request: APIRequestContext, name: string, email: string) {
  const response = await request.post('/api/admin/register', { data: { name, email } })
  expect(response.ok(), await response.text()).toBe(true)
  const token = new URL(await mailedLink(email)).searchParams.get('token') ?? ''
  const confirmed = await request.post('/api/admin/confirmAccessRequest', { data: { token } })
  expect(confirmed.ok(), await confirmed.text()).toBe(true)
  return Answer.parse(await response.json())
}

/** Login's answer for these credentials, status included. */
async function loginAnswer(request: APIRequestContext, email: string, password: string) {
  const response = await request.post('/api/admin/login', { data: { email, password, twoFACode: '' } })
  return { status: response.status(), body: Answer.parse(await response.json()) }
}

async function fillRequest(page: Page, values: { name: string; email: string }) {
  await page.getByLabel('Name').fill(values.name)
  await page.getByLabel('Email').fill(values.email)
}

/** The set-password link of the newest mail to `address` after the first `since` mails. */
const SET_PASSWORD_LINK = /https?:\/\/[^\s"<>]*\/admin\/set-password\?token=[A-Za-z0-9_-]{43}/
async function setPasswordLink(address: string, since = 0): Promise<string> {
  const mail = await mailTo(mails, address, { since, having: (text) => SET_PASSWORD_LINK.test(text) })
  return SET_PASSWORD_LINK.exec(readable(mail))?.[0] ?? ''
}

const pendingSection = (page: Page) => page.getByRole('region', { name: PENDING })

/** Declines every pending request, so the specs after this one find Users and Access as it was. */
async function declineAll(request: APIRequestContext) {
  const headers = await asSuperadmin(request)
  for (const pending of (await pendingRequests(request)).result) {
    const response = await request.post('/api/admin/declineAccessRequest', { headers, data: { id: pending._id } })
    expect(response.ok(), await response.text()).toBe(true)
  }
}

test.describe('Request access (/register)', () => {
  test('is linked from Login, checks its fields, and ends on what happens next', async ({ page }) => {
    await page.goto('/admin/login')
    await page.getByRole('link', { name: 'Request access' }).click()
    await expect(page).toHaveURL(/\/admin\/register$/)
    await expect(page.getByRole('heading', { name: 'Request access', level: 1 })).toBeVisible()
    await expect(page.getByText('You confirm your email address from a link we send')).toBeVisible()

    await page.getByRole('button', { name: 'Submit' }).click()
    for (const message of ['Name is required', 'Email is required']) {
      await expect(page.getByText(message, { exact: true })).toBeVisible()
    }
    // No password is asked for: it is set after approval, from a link mailed to the address.
    await expect(page.getByLabel('Password')).toHaveCount(0)
    const email = uniqueEmail('newcomer')
    await fillRequest(page, { name: 'Nora Newcomer', email: 'not-an-email' })
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Incorrect format', { exact: true })).toHaveCount(1)
    await fillRequest(page, { name: 'Nora Newcomer', email })
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(toast(page, REQUEST_RECEIVED)).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Request sent' })).toBeFocused()
    await expect(page.getByText('Open the link we mailed to your address to confirm that it is yours.')).toBeVisible()
    await expect(page.getByText('Once it is approved, we mail you a link to set your password. The link works for 72 hours; then you can log in with this email.')).toBeVisible()
    // Not yet confirmed: nobody on the staff sees it.
    expect((await pendingRequests(page.request, email)).count).toBe(0)

    await page.getByRole('link', { name: 'Back to Login' }).click()
    await expect(page).toHaveURL(/\/admin\/login$/)

    // The mailed link opens a page that asks; only its button confirms (mail scanners follow links).
    const link = await mailedLink(email)
    await page.goto(link)
    await expect(page.getByRole('heading', { name: 'Confirm your email address', level: 1 })).toBeVisible()
    // Before its button, the page names the request: its name, address and time.
    const asked = page.getByRole('definition')
    await expect(asked.filter({ hasText: 'Nora Newcomer' })).toBeVisible()
    await expect(asked.filter({ hasText: email })).toBeVisible()
    await expect(asked.locator('time')).toBeVisible()
    expect((await pendingRequests(page.request, email)).count).toBe(0)
    await expectNoSevereViolations(page)
    await page.getByRole('button', { name: 'Confirm my email address' }).click()
    await expect(page.getByRole('status').filter({ hasText: REQUEST_CONFIRMED })).toBeVisible()
    expect((await pendingRequests(page.request, email)).count).toBe(1)
    // Once used, the link says so and changes nothing.
    await page.goto(link)
    await expect(page.getByRole('alert').filter({ hasText: ALREADY_CONFIRMED })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Confirm my email address' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Back to Login' }).click()
    await expect(page).toHaveURL(/\/admin\/login$/)
  })

  test('a link altered or replaced by a newer request says it is not valid', async ({ page }) => {
    const email = uniqueEmail('replaced')
    const register = () => page.request.post('/api/admin/register', { data: { name: 'Rhea Replaced', email } })
    expect((await register()).ok()).toBe(true)
    const first = await mailedLink(email)
    const mailsBefore = mails.length
    expect((await register()).ok()).toBe(true)
    await expect.poll(() => mails.length).toBeGreaterThan(mailsBefore)
    await page.goto(first)
    await expect(page.getByRole('alert').filter({ hasText: 'This confirmation link is not valid.' })).toBeVisible()
    expect((await pendingRequests(page.request, email)).count).toBe(0)
  })

  test("answers the same for an admin's email, and stores nothing for it", async ({ page }) => {
    await page.goto('/admin/register')
    await fillRequest(page, { name: 'Vera Again', email: accounts.viewOnly.email })
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(toast(page, REQUEST_RECEIVED)).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Request sent' })).toBeVisible()
    expect((await pendingRequests(page.request, accounts.viewOnly.email)).count).toBe(0)
    // The admin keeps their own password.
    expect((await loginAnswer(page.request, accounts.viewOnly.email, accounts.viewOnly.password)).body.status).toBe('success')
  })

  test('a pending request logs in nowhere: refused exactly like a wrong password', async ({ page }) => {
    const email = uniqueEmail('waiting')
    expect((await requestAccess(page.request, 'Walt Waiting', email)).message).toBe(REQUEST_RECEIVED)
    const refused = await loginAnswer(page.request, email, PASSWORD)
    const wrong = await loginAnswer(page.request, uniqueEmail('nobody'), PASSWORD)
    expect(refused.body.status).toBe('failed')
    expect(refused).toEqual(wrong)

    await page.goto('/admin/login')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Login' }).click()
    await expect(page.getByRole('alert').filter({ hasText: refused.body.message })).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/login$/)
  })

  test('has no serious or critical accessibility violation, with errors shown and once sent', async ({ page }) => {
    await page.goto('/admin/register')
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Name is required')).toBeVisible()
    await expectNoSevereViolations(page)
    await fillRequest(page, { name: 'Axel Axe', email: uniqueEmail('axe') })
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByRole('heading', { name: 'Request sent' })).toBeVisible()
    await expectNoSevereViolations(page)
  })
})

test.describe('Pending access requests in Users and Access', () => {
  test('are approved through Edit User; the new user sets a password from the mailed link and sees the chosen page only', async ({ adminPage: page, browser }) => {
    const email = uniqueEmail('approved')
    const name = 'April Approved'
    await requestAccess(page.request, name, email)

    await page.goto('/admin/sub-admin')
    // A notice above the staff list leads to the section below it.
    await expect(page.getByText(/access requests? (is|are) waiting for review\./)).toBeVisible()
    await page.getByRole('button', { name: 'Review requests' }).click()
    const section = pendingSection(page)
    await expect(section.getByRole('heading', { name: PENDING })).toBeFocused()
    const row = section.getByRole('row').filter({ hasText: email })
    await expect(row.getByRole('cell', { name: `${name} Pending`, exact: true })).toBeVisible()
    await expect(row.getByText('Pending', { exact: true })).toBeVisible()
    // Requested At and Email Confirmed At.
    await expect(row.getByRole('cell').filter({ has: page.locator('time') })).toHaveCount(2)
    await expectNoSevereViolations(page)

    await row.getByRole('button', { name: `Approve ${name}` }).click()
    await expect(page).toHaveURL(/\/admin\/edit-subAdmin\?request=/)
    await expect(page.getByRole('heading', { name: 'Edit User' })).toBeVisible()
    await expect(page.getByLabel('Name')).toHaveValue(name)
    await expect(page.getByRole('region', { name: 'Access request' }).getByText(email)).toBeVisible()
    await expect(page.getByRole('region', { name: 'Access request' }).getByText('Email Confirmed At')).toBeVisible()
    await page.getByRole('button', { name: 'Approve' }).click()
    await expect(page.getByText('AccessLevel is required', { exact: true })).toBeVisible()
    await page.getByLabel('User Type').click()
    await page.getByRole('option', { name: 'View Only', exact: true }).click()
    await page.getByRole('button', { name: 'Approve' }).click()
    await expect(page.getByText('Restrictions is required', { exact: true })).toBeVisible()
    await page.getByLabel('Access', { exact: true }).click()
    await page.getByRole('menuitemcheckbox', { name: 'Category List', exact: true }).click()
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Approve' }).click()

    await expect(toast(page, 'Access request approved successfully')).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/sub-admin$/)
    await expect(page.getByRole('heading', { name: 'Users and Access' })).toBeVisible()
    await expect(pendingSection(page).getByRole('row').filter({ hasText: email })).toHaveCount(0)
    expect((await pendingRequests(page.request, email)).count).toBe(0)
    await page.goto(`/admin/sub-admin?search=${encodeURIComponent(email)}`)
    const staffRow = page.getByRole('row').filter({ hasText: email })
    await expect(staffRow.getByRole('cell', { name: 'View Only', exact: true })).toBeVisible()
    await expect(staffRow.getByRole('cell', { name: 'Category List, Profile, Reset Password', exact: true })).toBeVisible()
    await expect(staffRow.getByRole('switch', { name: `Active ${name}` })).toBeChecked()
    // No password yet: refused like a wrong one.
    const wrong = await loginAnswer(page.request, uniqueEmail('nobody'), PASSWORD)
    expect(await loginAnswer(page.request, email, PASSWORD)).toEqual(wrong)

    // A staff manager can send the link again; the newer one replaces the first.
    const first = await setPasswordLink(email)
    const before = mails.length
    await staffRow.getByRole('button', { name: 'Send password link' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Send password link' }).click()
    await expect(toast(page, 'Password link sent successfully')).toBeVisible()
    const link = await setPasswordLink(email, before)
    expect(link).not.toBe(first)

    // The new user sets a password from the mailed link, logs in and sees that one page.
    const context = await browser.newContext()
    const theirs = await context.newPage()
    try {
      await theirs.goto(first)
      await theirs.getByLabel('New Password').fill(PASSWORD)
      await theirs.getByLabel('Confirm Password').fill(PASSWORD)
      await theirs.getByRole('button', { name: 'Set Password' }).click()
      await expect(theirs.getByRole('alert').filter({ hasText: 'This link is not valid.' })).toBeVisible()
      await theirs.goto(link)
      await expect(theirs.getByRole('heading', { name: 'Set your password', level: 1 })).toBeVisible()
      await theirs.getByRole('button', { name: 'Set Password' }).click()
      await expect(theirs.getByText('New password is required', { exact: true })).toBeVisible()
      await theirs.getByLabel('New Password').fill('short')
      await theirs.getByLabel('Confirm Password').fill('short')
      await theirs.getByRole('button', { name: 'Set Password' }).click()
      await expect(theirs.getByText('Incorrect format', { exact: true })).toBeVisible()
      await theirs.getByLabel('New Password').fill(PASSWORD)
      await theirs.getByLabel('Confirm Password').fill(PASSWORD)
      await expectNoSevereViolations(theirs)
      await theirs.getByRole('button', { name: 'Set Password' }).click()
      await expect(theirs.getByRole('status').filter({ hasText: 'Your password is set. You can log in now.' })).toBeVisible()
      await theirs.getByRole('link', { name: 'Back to Login' }).click()
      await expect(theirs).toHaveURL(/\/admin\/login$/)
      await theirs.getByLabel('Email').fill(email)
      await theirs.getByLabel('Password').fill(PASSWORD)
      await theirs.getByRole('button', { name: 'Login' }).click()
      await expect(theirs).toHaveURL(/\/admin\/category$/)
      const menu = theirs.getByRole('navigation', { name: 'Main' })
      await expect(menu.getByRole('link')).toHaveText(['Dashboard', 'Category List'])
      await theirs.goto('/admin/users')
      await expect(theirs).toHaveURL(/\/admin\/category$/)
    } finally {
      await context.close()
    }
  })

  test('open by link without the list still finds the request; a request already gone says so', async ({ adminPage: page }) => {
    const email = uniqueEmail('linked')
    await requestAccess(page.request, 'Lina Linked', email)
    const [request] = (await pendingRequests(page.request, email)).result
    if (!request) throw new Error('the request was not stored')
    await page.goto(`/admin/edit-subAdmin?request=${encodeURIComponent(request._id)}`)
    await expect(page.getByLabel('Name')).toHaveValue('Lina Linked')
    await expect(page.getByRole('region', { name: 'Access request' }).getByText(email)).toBeVisible()

    await page.goto('/admin/edit-subAdmin?request=00000000-0000-0000-0000-000000000000')
    await expect(page.getByText('This access request was not found. It may have been approved or declined already.')).toBeVisible()
  })

  test('a declined request disappears; with none left the section is gone', async ({ adminPage: page }) => {
    const email = uniqueEmail('declined')
    await requestAccess(page.request, 'Dora Declined', email)
    await page.goto('/admin/sub-admin')
    // The menu counts the pending requests, as the server lists them.
    const entry = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Users and Access/ })
    const pending = (await pendingRequests(page.request)).count
    await expect(entry).toHaveAccessibleName(`Users and Access ${pending} pending access request${pending === 1 ? '' : 's'}`)
    const row = pendingSection(page).getByRole('row').filter({ hasText: email })
    await row.getByRole('button', { name: 'Decline Dora Declined' }).click()
    const dialog = page.getByRole('alertdialog', { name: 'Are you sure you want to decline this access request?' })
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(row).toBeVisible()
    await row.getByRole('button', { name: 'Decline Dora Declined' }).click()
    await dialog.getByRole('button', { name: 'Yes, decline' }).click()
    await expect(toast(page, 'Access request declined successfully')).toBeVisible()
    await expect(row).toHaveCount(0)
    expect((await pendingRequests(page.request, email)).count).toBe(0)

    await expect(entry).toHaveAccessibleName(pending === 1 ? 'Users and Access' : `Users and Access ${pending - 1} pending access request${pending === 2 ? '' : 's'}`)

    // Decline whatever else is pending (as another session would): the count goes without a
    // reload; with none, there is no section at all.
    await declineAll(page.request)
    await expect(entry).toHaveAccessibleName('Users and Access')
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Users and Access' })).toBeVisible()
    await expect(page.getByRole('table', { name: 'Users and Access' }).getByRole('row').nth(1)).toBeVisible()
    await expect(page.getByRole('heading', { name: PENDING })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Review requests' })).toHaveCount(0)
  })

  test('are not shown, nor asked for, to staff who do not manage staff', async ({ page }) => {
    await requestAccess(page.request, 'Pia Pending', uniqueEmail('hidden'))
    const viewer = await createStaff(page.request, { name: 'Staff viewer', screens: ['/sub-admin'] })
    await signInPage(page, viewer)
    const asked: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/admin/listAccessRequests')) asked.push(r.url())
    })
    await page.goto('/admin/sub-admin')
    await expect(page.getByRole('table', { name: 'Users and Access' }).getByRole('row').nth(1)).toBeVisible()
    await expect(page.getByRole('heading', { name: PENDING })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Review requests' })).toHaveCount(0)
    expect(asked).toEqual([])
    // Nor counted: their menu entry shows no number.
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Users and Access/ })).toHaveText('Users and Access')
  })
})
