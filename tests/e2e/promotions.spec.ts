/**
 * Messaging and Add Promotion (requirements R2.19, R2.20, R4.9, R5.3, R6.5, R9.3): the filter step with its users 100
 * per page and 'View More', checked users or select all, the modal with the required messages and
 * the exact number of recipients, Submit to the list, each row's delivery progress, View with the
 * recipients 100 at a time and 'Load More', Resend (everyone or only the failed), Delete after the
 * required question, View Only without Admin actions, and axe.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Locator, Page } from '@playwright/test'
import { z } from 'zod'
import { SEEDED_LEADS, accounts, leadEmail } from './accounts.ts'
import { createStaff, test, expect, signInPage, socketJoined } from './fixtures.ts'
import { ownServerWithMail } from './own-server.ts'
import { expectNoSevereViolations } from './axe.ts'

/** A title unique to this run, so specs can share one server. */
const uniqueTitle = (label: string): string => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

/** A valid 2x2 PNG (the server checks uploads by content). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==',
  'base64',
)

const users = (page: Page) => page.getByRole('list', { name: 'Users' }).getByRole('listitem')
const rowOf = (page: Page, title: string): Locator => page.getByRole('row').filter({ hasText: title })

/** Opens Messaging on the promotion's row (searched, so other runs' rows do not matter). */
async function openRow(page: Page, title: string): Promise<Locator> {
  await page.goto(`/admin/notificationlist?search=${encodeURIComponent(title)}`)
  const row = rowOf(page, title)
  await expect(row).toHaveCount(1)
  return row
}

/** Writes the modal and submits it; lands on Messaging. */
async function submitPromotion(page: Page, title: string, image = false): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Add Promotion' })
  await dialog.getByLabel('Title').fill(title)
  await dialog.getByLabel('Content').fill(`Content of ${title}`)
  if (image) await dialog.getByLabel('Image').setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: PNG })
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await expect(page).toHaveURL(/\/admin\/notificationlist$/)
}

