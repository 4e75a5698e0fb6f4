/**
 * Shared Playwright fixtures: sign in as one of the seeded accounts (accounts.ts) without going
 * through the form, and a page already signed in as the superadmin.
 *
 *     import { test, expect, accounts } from './fixtures.ts'
 *     test('…', async ({ adminPage }) => { await adminPage.goto('/admin/category') })
 *     test('…', async ({ page, signIn }) => { await signIn(accounts.viewOnly); await page.goto('/admin/users') })
 */
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test'
import { z } from 'zod'
import { SocketEvents } from '#contract/socket'
import { totpCode, totpStep } from '../../server/kit/ground/access/two-factor-code.ts'
import { gradientIcon } from '../../server/db/png.ts'
import { APP_STORE_URL, PASSWORD, accounts, type Account } from './accounts.ts'
import { sharedServer } from './shared-servers.ts'

export { expect, accounts }
export type { Account }

const LoginAnswer = z.object({ status: z.literal('success'), token: z.string() })

export const Enquiries = z.object({ result: z.array(z.object({ _id: z.string(), name: z.string(), status: z.string() })) })

/** Every seeded enquiry back to Open, through the API, so each test starts from the same counts. */
export async function reopenAllEnquiries(request: APIRequestContext): Promise<void> {
  const headers = { authorization: `Bearer ${await apiToken(request, accounts.superadmin)}` }
  const list = Enquiries.parse(await (await request.get('/api/admin/getContactUS?page=1&limit=50', { headers })).json())
  for (const e of list.result.filter((r) => r.status !== 'Open')) {
    const res = await request.post('/api/admin/setContactStatus', { headers, data: { _id: e._id, status: 'Open' } })
    expect(res.ok(), await res.text()).toBe(true)
  }
}

/** The superadmin's Authorization header, for a test's own API calls. */
export async function superadminHeaders(request: APIRequestContext): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await apiToken(request, accounts.superadmin)}` }
}

/** The rows of the page's table body. */
export const bodyRows = (page: Page) => page.getByRole('table').locator('tbody tr')

/** The toast saying `text`. */
export const toast = (page: Page, text: string) => page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: text })

/** Picks `option` in the select labelled `label`. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

const Answer = z.object({ message: z.string() })

/** The message the POST to `endpoint` answers while `act` runs. */
export async function answerOf(page: Page, endpoint: string, act: () => Promise<void>): Promise<string> {
  const answer = page.waitForResponse((r) => r.url().includes(`/api/admin/${endpoint}`) && r.request().method() === 'POST')
  await act()
  return Answer.parse(await (await answer).json()).message
}

/** A small PNG to upload, its colours from `hue`. */
export const png = (name: string, hue: number) => ({ name, mimeType: 'image/png', buffer: gradientIcon(64, [hue, 80, 160], [40, hue, 200]) })

/** The current 6-digit code of a TOTP secret. */
export const totpNow = (secret: string): string => totpCode(secret, totpStep())

/** Logs in through the API (as the form would) and returns the raw JWT. */
export async function apiToken(request: APIRequestContext, account: Account): Promise<string> {
  const response = await request.post('/api/admin/login', {
    data: { email: account.email, password: account.password, twoFACode: account.totpSecret ? totpNow(account.totpSecret) : '' },
  })
  const body: unknown = await response.json()
  const answer = LoginAnswer.safeParse(body)
  if (!answer.success) throw new Error(`login of ${account.email} failed: ${JSON.stringify(body)}`)
  return answer.data.token
}

/** A label no other test or run has used: the label, the time and a random tail. */
export const unique = (label: string): string => `${label}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

/** An email address no other test or run has used. */
export const uniqueEmail = (label: string): string => `${unique(label)}@e2e.test`

/**
 * A staff member made through the API by the superadmin (as Create User does), answered as an
 * account to sign in with: View Only on `screens` unless `accessLevel` says otherwise.
 */
