/**
 * Contact Us as a queue: Triage opens the oldest open enquiry; R resolves it and shows the next
 * (the menu's count follows), S skips it for this pass, L opens the lead the enquiry came from.
 * View Only staff go through the queue without the resolve control.
 */
import type { Page } from '@playwright/test'
import { ENQUIRING_LEAD, SEEDED_ENQUIRIES, leadName } from './accounts.ts'
import { test, expect, accounts, reopenAllEnquiries, toast } from './fixtures.ts'

const contactEntry = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Contact Us/ })
const current = (page: Page) => page.getByRole('article')
/** The name the current enquiry is headed by. */
const currentName = async (page: Page): Promise<string> => (await current(page).getByRole('heading').innerText()).trim()

test.describe('Contact Us triage', () => {
  test.beforeEach(async ({ request }) => reopenAllEnquiries(request))
  test.afterAll(async ({ request }) => reopenAllEnquiries(request))

  test('resolves with R and shows the next, skips with S, and the menu count follows', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/admin/contactus')
    await page.getByRole('link', { name: 'Triage' }).click()
    await expect(page).toHaveURL(/\/admin\/contactus-triage$/)
    await expect(page.getByRole('heading', { name: 'Contact Us Triage' })).toBeVisible()
    await expect(page.getByText(`${SEEDED_ENQUIRIES} open enquiries, the oldest first.`)).toBeVisible()
    await expect(current(page).getByRole('button', { name: /Mark Resolved/ })).toBeVisible()

    const first = await currentName(page)
    await page.keyboard.press('s')
    await expect(current(page).getByRole('heading')).not.toHaveText(first)
    const second = await currentName(page)

    await page.keyboard.press('r')
    await expect(toast(page, 'Enquiry marked Resolved')).toBeVisible()
    await expect(current(page).getByRole('heading')).not.toHaveText(second)
    await expect(contactEntry(page)).toHaveAccessibleName(`Contact Us ${SEEDED_ENQUIRIES - 1} open enquiries`)
    await expect(page.getByText(`${SEEDED_ENQUIRIES - 1} open enquiries, the oldest first.`)).toBeVisible()

    // The last one resolved by its button; the skipped one is still open and can be taken again.
    await current(page).getByRole('button', { name: /Mark Resolved/ }).click()
    await expect(page.getByText('No more open enquiries in this pass.')).toBeVisible()
    await expect(page.getByText('You skipped one enquiry; they are still open.')).toBeVisible()
    await expect(contactEntry(page)).toHaveAccessibleName(`Contact Us 1 open enquiry`)
    await page.getByRole('button', { name: 'Start again with the skipped ones' }).click()
    await expect(current(page).getByRole('heading')).toHaveText(first)
    await page.keyboard.press('r')
    await expect(page.getByText('No open enquiries.', { exact: true })).toBeVisible()
    await expect(page.getByText('Every enquiry is resolved. New ones arrive here, oldest first.')).toBeVisible()
  })

  test('L opens the page of the lead the enquiry came from', async ({ adminPage: page }) => {
    await page.goto('/admin/contactus-triage')
    await expect(current(page)).toBeVisible()
    for (let i = 0; i < SEEDED_ENQUIRIES && (await currentName(page)) !== 'Enquirer 1'; i++) {
      await expect(current(page).getByText('No lead has this address.', { exact: true })).toBeVisible()
      const name = await currentName(page)
      await page.keyboard.press('s')
      await expect(current(page).getByRole('heading')).not.toHaveText(name)
    }
    await expect(current(page).getByRole('heading')).toHaveText('Enquirer 1')
    await page.keyboard.press('l')
    await expect(page).toHaveURL(/\/admin\/lead\?id=/)
    await expect(page.locator('dl').getByText(leadName(ENQUIRING_LEAD), { exact: true })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Contact enquiries' }).getByText('Question number 1 about the wallet.')).toBeVisible()
  })

  test('View Only staff go through the queue without the resolve control', async ({ page, signIn }) => {
    await signIn(accounts.viewOnly)
    await page.goto('/admin/contactus-triage')
    await expect(current(page)).toBeVisible()
    await expect(page.getByRole('button', { name: /Mark Resolved/ })).toHaveCount(0)
    const first = await currentName(page)
    await page.keyboard.press('r')
    await expect(current(page).getByRole('heading')).toHaveText(first)
    await page.keyboard.press('s')
    await expect(current(page).getByRole('heading')).not.toHaveText(first)
    await expect(contactEntry(page)).toHaveAccessibleName(`Contact Us ${SEEDED_ENQUIRIES} open enquiries`)
  })
})