test.describe('Messaging and Add Promotion', () => {
  test('Send a test to me mails the promotion as written to the admin, and the form stays open', async ({ adminPage: page }) => {
    await page.goto('/admin/addnotification')
    await users(page).first().getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Next' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Promotion' })
    await dialog.getByRole('button', { name: 'Send a test to me' }).click()
    await expect(dialog.getByText('Title is required')).toBeVisible()
    await dialog.getByLabel('Title').fill('Trying it first')
    await dialog.getByLabel('Content').fill('Only the admin gets this.')
    await dialog.getByRole('button', { name: 'Send a test to me' }).click()
    await expect(page.getByRole('status').filter({ hasText: `Test mail sent to ${accounts.superadmin.email}` })).toBeVisible()
    await expect(dialog.getByLabel('Title')).toHaveValue('Trying it first')
    await expectNoSevereViolations(page)
  })

  test('filters users, checks one, shows the required messages and the recipient count, and lists the promotion it sent', async ({ adminPage: page }) => {
    await page.goto('/admin/notificationlist?search=no-such-promotion-here')
    await expect(page.getByRole('heading', { name: 'Messaging' })).toBeVisible()
    await expect(page.getByText('No Record Found')).toBeVisible()
    await expect(page.getByRole('columnheader')).toHaveText(['', 'S.No', 'Title', 'Content', 'Image', 'Submitted', 'Delivery', 'Action'], { useInnerText: true })

    await page.getByRole('link', { name: 'Add', exact: true }).click()
    await expect(page).toHaveURL(/\/admin\/addnotification$/)
    await expect(page.getByRole('heading', { name: 'Add Promotion' })).toBeVisible()
    // Unfiltered: every seeded lead, 100 per page.
    await expect(users(page)).toHaveCount(100)
    await expect(page.getByText(`Showing 100 of ${SEEDED_LEADS}`)).toBeVisible()
    await page.getByRole('button', { name: 'View More' }).click()
    await expect(users(page)).toHaveCount(SEEDED_LEADS)
    await expect(page.getByRole('button', { name: 'View More' })).toHaveCount(0)

    // Next with nobody chosen says so.
    await page.getByRole('button', { name: 'Next' }).click()
    await expect(page.getByText('Please select at least one user')).toBeVisible()

    // A filter nobody matches: the 'No user found!' of requirements R8.6 (not the tables' 'No Record Found').
    const filter = page.getByRole('search', { name: 'Filter users' })
    await filter.getByLabel('Email').fill('nobody-has-this-address')
    await filter.getByRole('button', { name: 'Apply' }).click()
    await expect(page.getByText('No user found!', { exact: true })).toBeVisible()
    await expect(page.getByText('No Record Found')).toHaveCount(0)

    // The filter: lead00 matches lead001 to lead009; ipfs narrows them (every third lead is ipfs).
    await filter.getByLabel('Email').fill('LEAD00')
    await filter.getByRole('button', { name: 'Apply' }).click()
    await expect(users(page)).toHaveCount(9)
    await filter.getByLabel('Provider').click()
    await page.getByRole('option', { name: 'ipfs', exact: true }).click()
    await filter.getByRole('button', { name: 'Apply' }).click()
    await expect(users(page)).toHaveCount(3)
    await expect(page).toHaveURL(/email=LEAD00&provider=ipfs/)
    await expect(page.getByText('Select all 3 users matching the filter')).toBeVisible()

    await page.getByRole('checkbox', { name: `Select ${leadEmail(4)}` }).check()
    await expect(page.getByRole('status').filter({ hasText: '1 selected' })).toBeVisible()
    await page.getByRole('button', { name: 'Next' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Promotion' })
    await expect(dialog.getByText('This promotion will be sent to 1 user.')).toBeVisible()
    await expectNoSevereViolations(page, 'promotion modal')

    await dialog.getByRole('button', { name: 'Submit' }).click()
    await expect(dialog.getByText('Title is required')).toBeVisible()
    await expect(dialog.getByText('content is required')).toBeVisible()
    await dialog.getByLabel('Image').setInputFiles({ name: 'promo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') })
    await expect(dialog.getByText('Please upload file having extensions  .png,.jpeg,.jpg only.')).toBeVisible()
    await dialog.getByLabel('Image').setInputFiles([])

    const title = uniqueTitle('One user')
    await submitPromotion(page, title)
    const row = await openRow(page, title)
    await expect(row.getByRole('cell', { name: 'No image in this promotion' })).toBeVisible()
    await expect(row.getByText('1 sent / 0 failed / 1 total')).toBeVisible({ timeout: 20_000 })
    await expect(row.getByText('Done')).toBeVisible()
    // When, by whom and to how many, beside the columns of requirements R2.19.
    await expect(row.getByText(`by ${accounts.superadmin.name}, to 1 recipient`)).toBeVisible()
    await expectNoSevereViolations(page, 'Messaging')

    // A promotion whose recipient list is empty says 'No Records found!' (requirements R8.6). Nothing in the
    // app empties a sent promotion's recipients, so the answer is an empty page, as the server would give.
    await page.route('**/api/admin/listnotfiyuser', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ status: 'success', message: 'Recipients', result: [], count: 0 }) }),
    )
    await row.getByRole('button', { name: `View ${title}` }).click()
    await expect(page.getByRole('dialog', { name: 'Promotion' }).getByText('No Records found!', { exact: true })).toBeVisible()
    await page.getByRole('dialog', { name: 'Promotion' }).getByRole('button', { name: 'Close' }).click()
    await page.unroute('**/api/admin/listnotfiyuser')
  })

  test('select all reaches every matching user; View lists the recipients 100 at a time; Resend and Delete', async ({ adminPage: page }) => {
    await page.goto('/admin/addnotification')
    const selectAll = page.getByRole('checkbox', { name: `Select all ${SEEDED_LEADS} users matching the filter` })
    await selectAll.check()
    // Every user counts, not only the 100 loaded.
    await expect(page.getByRole('checkbox', { name: `Select ${leadEmail(1)}` })).toBeDisabled()
    await page.getByRole('button', { name: 'Next' }).click()
    await expect(page.getByRole('dialog', { name: 'Add Promotion' }).getByText(`This promotion will be sent to ${SEEDED_LEADS} users.`)).toBeVisible()
    const title = uniqueTitle('Everyone')
    await submitPromotion(page, title, true)

    let row = await openRow(page, title)
    await expect(row.getByRole('img', { name: title })).toBeVisible()
    await expect(row.getByText(`${SEEDED_LEADS} sent / 0 failed / ${SEEDED_LEADS} total`)).toBeVisible({ timeout: 30_000 })

    await row.getByRole('button', { name: `View ${title}` }).click()
    const view = page.getByRole('dialog', { name: 'Promotion' })
    await expect(view.getByText(`Content of ${title}`)).toBeVisible()
    const recipients = view.getByRole('list', { name: 'Recipients' }).getByRole('listitem')
    await expect(recipients).toHaveCount(100)
    await expect(view.getByText(`Showing 100 of ${SEEDED_LEADS}`)).toBeVisible()
    await view.getByRole('button', { name: 'Load More' }).click()
    await expect(recipients).toHaveCount(SEEDED_LEADS)
    await expect(recipients.filter({ hasText: leadEmail(SEEDED_LEADS) })).toHaveCount(1)
    await expect(view.getByRole('button', { name: 'Load More' })).toHaveCount(0)
    await view.getByRole('button', { name: 'Close' }).click()

    // Resend: nothing failed, so the only choice is everyone; a second round goes out.
    await row.getByRole('button', { name: `Resend ${title}` }).click()
    const ask = page.getByRole('alertdialog', { name: 'Resend this promotion to' })
    await expect(ask.getByRole('button', { name: 'Only failed deliveries' })).toHaveCount(0)
    await ask.getByRole('button', { name: 'All recipients' }).click()
    await expect(ask).toHaveCount(0)
    row = rowOf(page, title)
    await expect(row.getByText('round 2')).toBeVisible({ timeout: 30_000 })
    await expect(row.getByText(`${SEEDED_LEADS} sent / 0 failed / ${SEEDED_LEADS} total`)).toBeVisible({ timeout: 30_000 })

    await row.getByRole('button', { name: `Delete ${title}` }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to remove this promotion' })
    await confirm.getByRole('button', { name: 'Yes, remove' }).click()
    await expect(rowOf(page, title)).toHaveCount(0)
    await expect(page.getByText('No Record Found')).toBeVisible()
  })

  test('View Only staff read the list and its recipients, with no Add, Delete, Resend or Cancel', async ({ adminPage: page }) => {
    // A promotion to look at, sent by the superadmin.
    await page.goto('/admin/addnotification?email=lead01')
    await page.getByRole('checkbox', { name: `Select ${leadEmail(10)}` }).check()
    await page.getByRole('button', { name: 'Next' }).click()
    const title = uniqueTitle('For viewers')
    await submitPromotion(page, title)

    await signInPage(page, await createStaff(page.request, { name: 'Promo Viewer', screens: ['/notificationlist'] }))
    const row = await openRow(page, title)
    await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0)
    await expect(row.getByRole('button', { name: new RegExp(`^(Delete|Resend|Cancel) `) })).toHaveCount(0)
    await row.getByRole('button', { name: `View ${title}` }).click()
    await expect(page.getByRole('dialog', { name: 'Promotion' }).getByRole('list', { name: 'Recipients' }).getByRole('listitem')).toHaveText([new RegExp(leadEmail(10))])
    await page.goto('/admin/addnotification')
    await expect(page).toHaveURL(/\/admin\/notificationlist$/)
  })
})

