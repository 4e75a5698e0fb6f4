import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { test, expect } from './fixtures.ts'
import { sharedServer } from './shared-servers.ts'

test('offers "Reload to update" when a new version of the app is deployed, and reloads into it', async ({ adminPage: page }) => {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  // A first visit is not controlled by the worker it installs; a new worker waits (and the app
  // offers the update) only while an old one controls the page.
  await page.reload()
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  // Deploy a "new version": the server serves the copy of the build in its data folder
  // (tests/e2e/server.ts), and any byte change of sw.js is a new worker for the browser.
  const { dataDir } = sharedServer(test.info().parallelIndex)
  const worker = join(dataDir, 'dist', 'sw.js')
  appendFileSync(worker, `\n// deployed ${Date.now()}\n`)
  // As a build does, the compressed copies the server sends are written beside it (vite.config.ts).
  writeFileSync(`${worker}.br`, brotliCompressSync(readFileSync(worker)))
  writeFileSync(`${worker}.gz`, gzipSync(readFileSync(worker)))

  await page.evaluate(() => {
    // Marks this document: a reload replaces it.
    Reflect.set(window, '__beforeUpdate', true)
  })
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration()
    await registration?.update()
  })
  const reload = page.getByRole('button', { name: 'Reload to update' })
  await expect(reload).toBeVisible()
  await Promise.all([page.waitForEvent('load'), reload.click()])
  expect(await page.evaluate(() => Reflect.get(window, '__beforeUpdate'))).toBeUndefined()
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Reload to update' })).toHaveCount(0)
})
