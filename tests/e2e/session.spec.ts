/**
 * Logout, the idle timeout and the offline copy, as a user sees them: Logout revokes the token on the server; an idle
 * session warns a minute before it ends, "Stay signed in" keeps it, activity in another tab
 * counts, and at the end it is over (token gone, revoked, back to login); the offline copy of
 * one admin's lists is gone before the next admin signs in on the same browser profile.
 */
import type { BrowserContext, Page } from '@playwright/test'
import { test, expect, accounts, apiToken, logInWithForm, serviceWorkerReady, signInPage, storedSnapshots } from './fixtures.ts'
import { leadEmail } from './accounts.ts'

/** Every key and value of the offline store, as text (src/lib/offline-store.ts). */
function storedData(page: Page): Promise<{ keys: string[]; text: string }> {
  return page.evaluate(
    () =>
      new Promise<{ keys: string[]; text: string }>((resolve, reject) => {
        const open = indexedDB.open('back-office-cache')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('swr')) return resolve({ keys: [], text: '' })
          const store = db.transaction('swr').objectStore('swr')
          const keys = store.getAllKeys()
          const values = store.getAll()
          values.onsuccess = () => resolve({ keys: keys.result.map(String), text: JSON.stringify(values.result) })
          values.onerror = () => reject(values.error)
        }
      }),
  )
}

const profileStatus = async (page: Page, authorization: string): Promise<number> =>
  (await page.request.get('/api/admin/get-profile', { headers: { authorization } })).status()

async function logOutFromMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Account menu/ }).click()
  await page.getByRole('menuitem', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/admin\/login$/)
}

test.describe('Logout', () => {
  test('revokes the token on the server: a copy of it is refused afterwards', async ({ adminPage: page }) => {
    const authorization = (await page.evaluate(() => localStorage.getItem('admin_token'))) ?? ''
    expect(await profileStatus(page, authorization)).toBe(200)
    await logOutFromMenu(page)
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
    // The revoke is a keepalive request that outlives the reload Logout makes, so the page may
    // never report its answer: the server's refusal of the token is what shows it arrived.
    await expect.poll(() => profileStatus(page, authorization), { timeout: 10_000 }).toBe(401)
  })

  test('still forgets the session when the server cannot be reached', async ({ adminPage: page }) => {
    let tried = false
    await page.route('**/api/admin/logout', async (route) => {
      tried = true
      await route.abort('connectionrefused')
    })
    await logOutFromMenu(page)
    // The token is forgotten before the request leaves, so the login page may come first.
    await expect.poll(() => tried).toBe(true)
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
    await expect.poll(() => storedSnapshots(page)).toBe(0)
  })
})

