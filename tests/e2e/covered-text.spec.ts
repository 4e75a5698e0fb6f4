/**
 * No text covered: on every list the side menu leads to (the contract's screen list, which the
 * route table and the menu are built from), and on the record pages their first rows link to (a
 * lead's page, a record's edit page from the audit log), at a desk's 1280 px and a tablet's 820 px,
 * in both themes, each header and each cell of the first row is read where its text ends, with
 * document.elementFromPoint at the end of the text's own rectangle (a Range over its text node),
 * as the table first shows it: what is painted there must be that cell, never a sticky column (the
 * Action column kept at the right edge) laid over it, and no table may be wider than its box. Text
 * cut to fit must end in an ellipsis and carry its whole value in a title. On a tablet the list's
 * toolbar, filters included, takes two rows at most.
 *
 * Each screen loads once per width; the theme follows the system's (src/lib/theme.ts), so it is
 * switched by emulating the colour scheme, without a reload. The records are as long as real ones
 * get: a game and its category made here, and the newest lead (leads come from the wallet app, not
 * from an admin call) answered with a long name, email and country.
 */
import type { Page } from '@playwright/test'
import { screens } from '#contract/routes'
import { accounts, apiToken, expect, png, signInPage, test } from './fixtures.ts'

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 820, height: 1000 },
] as const
const THEMES = ['light', 'dark'] as const

/** Every screen of the menu (top level and the CMS group): the lists are found among them by their tables. */
const MENU_SCREENS = screens.filter((s) => 'menu' in s)

/** One text run that failed, said the way a person would report it. */
interface Finding {
  table: string
  cell: string
  problem: string
}

/**
 * Reads every header and first-row cell of the page's tables as first shown (each table box
 * scrolled to its start). For each run of text: the point just inside its end must hit its own
 * cell; a run cut by its box (wider or taller than shown) must end in an ellipsis (text-overflow or
 * a line clamp) and have a title with its whole text, and the end of what is shown must be its own.
 */
async function coveredText(page: Page): Promise<{ tables: number; cells: number; findings: Finding[] }> {
  return page.evaluate(() => {
    const findings: { table: string; cell: string; problem: string }[] = []
    let cells = 0
    const isSticky = (el: Element | null): Element | null => {
      for (let e = el; e !== null; e = e.parentElement) if (getComputedStyle(e).position === 'sticky' && (e.tagName === 'TD' || e.tagName === 'TH')) return e
      return null
    }
    /** Text only a screen reader gets (the sr-only pattern: an absolute box clipped away), or none. */
    const visuallyHidden = (el: Element): boolean => {
      for (let e: Element | null = el; e !== null; e = e.parentElement) {
        const s = getComputedStyle(e)
        const clipped = (s.clip !== 'auto' && s.clip !== '') || s.clipPath !== 'none'
        if (s.position === 'absolute' && (clipped || e.getBoundingClientRect().width <= 1)) return true
        if (s.display === 'none' || s.visibility === 'hidden') return true
      }
      return false
    }
    // The tables on screen (a chart's table for screen readers is not one).
    const tables = [...document.querySelectorAll('main table')].filter((t) => t.querySelector('thead th') !== null && !visuallyHidden(t))
    /** The nearest box between the text and its cell that cuts what overflows it. */
    const clipper = (from: Element, cell: Element): HTMLElement | null => {
      for (let e: Element | null = from; e !== null; e = e.parentElement) {
        if (e instanceof HTMLElement && getComputedStyle(e).overflowX !== 'visible') return e
        if (e === cell) break
      }
      return null
    }
    for (const table of tables) {
      const caption = table.querySelector('caption')?.textContent?.trim() ?? 'a table'
      const box = table.parentElement
      if (box) box.scrollLeft = 0
      // Wider than its box, a table scrolls its last columns under the sticky Action column.
      if (box && box.scrollWidth > box.clientWidth + 1) findings.push({ table: caption, cell: 'the table', problem: `is ${box.scrollWidth - box.clientWidth} px wider than its box` })
      const headers = [...table.querySelectorAll('thead th')]
      const firstRow = [...(table.querySelector('tbody tr')?.querySelectorAll('td') ?? [])]
      for (const cell of [...headers, ...firstRow]) {
        if (getComputedStyle(cell).display === 'none') continue
        const name = cell.tagName === 'TH' ? `header "${(cell.textContent ?? '').trim()}"` : `first-row cell ${firstRow.indexOf(cell as HTMLTableCellElement) + 1} ("${(cell.textContent ?? '').trim().slice(0, 40)}")`
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const text = node.textContent ?? ''
          const parent = node.parentElement
          if (parent === null || text.trim() === '' || visuallyHidden(parent)) continue
          cells += 1
          const range = document.createRange()
          range.setStart(node, text.trimEnd().length - 1)
          range.setEnd(node, text.trimEnd().length)
          const end = [...range.getClientRects()].at(-1)
          if (end === undefined || end.width === 0) continue
          let x = end.right - 1
          let y = end.top + end.height / 2
          const cut = clipper(parent, cell)
          if (cut !== null && (cut.scrollWidth > cut.clientWidth + 1 || cut.scrollHeight > cut.clientHeight + 1)) {
            const s = getComputedStyle(cut)
            const ellipsis = s.textOverflow === 'ellipsis' || (s.webkitLineClamp !== 'none' && s.webkitLineClamp !== '')
            if (!ellipsis) findings.push({ table: caption, cell: name, problem: 'is cut without an ellipsis' })
            let titled = false
            for (let e: Element | null = cut; e !== null && !titled; e = e === cell ? null : e.parentElement) titled = (e.getAttribute('title') ?? '').includes(text.trim())
            if (!titled) findings.push({ table: caption, cell: name, problem: 'is cut and has no title with its whole text' })
            // What is shown of it ends at the clipping box's edge (the ellipsis).
            const shown = cut.getBoundingClientRect()
            x = Math.min(x, shown.right - 2)
            y = Math.min(y, shown.bottom - 2)
          }
          const hit = document.elementFromPoint(x, y)
          if (hit !== null && cell.contains(hit)) continue
          const over = isSticky(hit)
          findings.push({
            table: caption,
            cell: name,
            problem: over !== null ? `ends under the sticky column "${(over.textContent ?? '').trim().slice(0, 30)}"` : `ends where ${hit === null ? 'nothing' : `<${hit.tagName.toLowerCase()}> "${(hit.textContent ?? '').trim().slice(0, 30)}"`} is painted`,
          })
        }
      }
    }
    return { tables: tables.length, cells, findings }
  })
}

