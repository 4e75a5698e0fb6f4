/**
 * Games (requirements R2.14, R3.9, R5.7): the list with its category and operating-system filters in the
 * URL, Add Games and Edit Games with several images and a video, Freeze / UnFreeze, View Only
 * without write controls, and axe.
 */
import type { APIRequestContext } from '@playwright/test'
import { z } from 'zod'
import { createStaff, test, expect, signInPage, bodyRows, choose, superadminHeaders, png } from './fixtures.ts'
import { expectNoSevereViolations } from './axe.ts'

const run = Date.now().toString(36)
const GamePage = z.object({
  result: z.array(z.object({ _id: z.string(), title: z.string(), image: z.array(z.string()), thumbnails: z.array(z.string()), video: z.string(), freeze: z.boolean() })),
})
const Categories = z.object({ result: z.object({ data: z.array(z.object({ _id: z.string(), categoryName: z.string() })) }) })

// What the server checks of a video is its signature (an ISO base-media header); the rest is filler.
const mp4 = { name: 'trailer.mp4', mimeType: 'video/mp4', buffer: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12), Buffer.from([0, 0, 0x10, 0x08]), Buffer.from('mdat'), Buffer.alloc(4096, 7)]) }


async function categoryId(request: APIRequestContext, name: string): Promise<string> {
  const auth = await superadminHeaders(request)
  const listed = Categories.parse(await (await request.get('/api/admin/categoryDropdown', { headers: auth })).json())
  const found = listed.result.data.find((c) => c.categoryName === name)
  if (found) return found._id
  const added = await request.post('/api/admin/addcategory', { headers: auth, multipart: { categoryName: name, image: png('category.png', 90) } })
  expect(added.ok(), await added.text()).toBe(true)
  return categoryId(request, name)
}

async function addGame(request: APIRequestContext, fields: { title: string; category: string; operatingsystem: string }): Promise<void> {
  const response = await request.post('/api/admin/addcms', {
    headers: await superadminHeaders(request),
    multipart: { ...fields, categoryName: fields.category, description: `About ${fields.title}`, liveLink: 'https://games.example/play', isGameBackend: 'false', image: png('shot.png', 30) },
  })
  expect(response.ok(), await response.text()).toBe(true)
}

async function gamesNamed(request: APIRequestContext, search: string) {
  const response = await request.get('/api/admin/listCms', { headers: await superadminHeaders(request), params: { page: 1, limit: 50, search } })
  return GamePage.parse(await response.json()).result
}


test('Add Games shows the required messages, then adds a game with several images and a video and returns to Games', async ({ adminPage: page }) => {
  await categoryId(page.request, 'Arcade E2E')
  await page.goto('/admin/cms')
  await expect(page.getByRole('heading', { name: 'Games' })).toBeVisible()
  await expect(page.getByRole('columnheader')).toHaveText(
    // First, the bulk actions' column: its header is the page's checkbox.
    ['', 'S.No', 'Title', 'Operating System', 'Category Name', 'Game ID', 'Category ID', 'Live Link', 'Game Backend', 'Status', 'Action'],
    { useInnerText: true },
  )
  await expect(page.getByRole('link', { name: 'Edit Token' })).toBeVisible()
  await page.getByRole('link', { name: 'Add Games' }).click()
  await expect(page).toHaveURL(/\/admin\/add-cms$/)

  await page.getByRole('button', { name: 'Submit' }).click()
  for (const message of ['Title is required', 'description is required', 'category Name is required', 'OperatingSystem is required', 'liveLink is required', 'image is required']) {
    await expect(page.getByText(message, { exact: true })).toBeVisible()
  }
  await page.getByLabel('Live Link').fill('not a link')
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Invalid format', { exact: true })).toBeVisible()

  const title = `Starfall ${run}`
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Description').fill('Catch the falling stars.')
  await choose(page, 'Category', 'Arcade E2E')
  await choose(page, 'Operating System', 'both')
  await page.getByLabel('Live Link').fill('https://games.example/starfall')
  await page.getByLabel('Images').setInputFiles([1, 2, 3, 4, 5, 6].map((n) => png(`shot-${n}.png`, n * 30)))
  await expect(page.getByText('You can upload a maximum of 5 images.')).toBeVisible()
  await page.getByRole('button', { name: /^Remove Chosen image 6/ }).click()
  await page.getByRole('button', { name: /^Remove Chosen image 5/ }).click()
  await page.getByRole('button', { name: /^Remove Chosen image 4/ }).click()
  await expect(page.getByText('You can upload a maximum of 5 images.')).toHaveCount(0)
  await page.getByLabel('Video').setInputFiles(mp4)
  await page.getByRole('switch', { name: 'Game Backend' }).click()
  // The switch's state is written beside it, not only shown by its position.
  await expect(page.getByRole('switch', { name: 'Game Backend' })).toHaveAttribute('aria-checked', 'true')
  await expect(page.getByRole('switch', { name: 'Game Backend' }).locator('xpath=..').locator('[data-switch-state]')).toHaveText('On')
  await page.screenshot({ path: '.tmp/games-add.png', fullPage: true })
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/addcms'))
  await page.getByRole('button', { name: 'Submit' }).click()
  expect((await answer).status()).toBe(200)

  await expect(page).toHaveURL(/\/admin\/cms$/)
  await expect(page.getByRole('status').filter({ hasText: 'Game added successfully' })).toBeVisible()
  const [stored] = await gamesNamed(page.request, title)
  expect(stored?.image).toHaveLength(3)
  expect(stored?.video).toMatch(/\.mp4$/)
  await page.getByRole('searchbox', { name: 'Search' }).fill(title)
  await expect(bodyRows(page)).toHaveCount(1)
  const row = bodyRows(page).first()
  await expect(row).toContainText('both')
  await expect(row).toContainText('Arcade E2E')
  await expect(row).toContainText('Yes')
  // View shows the thumbnail, never the original; the live link opens in a new tab.
  await expect(row.getByRole('link', { name: 'Open https://games.example/starfall' })).toHaveAttribute('target', '_blank')
  await row.getByRole('button', { name: `View ${title}` }).click()
  await expect(page.getByRole('dialog').getByRole('img', { name: title })).toHaveAttribute('src', /-thumb\.webp$/)
})