const Posted = z.object({ round: z.number(), recipients: z.array(z.object({ leadId: z.string() })) })

/**
 * The push receiver of PUSH_WEBHOOK_URL, in the test: it holds every batch the server posts until
 * the test answers it (so a send runs exactly as slowly as the test needs), or answers at once
 * once `answerAll` is set.
 */
function heldReceiver() {
  const held: { batch: z.output<typeof Posted>; answer: (status: number) => void }[] = []
  const posted: z.output<typeof Posted>[] = []
  let answerAll: number | null = null
  let server: Server | undefined
  const url = { value: '' }
  test.beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (c: Buffer) => chunks.push(c))
      request.on('end', () => {
        const batch = Posted.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')))
        posted.push(batch)
        const answer = (status: number) => void response.writeHead(status).end(status < 300 ? 'ok' : 'refused')
        if (answerAll === null) held.push({ batch, answer })
        else answer(answerAll)
      })
    })
    const listening = server
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
    url.value = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/push`
  })
  test.afterAll(() => {
    for (const h of held.splice(0)) h.answer(503)
    server?.closeAllConnections()
    server?.close()
  })
  return {
    url,
    posted,
    /** Answers the oldest batch the server is waiting on (waiting for one to arrive); answers its recipients. */
    async answerNext(status: number): Promise<string[]> {
      await expect.poll(() => held.length, { message: 'a batch posted by the server' }).toBeGreaterThan(0)
      const next = held.shift()
      next?.answer(status)
      return next?.batch.recipients.map((r) => r.leadId) ?? []
    },
    /** How many batches the server has posted and waits on. */
    waiting: (): number => held.length,
    /** From now on every batch is answered at once with `status`, the held ones too. */
    answerEverything(status: number): void {
      answerAll = status
      for (const h of held.splice(0)) h.answer(status)
    },
  }
}

test.describe('A send in progress (a server of its own, pushing to a receiver the test holds back)', () => {
  // Declared before the server, so its address is known when the server starts.
  const receiver = heldReceiver()
  ownServerWithMail('promotions', () => ({
    PUSH_WEBHOOK_URL: receiver.url.value,
    PUSH_WEBHOOK_SECRET: 'e2e-push-receiver-secret',
    // A held batch is a slow receiver, not a timeout.
    PUSH_WEBHOOK_TIMEOUT_MS: '120000',
    // 10 per batch: the seeded leads are 12 batches, sent as the test answers them.
    PROMOTION_BATCH_SIZE: '10',
    // A refused batch fails for good at once, so the list has failures to resend.
    PROMOTION_MAX_ATTEMPTS: '1',
    JOB_POLL_MS: '100',
  }))

  test('the list follows the send live, Cancel says how many were already sent, and Resend goes to all or only the failed', async ({ adminPage: page }) => {
    test.setTimeout(120_000)
    const title = uniqueTitle('Slow send')
    await page.goto('/admin/addnotification')
    await page.getByRole('checkbox', { name: `Select all ${SEEDED_LEADS} users matching the filter` }).check()
    await page.getByRole('button', { name: 'Next' }).click()
    await submitPromotion(page, title)

    // What the socket brings: every PROMOTION_PROGRESS the page receives over its WebSocket.
    const events: string[] = []
    page.on('websocket', (socket) =>
      socket.on('framereceived', (frame) => {
        if (String(frame.payload).includes('PROMOTION_PROGRESS')) events.push(String(frame.payload))
      }),
    )
    // The progress events go to the sockets open at the time: none is asked for before the list's
    // real-time link is up (it opens once the page is idle).
    const joined = socketJoined(page)
    let row = await openRow(page, title)
    await expect(row.getByText(`0 sent / 0 failed / ${SEEDED_LEADS} total`)).toBeVisible()
    await joined

    // Two batches accepted: the row moves without a reload, carried by the socket.
    await receiver.answerNext(200)
    await receiver.answerNext(200)
    await expect(row.getByText(`20 sent / 0 failed / ${SEEDED_LEADS} total`)).toBeVisible()
    await expect(row.getByText('Sending')).toBeVisible()
    await expect.poll(() => events.some((e) => e.includes('"sent":20'))).toBe(true)
    // One refused: its ten recipients fail.
    const refused = await receiver.answerNext(500)
    await expect(row.getByText(`20 sent / 10 failed / ${SEEDED_LEADS} total`)).toBeVisible()
    await expect.poll(() => events.some((e) => e.includes('"failed":10'))).toBe(true)

    // Cancel while the next batches wait on the receiver (one per delivery lane): the question and
    // the answer say how many went, and how many were on their way.
    await expect.poll(() => receiver.waiting()).toBe(2)
    await row.getByRole('button', { name: `Cancel ${title}` }).click()
    const stop = page.getByRole('alertdialog', { name: 'Are you sure you want to stop sending this promotion' })
    await expect(stop.getByText(`20 of ${SEEDED_LEADS} already sent; the rest will not be sent.`)).toBeVisible()
    await stop.getByRole('button', { name: 'Stop sending' }).click()
    await expect(
      page.getByText(`Promotion cancelled: 20 of ${SEEDED_LEADS} already sent; 20 more were being posted to the push service and will count as sent once it accepts them`),
    ).toBeVisible()
    row = rowOf(page, title)
    await expect(row.getByText(`Cancelled: ${SEEDED_LEADS - 30} not sent`)).toBeVisible()
    await expect(row.getByText(`20 sent / 10 failed / ${SEEDED_LEADS} total`)).toBeVisible()
    await expect(row.getByRole('button', { name: `Cancel ${title}` })).toHaveCount(0)
    // The push service accepts the two batches it holds: they reached their readers, so they count as sent.
    receiver.answerEverything(200)
    await expect(row.getByText(`40 sent / 10 failed / ${SEEDED_LEADS} total`)).toBeVisible()
    await expect(row.getByText(`Cancelled: ${SEEDED_LEADS - 50} not sent`)).toBeVisible()

    // Resend, only the failed: a second round to the ten refused recipients, and nobody else.
    await row.getByRole('button', { name: `Resend ${title}` }).click()
    let ask = page.getByRole('alertdialog', { name: 'Resend this promotion to' })
    await expect(ask.getByText(`${SEEDED_LEADS} in the last round: 40 sent, 10 failed.`)).toBeVisible()
    await expect(ask.getByText(`All recipients sends it again to ${SEEDED_LEADS} recipients; only failed deliveries, to 10 recipients.`)).toBeVisible()
    await expect(ask.getByRole('button', { name: 'All recipients' })).toBeVisible()
    await ask.getByRole('button', { name: 'Only failed deliveries' }).click()
    await expect(page.getByText('Resend started to 10 failed recipients')).toBeVisible()
    await expect(row.getByText('10 sent / 0 failed / 10 total')).toBeVisible({ timeout: 30_000 })
    await expect(row.getByText('Done, round 2')).toBeVisible()
    const secondRound = receiver.posted.filter((b) => b.round === 2).flatMap((b) => b.recipients.map((r) => r.leadId))
    expect(secondRound.sort()).toEqual([...refused].sort())

    // Resend to all: nothing failed now, so everyone is the only choice; a third round to all of them.
    await row.getByRole('button', { name: `Resend ${title}` }).click()
    ask = page.getByRole('alertdialog', { name: 'Resend this promotion to' })
    await expect(ask.getByText(`10 in the last round: 10 sent, 0 failed. All recipients sends it again to ${SEEDED_LEADS} recipients.`)).toBeVisible()
    await expect(ask.getByRole('button', { name: 'Only failed deliveries' })).toHaveCount(0)
    await ask.getByRole('button', { name: 'All recipients' }).click()
    await expect(page.getByText(`Resend started to ${SEEDED_LEADS} recipients`)).toBeVisible()
    await expect(row.getByText(`${SEEDED_LEADS} sent / 0 failed / ${SEEDED_LEADS} total`)).toBeVisible({ timeout: 30_000 })
    await expect(row.getByText('Done, round 3')).toBeVisible()
    expect(new Set(receiver.posted.filter((b) => b.round === 3).flatMap((b) => b.recipients.map((r) => r.leadId))).size).toBe(SEEDED_LEADS)
  })
})
