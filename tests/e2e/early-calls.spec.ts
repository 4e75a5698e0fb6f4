/**
 * A page opened cold asks for its data before its code has arrived
 * (src/lib/early-calls.ts): the shell's early script sends the calls the page made first last
 * time, and the app takes those answers instead of asking again.
 */
import type { Page } from '@playwright/test'
import { test, expect } from './fixtures.ts'

const FIRST_CALLS_KEY = 'admin_first_calls'
/** The rows a list showed, painted on the next opening (src/lib/rows-snapshot.ts). */
const SNAPSHOTS_KEY = 'admin_rows_snapshots'
const notes = (page: Page) => page.evaluate((key) => localStorage.getItem(key), FIRST_CALLS_KEY)

/**
 * What a reload asks for, in order, until the real-time link has opened and the early script's
 * answers have all been taken: a call takes its answer just before it would fetch (api.ts
 * `send`), so a list that asked again would show here.
 */
async function reloadSeeing(page: Page): Promise<string[]> {
  const seen: string[] = []
  let linked: () => void = () => {}
  const link = new Promise<void>((resolve) => (linked = resolve))
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname === '/api/admin/getuser') seen.push(`rows ${url.searchParams.get('search') ?? ''}`.trim())
    else if (/\/assets\/list-kit-[\w-]+\.js$/.test(url.pathname)) seen.push('list code')
  })
  page.on('websocket', (socket) => {
    if (new URL(socket.url()).pathname.startsWith('/socket.io/')) linked()
  })
  await page.reload()
  await link
  // Sent by the early script (the app never sets this), and every answer taken by the app.
  await expect.poll(() => page.evaluate(() => window.boEarlyCalls?.calls.size ?? 'none sent')).toBe(0)
  return seen
}

/** The next opening has no rows of this page to paint: the early script sends its calls at once. */
const forgetKeptRows = (page: Page) =>
  page.evaluate((key) => {
    // Kept again as the page is left by the reload (when hidden, and on pagehide): listeners
    // added after the app's run after them.
    const forget = () => localStorage.removeItem(key)
    window.addEventListener('pagehide', forget)
    document.addEventListener('visibilitychange', forget)
  }, SNAPSHOTS_KEY)

test.describe('early calls', () => {
  test('Leads opened again asks for its rows before the list code, and only once', async ({ adminPage: page }) => {
    const rows = page.getByRole('table').locator('tbody tr').filter({ hasText: '@' })
    await expect(rows.first()).toBeVisible()
    // Noted once the page's calls have answered and it is idle.
    await expect.poll(() => notes(page)).toContain('/api/admin/getuser?page=1&limit=50')

    // Opened with no rows of its own to paint: the rows were asked for before the list's code
    // was (the early script), and not again by the list once its code ran: it took that answer.
    await forgetKeptRows(page)
    expect(await reloadSeeing(page)).toEqual(['rows', 'list code'])
    await expect(rows.first()).toBeVisible()
    // The list's code was asked for by the early script too, with the entry, not after it ran.
    await expect(page.locator('head link[rel="modulepreload"][href*="/assets/list-kit-"]')).toHaveCount(1)

    // Opened with its last rows painted, the early script sends the same calls after the frame
    // that shows them, and the list still takes their answers: the rows are asked for once.
    expect((await reloadSeeing(page)).filter((seen) => seen === 'rows')).toEqual(['rows'])
    await expect(rows.first()).toBeVisible()
  })

  test('a search opened again is its own page; Logout forgets every note', async ({ adminPage: page }) => {
    await page.goto('/admin/users?search=lead00')
    await expect(page.getByRole('table').locator('tbody tr').filter({ hasText: 'lead00' }).first()).toBeVisible()
    await expect.poll(() => notes(page)).toContain('search=lead00')
    await forgetKeptRows(page)
    expect(await reloadSeeing(page)).toEqual(['rows lead00', 'list code'])
    await expect(page.getByRole('table').locator('tbody tr').filter({ hasText: 'lead00' }).first()).toBeVisible()

    await page.getByRole('button', { name: /^Account menu/ }).click()
    await page.getByRole('menuitem', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/admin\/login$/)
    expect(await notes(page)).toBeNull()
  })

  test('a start without a valid session forgets the notes the last one left', async ({ adminPage: page }) => {
    await expect.poll(() => notes(page)).toContain('/api/admin/getuser')
    // The session's token went bad while the browser was closed (here: it no longer reads).
    await page.evaluate(() => localStorage.setItem('admin_token', 'Bearer not.a.token'))
    await page.reload()
    await expect(page).toHaveURL(/\/admin\/login$/)
    await expect.poll(() => notes(page)).toBeNull()
  })
})