/** A game as long as real ones get (title, link, category), so the Games table is as wide as it gets. */
async function addLongGame(page: Page): Promise<void> {
  const auth = { authorization: `Bearer ${await apiToken(page.request, accounts.superadmin)}` }
  const categoryName = `Massively Multiplayer Online Role-Playing Adventures ${Math.random().toString(36).slice(2, 6)}`
  const added = await page.request.post('/api/admin/addcategory', { headers: auth, multipart: { categoryName, image: png('category.png', 120) } })
  expect(added.ok(), await added.text()).toBe(true)
  const listed = (await (await page.request.get('/api/admin/categoryDropdown', { headers: auth })).json()) as { result: { data: Array<{ _id: string; categoryName: string }> } }
  const category = listed.result.data.find((c) => c.categoryName === categoryName)?._id ?? ''
  const game = await page.request.post('/api/admin/addcms', {
    headers: auth,
    multipart: {
      title: `The Extraordinarily Long Adventure Of The Wandering Knight Through Seven Kingdoms ${Math.random().toString(36).slice(2, 6)}`,
      categoryName: category,
      operatingsystem: 'Android',
      description: 'Covered text',
      liveLink: 'https://games.example/play/a-racing-game-with-a-long-address?ref=covered-text',
      isGameBackend: 'true',
      image: png('shot.png', 200),
    },
  })
  expect(game.ok(), await game.text()).toBe(true)
}

/** The newest lead as long as real ones get: the first row of Leads, and the lead page it links to. */
async function longFirstLead(page: Page): Promise<void> {
  const long = { name: 'Maximiliana Alexandra Konstantinopoulou-Vanderbilt', email: 'maximiliana.konstantinopoulou-vanderbilt@wallet-users.example', country: 'United Arab Emirates' }
  await page.route(/\/api\/admin\/(getuser|getLead)\?/, async (route) => {
    const response = await route.fetch()
    const body = (await response.json()) as { data?: Record<string, unknown>[]; record?: Record<string, unknown> }
    const lead = body.data?.[0] ?? body.record
    if (lead) Object.assign(lead, long)
    await route.fulfill({ response, json: body })
  })
}