test.describe('idle timeout', () => {
  /** Signs in with the browser's clock under the test's control (30 minutes of idle time by default). */
  async function idlePage(page: Page): Promise<string> {
    await page.clock.install()
    await signInPage(page, accounts.superadmin)
    await page.goto('/admin/category')
    await expect(page.getByRole('heading', { name: 'Category List' })).toBeVisible()
    return (await page.evaluate(() => localStorage.getItem('admin_token'))) ?? ''
  }
  const warning = (page: Page) => page.getByRole('alertdialog', { name: 'Are you still there?' })

  test('warns a minute before, "Stay signed in" keeps the session, and at the end it is over', async ({ page }) => {
    const authorization = await idlePage(page)
    await page.clock.fastForward('28:30')
    await expect(warning(page)).toHaveCount(0)
    await page.clock.fastForward('01:00')
    await expect(warning(page)).toBeVisible()
    await expect(warning(page)).toContainText(/You will be signed out in \d+ seconds\./)
    // Moving the mouse is not an answer: the warning stays until one is given.
    await page.mouse.move(20, 20)
    await page.mouse.move(200, 200)
    await expect(warning(page)).toBeVisible()
    await expect(warning(page).getByRole('button', { name: 'Stay signed in' })).toBeFocused()
    await warning(page).getByRole('button', { name: 'Stay signed in' }).click()
    await expect(warning(page)).toHaveCount(0)

    // Counted again from "Stay signed in".
    await page.clock.fastForward('29:10')
    await expect(warning(page)).toBeVisible()
    await page.clock.fastForward('00:51')
    await expect(page).toHaveURL(/\/admin\/login$/)
    // Said until dismissed: whoever comes back to the screen reads why.
    await expect(page.getByRole('alert').filter({ hasText: 'You were signed out after 30 minutes without activity.' })).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
    await expect.poll(() => profileStatus(page, authorization)).toBe(401)
    await expect.poll(() => storedSnapshots(page)).toBe(0)
  })

  test('activity in another tab keeps every tab signed in', async ({ page, context }) => {
    await idlePage(page)
    const other = await context.newPage()
    await other.goto('/admin/users')
    await expect(other.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await page.clock.fastForward('20:00')
    const before = await page.evaluate(() => Number(localStorage.getItem('admin_last_activity')))
    await other.mouse.move(30, 30)
    await other.mouse.move(300, 300)
    // Local storage reaches the first tab's process a moment later (minutes, for a person).
    await expect
      .poll(() => page.evaluate(() => Number(localStorage.getItem('admin_last_activity'))))
      .toBeGreaterThan(before)
    await page.clock.fastForward('20:00')
    // 40 minutes after this tab's last activity, 20 after the other tab's: no warning here.
    await expect(page.getByRole('heading', { name: 'Category List' })).toBeVisible()
    await expect(warning(page)).toHaveCount(0)
    await page.clock.fastForward('10:00')
    await expect(page).toHaveURL(/\/admin\/login$/)
    await expect(other).toHaveURL(/\/admin\/login$/)
  })

  test('a browser opened again after the idle time starts signed out, with nothing cached', async ({ page }) => {
    await idlePage(page)
    await expect.poll(() => storedSnapshots(page)).toBeGreaterThan(0)
    // The page goes away (a closed browser) and comes back an hour later.
    await page.goto('/admin/data-deletion')
    await page.evaluate(() => localStorage.setItem('admin_last_activity', String(Date.now() - 60 * 60_000)))
    await page.goto('/admin/category')
    await expect(page).toHaveURL(/\/admin\/login$/)
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
    await expect.poll(() => storedSnapshots(page)).toBe(0)
  })
})

test.describe('offline copy between two admins on one browser profile', () => {
  /** Loads the lists admin A can see, so their copy is stored. */
  async function loadListsAsSuperadmin(page: Page, category: string): Promise<void> {
    await page.goto('/admin/users')
    await expect(page.getByRole('cell', { name: leadEmail(1), exact: true })).toBeVisible()
    await page.goto(`/admin/category?search=${encodeURIComponent(category)}`)
    await expect(page.getByRole('row').filter({ hasText: category })).toBeVisible()
    await page.goto('/admin/brand')
    await expect(page.getByRole('heading', { name: 'Brand List' })).toBeVisible()
    await expect.poll(async () => (await storedData(page)).text).toContain(category)
  }

  /** A category only A has seen in a list (the viewer can read categories, but never opened this search). */
  async function aCategory(context: BrowserContext): Promise<string> {
    const name = `A-only ${Date.now().toString(36)}`
    const token = await apiToken(context.request, accounts.superadmin)
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==',
      'base64',
    )
    const created = await context.request.post('/api/admin/addcategory', {
      headers: { authorization: `Bearer ${token}` },
      multipart: { categoryName: name, image: { name: 'dot.png', mimeType: 'image/png', buffer: png } },
    })
    expect(created.ok(), await created.text()).toBe(true)
    return name
  }

  async function expectViewerSeesOnlyOwnData(page: Page, context: BrowserContext, category: string): Promise<void> {
    // Nothing of A's is left before B signs in.
    await expect.poll(() => storedSnapshots(page)).toBe(0)
    await page.goto('/admin/login')
    await logInWithForm(page, accounts.viewOnly)
    await page.goto('/admin/users')
    await expect(page.getByRole('cell', { name: leadEmail(1), exact: true })).toBeVisible()
    await expect.poll(async () => (await storedData(page)).keys.length).toBe(1)
    const stored = await storedData(page)
    const viewerId = await page.evaluate(() => {
      const token = localStorage.getItem('admin_token') ?? ''
      const claims: unknown = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/')))
      return typeof claims === 'object' && claims !== null && '_id' in claims ? String(claims._id) : ''
    })
    expect(stored.keys).toEqual([expect.stringContaining(`scope:${viewerId}|`)])
    expect(stored.text).not.toContain(category)
    expect(stored.text).not.toContain('listbrand')

    // Offline, B reads B's own copy of Leads, and no copy of A's category search.
    await serviceWorkerReady(page)
    await context.setOffline(true)
    await page.reload()
    await expect(page.getByRole('cell', { name: leadEmail(1), exact: true })).toBeVisible()
    await page.goto(`/admin/category?search=${encodeURIComponent(category)}`)
    await expect(page.getByRole('heading', { name: 'Category List' })).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: category })).toHaveCount(0)
    await context.setOffline(false)
  }

  test('after A logs out, B signing in finds none of A\'s data', async ({ page, context }) => {
    const category = await aCategory(context)
    await signInPage(page, accounts.superadmin)
    await loadListsAsSuperadmin(page, category)
    await logOutFromMenu(page)
    await expectViewerSeesOnlyOwnData(page, context, category)
  })

  test('after A\'s token expires, the app starts wiped, and B finds none of A\'s data', async ({ page, context }) => {
    const category = await aCategory(context)
    await signInPage(page, accounts.superadmin)
    await loadListsAsSuperadmin(page, category)
    // A's tab is closed; the token in storage expires meanwhile (its `exp` now in the past). The
    // edit is made on a page of the origin that runs no app: an open app would see the expired
    // token at its next render and end the session there and then, which is not this case.
    await page.goto('/healthz')
    await page.evaluate(() => {
      const [head, body, signature] = (localStorage.getItem('admin_token') ?? '').split('.')
      const claims: unknown = JSON.parse(atob((body ?? '').replace(/-/g, '+').replace(/_/g, '/')))
      const expired = { ...(typeof claims === 'object' && claims !== null ? claims : {}), exp: Math.floor(Date.now() / 1000) - 60 }
      const encoded = btoa(JSON.stringify(expired)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
      localStorage.setItem('admin_token', `${head ?? ''}.${encoded}.${signature ?? ''}`)
    })
    await expect.poll(async () => (await storedData(page)).text).toContain(category)
    await page.goto('/admin/users')
    await expect(page).toHaveURL(/\/admin\/login$/)
    await expectViewerSeesOnlyOwnData(page, context, category)
  })

  test('a snapshot of another scope is removed before this session\'s copy is read', async ({ page }) => {
    await signInPage(page, accounts.viewOnly)
    await page.goto('/admin/users')
    await expect(page.getByRole('cell', { name: leadEmail(1), exact: true })).toBeVisible()
    await expect.poll(async () => (await storedData(page)).keys.length).toBe(1)
    // Left by some other session (another admin, or this one with other access).
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('back-office-cache')
          open.onsuccess = () => {
            const put = open.result.transaction('swr', 'readwrite').objectStore('swr').put({ v: 1, entries: [] }, 'scope:someone-else|superadmin|Admin|')
            put.onsuccess = () => resolve()
            put.onerror = () => reject(put.error)
          }
          open.onerror = () => reject(open.error)
        }),
    )
    expect((await storedData(page)).keys).toHaveLength(2)
    await page.reload()
    await expect(page.getByRole('cell', { name: leadEmail(1), exact: true })).toBeVisible()
    await expect.poll(async () => (await storedData(page)).keys).toEqual([expect.not.stringContaining('someone-else')])
  })
})
