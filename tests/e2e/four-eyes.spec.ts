/**
 * Four eyes on mass sends (issue 13, section 6), two Admins at once in two browsers, on a server
 * of its own whose threshold is 5 recipients: the requester is told before Submit that a second
 * Admin must approve, the promotion then waits in the list with the requester's name (and the
 * requester reads that it waits for another Admin, with no Approve of their own, and is refused
 * when they try anyway); the second Admin approves after a question naming the recipient count,
 * delivery runs, and the requester's open list shows it delivered without a reload.
 */
import { OWN_REQUEST } from '#contract/four-eyes'
import { PASSWORD, SEEDED_LEADS } from './accounts.ts'
import { test, expect, accounts, apiToken, signInPage, type Account } from './fixtures.ts'
import { ownServerWithMail } from './own-server.ts'

const THRESHOLD = 5
ownServerWithMail('four-eyes', () => ({ FOUR_EYES_THRESHOLD: String(THRESHOLD), JOB_POLL_MS: '100' }))

const requester: Account = { email: 'ada.admin@e2e.test', password: PASSWORD, name: 'Ada Admin', role: 'subadmin', accessLevel: 'Admin', restrictions: [] }

test('a promotion over the threshold waits for a second Admin, who approves it; then it is delivered', async ({ browser, page, request }) => {
  test.setTimeout(120_000)
  const created = await request.post('/api/admin/createSubAdminUsers', {
    headers: { authorization: `Bearer ${await apiToken(request, accounts.superadmin)}` },
    data: { name: requester.name, email: requester.email, password: requester.password, accessLevel: requester.accessLevel, restrictions: requester.restrictions },
  })
  expect(created.ok(), await created.text()).toBe(true)

  // Ada asks: select all, and the modal says a second Admin must approve before Submit.
  await signInPage(page, requester)
  await page.goto('/admin/addnotification')
  await page.getByRole('checkbox', { name: `Select all ${SEEDED_LEADS} users matching the filter` }).check()
  await page.getByRole('button', { name: 'Next' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Promotion' })
  await expect(dialog.getByText(`This promotion will be sent to ${SEEDED_LEADS} users.`)).toBeVisible()
  await expect(dialog.getByText(`This goes to ${SEEDED_LEADS} recipients, more than ${THRESHOLD}: a second Admin must approve it before it is sent.`)).toBeVisible()
  const title = `Four eyes ${Date.now().toString(36)}`
  await dialog.getByLabel('Title').fill(title)
  await dialog.getByLabel('Content').fill('For every user')
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await expect(page).toHaveURL(/\/admin\/notificationlist$/)

  const mine = page.getByRole('row').filter({ hasText: title })
  await expect(mine.getByText('Awaiting approval', { exact: true })).toBeVisible()
  await expect(mine.getByText('Requested by Ada Admin')).toBeVisible()
  await expect(mine.getByText('Waiting for another Admin to approve it')).toBeVisible()
  await expect(mine.getByText(`0 sent / 0 failed / ${SEEDED_LEADS} total`)).toBeVisible()
  await expect(mine.getByRole('button', { name: `Approve ${title}` })).toHaveCount(0)
  await expect(mine.getByRole('button', { name: `Reject ${title}` })).toHaveCount(0)

  // Ada trying to approve her own request anyway is refused, with the reason.
  const listed = await request.get('/api/admin/listNotification', { params: { search: title }, headers: { authorization: `Bearer ${await apiToken(request, requester)}` } })
  const id = String(((await listed.json()) as { result: { _id: string }[] }).result[0]?._id)
  const own = await request.post('/api/admin/approvePromotion', { headers: { authorization: `Bearer ${await apiToken(request, requester)}` }, data: { id, round: 1 } })
  expect(own.status()).toBe(403)
  expect(await own.json()).toMatchObject({ status: 'failed', message: OWN_REQUEST })

  // The superadmin, in a browser of their own, approves after a question naming the count.
  const other = await browser.newContext()
  try {
    const second = await other.newPage()
    await signInPage(second, accounts.superadmin)
    await second.goto(`/admin/notificationlist?search=${encodeURIComponent(title)}`)
    const row = second.getByRole('row').filter({ hasText: title })
    await expect(row.getByText('Awaiting approval', { exact: true })).toBeVisible()
    await expect(row.getByText('Requested by Ada Admin')).toBeVisible()
    await expect(row.getByText('Waiting for another Admin to approve it')).toHaveCount(0)
    await expect(row.getByRole('button', { name: `Reject ${title}` })).toBeVisible()
    await row.getByRole('button', { name: `Approve ${title}` }).click()
    const ask = second.getByRole('alertdialog', { name: `Approve sending this promotion to ${SEEDED_LEADS} recipients?` })
    await expect(ask).toContainText('Requested by Ada Admin.')
    await ask.getByRole('button', { name: 'Approve' }).click()
    await expect(row.getByText(`${SEEDED_LEADS} sent / 0 failed / ${SEEDED_LEADS} total`)).toBeVisible({ timeout: 30_000 })
    await expect(row.getByText('Done')).toBeVisible()
    await expect(row.getByText('Approved by Super Admin, requested by Ada Admin')).toBeVisible({ timeout: 20_000 })
    await expect(row.getByRole('button', { name: `Approve ${title}` })).toHaveCount(0)
  } finally {
    await other.close()
  }

  // Ada's list, open all along, shows the delivery without a reload.
  await expect(mine.getByText(`${SEEDED_LEADS} sent / 0 failed / ${SEEDED_LEADS} total`)).toBeVisible({ timeout: 30_000 })
  await expect(mine.getByText('Waiting for another Admin to approve it')).toHaveCount(0)
  await expect(mine.getByText('Approved by Super Admin, requested by Ada Admin')).toBeVisible({ timeout: 20_000 })
})
