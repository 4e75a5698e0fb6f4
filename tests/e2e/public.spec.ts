import { test, expect, referrerSentToStore } from './fixtures.ts'
import { SUPPORT_EMAIL } from './accounts.ts'

test('the data-deletion page works without login and gives the support email from the server', async ({ page }) => {
  await page.goto('/admin/data-deletion')
  await expect(page.getByRole('heading', { level: 1 })).toContainText('delete your account')
  await expect(page.getByText('Delete Account')).toBeVisible()
  await expect(page.getByText(/permanent/)).toBeVisible()
  await expect(page.getByRole('link', { name: SUPPORT_EMAIL })).toHaveAttribute('href', `mailto:${SUPPORT_EMAIL}`)
})

test('the referral link sends the browser to the store listing with the referrer', async ({ page }) => {
  expect(await referrerSentToStore(page, '/admin/app/REF-abc123')).toBe('REF-abc123')
})

test('the referral link needs no JavaScript: the server answers the redirect itself', async ({ browser }) => {
  // An in-app browser or a phone with scripts off: nothing of the PWA may be needed on the way.
  const context = await browser.newContext({ javaScriptEnabled: false })
  try {
    const page = await context.newPage()
    const seen: string[] = []
    context.on('request', (request) => seen.push(new URL(request.url()).pathname))
    expect(await referrerSentToStore(page, '/admin/app/REF-no-script')).toBe('REF-no-script')
    expect(seen).toContain('/admin/app/REF-no-script')
    expect(seen.filter((path) => path.startsWith('/admin/assets/'))).toEqual([])
  } finally {
    await context.close()
  }
})
