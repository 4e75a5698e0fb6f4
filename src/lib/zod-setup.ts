/**
 * What `import ... from 'zod/mini'` means in the PWA build (vite.config.ts aliases 'zod/mini'
 * here): zod's functional API, set up before any module can build a schema with it.
 *
 * - `jitless`: zod compiles object parsers with `new Function` when it can, and probes for that
 *   when a schema is built. The server's Content-Security-Policy (script-src 'self') forbids eval,
 *   so in the browser the probe only raises a CSP violation and gains nothing.
 * - English messages: classic zod sets them on its own; zod/mini leaves the messages of checks
 *   the contract gives none for to a locale it is given, which the forms set (zod-messages.ts).
 *
 * Because every module that imports zod/mini imports this module, both are in place before the
 * first schema is built, whichever chunk loads first: the first screen's chunks need not wait.
 * It imports zod/mini by another of its names ('zod/v4/mini'), which the alias leaves alone. The
 * server (server/kit/request/api.ts) and the unit tests import zod/mini directly.
 */
import { z } from 'zod/v4/mini'

z.config({ jitless: true })

export * from 'zod/v4/mini'
