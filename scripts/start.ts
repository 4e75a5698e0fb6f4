/**
 * `npm start` and `npm run demo`: builds the PWA when dist/ is missing or older than its sources,
 * then starts the server on PORT (default 8080).
 *
 * --demo keeps its data in DATA_DIR (default ./data-demo, apart from the real ./data), seeds
 * sample leads, enquiries and categories into an empty database, and signs in with ADMIN_EMAIL /
 * ADMIN_PASSWORD, which default to admin@example.com / Demo@1234 so the login can be printed on
 * every start. Without SMTP_URL it prints mails (OTPs included) to the log (MAIL_LOG_BODIES=1).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { loadConfig } from '../server/config.ts'
import { DEMO_ADMIN_PASSWORD, DEMO_SECOND_ADMIN, loginLines, seedDemo } from '../server/demo.ts'
import { Passwords, ensureSuperadmin } from '../server/kit/ground/access/auth.ts'
import { admins } from '../server/db/schema.ts'
import { eq } from 'drizzle-orm'
import { openStorage } from '../server/kit/ground/storage.ts'
import { openDb } from '../server/db/index.ts'
import { printCredentials, serve } from '../server/main.ts'

const demo = process.argv.includes('--demo')
const root = resolve(import.meta.dirname, '..')
const log = (line: string): void => void process.stdout.write(`${line}\n`)

/** The newest modification time under the given files and folders (0 when none exist). */
function newest(paths: readonly string[]): number {
  let latest = 0
  const visit = (path: string): void => {
    if (!existsSync(path)) return
    const stat = statSync(path)
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry))
    else latest = Math.max(latest, stat.mtimeMs)
  }
  for (const p of paths) visit(join(root, p))
  return latest
}

function buildPwaIfNeeded(): void {
  if (!existsSync(join(root, 'vite.config.ts'))) {
    log('PWA: vite.config.ts does not exist yet, skipping the build (the API still runs; /admin/ says it is not built).')
    return
  }
  const builtAt = existsSync(join(root, 'dist', 'index.html')) ? statSync(join(root, 'dist', 'index.html')).mtimeMs : 0
  const sourcesAt = newest(['src', 'sw', 'public', 'index.html', 'vite.config.ts', 'contract', 'package.json'])
  if (builtAt > 0 && builtAt >= sourcesAt) {
    log('PWA: dist/ is up to date.')
    return
  }
  log(builtAt === 0 ? 'PWA: dist/ is missing, building it (vite build)...' : 'PWA: sources changed since the last build, rebuilding (vite build)...')
  const result = spawnSync(join(root, 'node_modules', '.bin', 'vite'), ['build'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) {
    // The API is still useful without the PWA (and the build error is on screen above).
    log('PWA: the build failed; starting the API anyway. Fix the error above and restart.')
  }
}

async function main(): Promise<void> {
  buildPwaIfNeeded()
  const env = { ...process.env }
  if (demo) {
    env['DATA_DIR'] ||= './data-demo'
    env['ADMIN_PASSWORD'] ||= DEMO_ADMIN_PASSWORD
    // A development convenience only the demo turns on: without SMTP_URL, mails (OTPs included)
    // are printed to the log instead of being held unsent. Never the default (server/kit/ground/mail/mail.ts).
    env['MAIL_LOG_BODIES'] ||= '1'
  }
  const config = loadConfig(env)
  let secondAdmin = false

  if (demo) {
    // Seed before the server starts, on a connection of our own, then hand over to the server.
    const handle = await openDb(config.database)
    try {
      const passwords = new Passwords(config.hashCost)
      // The superadmin first: the server makes one only while no admin exists, and the seed adds a
      // second Admin, whose promotion waits for the superadmin's approval.
      await ensureSuperadmin(handle.db, config, passwords)
      const seeded = await seedDemo(handle.db, await openStorage(config), Date.now(), passwords)
      log(seeded === null ? 'Demo: sample data already present.' : `Demo: seeded ${seeded.leads} leads, ${seeded.enquiries} contact enquiries and ${seeded.categories} categories.`)
      // Data seeded by an older demo has no second Admin: her login is printed only when she exists.
      const [second] = await handle.db.select({ id: admins.id }).from(admins).where(eq(admins.email, DEMO_SECOND_ADMIN.email)).limit(1)
      secondAdmin = second !== undefined
    } finally {
      await handle.close()
    }
  }

  const app = await serve(config, { onSuperadminCreated: demo ? () => {} : printCredentials })
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  log('')
  log(`Back office running at http://${shown}:${port}/admin/  (data in ${config.dataDir})`)
  for (const line of loginLines({ demo, secondAdmin, adminEmail: config.adminEmail, adminPassword: config.adminPassword, mailToLog: config.smtpUrl === null && config.mail.logBodies })) log(line)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
