/**
 * A scheduled send's time edited from its list ("Edit time"): a date and time in the browser's
 * time zone with its UTC time beside it, a time that has passed refused with the server's message,
 * by keyboard alone; View Only sees the time and no control. And offline, the send screens show
 * the last forecast with its age and refuse the send.
 */
import type { Page } from '@playwright/test'
import { createStaff, expect, signInPage, superadminHeaders, test, toast } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'
import { momentIn, uniqueTitle } from './send-time.ts'


/** A promotion scheduled `ms` ahead through Add Promotion; answers its title. */
async function schedulePromotion(page: Page, ms: number): Promise<{ title: string; utc: string }> {
  const title = uniqueTitle('Rescheduled drop')
  await page.goto('/admin/addnotification')
  await page.getByRole('list', { name: 'Users' }).getByRole('listitem').first().getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Next' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Promotion' })
  await dialog.getByLabel('Title').fill(title)
  await dialog.getByLabel('Content').fill('Moved around')
  const later = await momentIn(page, ms)
  await dialog.getByLabel('Send later').fill(later.local)
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await expect(page).toHaveURL(/\/admin\/notificationlist$/)
  return { title, utc: later.utc }
}

test('a scheduled promotion gets a new time from its row, a past time refused with the server’s message, by keyboard', async ({ adminPage: page }) => {
  const { title, utc } = await schedulePromotion(page, 2 * 24 * 3_600_000)
  await page.goto(`/admin/notificationlist?search=${encodeURIComponent(title)}`)
  const row = page.getByRole('row').filter({ hasText: title })
  await expect(row.getByText(utc, { exact: false })).toBeVisible()

  // By keyboard: focus the control, open it with Enter.
  const edit = row.getByRole('button', { name: `Edit time of ${title}` })
  await edit.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: `Edit the time of ${title}` })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByText(utc, { exact: false }).first()).toBeVisible()
  const field = dialog.getByLabel('New time')

  const past = await momentIn(page, -3_600_000)
  await field.fill(past.local)
  await expect(dialog.getByText(past.utc)).toBeVisible()
  await field.press('Enter')
  await expect(dialog.getByRole('alert')).toHaveText('This time has passed: choose a time in the future')
  await expect(field).toHaveAttribute('aria-invalid', 'true')

  const later = await momentIn(page, 5 * 24 * 3_600_000)
  await field.fill(later.local)
  await expect(dialog.getByText(later.utc)).toBeVisible()
  await expectNoSevereViolations(page)
  await field.press('Enter')
  await expect(dialog).toBeHidden()
  await expect(toast(page, `The promotion is now scheduled for ${later.utc}`)).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: title }).getByText(later.utc, { exact: false })).toBeVisible()
  // Focus comes back to the control that opened it.
  await expect(page.getByRole('row').filter({ hasText: title }).getByRole('button', { name: `Edit time of ${title}` })).toBeFocused()
})

test('a scheduled newsletter gets a new time; View Only sees the time and no control', async ({ adminPage: page, request }) => {
  const subject = uniqueTitle('Rescheduled news')
  const first = await momentIn(page, 3 * 24 * 3_600_000)
  const sent = await request.post('/api/admin/sendNewsletter', { headers: await superadminHeaders(request), data: { all: true, id: [], subject, content: '<p>Soon.</p>', sendAt: first.iso } })
  expect(sent.ok(), await sent.text()).toBe(true)

  await page.goto('/admin/newsletter')
  const row = page.getByRole('row').filter({ hasText: subject })
  await expect(row.getByText(first.utc, { exact: false })).toBeVisible()
  await row.getByRole('button', { name: `Edit time of ${subject}` }).click()
  const dialog = page.getByRole('dialog', { name: `Edit the time of ${subject}` })
  const later = await momentIn(page, 4 * 24 * 3_600_000)
  await dialog.getByLabel('New time').fill(later.local)
  await dialog.getByRole('button', { name: 'Save time' }).click()
  await expect(toast(page, later.utc)).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: subject }).getByText(later.utc, { exact: false })).toBeVisible()

  const reader = await createStaff(request, { name: 'Newsletter reader', screens: ['/newsletter'] })
  await signInPage(page, reader)
  await page.goto('/admin/newsletter')
  const seen = page.getByRole('row').filter({ hasText: subject })
  await expect(seen.getByText(later.utc, { exact: false })).toBeVisible()
  await expect(seen.getByRole('button', { name: /Edit time/ })).toHaveCount(0)
  // The server refuses it anyway.
  const refused = await page.request.post('/api/admin/rescheduleNewsletter', {
    headers: { authorization: (await page.evaluate(() => localStorage.getItem('admin_token'))) ?? '' },
    data: { id: 'any', sendAt: later.iso },
  })
  expect(refused.status()).toBe(403)
})

test('offline, Add Promotion shows the last forecast with its age and refuses the send', async ({ adminPage: page, context }) => {
  await page.clock.install()
  await page.goto('/admin/addnotification')
  await page.getByRole('list', { name: 'Users' }).getByRole('listitem').first().getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Next' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Promotion' })
  const forecast = dialog.getByTestId('send-forecast')
  await expect(forecast.locator('dd').first()).toHaveText('1')
  await dialog.getByLabel('Title').fill('Offline try')
  await dialog.getByLabel('Content').fill('Not sent')

  await context.setOffline(true)
  await page.clock.fastForward('05:00')
  await expect(forecast.getByRole('status')).toContainText('Offline: forecast as of 5 minutes ago')
  await expect(forecast.locator('dd').first()).toHaveText('1')
  await expect(dialog.getByText(/You are offline\. Changes need a connection/).first()).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Submit' })).toBeDisabled()
  await context.setOffline(false)
})

test('offline, Send Newsletter shows the last forecast with its age and refuses the send', async ({ adminPage: page, context }) => {
  await page.clock.install()
  await page.goto('/admin/newsletter')
  await page.getByRole('button', { name: 'Send Newsletter' }).click()
  const dialog = page.getByRole('dialog', { name: 'Send Newsletter' })
  await dialog.getByRole('button', { name: 'Subscribers' }).click()
  await page.getByRole('option', { name: /^All subscribers/ }).click()
  await page.keyboard.press('Escape')
  const forecast = dialog.getByTestId('send-forecast')
  await expect(forecast.locator('dd').first()).not.toHaveText('…')

  await context.setOffline(true)
  await page.clock.fastForward('05:00')
  await expect(forecast.getByRole('status')).toContainText('Offline: forecast as of 5 minutes ago')
  await expect(dialog.getByText(/You are offline\. Changes need a connection/).first()).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Send', exact: true })).toBeDisabled()
  await context.setOffline(false)
})
