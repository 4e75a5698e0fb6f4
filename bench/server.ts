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
 * With BENCH_SLOW_SQL=<ms> on PGlite it prints to stderr every statement that held the event loop
 * at least that long: PGlite runs in this thread, so such a statement is the stall, and its text
 * says which step to split.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
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
if (slowSqlMs > 0) await watchSlowStatements(slowSqlMs)

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
  proto.execProtocolRawSync = function (this: unknown, message: Uint8Array): Uint8Array {
    lastText = textOf(message) ?? lastText
    const t0 = performance.now()
    const out = run.call(this, message)
    const took = performance.now() - t0
    if (took >= ms) process.stderr.write(`slow statement ${took.toFixed(0)} ms: ${lastText.replace(/\s+/g, ' ').slice(0, 600)}\n`)
    return out
  }
}

// The bench knows the superadmin's password (it set ADMIN_PASSWORD): no need to print it.
const app = await serve(loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1' }), { onSuperadminCreated: () => {} })
const address = app.server.address()
const port = typeof address === 'object' && address !== null ? address.port : 0
process.send?.({ port })
