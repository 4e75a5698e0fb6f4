/**
 * Four eyes on mass sends, two Admins at once in two browsers, on a server
 * of its own whose threshold is 5 recipients: the requester is told before Submit (or Send) that a
 * second Admin must approve, the send then waits in the list with the requester's name (and the
 * requester reads that it waits for another Admin, with no Approve of their own, and is refused
 * when they try anyway); the second Admin approves after a question naming the recipient count,
 * delivery runs, and the requester's open list shows it delivered without a reload. The second
 * Admin's open list shows a new request without a reload, with a toast leading to it, and the
 * audit log names both.
 */
import { OWN_REQUEST } from '#contract/four-eyes'
import { SEEDED_LEADS, SUBSCRIBED_LEADS } from './accounts.ts'
import { createStaff, test, expect, accounts, apiToken, signInPage, socketJoined } from './fixtures.ts'
import { ownServerWithMail } from './own-server.ts'

const THRESHOLD = 5
const { mails } = ownServerWithMail('four-eyes', () => ({ FOUR_EYES_THRESHOLD: String(THRESHOLD), JOB_POLL_MS: '100' }))

test('a promotion over the threshold waits for a second Admin, who approves it; then it is delivered', async ({ browser, page, request }) => {
  test.setTimeout(120_000)
  const requester = await createStaff(request, { name: 'Ada Admin', screens: [], accessLevel: 'Admin' })

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

test("a newsletter over the threshold waits; the second Admin's open list shows it without a reload, they approve it, and the audit log names both", async ({ browser, page, request }) => {
  test.setTimeout(120_000)
  const newsletterRequester = await createStaff(request, { name: 'Nora News', screens: [], accessLevel: 'Admin' })
  const subject = `Four eyes news ${Date.now().toString(36)}`
  const mine = page.getByRole('row').filter({ hasText: subject })

  // The superadmin has the Newsletter screen open, with nothing on it waiting or sending (so it polls nothing).
  const other = await browser.newContext()
  try {
    const second = await other.newPage()
    const joined = socketJoined(second)
    await signInPage(second, accounts.superadmin)
    await second.goto('/admin/newsletter')
    await expect(second.getByRole('heading', { level: 1, name: 'Newsletter' })).toBeVisible()
    await joined
    await expect(second.getByRole('row').filter({ hasText: subject })).toHaveCount(0)

    // Nora sends to every subscriber: the question says a second Admin must approve first.
    await signInPage(page, newsletterRequester)
    await page.goto('/admin/newsletter')
    await page.getByRole('button', { name: 'Send Newsletter' }).click()
    const dialog = page.getByRole('dialog', { name: 'Send Newsletter' })
    await dialog.getByRole('button', { name: 'Subscribers' }).click()
    await page.getByRole('option', { name: `All subscribers (${SUBSCRIBED_LEADS})` }).click()
    await page.keyboard.press('Escape')
    await dialog.getByLabel('Subject').fill(subject)
    await dialog.getByRole('textbox', { name: 'Content' }).click()
    await page.keyboard.type('News for every subscriber.')
    await dialog.getByRole('button', { name: 'Send', exact: true }).click()
    const confirm = page.getByRole('alertdialog', { name: `Send this newsletter to ${SUBSCRIBED_LEADS} subscribers?` })
    await expect(confirm).toContainText(`This goes to ${SUBSCRIBED_LEADS} recipients, more than ${THRESHOLD}: a second Admin must approve it before it is sent.`)
    await confirm.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByText(`The newsletter to ${SUBSCRIBED_LEADS} subscribers waits for another Admin's approval`)).toBeVisible()

    // The superadmin's list, open all along, shows the request without a reload, and a toast says
    // it waits (for a few seconds: looked at first).
    const row = second.getByRole('row').filter({ hasText: subject })
    await expect(row.getByText('Awaiting approval', { exact: true })).toBeVisible({ timeout: 5000 })
    await expect(row.getByText('Requested by Nora News')).toBeVisible()
    const told = second.getByRole('status').filter({ hasText: `A newsletter waits for your approval: “${subject}” to ${SUBSCRIBED_LEADS} recipients, requested by Nora News` })
    await expect(told).toBeVisible()
    // Its Open leads to the send on its screen; the toast goes.
    await told.getByRole('button', { name: 'Open' }).click()
    await expect(second).toHaveURL(new RegExp(`/admin/newsletter\\?(.*&)?search=${encodeURIComponent(subject)}(&|$)`))
    await expect(told).toHaveCount(0)
    await expect(second.getByRole('row').filter({ hasText: 'Four eyes news' })).toHaveCount(1)

    // Nora's row waits, names her, and offers her no Approve or Reject.
    await expect(mine.getByText('Awaiting approval', { exact: true })).toBeVisible()
    await expect(mine.getByText('Requested by Nora News')).toBeVisible()
    await expect(mine.getByText('Waiting for another Admin to approve it')).toBeVisible()
    await expect(mine.getByRole('button', { name: `Approve ${subject}` })).toHaveCount(0)
    await expect(mine.getByRole('button', { name: `Reject ${subject}` })).toHaveCount(0)
    // Nor is she told of her own request.
    await expect(page.getByRole('status').filter({ hasText: 'waits for your approval' })).toHaveCount(0)
    // Her approval through the API anyway is refused, with the reason; nothing is mailed.
    const auth = { authorization: `Bearer ${await apiToken(request, newsletterRequester)}` }
    const listed = await request.get('/api/admin/listNewsletterSends', { params: { search: subject }, headers: auth })
    const id = String(((await listed.json()) as { result: { _id: string }[] }).result[0]?._id)
    const own = await request.post('/api/admin/approveNewsletter', { headers: auth, data: { id } })
    expect(own.status()).toBe(403)
    expect(await own.json()).toMatchObject({ status: 'failed', message: OWN_REQUEST })
    expect(mails.filter((m) => m.raw.includes(subject))).toEqual([])

    // Before deciding, the approver reads the mail exactly as it will go out (template and body as requested).
    await row.getByRole('button', { name: `View ${subject}` }).click()
    const view = second.getByRole('dialog', { name: 'Newsletter' })
    const shown = view.frameLocator(`iframe[title="The mail: ${subject}"]`)
    await expect(shown.getByText('News for every subscriber.')).toBeVisible()
    await expect(shown.getByText('Hello Olivia Okafor,')).toBeVisible()
    await second.keyboard.press('Escape')
    await expect(view).toBeHidden()

    await row.getByRole('button', { name: `Approve ${subject}` }).click()
    const ask = second.getByRole('alertdialog', { name: `Approve sending this newsletter to ${SUBSCRIBED_LEADS} recipients?` })
    await expect(ask).toContainText('Requested by Nora News.')
    await ask.getByRole('button', { name: 'Approve' }).click()
    await expect(row.getByText(`${SUBSCRIBED_LEADS} sent / 0 failed / ${SUBSCRIBED_LEADS} total`)).toBeVisible({ timeout: 30_000 })
    await expect(row.getByText('Approved by Super Admin, requested by Nora News')).toBeVisible()
    await expect(row.getByRole('button', { name: `Approve ${subject}` })).toHaveCount(0)
    await expect.poll(() => mails.filter((m) => m.raw.includes(subject)).length, { timeout: 20_000 }).toBe(SUBSCRIBED_LEADS)

    // The audit log: the send is Nora's, the approval the superadmin's, naming Nora.
    await second.goto(`/admin/audit?search=${id}`)
    const asked = second.getByRole('row').filter({ hasText: 'Newsletter sent' })
    await expect(asked).toContainText(`Nora News (${newsletterRequester.email})`)
    const approved = second.getByRole('row').filter({ hasText: 'Newsletter approved' })
    await expect(approved).toContainText(`Super Admin (${accounts.superadmin.email})`)
    await approved.getByRole('button', { name: /^View / }).click()
    await expect(second.getByRole('dialog', { name: 'Audit Entry' })).toContainText(
      `Approved the send to ${SUBSCRIBED_LEADS} recipients requested by Nora News (${newsletterRequester.email})`,
    )
  } finally {
    await other.close()
  }

  // Nora's list, open all along, shows the send done and who approved it.
  await expect(mine.getByText(`${SUBSCRIBED_LEADS} sent / 0 failed / ${SUBSCRIBED_LEADS} total`)).toBeVisible({ timeout: 30_000 })
  await expect(mine.getByText('Approved by Super Admin, requested by Nora News')).toBeVisible({ timeout: 20_000 })
})
