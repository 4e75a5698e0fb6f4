/**
 * What the fault scripts (`fault-postgres.ts`, `fault-upload.ts`) share: the real server started
 * as a child process (`server/main.ts` under tsx, as in production), a throwaway PostgreSQL
 * cluster of their own (a restart must never touch the server other tests use), and the
 * `fault <name>: PASS` / `fault <name>: FAIL: reason` report.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { z } from 'zod'

const run = promisify(execFile)

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const EMAIL = 'fault@example.com'
export const PASSWORD = 'Fault#2024pw'

const began = performance.now()
/** A progress line, with the seconds since the script started. */
export const log = (s: string): void => console.log(`[fault] ${((performance.now() - began) / 1000).toFixed(1)} s: ${s}`)
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      s.close(() => resolve(port))
    })
  })
}

/** Polls `condition` until it holds or `ms` pass; true when it held. */
export async function waitFor(condition: () => boolean | Promise<boolean>, ms: number, everyMs = 50): Promise<boolean> {
  const end = Date.now() + ms
  for (;;) {
    if (await condition()) return true
    if (Date.now() > end) return false
    await sleep(everyMs)
  }
}

export interface ServerChild {
  process: ChildProcess
  base: string
  /** The server's own output (a file in the run's folder), shown when a check fails. */
  logFile: string
}

/** Starts `server/main.ts` and waits until /healthz answers (it listens once the start sweep and migrations are done). */
export async function startServer(env: NodeJS.ProcessEnv, logFile: string): Promise<ServerChild> {
  const port = await freePort()
  const out = openSync(logFile, 'a')
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'main.ts')], {
    cwd: root,
    env: { LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1', ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD },
    stdio: ['ignore', out, out],
  })
  const base = `http://127.0.0.1:${port}`
  const up = await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${tail(logFile)}`)
      const res = await fetch(`${base}/healthz`).catch(() => null)
      return res?.ok === true
    },
    120_000,
    100,
  )
  if (!up) {
    child.kill('SIGKILL')
    throw new Error(`the server did not start within 120 s:\n${tail(logFile)}`)
  }
  return { process: child, base, logFile }
}

export const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()))

/** SIGTERM (a graceful stop) or SIGKILL, and waits for the process to be gone. */
export async function stopServer(server: ServerChild, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  server.process.kill(signal)
  await exited(server.process)
}

/** The last lines of a log file. */
export function tail(file: string, lines = 30): string {
  if (!existsSync(file)) return '(no output)'
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
}

export async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) })
  return `Bearer ${z.object({ token: z.string() }).parse(await res.json()).token}`
}

/** One check's outcome: a problem list, empty when it passed. */
export interface Check {
  name: string
  problems: string[]
}

/** Prints `fault <name>: PASS` or `fault <name>: FAIL: reason` per check; true when all passed. */
export function report(checks: readonly Check[]): boolean {
  for (const check of checks) console.log(check.problems.length === 0 ? `fault ${check.name}: PASS` : `fault ${check.name}: FAIL: ${check.problems.join('; ')}`)
  return checks.every((c) => c.problems.length === 0)
}

/** The newest installed PostgreSQL's programs (Debian keeps them under /usr/lib/postgresql/<major>/bin), else the PATH's. */
export function postgresBin(): string | null {
  const debian = '/usr/lib/postgresql'
  if (existsSync(debian)) {
    const majors = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v) && existsSync(path.join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a))
    if (majors[0] !== undefined) return path.join(debian, majors[0], 'bin')
  }
  try {
    return path.dirname(execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim()) || null
  } catch {
    return null
  }
}

/**
 * A PostgreSQL cluster of its own in a temporary folder, on a free port, fsync off (a throwaway
 * cluster: durability buys nothing). initdb refuses to run as root, so as root the programs run as
 * the `postgres` user, which owns the folder.
 */
export class TempCluster {
  readonly dir: string
  readonly url: string
  readonly #bin: string
  readonly #port: number
  readonly #asRoot: boolean
  readonly #settings: Readonly<Record<string, string>>

  private constructor(bin: string, dir: string, port: number, settings: Readonly<Record<string, string>>) {
    this.#bin = bin
    this.dir = dir
    this.#port = port
    this.#settings = settings
    this.#asRoot = process.getuid?.() === 0
    this.url = `postgres://fault@127.0.0.1:${port}/postgres`
  }

  /** `settings`: server settings of its own (`shared_buffers: '1GB'`), each passed as `-c name=value`. */
  static async create(settings: Readonly<Record<string, string>> = {}): Promise<TempCluster> {
    for (const [name, value] of Object.entries(settings)) {
      if (!/^[a-z_]+$/.test(name) || !/^[\w.]+$/.test(value)) throw new Error(`TempCluster: not a setting: ${name}=${value}`)
    }
    const bin = postgresBin()
    if (bin === null) throw new Error('no initdb found: install PostgreSQL (Debian package postgresql)')
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fault-pg-'))
    const cluster = new TempCluster(bin, dir, await freePort(), settings)
    if (cluster.#asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()))
    await cluster.#run('initdb', ['-D', path.join(dir, 'data'), '-U', 'fault', '--auth=trust', '-E', 'UTF8', '--no-sync'])
    await cluster.start()
    return cluster
  }

  /** Runs one of the cluster's programs; async, so the load keeps running meanwhile. */
  async #run(program: string, args: string[]): Promise<void> {
    const file = path.join(this.#bin, program)
    if (this.#asRoot) await run('runuser', ['-u', 'postgres', '--', file, ...args])
    else await run(file, args)
  }

  /** Starts the cluster and waits until it accepts connections. */
  async start(): Promise<void> {
    const own = Object.entries(this.#settings).map(([name, value]) => ` -c ${name}=${value}`)
    const options = `-p ${this.#port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c fsync=off -c full_page_writes=off${own.join('')}`
    await this.#run('pg_ctl', ['start', '-D', path.join(this.dir, 'data'), '-w', '-t', '60', '-l', path.join(this.dir, 'log'), '-o', options])
  }

  /** Stops it: `fast` ends every session at once (their clients see 57P01), as an operator's restart does. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.#run('pg_ctl', ['stop', '-D', path.join(this.dir, 'data'), '-w', '-t', '60', '-m', mode])
  }

  /** Stops it (if running) and removes its folder. */
  async remove(): Promise<void> {
    await this.stop('immediate').catch(() => {
      // Already stopped.
    })
    rmSync(this.dir, { recursive: true, force: true })
  }
}
