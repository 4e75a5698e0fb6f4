/**
 * `npm test`: every suite, then one closing line `N passed, N failed` (`, N skipped` when any
 * test was skipped) that totals them all.
 *
 * Suites, in order:
 *   0. static checks: the typecheck (app, server, service worker) and lint (layers, no import
 *      cycles), one test each;
 *   1. vitest on PGlite (the embedded default; DATABASE_URL removed from its environment);
 *   2. vitest again on a real PostgreSQL: DATABASE_URL when set, else a local server found by
 *      probing 127.0.0.1:5432; skipped with a clear note when none answers (CI always has one);
 *   3. Playwright e2e, after `vite build`, when playwright.config.ts exists, on the system Chromium;
 *   4. the fault runs (scripts/fault-postgres.ts, fault-upload.ts, fault-promotions.ts), counted by their PASS and FAIL
 *      lines; skipped with a note where PostgreSQL's server programs are missing (not in CI).
 *
 * Each tool streams its own output; vitest and Playwright counts come from their JSON reports
 * written to a temp file, so the closing line never depends on parsing human-readable output. A suite that fails to start,
 * crashes, or runs no test counts as a failure, and the exit code is non-zero.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { postgresBin } from './fault-kit.ts'
import { findPostgres, redact } from './pg.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name)
const tmp = mkdtempSync(path.join(os.tmpdir(), 'bo-test-'))
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

interface Counts {
  passed: number
  failed: number
  skipped: number
}
interface SuiteResult extends Counts {
  name: string
  /** Why the suite counts as failed although no test failed (crash, no test, missing browser). */
  problem?: string
  /** The suite did not run, on purpose (no PostgreSQL here, no e2e yet). */
  skippedSuite?: string
  /** The lines of the suite's output that say what went wrong, shown in the summary. */
  details?: string[]
  /** How long it took, shown in the summary (the whole run should stay well under 20 minutes). */
  seconds?: number
  /** The failed tests by name, and the slowest files: CI keeps only the end of the output. */
  report?: string[]
}

/** Runs a suite and records how long it took. */
async function timed(suite: () => Promise<SuiteResult>): Promise<SuiteResult> {
  const t0 = performance.now()
  const result = await suite()
  return { ...result, seconds: (performance.now() - t0) / 1000 }
}

