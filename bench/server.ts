/**
 * The server under test, in its own process so the bench can read its memory from /proc without
 * counting the bench's own (seeding, HTTP client, browser driver). It is the production path:
 * `serve` from server/main.ts (buildApp with socket.io, graceful SIGTERM), on a free port that it
 * reports to the parent over IPC.
 *
 * With BENCH_LOOP_DELAY=1 (bench/trash.ts) it also watches its own event loop
 * (monitorEventLoopDelay) and answers `{ loop: 'read' }` with the longest delay since the last
 * read: a stall is measured where it happens, not guessed from the client's side.
 *
 * With BENCH_SLOW_SQL=<ms> on PGlite it prints to stderr every statement (and garbage collection)
 * that held the event loop at least that long: PGlite runs in this thread, so such a statement is the stall, and its text
 * says which step to split.
 */
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks'
import { loadConfig } from '../server/config.ts'
import { serve } from '../server/main.ts'

if (process.env['BENCH_LOOP_DELAY'] === '1') {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  process.on('message', (msg: unknown) => {
    if (typeof msg !== 'object' || msg === null || !('loop' in msg)) return
    process.send?.({ loopMaxMs: delay.max / 1e6 })
    delay.reset()
  })
}

const slowSqlMs = Number(process.env['BENCH_SLOW_SQL'] ?? 0)
if (slowSqlMs > 0) {
  await watchSlowStatements(slowSqlMs)
  // A garbage collection holds the loop too: named beside the statements, so a stall with no slow
  // statement is not blamed on the database.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.duration >= slowSqlMs) process.stderr.write(`slow gc ${entry.duration.toFixed(0)} ms\n`)
  }).observe({ entryTypes: ['gc'] })
}

/**
 * Wraps PGlite's one synchronous entry (every statement passes through it, inside transactions
 * too). The extended protocol sends Parse and Execute in separate messages, so the text of the
 * last Parse is kept to name the Execute that took long.
 */
async function watchSlowStatements(ms: number): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite')
  const proto = PGlite.prototype as unknown as { execProtocolRawSync: (message: Uint8Array) => Uint8Array }
  const run = proto.execProtocolRawSync
  const decoder = new TextDecoder()
  let lastText = ''
  const textOf = (m: Uint8Array): string | undefined => {
    const kind = String.fromCharCode(m[0] ?? 0)
    // Query: 'Q', length, text. Parse: 'P', length, statement name, text.
    let at = 5
    if (kind === 'P') at = m.indexOf(0, at) + 1
    else if (kind !== 'Q') return undefined
    return decoder.decode(m.subarray(at, m.indexOf(0, at)))
  }
  // Statements whose promises chain without the event loop turning between them (a transaction's,
  // say) hold it as one: such a run is reported too, with its statements.
  let run0 = 0
  let runEnd = 0
  let runTexts: string[] = []
  let turned = true
  proto.execProtocolRawSync = function (this: unknown, message: Uint8Array): Uint8Array {
    lastText = textOf(message) ?? lastText
    const t0 = performance.now()
    if (turned) {
      if (runTexts.length > 1 && runEnd - run0 >= ms) process.stderr.write(`slow run ${(runEnd - run0).toFixed(0)} ms of ${runTexts.length} statements: ${runTexts.map((t) => t.replace(/\s+/g, ' ').slice(0, 80)).join(' | ')}\n`)
      run0 = t0
      runTexts = []
      turned = false
      setImmediate(() => {
        turned = true
      })
    }
    const out = run.call(this, message)
    runEnd = performance.now()
    const took = runEnd - t0
    if (runTexts.at(-1) !== lastText) runTexts.push(lastText)
    if (took >= ms) process.stderr.write(`slow statement ${took.toFixed(0)} ms: ${lastText.replace(/\s+/g, ' ').slice(0, 600)}\n`)
    return out
  }
}

// The bench knows the superadmin's password (it set ADMIN_PASSWORD): no need to print it.
const app = await serve(loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1' }), { onSuperadminCreated: () => {} })
const address = app.server.address()
const port = typeof address === 'object' && address !== null ? address.port : 0
process.send?.({ port })
