/**
 * The PWA's budget (issue 3, item 8): what /admin/login and /admin/users actually load, and what
 * Lighthouse 12 scores them, on the real server serving the real `vite build` output.
 *
 * Sizes come from the browser's network log (Playwright responses of type script and
 * stylesheet), not from index.html: lazy chunks a route pulls in count, chunks it never loads do
 * not. Each body is gzipped here at level 9, so the figure does not depend on whether the server
 * compresses; the bytes actually transferred are recorded beside it.
 *
 * Lighthouse runs through the node API against the same Chromium that Playwright started (its
 * remote-debugging port), in Playwright's persistent default context, so /admin/users can be
 * measured logged in: the token is put in localStorage first and Lighthouse is told not to reset
 * storage. To keep every run a cold load anyway, the HTTP cache, service worker, Cache Storage
 * and IndexedDB of the origin are cleared through CDP before each run.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium, type BrowserContext, type CDPSession, type Page, type Response } from '@playwright/test'
import lighthouse from 'lighthouse'
import desktopConfig from 'lighthouse/core/config/desktop-config.js'
import { loadConfig } from '../server/config.ts'
import { openDb } from '../server/db/index.ts'
import { login, root, startServer } from './lib.ts'
import { seedLeads } from './seed.ts'

/** The flags every headless Chromium of this project starts with (no sandbox as root, no calls home). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

const PAGES = ['/admin/login', '/admin/users'] as const
/** Leads on the budget server: enough for a full first page of 50. */
const BUDGET_LEADS = 500

export interface LoadedFile {
  url: string
  type: 'script' | 'stylesheet'
  transferBytes: number
  gzipBytes: number
}
export interface PageLoad {
  path: string
  finalUrl: string
  jsGzipKiB: number
  jsTransferKiB: number
  jsFiles: number
  cssGzipKiB: number
  cssTransferKiB: number
  cssFiles: number
  files: LoadedFile[]
}
export interface LighthouseScore {
  path: string
  preset: 'desktop' | 'mobile'
  finalUrl: string
  performance: number | null
  accessibility: number | null
  bestPractices: number | null
  metrics: Record<string, number | null>
  /** Audits below 1 in accessibility and best practices, so a missed 100 says why. */
  failing: string[]
}
export interface BudgetResult {
  chromium: string
  pages: PageLoad[]
  lighthouse: LighthouseScore[]
  screenshots: string[]
}

const log = (s: string) => console.log(`[bench] ${s}`)
const kib = (bytes: number) => bytes / 1024

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0
      srv.close(() => resolve(port))
    })
  })
}

/** Empties the origin's caches and service worker; keeps localStorage (the token) when asked. */
async function coldStart(cdp: CDPSession, page: Page, origin: string, keepToken: boolean): Promise<void> {
  await page.goto('about:blank')
  await cdp.send('Network.clearBrowserCache')
  const types = ['service_workers', 'cache_storage', 'indexeddb', 'cookies']
  if (!keepToken) types.push('local_storage')
  await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: types.join(',') })
}

/** Loads a page and records every script and stylesheet it fetched until 1.5 s pass without one. */
async function recordLoad(page: Page, url: string, shot: string): Promise<PageLoad> {
  const files: Promise<LoadedFile | null>[] = []
  let last = Date.now()
  const onResponse = (res: Response) => {
    const type = res.request().resourceType()
    if (type !== 'script' && type !== 'stylesheet') return
    last = Date.now()
    files.push(
      (async () => {
        const body = await res.body().catch(() => null)
        if (body === null) return null
        const sizes = await res.request().sizes()
        return {
          url: res.url(),
          type,
          transferBytes: sizes.responseBodySize + sizes.responseHeadersSize,
          gzipBytes: gzipSync(body, { level: 9 }).length,
        }
      })(),
    )
  }
  page.on('response', onResponse)
  // Not 'networkidle': socket.io's long-polling keeps a request open for as long as the page lives.
  await page.goto(url, { waitUntil: 'load' })
  while (Date.now() - last < 1500) await page.waitForTimeout(250)
  page.off('response', onResponse)
  await page.screenshot({ path: shot })
  const loaded = (await Promise.all(files)).filter((f): f is LoadedFile => f !== null)
  const sum = (type: LoadedFile['type'], key: 'gzipBytes' | 'transferBytes') =>
    loaded.filter((f) => f.type === type).reduce((t, f) => t + f[key], 0)
  return {
    path: new URL(url).pathname,
    finalUrl: page.url(),
    jsGzipKiB: kib(sum('script', 'gzipBytes')),
    jsTransferKiB: kib(sum('script', 'transferBytes')),
    jsFiles: loaded.filter((f) => f.type === 'script').length,
    cssGzipKiB: kib(sum('stylesheet', 'gzipBytes')),
    cssTransferKiB: kib(sum('stylesheet', 'transferBytes')),
    cssFiles: loaded.filter((f) => f.type === 'stylesheet').length,
    files: loaded,
  }
}