export async function createStaff(
  request: APIRequestContext,
  staff: { name: string; screens: string[]; accessLevel?: Account['accessLevel']; email?: string },
): Promise<Account> {
  const account: Account = {
    email: staff.email ?? uniqueEmail(staff.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')),
    password: PASSWORD,
    name: staff.name,
    role: 'subadmin',
    accessLevel: staff.accessLevel ?? 'View Only',
    restrictions: staff.screens,
  }
  const response = await request.post('/api/admin/createSubAdminUsers', {
    headers: { authorization: `Bearer ${await apiToken(request, accounts.superadmin)}` },
    data: { name: account.name, email: account.email, password: account.password, accessLevel: account.accessLevel, restrictions: account.restrictions },
  })
  expect(response.ok(), await response.text()).toBe(true)
  return account
}

/** Stores a session for `account` in the page's origin, as a successful login does. */
export async function signInPage(page: Page, account: Account): Promise<void> {
  const token = await apiToken(page.request, account)
  // Any document of the origin holds its localStorage: the health answer is the cheapest to load
  // (no script, no screen to render), so signing in costs one small request, not a page.
  if (!page.url().startsWith('http')) await page.goto('/healthz')
  await page.evaluate((value) => localStorage.setItem('admin_token', `Bearer ${value}`), token)
}

/** Logs in through the login form of the page open at /admin/login and waits for Leads. */
export async function logInWithForm(page: Page, account: Account): Promise<void> {
  await page.getByLabel('Email').fill(account.email)
  await page.getByLabel('Password').fill(account.password)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/admin\/users$/)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
}

export const test = base.extend<{ signIn: (account: Account) => Promise<void>; adminPage: Page }>({
  // Each worker on the shared server of its slot (shared-servers.ts); a spec that starts a server
  // of its own sets baseURL with test.use, which replaces this.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from this pattern: none here.
  baseURL: async ({}, provide, testInfo) => {
    await provide(sharedServer(testInfo.parallelIndex).origin)
  },
  // Playwright's fixture callback is conventionally named `use`; another name keeps the React
  // hooks lint rule from mistaking it for React's use().
  signIn: async ({ page }, provide) => {
    await provide((account) => signInPage(page, account))
  },
  adminPage: async ({ page }, provide) => {
    await signInPage(page, accounts.superadmin)
    await page.goto('/admin/users')
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    await provide(page)
  },
})

/** Number of stored offline snapshots (src/lib/swr-cache.ts's IndexedDB store). */
export function storedSnapshots(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('back-office-cache')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('swr')) return resolve(0)
          const count = db.transaction('swr').objectStore('swr').count()
          count.onsuccess = () => resolve(count.result)
          count.onerror = () => reject(count.error)
        }
      }),
  )
}

/**
 * Resolves once the service worker is active and has finished precaching the shell. The app
 * registers it once the first screen's calls have answered and the page is idle
 * (src/lib/idle.ts), so a test that goes offline right after a screen appears waits for this.
 */
export async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready
    if (!registration.active) throw new Error('no active service worker')
  })
}

/**
 * Resolves once the page's real-time link is up: CREATEROOM (SocketEvents.createRoom) goes out
 * over its WebSocket (the link's only transport) after the server accepted the socket (and
 * joined it to its screens' rooms). Call it before the navigation that opens the link.
 */
export function socketJoined(page: Page): Promise<void> {
  return new Promise<void>((resolve) => {
    page.on('websocket', (socket) =>
      socket.on('framesent', (frame) => {
        if (String(frame.payload).includes(SocketEvents.createRoom)) resolve()
      }),
    )
  })
}

/**
 * Opens a referral link and answers the referrer the browser was sent to the store listing with.
 * The store is not reachable from the test machine, and the server's redirect is followed by the
 * browser itself (a route cannot answer a redirected request), so the request for the listing is
 * what is looked at; the navigation's failure to reach it is expected.
 */
export async function referrerSentToStore(page: Page, path: string): Promise<string | null> {
  // A tab of its own (same context, so same settings and session): the error page it ends on
  // never interrupts what the test does next in `page`.
  const tab = await page.context().newPage()
  try {
    const toStore = tab.waitForRequest((request) => request.url().startsWith(APP_STORE_URL) && request.isNavigationRequest())
    await tab.goto(path).catch(() => undefined)
    return new URL((await toStore).url()).searchParams.get('referrer')
  } finally {
    await tab.close()
  }
}