/** The screen has drawn what it shows: its heading, no table still fetching, no lazy part loading. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.locator('main [aria-busy="true"]')).toHaveCount(0)
  await expect(page.locator('main [role="status"]').filter({ hasText: /^Loading/ })).toHaveCount(0)
  // A list page draws its table with its toolbar: one without a table has not finished drawing.
  if ((await page.locator('main [data-list-toolbar]').count()) > 0) await expect(page.locator('main table').first()).toBeVisible()
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
}

/** Screens of the route table that the first row of the page's tables links to (a lead's page). */
async function firstRowScreens(page: Page): Promise<string[]> {
  const hrefs = await page.locator('main table tbody tr:first-child a[href]').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))
  const paths = new Set<string>(screens.map((s) => s.path))
  return hrefs.flatMap((href) => {
    const url = new URL(href)
    const path = url.pathname.replace(/^\/admin/, '')
    return url.origin === new URL(page.url()).origin && paths.has(path) && !MENU_SCREENS.some((s) => s.path === path) ? [`${path}${url.search}`] : []
  })
}

/** How many rows the list toolbar's visible controls (and the filters' row under it) take. */
async function toolbarRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const toolbar = document.querySelector('main [data-list-toolbar]')
    if (!toolbar) return 0
    const filters = toolbar.nextElementSibling?.querySelector('[role="group"][aria-label="Filters"]')
    const controls = [...toolbar.querySelectorAll('button, input, [role="combobox"]'), ...(filters ? filters.querySelectorAll('button, input, [role="combobox"]') : [])]
    // Controls of one row differ in height by a few pixels; a new row starts a control's height lower.
    const middles = controls
      .map((c) => c.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0)
      .map((box) => box.top + box.height / 2)
      .sort((x, y) => x - y)
    return middles.filter((m, i) => i === 0 || m - (middles[i - 1] ?? m) > 16).length
  })
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor)

test.describe('no text covered', () => {
  // The lead's answers are rewritten on their way to the page, which a service worker's own fetches would bypass.
  test.use({ serviceWorkers: 'block' })
  test.beforeAll(async ({ browser }) => {
    const page = await browser.newPage()
    await signInPage(page, accounts.superadmin)
    await addLongGame(page)
    await page.close()
  })

  for (const viewport of WIDTHS) {
    test(`every list at ${viewport.width} px, light and dark: each header and first-row cell readable to its end`, async ({ page }) => {
      test.setTimeout(150_000)
      await page.setViewportSize(viewport)
      await longFirstLead(page)
      await signInPage(page, accounts.superadmin)
      const lists: string[] = []
      const visited: string[] = []
      const findings: string[] = []
      const backgrounds = new Set<string>()
      const queue: { path: string; title: string }[] = MENU_SCREENS.map((s) => ({ path: s.path, title: s.title }))
      const queued = new Set(queue.map((s) => s.path))
      for (const screen of queue) {
        await page.goto(`/admin${screen.path}`)
        await settled(page)
        visited.push(screen.title)
        for (const theme of THEMES) {
          await page.emulateMedia({ colorScheme: theme })
          backgrounds.add(await background(page))
          const measured = await coveredText(page)
          if (measured.tables === 0) break
          if (theme === THEMES[0]) lists.push(screen.title)
          expect(measured.cells, `${screen.title}: no text was read`).toBeGreaterThan(0)
          for (const f of measured.findings) findings.push(`${screen.title}, ${theme} (${f.table}): ${f.cell} ${f.problem}`)
          if (measured.findings.length > 0) await page.screenshot({ path: `.tmp/covered-${screen.path.slice(1).replace(/[^\w-]+/g, '_')}-${viewport.width}-${theme}.png`, animations: 'disabled' })
        }
        await page.emulateMedia({ colorScheme: THEMES[0] })
        // On a tablet the list's toolbar stays within two rows, however many filters the list has
        // (they fold into one Filters control there; at a desk they have rows of their own).
        const rows = viewport.width < 1024 ? await toolbarRows(page) : 0
        if (rows > 2) findings.push(`${screen.title}: its toolbar takes ${rows} rows`)
        for (const path of await firstRowScreens(page)) {
          const bare = path.split('?')[0] ?? path
          if (queued.has(bare)) continue
          queued.add(bare)
          queue.push({ path, title: `${screen.title} > ${screens.find((s) => s.path === bare)?.title ?? bare}` })
        }
      }
      // Both themes were shown: the page's background differs between them.
      expect(backgrounds.size).toBe(THEMES.length)
      expect(findings, findings.join('\n')).toEqual([])
      // The lists are those the menu leads to, not a hand-kept few; the pages their rows open were read too.
      expect(lists).toEqual(expect.arrayContaining(['Games', 'Leads']))
      expect(lists.length, lists.join(', ')).toBeGreaterThanOrEqual(12)
      expect(visited).toContain('Leads > Lead')
    })
  }
})
