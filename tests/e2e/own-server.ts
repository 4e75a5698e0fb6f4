/**
 * A server of a spec file's own, with a real SMTP receiver: for specs that read mail (the OTPs of the
 * account screens, the newsletter) or change accounts, so the shared server's data stays as the
 * other specs expect. The same script as the shared one (tests/e2e/server.ts), on its own port,
 * data folder and SMTP_URL. Call it at the top of a spec file:
 *
 *     const { origin, mails } = ownServerWithMail('account')
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { header, otpFrom, readable, startSmtpReceiver, type ReceivedMail, type SmtpReceiver } from '../../server/testing/smtp-receiver.ts'
import { APP_STORE_URL, SUPPORT_EMAIL, accounts } from './accounts.ts'
import { test, expect } from './fixtures.ts'

export type Mail = ReceivedMail
export { header, otpFrom, readable }

/**
 * The newest mail to `address` among those that arrived after the first `since` (and, with
 * `having`, whose readable text passes it), once one has.
 */
export async function mailTo(mails: readonly Mail[], address: string, options: { since?: number; having?: (text: string) => boolean } = {}): Promise<Mail> {
  const to = address.toLowerCase()
  const find = (): Mail | undefined => mails.slice(options.since ?? 0).findLast((m) => m.to.includes(to) && (options.having?.(readable(m)) ?? true))
  await expect.poll(() => find() !== undefined, { timeout: 20_000, message: `a mail to ${address}` }).toBe(true)
  const found = find()
  if (found === undefined) throw new Error(`no mail to ${address}`)
  return found
}

/** A free port, found by a child process since it is needed before any await (see test.use). */
function freePort(): number {
  // Written as plain text: the runner sets FORCE_COLOR, which would colour a console.log'd number.
  const out = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ])
  const port = Number.parseInt(out.toString(), 10)
  if (!(port > 0)) throw new Error(`no free port found: ${JSON.stringify(out.toString())}`)
  return port
}

/** Starts the receiver and the server before the file's tests, stops both after; `env` adds settings. */
export function ownServerWithMail(name: string, env: (origin: string) => Record<string, string> = () => ({})): { origin: string; mails: Mail[] } {
  // Chosen when the file loads: `test.use` needs the address before any hook runs.
  const port = freePort()
  const origin = `http://127.0.0.1:${port}`
  test.use({ baseURL: origin })
  const mails: Mail[] = []
  let smtp: SmtpReceiver | undefined
  let server: ChildProcess | undefined
  let dataDir: string | undefined

  test.beforeAll(async () => {
    test.setTimeout(180_000)
    smtp = await startSmtpReceiver({ received: mails })

    dataDir = mkdtempSync(join(tmpdir(), `bo-e2e-${name}-`))
    const { DATABASE_URL: _notHere, ...inherited } = process.env
    server = spawn('npx', ['tsx', 'tests/e2e/server.ts'], {
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...inherited,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SMTP_URL: smtp.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        ADMIN_EMAIL: accounts.superadmin.email,
        ADMIN_PASSWORD: accounts.superadmin.password,
        SUPPORT_EMAIL,
        APP_STORE_URL,
        LOGIN_RATE_LIMIT: '10000',
        LOG_LEVEL: 'warn',
        ...env(origin),
      },
    })
    await expect
      .poll(
        async () => {
          try {
            return (await fetch(`${origin}/healthz`)).ok
          } catch {
            return false
          }
        },
        { timeout: 150_000, intervals: [500] },
      )
      .toBe(true)
  })

  test.afterAll(async () => {
    // npx starts the server as a child: end the whole process group it leads.
    if (server?.pid !== undefined) {
      try {
        process.kill(-server.pid, 'SIGTERM')
      } catch {
        // Already gone.
      }
    }
    await smtp?.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  return { origin, mails }
}