const score = (s: number | null | undefined) => (typeof s === 'number' ? Math.round(s * 100) : null)

async function runLighthouse(port: number, url: string, preset: LighthouseScore['preset']): Promise<LighthouseScore> {
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      // Storage holds the login token; caches were cleared by coldStart instead.
      disableStorageReset: true,
    },
    preset === 'desktop' ? desktopConfig : undefined,
  )
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`)
  const lhr = result.lhr
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? null
  const failing: string[] = []
  for (const cat of ['accessibility', 'best-practices', 'performance']) {
    for (const ref of lhr.categories[cat]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id]
      if (a && ref.weight > 0 && a.score !== null && a.score < 1) failing.push(`${cat}: ${a.id} (${a.score})`)
    }
  }
  return {
    path: new URL(url).pathname,
    preset,
    finalUrl: lhr.finalDisplayedUrl,
    performance: score(lhr.categories.performance?.score),
    accessibility: score(lhr.categories.accessibility?.score),
    bestPractices: score(lhr.categories['best-practices']?.score),
    metrics: {
      fcpMs: metric('first-contentful-paint'),
      lcpMs: metric('largest-contentful-paint'),
      tbtMs: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
      speedIndexMs: metric('speed-index'),
    },
    failing,
  }
}

export async function runBudget(): Promise<BudgetResult | string> {
  const chrome = process.env.CHROME_PATH || '/usr/bin/chromium'
  if (!existsSync(chrome)) return `no Chromium at ${chrome} (Debian package chromium, or set CHROME_PATH)`
  if (!existsSync(path.join(root, 'vite.config.ts'))) return 'no PWA yet (vite.config.ts missing)'
  log('budget: vite build')
  const built = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' })
  if (built.status !== 0) return `vite build exited ${built.status}`
  if (!existsSync(path.join(root, 'dist', 'index.html'))) return 'vite build wrote no dist/index.html'

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-budget-'))
  const userDir = mkdtempSync(path.join(os.tmpdir(), 'bench-chromium-'))
  const shots = path.join(root, '.tmp')
  mkdirSync(shots, { recursive: true })
  let context: BrowserContext | undefined
  const handle = await openDb(loadConfig({ DATA_DIR: dataDir }).database)
  if (handle.kind !== 'pglite') throw new Error('expected PGlite')
  const client = handle.client
  await seedLeads({ query: (t) => client.query(t), exec: (t) => client.exec(t) }, BUDGET_LEADS)
  await handle.close()
  const server = await startServer({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' })
  try {
    const token = await login(server.base)
    const port = await freePort()
    context = await chromium.launchPersistentContext(userDir, {
      executablePath: chrome,
      headless: true,
      // No Playwright viewport emulation: Lighthouse's own pages in this browser must get only
      // Lighthouse's emulation (mobile or desktop), not a 1280x720 override added on attach.
      viewport: null,
      args: [...CHROMIUM_FLAGS, '--window-size=1280,800', `--remote-debugging-port=${port}`],
    })
    const page = context.pages()[0] ?? (await context.newPage())
    const cdp = await context.newCDPSession(page)
    const version = (await cdp.send('Browser.getVersion')).product
    const origin = server.base
    const setToken = async () => {
      await page.goto(`${origin}/admin/login`, { waitUntil: 'load' })
      await page.evaluate((t) => localStorage.setItem('admin_token', `Bearer ${t}`), token)
    }

    const pages: PageLoad[] = []
    const screenshots: string[] = []
    for (const p of PAGES) {
      const loggedIn = p !== '/admin/login'
      if (loggedIn) await setToken()
      await coldStart(cdp, page, origin, loggedIn)
      const shot = path.join(shots, `bench${p.replace(/\//g, '-')}.png`)
      log(`budget: loading ${p}`)
      pages.push(await recordLoad(page, `${origin}${p}`, shot))
      screenshots.push(path.relative(root, shot))
    }

    const scores: LighthouseScore[] = []
    for (const p of PAGES) {
      for (const preset of ['desktop', 'mobile'] as const) {
        const loggedIn = p !== '/admin/login'
        if (loggedIn) await setToken()
        await coldStart(cdp, page, origin, loggedIn)
        log(`budget: Lighthouse ${preset} ${p}`)
        scores.push(await runLighthouse(port, `${origin}${p}`, preset))
      }
    }
    return { chromium: version, pages, lighthouse: scores, screenshots }
  } finally {
    await context?.close()
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(userDir, { recursive: true, force: true })
  }
}
