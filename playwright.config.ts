/**
 * Browser tests: Playwright driving the system Chromium (never downloaded), against the real
 * server on a fresh temporary data folder and a free port (tests/e2e/server.ts).
 *
 * Spec files run side by side, E2E_WORKERS of them at once (2 by default: most of a browser
 * test's time is waiting on the page, the server or the network, so two share two cores well).
 * The specs read and write the seeded state of the server they talk to, so each worker has a
 * shared server of its own (tests/e2e/shared-servers.ts picks it by the worker's slot): within a
 * worker, spec files still run one after the other on one server, as before.
 *
 * The ports and folders are chosen once, in the runner, and handed to the workers through the
 * environment (workers load this file again and must agree with the runner).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { defineConfig } from '@playwright/test'
import { APP_STORE_URL, SUPPORT_EMAIL, accounts } from './tests/e2e/accounts.ts'
import { SHARED_SERVERS_ENV, sharedServers, type SharedServer } from './tests/e2e/shared-servers.ts'

const freePort = (): number =>
  Number(
    execFileSync(process.execPath, ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"]).toString(),
  )

const workers = Math.max(1, Number.parseInt(process.env['E2E_WORKERS'] ?? '2', 10) || 1)
process.env[SHARED_SERVERS_ENV] ??= JSON.stringify(
  Array.from({ length: workers }, (): SharedServer => {
    const port = freePort()
    return { origin: `http://127.0.0.1:${port}`, port, dataDir: mkdtempSync(join(tmpdir(), 'bo-e2e-')) }
  }),
)
const servers = sharedServers()

/**
 * The browser the tests drive: CHROME_PATH, else Debian's chromium-headless-shell (the headless
 * build Playwright itself runs headless, without the full browser's own UI renderers per page:
 * the suite ran about a third faster on two cores), else Debian's chromium.
 */
export const E2E_CHROME = process.env['CHROME_PATH'] || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p)) || '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

// The e2e server gets a clean environment: its own database folder, never a DATABASE_URL.
const { DATABASE_URL: _notForE2e, ...inherited } = process.env
const serverEnv: Record<string, string> = {}
for (const [key, value] of Object.entries(inherited)) if (value !== undefined) serverEnv[key] = value

export default defineConfig({
  testDir: 'tests/e2e',
  // A spec file's tests run in order, in one worker, on that worker's server.
  workers,
  fullyParallel: false,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env['CI'] ? 'list' : [['list']],
  use: {
    // The first worker's server; tests/e2e/fixtures.ts points each worker at its own.
    baseURL: servers[0]?.origin,
    browserName: 'chromium',
    headless: true,
    serviceWorkers: 'allow',
    // Recording a trace of every test (to keep the failures' ones) made the run about a fifth
    // slower, so by default a failure keeps its error, call log and a screenshot; E2E_TRACE=1
    // records traces again (retained for failures) when one needs reading step by step.
    trace: process.env['E2E_TRACE'] ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: E2E_CHROME,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: servers.map((server) => ({
    command: 'npx tsx tests/e2e/server.ts',
    url: `${server.origin}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    env: {
      ...serverEnv,
      PORT: String(server.port),
      HOST: '127.0.0.1',
      DATA_DIR: server.dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: accounts.superadmin.email,
      ADMIN_PASSWORD: accounts.superadmin.password,
      SUPPORT_EMAIL,
      APP_STORE_URL,
      // Referral visits are written this often: a test reads them back without waiting a second.
      REFERRAL_FLUSH_MS: '100',
      LOGIN_RATE_LIMIT: '10000',
      LOG_LEVEL: process.env['E2E_LOG_LEVEL'] ?? 'warn',
    },
  })),
})
