/**
 * The Newsletter screen end to end: an Admin chooses subscribers in the server-searched
 * multi-select, writes a subject and a rich-text body and sends; the mail is read from a real SMTP
 * receiver, with its List-Unsubscribe headers; its unsubscribe link is followed in the browser
 * (a public page, no session) and confirmed; the next send leaves that lead out.
 *
 * Mail is read from an SMTP receiver started here, so these tests run against a server of their
 * own (the same script as the shared one, on its own port, data folder and SMTP_URL), as the
 * account screens' tests do; the other specs' server and data stay as they were.
 */
import type { Page } from '@playwright/test'
import { SUBSCRIBED_LEADS, accounts, leadEmail } from './accounts.ts'
import { createStaff, test, expect, signInPage } from './fixtures.ts'
import { header, mailTo, ownServerWithMail, readable } from './own-server.ts'
import { expectNoSevereViolations } from './axe.ts'

// The links in the mails lead back to this server, as the browser reaches it; the queue looks often.
const { origin, mails } = ownServerWithMail('newsletter', (at) => ({ PUBLIC_URL: at, JOB_POLL_MS: '100' }))

async function chooseSubscriber(page: Page, search: string, option: string): Promise<void> {
  await page.getByPlaceholder('Search by name or email…').fill(search)
  await page.getByRole('option', { name: option }).click()
}

test('sends a newsletter from the screen; the mail arrives, and its unsubscribe link works in the browser', async ({ page }) => {
  await signInPage(page, accounts.superadmin)
  await page.goto('/admin/newsletter')
  await expect(page.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeVisible()
  await expect(page.getByText('No Record Found')).toBeVisible()

  await page.getByRole('button', { name: 'Send Newsletter' }).click()
  const dialog = page.getByRole('dialog', { name: 'Send Newsletter' })
  await dialog.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(dialog.getByText('Please select at least one subscriber')).toBeVisible()
  await expect(dialog.getByText('Subject is required')).toBeVisible()
  await expect(dialog.getByText('Content is required')).toBeVisible()

  // The server-searched multi-select: All is one choice; a search finds a subscriber by email.
  await dialog.getByRole('button', { name: 'Subscribers' }).click()
  await expect(page.getByRole('option', { name: `All subscribers (${SUBSCRIBED_LEADS})` })).toBeVisible()
  await expect(page.getByRole('option', { name: /lead007/ })).toHaveCount(0)
  await chooseSubscriber(page, 'lead002', `Lead 002 (${leadEmail(2)})`)
  await chooseSubscriber(page, 'LEAD 005', `Lead 005 (${leadEmail(5)})`)
  await page.keyboard.press('Escape')
  const chips = dialog.getByRole('list', { name: 'Selected subscribers' })
  await expect(chips.getByRole('listitem')).toHaveCount(2)
  await expect(dialog.getByRole('button', { name: 'Subscribers' })).toHaveText('2 selected')
  await expect(dialog.getByText('Please select at least one subscriber')).toHaveCount(0)

  await dialog.getByLabel('Subject').fill('Spring news for {{name}}')
  const editor = dialog.getByRole('textbox', { name: 'Content' })
  await editor.click()
  await page.keyboard.type('Three new games this week.')
  await expect(dialog.getByText('Content is required')).toHaveCount(0)

  await dialog.getByRole('button', { name: 'Send', exact: true }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Send this newsletter to 2 subscribers?' })
  await expect(confirm).toBeVisible()
  await expect(confirm).toContainText('About 10 mails per second')
  await confirm.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByText('The newsletter is on its way to 2 subscribers')).toBeVisible()
  await expect(dialog).toHaveCount(0)

  // The list shows the send, its progress moving to Done while the page is open.
  const row = page.getByRole('row').filter({ hasText: 'Spring news for {{name}}' })
  await expect(row).toContainText('2 sent / 0 failed / 2 total', { timeout: 20_000 })
  await expect(row).toContainText('Done')
  await expectNoSevereViolations(page)

  // The mail, as the SMTP receiver got it.
  const mail = await mailTo(mails, leadEmail(2))
  expect(header(mail, 'Subject')).toBe('Spring news for Lead 002')
  expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click')
  const listed = /^<([^>]+)>, <mailto:[^>]+>$/.exec(header(mail, 'List-Unsubscribe'))?.[1] ?? ''
  expect(listed.startsWith(`${origin}/admin/unsubscribe?token=`)).toBe(true)
  const body = readable(mail)
  expect(body).toContain('Three new games this week.')
  const link = /<a href="([^"]+)"[^>]*>Unsubscribe<\/a>/.exec(body)?.[1]?.replace(/&amp;/g, '&') ?? ''
  expect(link).toBe(listed)
  expect(mails.flatMap((m) => m.to).sort()).toEqual([leadEmail(2), leadEmail(5)])

  // The link, in a browser with no session: it asks first, and only the button unsubscribes.
  const reader = await page.context().browser()?.newPage()
  if (reader === undefined) throw new Error('no browser')
  await reader.goto(link)
  await expect(reader.getByRole('heading', { name: 'Unsubscribe from the newsletter' })).toBeVisible()
  await expect(reader.getByText('le***@e2e.test')).toBeVisible()
  await reader.getByRole('button', { name: 'Unsubscribe' }).click()
  await expect(reader.getByText('You have been unsubscribed from the newsletter.')).toBeVisible()
  await reader.reload()
  await expect(reader.getByText('is not subscribed to the newsletter')).toBeVisible()
  // A link altered on its way: a clear message, nothing changed.
  await reader.goto(link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))
  await expect(reader.getByRole('main').getByRole('alert')).toHaveText('This unsubscribe link is not valid. Please use the link from the newsletter mail exactly as it is.')
  await reader.close()

  // The next newsletter to everyone leaves lead002 out.
  await page.getByRole('button', { name: 'Send Newsletter' }).click()
  await dialog.getByRole('button', { name: 'Subscribers' }).click()
  await page.getByRole('option', { name: `All subscribers (${SUBSCRIBED_LEADS - 1})` }).click()
  await page.keyboard.press('Escape')
  await expect(dialog.getByRole('list', { name: 'Selected subscribers' })).toHaveText(/All subscribers \(5\)/)
  await dialog.getByLabel('Subject').fill('Summer news')
  await dialog.getByRole('textbox', { name: 'Content' }).click()
  await page.keyboard.type('Lower swap fees.')
  await dialog.getByRole('button', { name: 'Send', exact: true }).click()
  await page.getByRole('alertdialog', { name: 'Send this newsletter to 5 subscribers?' }).getByRole('button', { name: 'Send' }).click()
  const summer = page.getByRole('row').filter({ hasText: 'Summer news' })
  await expect(summer).toContainText('5 sent / 0 failed / 5 total', { timeout: 20_000 })
  const summerTo = mails.filter((m) => readable(m).includes('Lower swap fees.')).flatMap((m) => m.to)
  expect(summerTo.sort()).toEqual([1, 3, 4, 5, 6].map(leadEmail))
})

