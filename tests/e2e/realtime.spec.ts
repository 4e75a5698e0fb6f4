import { z } from 'zod'
import { createStaff, test, expect, accounts, apiToken, socketJoined } from './fixtures.ts'

const Page = z.object({ result: z.array(z.object({ _id: z.string(), email: z.string() })) })

test('a LOGOUT from the server ends the open session within 2 seconds', async ({ page, signIn }) => {
  const root = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
  const staff = await createStaff(page.request, { name: 'Rita Realtime', screens: [], accessLevel: 'Admin' })

  const joined = socketJoined(page)
  await signIn(staff)
  await page.goto('/admin/users')
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await joined

  const list = await page.request.get(`/api/admin/FetchSubAdminUsers?search=${encodeURIComponent(staff.email)}`, { headers: root })
  const id = Page.parse(await list.json()).result.find((s) => s.email === staff.email)?._id
  expect(id).toBeTruthy()
  // Deactivating revokes the staff member's tokens and sends LOGOUT to their room.
  const deactivated = await page.request.post('/api/admin/ActivateSubadminStatusUpdate', { headers: root, data: { id } })
  expect(deactivated.ok(), await deactivated.text()).toBe(true)

  await expect(page).toHaveURL(/\/admin\/login$/, { timeout: 2000 })
  await expect(page.getByRole('alert').filter({ hasText: 'Your session has ended' })).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
})
