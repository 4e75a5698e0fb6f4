import { z } from 'zod'
import { test, expect, accounts, logInWithForm, storedSnapshots, totpNow } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

test.describe('login', () => {
  test('shows the required validation messages before calling the server', async ({ page }) => {
    await page.goto('/admin/login')
    await page.getByRole('button', { name: 'Login' }).click()
    await expect(page.getByText('email is required')).toBeVisible()
    // The first wrong field takes the focus, as in every form of the kit.
    await expect(page.getByLabel('Email')).toBeFocused()
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByLabel('Password').fill('short')
    await page.getByRole('button', { name: 'Login' }).click()
    await expect(page.getByText('Incorrect format')).toHaveCount(2)
    await expect(page.getByLabel('2FA Code')).toHaveCount(0)
    // Once a submit was tried, each change is checked again: a right email clears its message.
    await page.getByLabel('Email').fill(accounts.superadmin.email)
    await expect(page.getByText('Incorrect format')).toHaveCount(1)
  })

  test('shows the server message in an error toast when the login fails', async ({ page }) => {
    const wrong = { email: 'nobody@e2e.test', password: 'Wrong@123' }
    // What the server itself says for these credentials: the toast must show exactly that.
    const answer = await page.request.post('/api/admin/login', { data: { ...wrong, twoFACode: '' } })
    const { message } = z.object({ message: z.string() }).parse(await answer.json())
    expect(message.length).toBeGreaterThan(0)

    await page.goto('/admin/login')
    await page.getByLabel('Email').fill(wrong.email)
    await page.getByLabel('Password').fill(wrong.password)
    await page.getByRole('button', { name: 'Login' }).click()
    await expect(page.getByRole('alert').filter({ hasText: message })).toBeVisible()
    await expect(page).toHaveURL(/\/admin\/login$/)
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
  })

  test('logs in, stores the Bearer token and lands on Leads', async ({ page }) => {
    await page.goto('/admin/login')
    await logInWithForm(page, accounts.superadmin)
    const stored = await page.evaluate(() => localStorage.getItem('admin_token'))
    expect(stored).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/)
  })

  test('reveals the 2FA input only after the server answers TWO_FA, then logs in with the code', async ({ page }) => {
    const account = accounts.twoFactor
    await page.goto('/admin/login')
    await expect(page.getByLabel('2FA Code')).toHaveCount(0)
    await page.getByLabel('Email').fill(account.email)
    await page.getByLabel('Password').fill(account.password)
    await page.getByRole('button', { name: 'Login' }).click()

    const code = page.getByLabel('2FA Code')
    await expect(code).toBeVisible()
    await expect(code).toBeFocused()
    // The success-styled message above the input comes from the server's TWO_FA answer.
    const notice = page.locator('form [role="status"]')
    await expect(notice).toHaveClass(/emerald/)
    await expect(notice).not.toBeEmpty()
    await expect(page).toHaveURL(/\/admin\/login$/)

    await code.fill('12ab34')
    await expect(code).toHaveValue('1234')
    await code.fill(totpNow(account.totpSecret))
    await page.getByRole('button', { name: 'Login' }).click()
    await expect(page).toHaveURL(/\/admin\/users$/)
  })

  test('has no serious or critical accessibility violation', async ({ page }) => {
    await page.goto('/admin/login')
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible()
    // Checked as staff use it: hydrated, with the Login button enabled.
    await expect(page.getByRole('button', { name: 'Login' })).toBeEnabled()
    await expectNoSevereViolations(page)
  })
})

test.describe('guard', () => {
  test('sends a visitor without a token from a private route to /login', async ({ page }) => {
    await page.goto('/admin/users')
    await expect(page).toHaveURL(/\/admin\/login$/)
    await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible()
  })

  test('sends a signed-in admin from the auth routes to /users', async ({ adminPage: page }) => {
    for (const path of ['/admin/login', '/admin/', '/admin']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/admin\/users$/)
    }
  })

  test('shows Not Found for an unknown path, signed in or not', async ({ page, signIn }) => {
    await page.goto('/admin/no-such-screen')
    await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible()
    await signIn(accounts.superadmin)
    await page.goto('/admin/no-such-screen')
    await expect(page.getByRole('heading', { name: 'Not Found' })).toBeVisible()
  })

  test('sends a restricted sub-admin to the first route they may open, and shows only that in the menu', async ({ page, signIn }) => {
    await signIn(accounts.categoriesOnly)
    await page.goto('/admin/users')
    await expect(page).toHaveURL(/\/admin\/category$/)
    const menu = page.getByRole('navigation', { name: 'Main' })
    // The dashboard is open to every signed-in admin (ours), first in the menu.
    await expect(menu.getByRole('link')).toHaveText(['Dashboard', 'Category List'])
    await page.goto('/admin/contactus')
    await expect(page).toHaveURL(/\/admin\/category$/)
  })

  test('sends View Only staff away from add and edit pages to their first allowed route', async ({ page, signIn }) => {
    // View Only access never includes the child pages (requirements R5.13).
    await signIn(accounts.viewOnly)
    await page.goto('/admin/add-category')
    await expect(page).toHaveURL(/\/admin\/users$/)
    await page.goto('/admin/edit-category')
    await expect(page).toHaveURL(/\/admin\/users$/)
  })
})

