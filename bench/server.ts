/**
 * The server under test, in its own process so the bench can read its memory from /proc without
 * counting the bench's own (seeding, HTTP client, browser driver). It is the production path:
 * `serve` from server/main.ts (buildApp with socket.io, graceful SIGTERM), on a free port that it
 * reports to the parent over IPC.
 */
import { loadConfig } from '../server/config.ts'
import { serve } from '../server/main.ts'

// The bench knows the superadmin's password (it set ADMIN_PASSWORD): no need to print it.
const app = await serve(loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1' }), { onSuperadminCreated: () => {} })
const address = app.server.address()
const port = typeof address === 'object' && address !== null ? address.port : 0
process.send?.({ port })