/** m:ss, rounded to the second first (359.6 s is 6:00, not 5:60). */
function minutes(seconds: number): string {
  const whole = Math.round(seconds)
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`
}

const results: SuiteResult[] = []

/** The PostgreSQL pass's fuzz seed: fuzz.ts's own (the PGlite pass's) plus one. */
const PG_FUZZ_SEED = 20_261_112

function banner(text: string): void {
  console.log(`\n=== ${text} ===`)
}

/**
 * The last lines a suite printed, kept so that a suite that fails without a failed test (an
 * unhandled error between tests, a file that does not load) can say why in the summary: CI
 * shows only the end of the output.
 */
let lastLines: string[] = []
const KEPT_LINES = 400

/** Runs a command, its output shown as it comes (and its last lines kept); resolves with its exit code (never rejects). */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  lastLines = []
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
    const keep = (chunk: Buffer): void => {
      lastLines.push(...chunk.toString('utf8').split('\n'))
      if (lastLines.length > KEPT_LINES) lastLines = lastLines.slice(-KEPT_LINES)
    }
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk)
      keep(chunk)
    })
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk)
      keep(chunk)
    })
    child.on('error', (err) => {
      console.error(`could not start ${cmd}: ${err.message}`)
      resolve(127)
    })
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)))
  })
}

/** What the last suite printed about errors outside its tests (vitest's "Unhandled Errors" block), at most 25 lines, colours removed. */
function unhandledErrors(): string[] {
  // eslint-disable-next-line no-control-regex -- the colour codes are control characters.
  const plain = lastLines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''))
  const unhandled = plain.findIndex((l) => /Unhandled (Errors?|Rejection)/.test(l))
  const start = unhandled !== -1 ? unhandled : plain.findIndex((l) => /Failed to load|Error: /.test(l))
  return start === -1 ? [] : plain.slice(start, start + 25).filter((l) => l.trim() !== '')
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown
  } catch {
    return undefined
  }
}

const num = (o: unknown, key: string): number => {
  if (typeof o !== 'object' || o === null) return 0
  const v = (o as Record<string, unknown>)[key]
  return typeof v === 'number' ? v : 0
}

/** A suite's verdict from its exit code and counts: failing exit or zero tests is a failure. */
function settle(name: string, code: number, counts: Counts | undefined): SuiteResult {
  if (!counts) return { name, passed: 0, failed: 1, skipped: 0, problem: `exited ${code} without a report` }
  const r: SuiteResult = { name, ...counts }
  if (counts.passed + counts.failed === 0) {
    r.failed += 1
    r.problem = 'ran no test'
  } else if (code !== 0 && counts.failed === 0) {
    // e.g. a test file that does not load, or an unhandled error between tests.
    r.failed += 1
    r.problem = `exited ${code} although every counted test passed`
    r.details = unhandledErrors()
  }
  return r
}

async function vitest(name: string, env: NodeJS.ProcessEnv, only: string[] = []): Promise<SuiteResult> {
  const out = path.join(tmp, `${name.replace(/\W+/g, '-')}.json`)
  const code = await run(
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...only],
    env,
  )
  const report = readJson(out)
  const counts =
    report === undefined
      ? undefined
      : {
          passed: num(report, 'numPassedTests'),
          // A file that fails to load has no tests to fail; count it so it is not lost.
          failed: num(report, 'numFailedTests') + failedFilesWithoutTests(report),
          skipped: num(report, 'numPendingTests') + num(report, 'numTodoTests'),
        }
  return { ...settle(name, code, counts), report: vitestReport(report) }
}

interface VitestFile {
  name?: string
  status?: string
  startTime?: number
  endTime?: number
  assertionResults?: { fullName?: string; status?: string }[]
}

/** Short names of the failed tests (at most 15) and the five slowest files, from vitest's JSON report. */
function vitestReport(report: unknown): string[] {
  const files = (report as { testResults?: VitestFile[] } | undefined)?.testResults
  if (!Array.isArray(files)) return []
  const rel = (f: string | undefined) => path.relative(root, f ?? '?')
  const failed = files.flatMap((f) =>
    (f.assertionResults ?? []).filter((a) => a.status === 'failed').map((a) => `FAILED ${rel(f.name)} > ${a.fullName ?? '?'}`),
  )
  const slowest = files
    .map((f) => ({ file: rel(f.name), seconds: ((f.endTime ?? 0) - (f.startTime ?? 0)) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 5)
    .map((f) => `slow ${f.seconds.toFixed(0)} s ${f.file}`)
  return [...failed.slice(0, 75), ...slowest]
}

interface PlaywrightSuite {
  file?: string
  suites?: PlaywrightSuite[]
  specs?: {
    title?: string
    file?: string
    line?: number
    tests?: { results?: { status?: string; duration?: number; error?: { message?: string } }[] }[]
  }[]
}

/** Failed tests (at most 15, each with its error's first lines) and the five slowest spec files, from Playwright's JSON report. */
function playwrightReport(report: unknown): string[] {
  const top = (report as { suites?: PlaywrightSuite[] } | undefined)?.suites
  if (!Array.isArray(top)) return []
  const failed: string[] = []
  const perFile = new Map<string, number>()
  const walk = (suite: PlaywrightSuite): void => {
    for (const spec of suite.specs ?? []) {
      const results = (spec.tests ?? []).flatMap((t) => t.results ?? [])
      const file = spec.file ?? suite.file ?? '?'
      perFile.set(file, (perFile.get(file) ?? 0) + results.reduce((sum, r) => sum + (r.duration ?? 0), 0))
      const lastResult = results.at(-1)
      const last = lastResult?.status
      if (last !== undefined && last !== 'passed' && last !== 'skipped') {
        failed.push(`FAILED ${file}:${spec.line ?? 0} > ${spec.title ?? '?'} (${last})`)
        // CI keeps only the end of the output: the error's first lines say what to look for.
        const lines = (lastResult?.error?.message ?? '')
          .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
        for (const line of lines.slice(0, 4)) failed.push(`    ${line.slice(0, 200)}`)
      }
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of top) walk(suite)
  const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([file, ms]) => `slow ${(ms / 1000).toFixed(0)} s ${file}`)
  return [...failed.slice(0, 75), ...slowest]
}

function failedFilesWithoutTests(report: unknown): number {
  if (typeof report !== 'object' || report === null) return 0
  const files = (report as { testResults?: unknown }).testResults
  if (!Array.isArray(files)) return 0
  return files.filter((f: unknown) => {
    if (typeof f !== 'object' || f === null) return false
    const { status, assertionResults } = f as { status?: unknown; assertionResults?: unknown }
    return status === 'failed' && Array.isArray(assertionResults) && assertionResults.length === 0
  }).length
}

/** CHROME_PATH, else Debian's headless shell, else Debian's chromium (playwright.config.ts says why). */
function chromePath(): string | undefined {
  if (process.env.CHROME_PATH) return existsSync(process.env.CHROME_PATH) ? process.env.CHROME_PATH : undefined
  return ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p))
}

async function playwright(baseEnv: NodeJS.ProcessEnv): Promise<SuiteResult> {
  const name = 'e2e (Playwright, Chromium)'
  const chrome = chromePath()
  if (!chrome) {
    const msg =
      `no Chromium at ${process.env.CHROME_PATH || '/usr/bin/chromium-headless-shell or /usr/bin/chromium'}: install the Debian package ` +
      '`chromium-headless-shell` (sudo apt-get install chromium-headless-shell) or set CHROME_PATH to a Chromium binary'
    console.error(msg)
    return { name, passed: 0, failed: 1, skipped: 0, problem: msg }
  }
  const env = { ...baseEnv, CHROME_PATH: chrome }
  const built = await run(bin('vite'), ['build'], env)
  if (built !== 0) return { name, passed: 0, failed: 1, skipped: 0, problem: `vite build exited ${built}` }
  const out = path.join(tmp, 'playwright.json')
  const code = await run(bin('playwright'), ['test', '--reporter=list,json'], {
    ...env,
    PLAYWRIGHT_JSON_OUTPUT_NAME: out,
  })
  const json = readJson(out)
  const stats = (json as { stats?: unknown } | undefined)?.stats
  const counts =
    stats === undefined
      ? undefined
      : {
          // A flaky test passed on retry: it passed, and Playwright's own output names it.
          passed: num(stats, 'expected') + num(stats, 'flaky'),
          failed: num(stats, 'unexpected'),
          skipped: num(stats, 'skipped'),
        }
  return { ...settle(name, code, counts), report: playwrightReport(json) }
}

/** Typecheck and lint: each one test, failed when its command exits non-zero. */
async function staticChecks(env: NodeJS.ProcessEnv): Promise<SuiteResult> {
  const failures: string[] = []
  for (const script of ['typecheck', 'lint']) {
    if ((await run(npm, ['run', '--silent', script], env)) !== 0) failures.push(script)
  }
  return { name: 'static checks (typecheck, lint)', passed: 2 - failures.length, failed: failures.length, skipped: 0, ...(failures.length > 0 ? { problem: `${failures.join(' and ')} failed` } : {}) }
}

/**
 * The fault runs that restart a server or a database, so they live outside vitest:
 * `npm run fault:postgres` (PostgreSQL restarted under load), `npm run fault:upload` (kill -9
 * mid-upload on both engines) and `npm run fault:promotions` (kill -9 in the middle of a
 * 100,000-recipient delivery on both engines, each recipient then counted exactly once). Each prints `fault <name>: PASS` or `fault <name>: FAIL: reason`
 * per check; those lines are the suite's counts. They start a PostgreSQL cluster of their own, so
 * they need its server programs (Debian's postgresql); without them the suite is skipped with a
 * note, and in CI that is a failure.
 */
async function faults(env: NodeJS.ProcessEnv): Promise<SuiteResult> {
  const name = 'fault runs'
  if (postgresBin() === null) {
    const why = 'no PostgreSQL server programs (initdb) here: apt-get install postgresql'
    if (process.env.CI) return { name, passed: 0, failed: 1, skipped: 0, problem: why }
    console.log(`SKIPPED the fault runs: ${why}`)
    return { name, passed: 0, failed: 0, skipped: 0, skippedSuite: why }
  }
  const total: SuiteResult = { name, passed: 0, failed: 0, skipped: 0 }
  for (const script of ['fault:postgres', 'fault:upload', 'fault:promotions']) {
    const { code, output } = await runCapturing(npm, ['run', '--silent', script], env)
    const passed = output.match(/^fault .*: PASS\b/gm)?.length ?? 0
    const failed = output.match(/^fault .*: FAIL\b/gm)?.length ?? 0
    total.passed += passed
    total.failed += failed
    if (failed === 0 && (code !== 0 || passed === 0)) {
      total.failed += 1
      total.problem = `${script} exited ${code}${passed === 0 ? ' without a PASS line' : ''}`
    }
  }
  return total
}

/** Like run(), also keeping what the command printed on stdout (still shown as it comes). */
function runCapturing(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    let output = ''
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] })
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
      process.stdout.write(chunk)
    })
    child.on('error', (err) => {
      console.error(`could not start ${cmd}: ${err.message}`)
      resolve({ code: 127, output })
    })
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }))
  })
}

async function main(): Promise<number> {
  // Suites get a clean copy of the environment; DATABASE_URL is set only where meant.
  // REDIS_URL likewise: only the several-instance tests (PostgreSQL pass) use it; the e2e server
  // is one instance on the embedded database, which REDIS_URL would refuse.
  const { DATABASE_URL: _ignored, REDIS_URL: redisUrl, ...withoutDb } = process.env
  const baseEnv: NodeJS.ProcessEnv = withoutDb

  banner('static checks: typecheck and lint')
  results.push(await timed(() => staticChecks(baseEnv)))

  // The contract-wide fuzz (fuzz.ts) tries every endpoint and caller on both engines: 15 requests
  // per pair on PGlite, 30 on PostgreSQL (which answers them three times faster) drawn from
  // another seed, so the two passes try different requests (45 per pair in all). At 100 per pair
  // the PostgreSQL fuzz alone took about half of its pass. FUZZ_RUNS and FUZZ_SEED override both;
  // without a PostgreSQL here, PGlite takes 45.
  const { found, tried } = await findPostgres(process.env)
  banner('vitest on PGlite')
  results.push(await timed(() => vitest('vitest on PGlite', { ...baseEnv, FUZZ_RUNS: process.env.FUZZ_RUNS ?? (found ? '15' : '45') })))

  if (found) {
    banner(`vitest on PostgreSQL (${redact(found.url)}, from ${found.source})`)
    // The server's files only: the PWA's and the contract's unit tests never open a database, and
    // ran in the pass before.
    results.push(
      await timed(() =>
        vitest('vitest on PostgreSQL', { ...baseEnv, DATABASE_URL: found.url, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '30', FUZZ_SEED: process.env.FUZZ_SEED ?? String(PG_FUZZ_SEED), ...(redisUrl ? { REDIS_URL: redisUrl } : {}) }, ['server/']),
      ),
    )
  } else if (process.env.DATABASE_URL) {
    // Named but not answering: that is a broken setup, never a silent skip.
    const why = tried[0]?.result.reason ?? 'no answer'
    banner('vitest on PostgreSQL')
    console.error(`DATABASE_URL (${redact(process.env.DATABASE_URL)}) does not answer: ${why}`)
    results.push({ name: 'vitest on PostgreSQL', passed: 0, failed: 1, skipped: 0, problem: `DATABASE_URL does not answer: ${why}` })
  } else {
    const lines = tried.map((t) =>
      `  ${t.url}: ${t.result.ok ? 'answers, but the role may not create databases' : t.result.reason}`,
    )
    const note =
      'SKIPPED the PostgreSQL pass: no PostgreSQL server answers.\n' +
      lines.join('\n') +
      '\n  To run it: start PostgreSQL (Debian: apt-get install postgresql) and set\n' +
      '  DATABASE_URL=postgres://USER:PASSWORD@HOST:PORT/postgres for a role that may create databases.\n' +
      '  .ci/run does all of this on a fresh Debian machine.'
    banner('vitest on PostgreSQL')
    console.log(note)
    results.push({ name: 'vitest on PostgreSQL', passed: 0, failed: 0, skipped: 0, skippedSuite: 'no PostgreSQL server answers' })
  }

  if (existsSync(path.join(root, 'playwright.config.ts'))) {
    banner('e2e: vite build, then Playwright')
    results.push(await timed(() => playwright(baseEnv)))
  } else {
    results.push({ name: 'e2e', passed: 0, failed: 0, skipped: 0, skippedSuite: 'no playwright.config.ts yet' })
  }

  banner('fault runs: PostgreSQL restarted under load, kill -9 mid-upload, kill -9 mid-delivery')
  results.push(await timed(() => faults(baseEnv)))

  banner('summary')
  for (const r of results) {
    const what = r.skippedSuite
      ? `skipped (${r.skippedSuite})`
      : `${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}${r.problem ? ` — ${r.problem}` : ''}`
    console.log(`  ${r.name}: ${what}${r.seconds === undefined ? '' : ` (${minutes(r.seconds)})`}`)
    for (const line of r.details ?? []) console.log(`      ${line}`)
    for (const line of r.report ?? []) console.log(`      ${line}`)
  }
  const total = results.reduce<Counts>(
    (t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed, skipped: t.skipped + r.skipped }),
    { passed: 0, failed: 0, skipped: 0 },
  )
  // The one closing line CI reads: nothing may be printed after it.
  console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`)
  return total.failed > 0 ? 1 : 0
}

main()
  .then((code) => {
    rmSync(tmp, { recursive: true, force: true })
    process.exitCode = code
  })
  .catch((err: unknown) => {
    console.error(err)
    console.log('0 passed, 1 failed')
    process.exitCode = 1
  })
