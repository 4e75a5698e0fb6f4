/**
 * Two admins for outward links, two admins in two browsers: with the setting on (Settings), an
 * Admin's new buy link is saved for approval and does not show in the list; the superadmin's menu
 * shows the waiting change beside Link changes, where its diff and requester show, and approves it
 * after a question; the link then shows in the list. The requester cannot approve their own.
 */
import { OWN_LINK_CHANGE } from '#contract/link-changes'
import { accounts, apiToken, createStaff, expect, signInPage, test } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const setTwoAdmins = async (request: Parameters<typeof apiToken>[0], on: boolean): Promise<void> => {
  const token = await apiToken(request, accounts.superadmin)
  const res = await request.post('/api/admin/setTwoAdminLinks', { headers: { authorization: `Bearer ${token}` }, data: { on } })
  expect(res.ok()).toBe(true)
}

test.describe('two admins for outward links', () => {
  // The worker's server is shared by the specs after this one: links take effect at once again.
  test.afterEach(async ({ request }) => {
    await setTwoAdmins(request, false)
  })

  test('a new buy link waits for another admin, who approves it from the menu badge', async ({ browser, page, request }) => {
    test.setTimeout(90_000)
    await setTwoAdmins(request, true)
    const requester = await createStaff(request, { name: 'Lin Links', screens: [], accessLevel: 'Admin' })
    const link = `https://buy.example.com/two-admins-${Date.now().toString(36)}`

    await signInPage(page, requester)
    await page.goto('/admin/settings')
    await expect(page.getByRole('region', { name: 'Allowed domains for outward links' }).getByText(/^On: a save that changes a link/)).toBeVisible()
    await page.goto('/admin/add_buylink')
    await page.getByLabel('Buy Link', { exact: true }).fill(link)
    await page.getByRole('button', { name: 'Submit' }).click()
    await expect(page.getByText('Saved for approval: another admin must approve the change to buylink before it takes effect.', { exact: false }).first()).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/buy_list$/)
    await expect(page.getByRole('cell', { name: link, exact: true })).toHaveCount(0)

    // Theirs waits for someone else: no Approve of their own, and the server refuses it anyway.
    await page.getByRole('link', { name: /^Link changes/ }).click()
    const mine = page.getByRole('article', { name: 'Buy link added' }).filter({ hasText: link })
    await expect(mine.getByText('Waiting for another admin to approve it')).toBeVisible()
    await expect(mine.getByRole('button', { name: 'Approve' })).toHaveCount(0)
    await expect(mine.getByRole('button', { name: 'Withdraw' })).toBeVisible()
    const token = await apiToken(request, requester)
    const listed = await request.get('/api/admin/listLinkChanges', { headers: { authorization: `Bearer ${token}` } })
    const id = ((await listed.json()) as { result: { _id: string; changes: unknown }[] }).result.find((c) => JSON.stringify(c.changes).includes(link))?._id
    const own = await request.post('/api/admin/approveLinkChange', { headers: { authorization: `Bearer ${token}` }, data: { id } })
    expect(own.status()).toBe(403)
    expect(await own.json()).toMatchObject({ status: 'failed', message: OWN_LINK_CHANGE })

    const other = await browser.newContext()
    try {
      const second = await other.newPage()
      await signInPage(second, accounts.superadmin)
      await second.goto('/admin/dashboard')
      const entry = second.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Link changes \d+ link changes? to approve$/ })
      await expect(entry).toBeVisible()
      await entry.click()
      await expect(second.getByRole('heading', { name: 'Pending link changes', level: 1 })).toBeVisible()
      const card = second.getByRole('article', { name: 'Buy link added' }).filter({ hasText: link })
      await expect(card.getByText('Lin Links')).toBeVisible()
      await expect(card.getByRole('cell', { name: link })).toBeVisible()
      await expectNoSevereViolations(second)
      await card.getByRole('button', { name: 'Approve' }).click()
      const ask = second.getByRole('alertdialog', { name: 'Approve this link change?' })
      await expect(ask).toContainText('requested by Lin Links')
      await ask.getByRole('button', { name: 'Yes, approve' }).click()
      await expect(second.getByText('Approved: the change to buylink takes effect now').first()).toBeVisible()
      await expect(card).toHaveCount(0)

      // Searched for: on a shared server the list's first page may be other specs' links.
      await second.goto(`/admin/buy_list?search=${encodeURIComponent(link)}`)
      await expect(second.getByRole('cell', { name: link, exact: true })).toBeVisible()
    } finally {
      await other.close()
    }
  })
})
