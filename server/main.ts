/**
 * Listens and shuts down gracefully; everything else is in app.ts. `scripts/start.ts` (npm start,
 * npm run demo) builds the PWA first and then calls `serve`; `tsx server/main.ts` runs the API alone.
 */
import { pathToFileURL } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { buildApp, type BuildOptions } from './app.ts'
import { loadConfig, type Config } from './config.ts'

/** Prints the first superadmin's credentials once, to the terminal rather than the JSON log. */
export function printCredentials(credentials: { email: string; password: string; generated: boolean }): void {
  const lines = [
    'First start: created the superadmin account.',
    `  email:    ${credentials.email}`,
    credentials.generated ? `  password: ${credentials.password}   (generated; shown only this once, so keep it now)` : '  password: the ADMIN_PASSWORD you set',
  ]
  process.stdout.write(`\n${lines.join('\n')}\n\n`)
}

export async function serve(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = await buildApp(config, { realtime: true, onSuperadminCreated: printCredentials, ...options })
  await app.listen({ port: config.port, host: config.host })

  let closing = false
  const shutdown = (signal: string): void => {
    if (closing) return
    closing = true
    app.log.info(`${signal}: closing`)
    // A hung close must not keep the process alive forever.
    const timer = setTimeout(() => process.exit(1), 10_000)
    timer.unref()
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while closing')
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', () => shutdown('SIGINT'))
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  // A stray rejection (a client aborting mid-stream, a dropped connection) is logged, never fatal.
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled rejection'))
  return app
}

const entry = process.argv[1]
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  serve(loadConfig()).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
}