test('filters by category and operating system in the URL, back on page 1, and clearing restores the list', async ({ adminPage: page }) => {
  const racing = await categoryId(page.request, 'Racing E2E')
  const puzzle = await categoryId(page.request, 'Puzzle E2E')
  const tag = `filter-${run}`
  await addGame(page.request, { title: `${tag} drift`, category: racing, operatingsystem: 'Android' })
  await addGame(page.request, { title: `${tag} rally`, category: racing, operatingsystem: 'ios' })
  await addGame(page.request, { title: `${tag} blocks`, category: puzzle, operatingsystem: 'ios' })

  await page.goto(`/admin/cms?search=${tag}&page=1&limit=20`)
  await expect(bodyRows(page)).toHaveCount(3)
  await choose(page, 'Filter by Category', 'Racing E2E')
  await expect(page).toHaveURL(new RegExp(`category=${racing}`))
  await expect(page).not.toHaveURL(/limit=20/)
  await expect(bodyRows(page)).toHaveCount(2)
  await choose(page, 'Filter by Operating System', 'ios')
  await expect(page).toHaveURL(/operatingsystem=ios/)
  await expect(bodyRows(page)).toHaveCount(1)
  await expect(bodyRows(page).first()).toContainText(`${tag} rally`)
  await page.screenshot({ path: '.tmp/games-list.png' })
  // A tablet: the IDs and the link fold into the view modal; the actions stay in sight.
  await page.setViewportSize({ width: 820, height: 1000 })
  await page.reload()
  await expect(bodyRows(page)).toHaveCount(1)
  await expect(page.getByRole('button', { name: `Freeze ${tag} rally` })).toBeInViewport()
  await expect(bodyRows(page).first().getByText('Live', { exact: true })).toBeInViewport()
  await page.screenshot({ path: '.tmp/games-list-820.png' })
  await page.setViewportSize({ width: 1280, height: 900 })

  // A filtered link opens filtered.
  await page.reload()
  await expect(bodyRows(page)).toHaveCount(1)
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect(page).not.toHaveURL(/category=|operatingsystem=/)
  await expect(bodyRows(page)).toHaveCount(3)
})

test('Edit Games keeps, removes and adds images, replaces nothing it was not asked to, and returns to Games', async ({ adminPage: page }) => {
  const arcade = await categoryId(page.request, 'Arcade E2E')
  const title = `Editable ${run}`
  await addGame(page.request, { title, category: arcade, operatingsystem: 'Android' })
  const request = page.request
  const response = await request.post('/api/admin/addcms', {
    headers: await superadminHeaders(request),
    multipart: { title: `${title} two`, categoryName: arcade, operatingsystem: 'ios', description: 'Second', liveLink: 'https://games.example/2', isGameBackend: 'true', image: png('a.png', 10) },
  })
  expect(response.ok()).toBe(true)

  await page.goto(`/admin/cms?search=${encodeURIComponent(`${title} two`)}`)
  await page.getByRole('button', { name: `Edit ${title} two` }).click()
  await expect(page).toHaveURL(/\/admin\/edit-cms\?id=/)
  await expect(page.getByRole('heading', { name: 'Edit Games' })).toBeVisible()
  await expect(page.getByLabel('Title')).toHaveValue(`${title} two`)
  await page.getByLabel('Images').setInputFiles([png('b.png', 120), png('c.png', 200)])
  await page.getByRole('button', { name: 'Remove Saved image 1' }).click()
  await page.getByLabel('Video').setInputFiles(mp4)
  await page.getByLabel('Title').fill(`${title} renamed`)
  await page.getByLabel('Live Link').fill('nope')
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Incorrect format', { exact: true })).toBeVisible()
  await page.getByLabel('Live Link').fill('https://games.example/renamed')
  await page.screenshot({ path: '.tmp/games-edit.png', fullPage: true })
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page).toHaveURL(/\/admin\/cms$/)
  await expect(page.getByRole('status').filter({ hasText: 'Game updated successfully' })).toBeVisible()

  const [game] = await gamesNamed(request, `${title} renamed`)
  expect(game?.image).toHaveLength(2)
  expect(game?.video).toMatch(/\.mp4$/)
  const video = await request.get(game?.video ?? '', { headers: { range: 'bytes=0-3' } })
  expect(video.status()).toBe(206)

  // Opened by its URL alone (a reload, a shared link), the form reads the game and can drop its video.
  await page.goto(`/admin/edit-cms?id=${game?._id ?? ''}`)
  await expect(page.getByLabel('Title')).toHaveValue(`${title} renamed`)
  await expect(page.getByRole('img', { name: /^Saved image/ })).toHaveCount(2)
  await page.getByRole('button', { name: 'Remove video' }).click()
  await expect(page.getByText('No video')).toBeVisible()
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page).toHaveURL(/\/admin\/cms$/)
  const [after] = await gamesNamed(request, `${title} renamed`)
  expect(after?.video).toBe('')
  expect(after?.image).toEqual(game?.image)
  expect((await request.get(game?.video ?? '')).status()).toBe(404)
})

