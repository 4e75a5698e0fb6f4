/**
 * Zod compiles object parsers with `new Function` when it can, and probes for that when a schema
 * is built. The server's Content-Security-Policy (script-src 'self') forbids eval, so in the
 * browser the probe only raises a CSP violation and gains nothing: switch it off before any
 * contract schema is built. Every module that is the first to load the contract on its path
 * (session-claims.ts, login-rules.ts, use-public-info.ts) imports this module first; main.tsx
 * does not, so that zod stays out of the login page's first load.
 */
import { z } from 'zod'

z.config({ jitless: true })
