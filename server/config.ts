/**
 * Configuration comes from the environment only (DESIGN.md, "Running it"). `loadConfig` parses
 * it once with zod so the rest of the server reads typed, validated values.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import type { MediaLimits } from './kit/media.ts'

/** Where the data lives: PGlite in a folder (or in memory, for tests) or a PostgreSQL server. */
export type DatabaseConfig = { kind: 'pglite'; dir: string | null } | { kind: 'pg'; url: string }

/** Argon2id cost. Production uses the library defaults; tests may lower it to stay fast. */
export interface HashCost {
  memoryCost: number
  timeCost: number
  parallelism: number
}

export interface Config {
  port: number
  host: string
  dataDir: string
  /** Uploaded files, served at /uploads. */
  uploadsDir: string
  /** Multipart files land here first and are moved to uploadsDir only once checked. */
  tmpDir: string
  /** The built PWA, served at /admin. */
  distDir: string
  database: DatabaseConfig
  /** HS256 key for session tokens. */
  jwtSecret: Uint8Array
  /** Session token lifetime in seconds; never more than 12 hours (issue 2, item 5). */
  tokenTtlSeconds: number
  adminEmail: string
  /** When null on an empty database, a strong password is generated and printed once. */
  adminPassword: string | null
  smtpUrl: string | null
  supportEmail: string
  referralKey: string
  appStoreUrl: string
  /** Origins allowed to call the API from a browser; empty means no CORS headers at all. */
  corsOrigins: string[]
  /** Logins per address per minute, on top of the per-email lockout (server/sign-in/lockout.ts). */
  loginRateLimit: number
  hashCost: HashCost | null
  /** Pino log level; 'silent' in tests. */
  logLevel: string
  /** Trust X-Forwarded-For (behind a reverse proxy), so the login limit counts real addresses. */
  trustProxy: boolean
  /** Upload limits per kind of file and the image pixel limit (server/kit/media.ts). */
  media: MediaLimits
  /** The sweep of leftover and unreferenced files (server/kit/sweep.ts). */
  sweep: SweepTiming
}

export interface SweepTiming {
  /** Files younger than this are never taken: an upload may be on its way to its row. */
  graceMs: number
  /** How often the sweep runs again after the one at start; 0 runs it at start only. */
  intervalMs: number
}

const TWELVE_HOURS = 12 * 60 * 60

const emptyToUndefined = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v)
const optionalText = z.preprocess(emptyToUndefined, z.string().trim().optional())

const Env = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(8080)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres://').optional()),
  JWT_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional()),
  TOKEN_TTL_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(60).max(TWELVE_HOURS).default(TWELVE_HOURS)),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email('ADMIN_EMAIL must be an email address').default('admin@example.com')),
  ADMIN_PASSWORD: optionalText,
  SMTP_URL: z.preprocess(emptyToUndefined, z.string().regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://').optional()),
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email('SUPPORT_EMAIL must be an email address').default('support@example.com')),
  // The referral key is public by nature (the client holds it), so a fixed default is no secret lost.
  REFERRAL_KEY: z.preprocess(emptyToUndefined, z.string().default('back-office-referral-key')),
  APP_STORE_URL: z.preprocess(emptyToUndefined, z.url().default('https://play.google.com/store/apps/details?id=com.example.wallet')),
  CORS_ORIGINS: z.preprocess(emptyToUndefined, z.string().default('')),
  LOGIN_RATE_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(20)),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.enum(['0', '1', 'true', 'false']).default('false')),
  UPLOAD_IMAGE_MAX_MB: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(1024).default(5)),
  UPLOAD_VIDEO_MAX_MB: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(10240).default(200)),
  UPLOAD_MAX_MEGAPIXELS: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(1000).default(50)),
  UPLOAD_SWEEP_GRACE_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(10080).default(10)),
  UPLOAD_SWEEP_INTERVAL_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(10080).default(60)),
})

/** Thrown with every problem of the environment at once, so a bad start says all that is wrong. */
export class ConfigError extends Error {}

/**
 * Reads the environment. When JWT_SECRET is unset, a random key is generated on first start and
 * kept in DATA_DIR/jwt-secret, so tokens survive a restart without the operator managing a key.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = Env.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`)
  }
  const e = parsed.data
  const dataDir = resolve(e.DATA_DIR)
  mkdirSync(dataDir, { recursive: true })
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    uploadsDir: join(dataDir, 'uploads'),
    tmpDir: join(dataDir, 'tmp'),
    // Beside the package, wherever the process was started from.
    distDir: fileURLToPath(new URL('../dist', import.meta.url)),
    database: e.DATABASE_URL ? { kind: 'pg', url: e.DATABASE_URL } : { kind: 'pglite', dir: join(dataDir, 'db') },
    jwtSecret: new TextEncoder().encode(e.JWT_SECRET ?? persistedSecret(dataDir)),
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD ?? null,
    smtpUrl: e.SMTP_URL ?? null,
    supportEmail: e.SUPPORT_EMAIL,
    referralKey: e.REFERRAL_KEY,
    appStoreUrl: e.APP_STORE_URL,
    corsOrigins: e.CORS_ORIGINS.split(',').map((o) => o.trim()).filter((o) => o !== ''),
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    hashCost: null,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY === '1' || e.TRUST_PROXY === 'true',
    media: {
      imageBytes: Math.floor(e.UPLOAD_IMAGE_MAX_MB * 1024 * 1024),
      videoBytes: Math.floor(e.UPLOAD_VIDEO_MAX_MB * 1024 * 1024),
      maxPixels: Math.floor(e.UPLOAD_MAX_MEGAPIXELS * 1_000_000),
    },
    sweep: { graceMs: Math.round(e.UPLOAD_SWEEP_GRACE_MINUTES * 60_000), intervalMs: Math.round(e.UPLOAD_SWEEP_INTERVAL_MINUTES * 60_000) },
  }
}

function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret')
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim()
    if (kept.length >= 32) return kept
  }
  const secret = randomBytes(48).toString('base64url')
  // 0600: the key signs every session; other local users must not read it.
  writeFileSync(file, secret + '\n', { mode: 0o600 })
  return secret
}
