/**
 * The login screen is painted from the document alone (login.html, made at
 * build from the real component) and then hydrated, not replaced; no other route shows it, from
 * the server or from the service worker; and every script, stylesheet and shell comes compressed.
 */
import type { Page } from '@playwright/test'
import { test, expect, accounts, logInWithForm, signInPage } from './fixtures.ts'

/** Console errors and warnings, page errors and CSP violations of a page. */
async function watchProblems(page: Page): Promise<string[]> {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP ${event.effectiveDirective} ${event.blockedURI} @${location.pathname}`))
  })
  return problems
}

/** Records whether a login form is ever in the page, from the first parsed node on. */
async function watchForLoginForm(page: Page): Promise<() => Promise<boolean>> {
  await page.addInitScript(() => {
    const seen = () => document.querySelector('input#password') !== null || [...document.querySelectorAll('h1')].some((h) => h.textContent === 'Login')
    const flags = window as unknown as { __loginSeen?: boolean }
    flags.__loginSeen = false
    new MutationObserver(() => {
      if (seen()) flags.__loginSeen = true
    }).observe(document, { childList: true, subtree: true })
  })
  return () => page.evaluate(() => (window as unknown as { __loginSeen?: boolean }).__loginSeen === true)
}

test('paints the login form from the document alone, with no script', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL })
  const page = await context.newPage()
  await page.goto('/admin/login')
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible()
  await expect(page.getByLabel('Email')).toBeVisible()
  await expect(page.getByLabel('Password')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible()
  // Styled by the inlined stylesheet: the button has its indigo background, not the default grey.
  const background = await page.getByRole('button', { name: 'Login' }).evaluate((b) => getComputedStyle(b).backgroundColor)
  expect(background).not.toMatch(/^rgba?\(0, 0, 0, 0\)$|^rgb\(239, 239, 239\)$/)
  await context.close()
})

test('hydrates the painted form (the same nodes, no warning) and it then validates and logs in', async ({ page }) => {
  const problems = await watchProblems(page)
  // The form as parsed, before any module script runs ('interactive' comes first).
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState === 'interactive') (window as unknown as { __painted?: Element | null }).__painted = document.querySelector('#root form')
    })
  })
  await page.goto('/admin/login')
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page.getByText('email is required')).toBeVisible()
  const sameForm = await page.evaluate(() => {
    const painted = (window as unknown as { __painted?: Element | null }).__painted
    return painted !== null && painted !== undefined && painted === document.querySelector('#root form')
  })
  expect(sameForm).toBe(true)
  await logInWithForm(page, accounts.superadmin)
  expect(problems).toEqual([])
})

test('a login from the painted form does not fetch the inlined stylesheet again', async ({ page }) => {
  // The signed-in area's chunks list the app's stylesheet among their needs; login.html has it
  // inline, and fetching it again would add every rule a second time.
  const stylesheets: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet' && /\/assets\/index-[\w-]+\.css$/.test(request.url())) stylesheets.push(request.url())
  })
  await page.goto('/admin/login')
  await logInWithForm(page, accounts.superadmin)
  // The command palette's chunk lists it too.
  await page.keyboard.press('Control+k')
  await expect(page.getByRole('dialog')).toBeVisible()
  expect(stylesheets).toEqual([])
})

test('keeps what was typed before hydration, and the Login button waits for it', async ({ page }) => {
  // The login screen's code is held back until the fields are filled.
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/\/assets\/login-page-[\w-]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(accounts.superadmin.email)
  await page.getByLabel('Password').fill(accounts.superadmin.password)
  await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled()
  release()
  await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled()
  await expect(page.getByLabel('Email')).toHaveValue(accounts.superadmin.email)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page).toHaveURL(/\/admin\/users$/)
})

test('a signed-in visit never shows the login form, from the server or from the service worker', async ({ page }) => {
  const problems = await watchProblems(page)
  const loginSeen = await watchForLoginForm(page)
  await page.goto('/admin/data-deletion')
  // The worker installs after the first load; the next navigations are answered by it.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await signInPage(page, accounts.superadmin)
  for (const path of ['/admin/users', '/admin/', '/admin/category']) {
    await page.goto(path)
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null), path).toBe(true)
    expect(await loginSeen(), path).toBe(false)
  }
  // Signed out, the worker's copy of the login shell paints styled, with its stored nonce accepted.
  await page.evaluate(() => localStorage.removeItem('admin_token'))
  await page.goto('/admin/login')
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  await page.getByRole('button', { name: 'Login' }).click()
  await expect(page.getByText('email is required')).toBeVisible()
  expect(problems).toEqual([])
})

test('every other route paints its loading state from the document alone, with no script', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL })
  const page = await context.newPage()
  await page.goto('/admin/users')
  await expect(page.getByRole('status')).toHaveText('Loading…')
  await context.close()
})

test('a signed-in first load asks for its rows before it opens the real-time link', async ({ page }) => {
  // The link (socket.io's code and handshake) is not needed to show the screen: on a slow line
  // its round trips went out while the screen waited for its rows, and held them back.
  const order: string[] = []
  page.on('response', (response) => {
    if (response.url().includes('/api/admin/getuser')) order.push('rows answered')
  })
  page.on('websocket', (socket) => {
    if (socket.url().includes('/socket.io/')) order.push('real-time link')
  })
  // A slow answer, as on a slow line: the page is idle for most of a second while it waits.
  await page.route(/\/api\/admin\/getuser/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    await route.continue()
  })
  await signInPage(page, accounts.superadmin)
  await page.goto('/admin/users')
  await expect(page.getByRole('row').nth(1)).toBeVisible()
  await expect.poll(() => order.includes('real-time link')).toBe(true)
  expect(order.indexOf('rows answered')).toBeGreaterThanOrEqual(0)
  expect(order.indexOf('rows answered')).toBeLessThan(order.indexOf('real-time link'))
})

test.describe('compression', () => {
  // Straight from the server: a worker's cached copies would hide what the server sends.
  test.use({ serviceWorkers: 'block' })

  test('sends every script, stylesheet and shell of login and Leads compressed', async ({ page }) => {
    const seen: string[] = []
    const plain: string[] = []
    page.on('response', (response) => {
      const type = response.request().resourceType()
      if (type !== 'script' && type !== 'stylesheet' && type !== 'document') return
      seen.push(response.url())
      const encoding = response.headers()['content-encoding']
      if (encoding !== 'br' && encoding !== 'gzip') plain.push(`${response.url()} (${encoding ?? 'none'})`)
    })
    await page.goto('/admin/login')
    await page.getByLabel('Email').focus()
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible()
    await signInPage(page, accounts.superadmin)
    await page.goto('/admin/users')
    await expect(page.getByRole('row').nth(1)).toBeVisible()
    expect(seen.filter((url) => url.endsWith('.js')).length).toBeGreaterThan(5)
    expect(plain).toEqual([])
  })
})
