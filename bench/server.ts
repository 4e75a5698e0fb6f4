/**
 * The server under test, in its own process so the bench can read its memory from /proc without
 * counting the bench's own (seeding, HTTP client, browser driver). It is the real app: buildApp
 * with the configuration read from the environment, socket.io on, listening on a free port that
 * it reports to the parent over IPC.
 */
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'

const config = loadConfig(process.env)
const app = await buildApp(config, { realtime: true })
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
const port = typeof address === 'object' && address !== null ? address.port : 0
process.send?.({ port })

// The parent ends the bench with SIGTERM; close cleanly so PGlite flushes and the pool ends.
process.once('SIGTERM', () => {
  void app.close().finally(() => process.exit(0))
})
