/**
 * "Send later" (ours): a promotion and a newsletter scheduled from their forms with a date and time
 * in the browser's time zone (the UTC time shown beside it), a time that has passed refused under
 * the field, the list showing Scheduled with the time, and Cancel before it starts.
 */
import { test, expect } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'
import { momentIn, uniqueTitle } from './send-time.ts'


test('a promotion scheduled for later is listed as Scheduled with its time, and cancelled before it starts', async ({ adminPage: page }) => {
  const title = uniqueTitle('Weekend drop')
  await page.goto('/admin/addnotification')
  await page.getByRole('list', { name: 'Users' }).getByRole('listitem').first().getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Next' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Promotion' })
  await dialog.getByLabel('Title').fill(title)
  await dialog.getByLabel('Content').fill('Fresh games on Saturday')

  // A time that has passed is refused under the field, and nothing is stored.
  const past = await momentIn(page, -3_600_000)
  await dialog.getByLabel('Send later').fill(past.local)
  await expect(dialog.getByText(past.utc)).toBeVisible()
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await expect(dialog.getByText('This time has passed: choose a time in the future')).toBeVisible()

  const later = await momentIn(page, 2 * 24 * 3_600_000)
  await dialog.getByLabel('Send later').fill(later.local)
  await expect(dialog.getByText(later.utc)).toBeVisible()
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await expect(page).toHaveURL(/\/admin\/notificationlist$/)
  await expect(page.getByText(`Promotion scheduled for ${later.utc}`)).toBeVisible()

  await page.goto(`/admin/notificationlist?search=${encodeURIComponent(title)}`)
  const row = page.getByRole('row').filter({ hasText: title })
  await expect(row).toHaveCount(1)
  await expect(row.getByText('Scheduled', { exact: true })).toBeVisible()
  await expect(row.getByText(later.utc, { exact: false })).toBeVisible()
  await expect(row.getByRole('button', { name: `Resend ${title}` })).toHaveCount(0)
  await expectNoSevereViolations(page)

  await row.getByRole('button', { name: `Cancel ${title}` }).click()
  const stop = page.getByRole('alertdialog', { name: 'Are you sure you want to stop sending this promotion' })
  await expect(stop.getByText('It is scheduled and nothing has been sent; it will not be sent.')).toBeVisible()
  await stop.getByRole('button', { name: 'Stop sending' }).click()
  await expect(page.getByText('Scheduled promotion cancelled: nothing was sent')).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: title }).getByText('Cancelled before its time: nothing was sent')).toBeVisible()
})

test('a newsletter scheduled for later is confirmed with its time and listed as Scheduled', async ({ adminPage: page }) => {
  const subject = uniqueTitle('Monthly news')
  await page.goto('/admin/newsletter')
  await page.getByRole('button', { name: 'Send Newsletter' }).click()
  const dialog = page.getByRole('dialog', { name: 'Send Newsletter' })
  await dialog.getByRole('button', { name: 'Subscribers' }).click()
  await page.getByRole('option', { name: /^All subscribers/ }).click()
  await page.keyboard.press('Escape')
  await dialog.getByLabel('Subject').fill(subject)
  await dialog.getByRole('textbox', { name: 'Content' }).click()
  await page.keyboard.type('Coming next week.')
  const later = await momentIn(page, 3 * 24 * 3_600_000)
  await dialog.getByLabel('Send later').fill(later.local)
  await dialog.getByRole('button', { name: 'Send', exact: true }).click()
  const confirm = page.getByRole('alertdialog', { name: new RegExp(`^Schedule this newsletter for ${later.utc}\\?`) })
  await expect(confirm).toBeVisible()
  await confirm.getByRole('button', { name: 'Schedule' }).click()
  await expect(page.getByText(`The newsletter is scheduled for ${later.utc}`)).toBeVisible()
  const row = page.getByRole('row').filter({ hasText: subject })
  await expect(row.getByText('Scheduled', { exact: true })).toBeVisible()
  await expect(row.getByText(later.utc, { exact: false })).toBeVisible()
  await row.getByRole('button', { name: `Cancel ${subject}` }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Stop sending' }).click()
  await expect(page.getByRole('row').filter({ hasText: subject }).getByText('Cancelled before its time: nothing was sent')).toBeVisible()
})