test('Freeze and UnFreeze flip the game and their own label; the Status column says Live or Frozen', async ({ adminPage: page }) => {
  const arcade = await categoryId(page.request, 'Arcade E2E')
  const title = `Frosty ${run}`
  await addGame(page.request, { title, category: arcade, operatingsystem: 'both' })
  await page.goto(`/admin/cms?search=${encodeURIComponent(title)}`)
  const row = bodyRows(page).filter({ hasText: title })
  await expect(row.getByText('Live', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: `Freeze ${title}` }).click()
  await expect(page.getByRole('button', { name: `UnFreeze ${title}` })).toBeVisible()
  await expect(row.getByText('Frozen', { exact: true })).toBeVisible()
  await expect(row.getByText('Live', { exact: true })).toHaveCount(0)
  expect((await gamesNamed(page.request, title))[0]?.freeze).toBe(true)
  await page.getByRole('button', { name: `UnFreeze ${title}` }).click()
  await expect(page.getByRole('button', { name: `Freeze ${title}` })).toBeVisible()
  await expect(row.getByText('Live', { exact: true })).toBeVisible()
  expect((await gamesNamed(page.request, title))[0]?.freeze).toBe(false)
})

test('Delete asks the required question and removes the game', async ({ adminPage: page }) => {
  const arcade = await categoryId(page.request, 'Arcade E2E')
  const title = `Doomed ${run}`
  await addGame(page.request, { title, category: arcade, operatingsystem: 'both' })
  await page.goto(`/admin/cms?search=${encodeURIComponent(title)}`)
  await page.getByRole('button', { name: `Delete ${title}` }).click()
  await expect(page.getByRole('alertdialog')).toContainText('Are you sure you want to remove this games')
  await page.getByRole('alertdialog').getByRole('button', { name: /^(Yes|Delete|Confirm)/ }).click()
  await expect(page.getByText('No Record Found')).toBeVisible()
  expect(await gamesNamed(page.request, title)).toEqual([])
})

test('View Only staff read Games without Add, Edit, Delete, Freeze or Edit Token', async ({ page }) => {
  const arcade = await categoryId(page.request, 'Arcade E2E')
  const title = `Readable ${run}`
  await addGame(page.request, { title, category: arcade, operatingsystem: 'ios' })
  const viewer = await createStaff(page.request, { name: 'Gail Games', screens: ['/cms'] })
  await signInPage(page, viewer)
  await page.goto(`/admin/cms?search=${encodeURIComponent(title)}`)
  await expect(bodyRows(page).filter({ hasText: title })).toHaveCount(1)
  await expect(page.getByRole('link', { name: 'Add Games' })).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Edit Token' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^(Edit|Delete|Freeze|UnFreeze)\b/ })).toHaveCount(0)
  await page.getByRole('button', { name: `View ${title}` }).click()
  await expect(page.getByRole('dialog', { name: 'Game Details' })).toBeVisible()
})

test('the games screens have no serious or critical accessibility violation', async ({ adminPage: page }) => {
  await categoryId(page.request, 'Arcade E2E')
  for (const path of ['/admin/cms', '/admin/add-cms']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)
    await expectNoSevereViolations(page, path)
  }
})

test('the palette freezes a game it found in the cached list, and says so', async ({ adminPage: page }) => {
  const title = `Palette game ${Date.now().toString(36)}`
  await addGame(page.request, { title, category: await categoryId(page.request, 'Palette games'), operatingsystem: 'both' })
  await page.goto(`/admin/cms?search=${encodeURIComponent(title)}`)
  await expect(bodyRows(page)).toHaveCount(1)
  await page.keyboard.press('Control+k')
  await page.getByPlaceholder(/Type a screen/).fill(`Freeze game: ${title}`)
  await page.keyboard.press('Enter')
  await expect(page.getByText(`${title} is frozen`)).toBeVisible()
  await expect(page.getByRole('button', { name: `UnFreeze ${title}` })).toBeVisible()
  expect((await gamesNamed(page.request, title))[0]?.freeze).toBe(true)
})
