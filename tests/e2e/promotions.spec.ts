/**
 * Messaging and Add Promotion (spec sections 2, 4, 5, 6, 9): the filter step with its users 100
 * per page and 'View More', checked users or select all, the modal with the spec's messages and
 * the exact number of recipients, Submit to the list, each row's delivery progress, View with the
 * recipients 100 at a time and 'Load More', Resend (everyone or only the failed), Delete after the
 * spec's question, View Only without Admin actions, and axe.
 */
import AxeBuilder from '@axe-core/playwright'
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import { PASSWORD, SEEDED_LEADS, leadEmail } from './accounts.ts'
import { test, expect, accounts, apiToken, signInPage, type Account } from './fixtures.ts'

/** A title unique to this run, so specs can share one server. */
const uniqueTitle = (label: string): string => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

/** A valid 2x2 PNG (the server checks uploads by content). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==',
  'base64',
)

async function expectNoSevereViolations(page: Page, where: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze()
  const severe = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(severe.map((v) => `${where} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

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

async function createViewer(request: APIRequestContext): Promise<Account> {
  const account: Account = { email: `promo-viewer-${Date.now()}@e2e.test`, password: PASSWORD, name: 'Promo Viewer', role: 'subadmin', accessLevel: 'View Only', restrictions: ['/notificationlist'] }
  const response = await request.post('/api/admin/createSubAdminUsers', {
    headers: { authorization: `Bearer ${await apiToken(request, accounts.superadmin)}` },
    data: { name: account.name, email: account.email, password: account.password, accessLevel: account.accessLevel, restrictions: account.restrictions },
  })
  expect(response.ok(), await response.text()).toBe(true)
  return account
}

test.describe('Messaging and Add Promotion', () => {
  test('filters users, checks one, shows the spec messages and the recipient count, and lists the promotion it sent', async ({ adminPage: page }) => {
    await page.goto('/admin/notificationlist?search=no-such-promotion-here')
    await expect(page.getByRole('heading', { name: 'Messaging' })).toBeVisible()
    await expect(page.getByText('No Record Found')).toBeVisible()
    await expect(page.getByRole('columnheader')).toHaveText(['S.No', 'Title', 'Content', 'Image', 'Delivery', 'Action'], { ignoreCase: true })

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

    // The filter: lead00 matches lead001 to lead009; ipfs narrows them (every third lead is ipfs).
    const filter = page.getByRole('search', { name: 'Filter users' })
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
    await expectNoSevereViolations(page, 'Messaging')
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

    await signInPage(page, await createViewer(page.request))
    const row = await openRow(page, title)
    await expect(page.getByRole('link', { name: 'Add', exact: true })).toHaveCount(0)
    await expect(row.getByRole('button', { name: new RegExp(`^(Delete|Resend|Cancel) `) })).toHaveCount(0)
    await row.getByRole('button', { name: `View ${title}` }).click()
    await expect(page.getByRole('dialog', { name: 'Promotion' }).getByRole('list', { name: 'Recipients' }).getByRole('listitem')).toHaveText([new RegExp(leadEmail(10))])
    await page.goto('/admin/addnotification')
    await expect(page).toHaveURL(/\/admin\/notificationlist$/)
  })
})
