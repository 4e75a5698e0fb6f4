/**
 * Browser tests: Playwright driving the system Chromium (never downloaded), against the real
 * server on a fresh temporary data folder and a free port (tests/e2e/server.ts).
 *
 * The port and folder are chosen once, in the runner, and handed to the workers through the
 * environment (workers load this file again and must agree with the runner).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { defineConfig } from '@playwright/test'
import { APP_STORE_URL, SUPPORT_EMAIL, accounts } from './tests/e2e/accounts.ts'

const freePort = (): string =>
  execFileSync(process.execPath, ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"])
    .toString()
    .trim()

process.env['E2E_PORT'] ??= freePort()
process.env['E2E_DATA_DIR'] ??= mkdtempSync(join(tmpdir(), 'bo-e2e-'))
const port = process.env['E2E_PORT']

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
  // One server holds the state every spec reads: run one test at a time (2 cores here).
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env['CI'] ? 'list' : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    serviceWorkers: 'allow',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env['CHROME_PATH'] || '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: 'npx tsx tests/e2e/server.ts',
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      ...serverEnv,
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: process.env['E2E_DATA_DIR'],
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: accounts.superadmin.email,
      ADMIN_PASSWORD: accounts.superadmin.password,
      SUPPORT_EMAIL,
      APP_STORE_URL,
      LOGIN_RATE_LIMIT: '10000',
      LOG_LEVEL: process.env['E2E_LOG_LEVEL'] ?? 'warn',
    },
  },
})