test('View Only sees the sends, without Send Newsletter, Pause or Cancel', async ({ page }) => {
  // A View Only account of this server's own, allowed the Newsletter screen.
  await signInPage(page, await createStaff(page.request, { name: 'Nina Newsletter', screens: ['/newsletter'] }))
  await page.goto('/admin/newsletter')
  await expect(page.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: 'Spring news for {{name}}' })).toContainText('Done')
  await expect(page.getByRole('button', { name: 'Send Newsletter' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^(Pause|Resume|Cancel)/ })).toHaveCount(0)
})

test('Send a test to me mails the newsletter as a chosen subscriber would read it, to the admin only', async ({ page }) => {
  await signInPage(page, accounts.superadmin)
  await page.goto('/admin/newsletter')
  await page.getByRole('button', { name: 'Send Newsletter' }).click()
  const dialog = page.getByRole('dialog', { name: 'Send Newsletter' })
  // The form's own rules first: nothing goes out without a subject.
  await dialog.getByRole('button', { name: 'Send a test to me' }).click()
  await expect(dialog.getByText('Subject is required')).toBeVisible()

  await dialog.getByRole('button', { name: 'Subscribers' }).click()
  await chooseSubscriber(page, 'lead003', `Lead 003 (${leadEmail(3)})`)
  await page.keyboard.press('Escape')
  await dialog.getByLabel('Subject').fill('Autumn news for {{name}}')
  await dialog.getByRole('textbox', { name: 'Content' }).click()
  await page.keyboard.type('A test of the autumn issue.')
  const since = mails.length
  await dialog.getByRole('button', { name: 'Send a test to me' }).click()
  await expect(page.getByRole('status').filter({ hasText: `Test mail sent to ${accounts.superadmin.email}, as Lead 003 would receive it` })).toBeVisible()
  // The dialog stays open, as written: the test is not the send.
  await expect(dialog.getByLabel('Subject')).toHaveValue('Autumn news for {{name}}')
  await expectNoSevereViolations(page)

  const mail = await mailTo(mails, accounts.superadmin.email, { since })
  expect(header(mail, 'Subject')).toBe('[Test] Autumn news for Lead 003')
  expect(readable(mail)).toContain('A test of the autumn issue.')
  expect(mails.slice(since).flatMap((m) => m.to)).toEqual([accounts.superadmin.email])
})
