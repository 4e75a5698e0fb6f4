/**
 * What `import ... from 'zod'` means in the PWA build (vite.config.ts aliases 'zod' here): zod
 * itself, switched to `jitless` before any module can build a schema with it.
 *
 * Zod compiles object parsers with `new Function` when it can, and probes for that when a schema
 * is built. The server's Content-Security-Policy (script-src 'self') forbids eval, so in the
 * browser the probe only raises a CSP violation and gains nothing. Because every module that
 * imports zod imports this module, the setting is in place before the first schema is built,
 * whichever chunk loads first: the first screen's chunks need not wait for it. The server and
 * the unit tests import zod directly.
 */
import { z } from 'zod/v4'

z.config({ jitless: true })

export * from 'zod/v4'
export { default } from 'zod/v4'
