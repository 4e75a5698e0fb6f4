/**
 * The server under test, in its own process so the bench can read its memory from /proc without
 * counting the bench's own (seeding, HTTP client, browser driver). It is the production path:
 * `serve` from server/main.ts (buildApp with socket.io, graceful SIGTERM), on a free port that it
 * reports to the parent over IPC.
 *
 * With BENCH_LOOP_DELAY=1 (bench/trash.ts) it also watches its own event loop
 * (monitorEventLoopDelay) and answers `{ loop: 'read' }` with the longest delay since the last
 * read: a stall is measured where it happens, not guessed from the client's side.
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

// The bench knows the superadmin's password (it set ADMIN_PASSWORD): no need to print it.
const app = await serve(loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1' }), { onSuperadminCreated: () => {} })
const address = app.server.address()
const port = typeof address === 'object' && address !== null ? address.port : 0
process.send?.({ port })
