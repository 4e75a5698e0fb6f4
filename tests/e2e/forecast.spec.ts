/**
 * The send forecast on Add Promotion (requirements R2.37): with Japan on the Restriction List,
 * select all shows selected, will receive and left out, the restricted-country count opens its
 * leads page by page and downloads them as CSV. Then the frequency cap, set on Settings, leaves
 * out the lead a promotion already reached. On a server of its own, so the restriction, the cap
 * and the sends do not reach other files' sends.
 */
import { SEEDED_LEADS } from './accounts.ts'
import { expect, superadminHeaders, test, toast } from './fixtures.ts'
import { ownServerWithMail } from './own-server.ts'
import { expectNoSevereViolations } from './axe.ts'

const { origin } = ownServerWithMail('forecast')

/** Every fourth seeded lead, from the second, is in Japan (tests/e2e/server.ts). */
const IN_JAPAN = SEEDED_LEADS / 4

test('Add Promotion shows the forecast, each reason opens its leads and downloads as CSV', async ({ adminPage: page, request }) => {
  const headers = await superadminHeaders(request)
  const added = await request.post(`${origin}/api/admin/AddRestrictions`, { headers, data: { country: ['Japan'] } })
  expect(added.ok(), await added.text()).toBe(true)

  await page.goto('/admin/addnotification')
  await page.getByText(/Select all .* users matching the filter/).click()
  await page.getByRole('button', { name: 'Next' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add Promotion' })
  const forecast = dialog.getByTestId('send-forecast')
  await expect(forecast.getByRole('heading', { name: 'Forecast' })).toBeVisible()
  await expect(forecast.locator('dd')).toHaveText([String(SEEDED_LEADS), String(SEEDED_LEADS - IN_JAPAN), String(IN_JAPAN)])

  const reason = forecast.getByRole('button', { name: `Restricted country: ${IN_JAPAN}` })
  await reason.click()
  await expect(reason).toHaveAttribute('aria-expanded', 'true')
  const leads = forecast.getByRole('region', { name: `Restricted country: ${IN_JAPAN} leads` })
  await expect(leads.getByRole('listitem')).toHaveCount(20)
  await expect(leads.getByRole('listitem').first()).toContainText('Japan')
  await expect(leads.getByText('Page 1 of 2')).toBeVisible()
  await leads.getByRole('button', { name: 'Next' }).click()
  await expect(leads.getByText('Page 2 of 2')).toBeVisible()
  await expect(leads.getByRole('listitem')).toHaveCount(IN_JAPAN - 20)

  const download = page.waitForEvent('download')
  await leads.getByRole('button', { name: 'Download CSV' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('left-out-restricted-country.csv')
  const path = await file.path()
  const { readFileSync } = await import('node:fs')
  const lines = readFileSync(path, 'utf8').trim().split('\n')
  expect(lines[0]).toBe('id,name,email,country,reason')
  expect(lines).toHaveLength(IN_JAPAN + 1)
  expect(lines.slice(1).every((l) => l.endsWith(',Japan,restricted-country'))).toBe(true)

  await expectNoSevereViolations(page)
})

test('Settings turns the frequency cap on, and the forecast leaves out a lead at the cap', async ({ adminPage: page, request }) => {
  await page.goto('/admin/settings')
  const cap = page.getByRole('region', { name: 'Frequency cap' })
  await expect(cap.getByRole('status')).toHaveText('The frequency cap is off: leads receive every send.')
  await cap.getByLabel('Cap the messages each lead receives').check()
  await cap.getByLabel('At most (messages)').fill('1')
  await cap.getByLabel('In (days)').fill('30')
  await cap.getByRole('button', { name: 'Save the frequency cap' }).click()
  await expect(toast(page, 'At most 1 message per lead in 30 days, promotions and newsletters together')).toBeVisible()
  await expect(cap.getByRole('status')).toHaveText('At most 1 message per lead in 30 days, promotions and newsletters together.')
  await expectNoSevereViolations(page)

  // One promotion reaches a lead outside Japan (restricted by the test above), and is delivered.
  const headers = await superadminHeaders(request)
  const users = await request.post(`${origin}/api/admin/FilterOption`, { headers, data: { page: 1, limit: 10 } })
  const lead = ((await users.json()) as { data: { _id: string; email: string; country: string }[] }).data.find((u) => u.country !== 'Japan')
  if (lead === undefined) throw new Error('no lead outside Japan')
  const added = await request.post(`${origin}/api/admin/addNotification`, { headers, multipart: { title: 'Already sent', content: 'Once', selectall: 'false', id: JSON.stringify([lead._id]) } })
  expect(added.ok(), await added.text()).toBe(true)
  await expect
    .poll(async () => {
      const list = (await (await request.get(`${origin}/api/admin/listNotification?page=1&limit=10&search=`, { headers })).json()) as { result: { title: string; status: string }[] }
      return list.result.find((p) => p.title === 'Already sent')?.status
    })
    .toBe('done')

  await page.goto('/admin/addnotification')
  await page.getByText(/Select all .* users matching the filter/).click()
  await page.getByRole('button', { name: 'Next' }).click()
  const forecast = page.getByRole('dialog', { name: 'Add Promotion' }).getByTestId('send-forecast')
  await forecast.getByRole('button', { name: 'Frequency cap: 1' }).click()
  const leads = forecast.getByRole('region', { name: 'Frequency cap: 1 lead' }).getByRole('listitem')
  await expect(leads).toHaveCount(1)
  await expect(leads).toContainText(lead.email)
})