test.describe('layout', () => {
  test('shows the menu open above 991 px, and the toggle closes and opens it', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.reload()
    const menu = page.getByRole('navigation', { name: 'Main' })
    await expect(menu).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Leads' })).toHaveAttribute('aria-current', 'page')
    await expect(menu.getByRole('button', { name: 'CMS' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Category List' })).toBeVisible()
    const toggle = page.getByRole('button', { name: 'Toggle menu' })
    await toggle.click()
    await expect(menu).toHaveCount(0)
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await toggle.click()
    await expect(menu).toBeVisible()
  })

  test('at 1280 x 800 every menu entry is in view, or the menu shows at that edge that it scrolls, and scrolls to it', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    // Games: the CMS group open, the longest the menu gets.
    await page.goto('/admin/cms')
    const menu = page.getByRole('navigation', { name: 'Main' })
    const links = menu.getByRole('link')
    const settings = menu.getByRole('link', { name: 'Settings' })
    const below = page.getByTestId('menu-more-below')
    const above = page.getByTestId('menu-more-above')
    await expect(menu.getByRole('link', { name: 'Category List' })).toBeVisible()
    const titles = await links.allInnerTexts()
    /** The entries wholly in view, by title, as the menu's box shows them now. */
    const inView = () =>
      links.evaluateAll((all) =>
        all.flatMap((link) => {
          let box: HTMLElement | null = link.parentElement
          while (box && getComputedStyle(box).overflowY !== 'auto') box = box.parentElement
          const shown = box?.getBoundingClientRect()
          const r = link.getBoundingClientRect()
          return shown && r.top >= shown.top - 1 && r.bottom <= shown.bottom + 1 ? [(link as HTMLElement).innerText] : []
        }),
      )

    // At the top: the entries out of view are below, and the bottom edge says so.
    const first = await inView()
    expect(first.length).toBeGreaterThan(0)
    expect(first).toEqual(titles.slice(0, first.length))
    if (first.length < titles.length) {
      await expect(below).toBeVisible()
      await expect(below).toHaveText(/More below/)
      await expect(above).toHaveCount(0)
      await expect(settings).not.toBeInViewport()
      // A press on it scrolls the menu: now entries are hidden above too, and the top edge fades.
      await below.click()
      await expect(above).toBeVisible()
      expect(await inView()).not.toEqual(first)
    }
    // Every entry can be scrolled into view; at the end nothing is below and the hint is gone.
    for (const link of await links.all()) {
      await link.scrollIntoViewIfNeeded()
      await expect(link).toBeInViewport({ ratio: 1 })
    }
    await expect(settings).toBeInViewport()
    await expect(below).toHaveCount(0)
    if (first.length < titles.length) await expect(above).toBeVisible()

    // Tall enough for every entry: no hint at either edge.
    await page.setViewportSize({ width: 1280, height: 1200 })
    await expect(settings).toBeInViewport()
    await expect(below).toHaveCount(0)
    await expect(above).toHaveCount(0)
    expect(await inView()).toEqual(titles)
  })

  test("a screen with two names shows the menu's as its breadcrumb, and the palette finds it by either", async ({ adminPage: page }) => {
    await page.goto('/admin/brand')
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' })
    await expect(page.getByRole('heading', { name: 'Brand List', level: 1 })).toBeVisible()
    await expect(crumbs).toHaveText('Brand Tab')
    await page.goto('/admin/homepage-content')
    await expect(page.getByRole('heading', { name: 'Homepage Content List', level: 1 })).toBeVisible()
    await expect(crumbs).toHaveText(/CMS\s*›\s*Home Page Content/)
    // An Add page names the list it adds to, as a way back.
    await page.goto('/admin/add-homepage-content')
    await crumbs.getByRole('link', { name: 'Home Page Content' }).click()
    await expect(page).toHaveURL(/\/admin\/homepage-content$/)
    // No breadcrumb where the heading is the menu's name already.
    await page.goto('/admin/category')
    await expect(page.getByRole('heading', { name: 'Category List', level: 1 })).toBeVisible()
    await expect(crumbs).toHaveCount(0)

    for (const [typed, url] of [['Brand List', /\/admin\/brand$/], ['Homepage Content List', /\/admin\/homepage-content$/], ['Brand Tab', /\/admin\/brand$/]] as const) {
      await page.keyboard.press('Control+k')
      const palette = page.getByRole('dialog', { name: 'Command palette' })
      await expect(palette.getByRole('combobox')).toBeFocused()
      await page.keyboard.type(typed)
      await page.keyboard.press('Enter')
      await expect(palette).toHaveCount(0)
      await expect(page).toHaveURL(url)
    }
  })

  test('starts with the menu closed at 991 px and narrower', async ({ adminPage: page }) => {
    await page.setViewportSize({ width: 991, height: 800 })
    await page.reload()
    await expect(page.getByRole('button', { name: 'Toggle menu' })).toHaveAttribute('aria-expanded', 'false')
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
  })

  test('logs out from the header menu: token and cached data gone, the page reloaded, back to /login', async ({ adminPage: page }) => {
    await expect.poll(() => storedSnapshots(page)).toBeGreaterThan(0)
    // Gone with the page's memory once it reloads (requirements R4.3: Logout reloads).
    await page.evaluate(() => Object.assign(window, { beforeLogout: true }))
    await page.getByRole('button', { name: /Account menu/ }).click()
    await page.getByRole('menuitem', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/admin\/login$/)
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible()
    await expect.poll(() => page.evaluate(() => 'beforeLogout' in window)).toBe(false)
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull()
    await expect.poll(() => storedSnapshots(page)).toBe(0)
  })
})

test('loads login and Leads with no console error and no Content-Security-Policy violation', async ({ page, signIn }) => {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  // The server's CSP forbids eval; zod must not even probe for it (src/lib/zod-setup.ts).
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP ${event.violatedDirective} ${event.sourceFile}`))
  })
  await page.goto('/admin/login')
  await page.getByLabel('Email').focus()
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible()
  await signIn(accounts.superadmin)
  await page.goto('/admin/users')
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await expect(page.getByRole('row').nth(1)).toBeVisible()
  expect(problems).toEqual([])
})
