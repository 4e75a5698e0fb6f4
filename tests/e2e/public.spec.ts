import { test, expect } from './fixtures.ts'
import { APP_STORE_URL, SUPPORT_EMAIL } from './accounts.ts'

test('the data-deletion page works without login and gives the support email from the server', async ({ page }) => {
  await page.goto('/admin/data-deletion')
  await expect(page.getByRole('heading', { level: 1 })).toContainText('delete your account')
  await expect(page.getByText('Delete Account')).toBeVisible()
  await expect(page.getByText(/permanent/)).toBeVisible()
  await expect(page.getByRole('link', { name: SUPPORT_EMAIL })).toHaveAttribute('href', `mailto:${SUPPORT_EMAIL}`)
})

test('the referral link sends the browser to the store listing with the referrer', async ({ page }) => {
  // No network here: answer the store's request ourselves and look at where the browser went.
  await page.route('https://play.google.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Store</title>' }))
  await page.goto('/admin/app/REF-abc123')
  await expect(page).toHaveURL((url) => url.href.startsWith(APP_STORE_URL) && url.searchParams.get('referrer') === 'REF-abc123')
})
