/**
 * Configuration comes from the environment only (docs/operations.md, "Configuration"). `loadConfig` parses
 * it once with zod so the rest of the server reads typed, validated values.
 */
import { randomBytes } from 'node:crypto'
import { isIP } from 'node:net'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/**
 * Where the data lives: PGlite in a folder (or in memory, for tests) or a PostgreSQL server.
 * `image` (a PGlite `dumpDataDir` archive) starts an in-memory PGlite from that cluster instead of
 * an empty one: the tests clone one migrated database rather than create and migrate one per app.
 */
/**
 * PGlite: a data folder (in memory when null), optionally started from an archive, with its
 * shared buffers in MB (PGlite's own default, 128, when absent); or a PostgreSQL URL.
 */
export type DatabaseConfig = { kind: 'pglite'; dir: string | null; image?: Blob; sharedBuffersMb?: number } | { kind: 'pg'; url: string }

/** Argon2id cost. Production uses the library defaults; tests may lower it to stay fast. */
export interface HashCost {
  memoryCost: number
  timeCost: number
  parallelism: number
}

/** The upload limits (server/kit/ground/media.ts applies them). */
export interface MediaLimits {
  /** Bytes an image may have. */
  imageBytes: number
  /** Bytes a video (or audio) file may have. */
  videoBytes: number
  /** Width times height an image may declare. */
  maxPixels: number
}

/** Who passkeys are made for and checked against: the origin pages are served from and its RP ID (the host name). */
export interface RelyingParty {
  origin: string
  id: string
}

/** The relying party of an address (PUBLIC_URL, or a call's own): its origin, and its host name as the RP ID. */
export function relyingPartyOf(address: string): RelyingParty {
  const url = new URL(address)
  return { origin: url.origin, id: url.hostname }
}

export interface Config {
  port: number
  host: string
  dataDir: string
  /** Uploaded files, served at /uploads (when no S3 storage is configured). */
  uploadsDir: string
  /**
   * An S3-compatible bucket for the uploads instead of uploadsDir (server/kit/ground/storage.ts), shared
   * by every instance; null: the local disk.
   */
  s3: S3Settings | null
  /**
   * STORAGE_PREFIX: the folder inside uploadsDir or the key prefix inside the bucket under which
   * this deployment writes its uploads and which alone its sweep looks at (server/kit/ground/storage.ts),
   * so deployments sharing a bucket or a folder never take each other's files. Empty (the
   * default): the folder or bucket itself, then this deployment's own. Ends with '/' otherwise.
   */
  storagePrefix: string
  /** Multipart files land here first and are moved to uploadsDir only once checked. */
  tmpDir: string
  /** The built PWA, served at /admin. */
  distDir: string
  database: DatabaseConfig
  /** HS256 key for session tokens. */
  jwtSecret: Uint8Array
  /**
   * DATA_DIR/jwt-secret when the key was generated there (JWT_SECRET unset); null when JWT_SECRET
   * gives it. A backup carries a generated key with the data sealed under it (server/kit/backup/).
   */
  jwtSecretFile: string | null
  /** Session token lifetime in seconds; never more than 12 hours. */
  tokenTtlSeconds: number
  /** A session unused this long ends: the PWA's idle timer, and the server's check with a grace. */
  idleTimeoutSeconds: number
  /** How long a proof of the session's owner (sign-in, or the step-up call) lets `stepUp` endpoints through. */
  stepUpMs: number
  adminEmail: string
  /** When null on an empty database, a strong password is generated and printed once. */
  adminPassword: string | null
  smtpUrl: string | null
  supportEmail: string
  /** The mail queue (server/kit/ground/mail/mail.ts). */
  mail: MailSettings
  /**
   * The key of the mail provider's signed events (MAIL_EVENTS_SECRET, server/areas/suppression):
   * null turns the webhook off (404).
   */
  mailEventsSecret: string | null
  referralKey: string
  /** How often counted referral visits are written (server/areas/brands/visits.ts). */
  referralFlushMs: number
  /** Referral visits counted per brand per address (an IPv6 client by its /64) an hour (server/areas/brands/visits.ts). */
  referralVisitsPerAddress: number
  appStoreUrl: string
  /**
   * The address the public reaches this server at, without a trailing slash: links in mails (the
   * newsletter's unsubscribe page, /admin/unsubscribe) start with it. PUBLIC_URL; by default
   * http://localhost:<PORT>, right only on the machine itself.
   */
  publicUrl: string
  /**
   * The name this deployment writes in the marker of its storage (server/kit/ground/storage.ts): PUBLIC_URL,
   * which every instance of one deployment shares and no other deployment has. Null when PUBLIC_URL
   * is unset (development: instances on other ports would disagree), and then nothing is checked.
   */
  deployment: string | null
  /**
   * The passkeys' relying party (server/areas/passkeys/webauthn.ts): PUBLIC_URL's origin and its host
   * name as the RP ID. Null when PUBLIC_URL is unset: then each call's own address (Host header and
   * protocol) stands in, which suits development and tests on localhost; production sets PUBLIC_URL.
   */
  passkeyRelyingParty: RelyingParty | null
  /** Origins allowed to call the API from a browser; empty means no CORS headers at all. */
  corsOrigins: string[]
  /** Logins per address per minute, on top of the per-email lockout (server/kit/ground/access/lockout.ts). */
  loginRateLimit: number
  /**
   * How often an open socket's session is checked again at the longest (server/kit/ground/realtime.ts):
   * a revocation whose LOGOUT broadcast was lost (Redis away a moment) still ends the socket by then.
   * Not an environment setting; tests shorten it.
   */
  socketRecheckMs: number
  hashCost: HashCost | null
  /** Pino log level; 'silent' in tests. */
  logLevel: string
  /**
   * The request log (server/kit/ground/request-log.ts). `summary`: the public calls (the referral
   * redirect, the public reads) are counted and summed up once a minute, and only their errors,
   * refusals and slow answers are logged one by one; staff calls are logged each. `all`: every
   * request is logged. LOG_REQUESTS (by default `all` when LOG_LEVEL is debug or trace, `summary`
   * otherwise) and LOG_SLOW_MS.
   */
  requestLog: { mode: 'summary' | 'all'; slowMs: number }
  /**
   * Which X-Forwarded-For hops to believe, so per-address limits count real addresses (Fastify's
   * `trustProxy`): false (none: the socket's address), true (every hop: only when no client can
   * reach the server but through the proxy), a hop count (the nearest N proxies), or the
   * proxies' addresses and CIDRs.
   */
  trustProxy: TrustProxy
  /** A statement running longer is cancelled by PostgreSQL and answered 503 (0: no limit). */
  statementTimeoutMs: number
  /** Bounds on the leads CSV export (server/areas/leads/routes.ts), which lasts as long as its download. */
  exports: ExportLimits
  /** The sign-in lockout and the OTP guess cap (server/kit/ground/access/lockout.ts, otp.ts). */
  lockout: LockoutSettings
  /** Upload limits per kind of file and the image pixel limit (server/kit/ground/media.ts). */
  media: MediaLimits
  /** The sweep of leftover and unreferenced files (server/kit/ground/sweep.ts). */
  sweep: SweepTiming
  /** PGlite only: how often changed tables are vacuumed and analysed after the run at start (server/db/maintenance.ts); 0: at start only. */
  vacuumIntervalMs: number
  /** Promotion delivery (server/areas/promotions/delivery.ts). */
  promotions: PromotionSettings
  /**
   * Four eyes on mass sends (server/kit/rules/four-eyes.ts): a promotion round or a newsletter to more
   * recipients than this waits for a second Admin's approval. 0: off.
   */
  fourEyesThreshold: number
  /** Hours over which a requester's sends add up against the threshold (0: each send alone). */
  fourEyesWindowHours: number
  /** How long a delete or a freeze can be undone, in seconds (server/kit/request/undo.ts; the server allows a few more). */
  undoSeconds: number
  /** The durable job queue's worker (server/kit/ground/queue.ts). */
  jobs: { concurrency: number; pollMs: number; leaseMs: number }
  /**
   * Redis shared by several instances (docs/operations.md, "Several instances"): socket.io events reach sockets on
   * every instance, and per-address limits count across them. Null: one instance, all in-process.
   */
  redisUrl: string | null
  /** Scheduled backups of the embedded database (server/kit/ground/backup/schedule.ts); null: none. */
  backups: BackupSchedule | null
  /** The Prometheus metrics (server/kit/ground/metrics.ts); null: off, /metrics answers 404. */
  metrics: MetricsSettings | null
}

/** METRICS_TOKEN and METRICS_PORT. */
export interface MetricsSettings {
  /** The bearer token a scrape must send. */
  token: string
  /** A port of its own that serves /metrics too (same token rule); null: only the main port. */
  port: number | null
}

/** BACKUP_DIR and its companions. */
export interface BackupSchedule {
  /** Where the backup files are written. */
  dir: string
  /** A backup is due this long after the newest one in `dir`. */
  everyMs: number
  /** The newest this many backups are kept; older ones are removed after each new one. */
  keep: number
}

export type TrustProxy = boolean | number | string[]

/** S3_ENDPOINT and its companions. */
export interface S3Settings {
  /** http(s)://host[:port] of the S3 API. */
  endpoint: string
  bucket: string
  accessKey: string
  secretKey: string
  region: string
  /** Bucket in the path (MinIO, Ceph, most S3-compatible stores) rather than in the host name. */
  pathStyle: boolean
}

export interface LockoutSettings {
  /** Failures from one address for one email that lock that pair. */
  pairFailures: number
  /** How long a pair stays locked. */
  lockMs: number
  /** Failures for one email from any address before each further one slows the next attempt. */
  slowAfter: number
  /** The longest wait the slow-down imposes between two attempts for one email. */
  slowMaxMs: number
  /** OTP checks per email in 24 hours, right or wrong, before every check is refused. */
  otpDailyGuesses: number
}

export interface MailSettings {
  /** Mails per second to the SMTP server, across every instance; 0 = unlimited. */
  ratePerSecond: number
  /** Tries before a mail is given up and marked failed. */
  maxAttempts: number
  /** Backoff after failed try n: base * 2^(n-1), capped, with jitter. */
  retryBaseMs: number
  retryMaxMs: number
  /**
   * Development only (`npm run demo` sets it): without SMTP_URL, print mail bodies (OTPs included)
   * to the log instead of holding them. Never the default: anyone who reads the log could reset a password.
   */
  logBodies: boolean
}

export interface PromotionSettings {
  /** Recipients handed to the transport at once. */
  batchSize: number
  /** Tries of one delivery before it is marked failed. */
  maxAttempts: number
  /** Backoff after failed try n: base * 2^(n-1), capped, with jitter. */
  retryBaseMs: number
  retryMaxMs: number
  /**
   * The webhook transport (PUSH_WEBHOOK_URL, PUSH_WEBHOOK_SECRET): each batch is POSTed there,
   * signed; null delivers to the database (lead_notifications), what the platform's app reads.
   */
  webhook: { url: string; secret: string; timeoutMs: number } | null
}

export interface ExportLimits {
  /** Exports one admin may have running at once on this instance. */
  perAdmin: number
  /**
   * Exports running at once on this instance, whoever started them. On PostgreSQL each holds a
   * connection of its own besides the pool's ten (server/db/index.ts), so this bounds those too.
   */
  perInstance: number
  /** An export whose client has read nothing for this long (with data waiting for it) is aborted. */
  idleTimeoutMs: number
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
  IDLE_TIMEOUT_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().min(1).max(720).default(30)),
  STEP_UP_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().min(0.05).max(720).default(5)),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email('ADMIN_EMAIL must be an email address').default('admin@example.com')),
  ADMIN_PASSWORD: optionalText,
  SMTP_URL: z.preprocess(emptyToUndefined, z.string().regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://').optional()),
  MAIL_RATE_PER_SECOND: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(100_000).default(10)),
  MAIL_MAX_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(50).default(10)),
  MAIL_LOG_BODIES: z.preprocess(emptyToUndefined, z.enum(['0', '1', 'true', 'false']).default('false')),
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email('SUPPORT_EMAIL must be an email address').default('support@example.com')),
  MAIL_EVENTS_SECRET: z.preprocess(emptyToUndefined, z.string().min(16, 'MAIL_EVENTS_SECRET must be at least 16 characters').optional()),
  // The referral key is public by nature (the client holds it), so a fixed default is no secret lost.
  REFERRAL_KEY: z.preprocess(emptyToUndefined, z.string().default('back-office-referral-key')),
  REFERRAL_FLUSH_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(50).max(60_000).default(1000)),
  REFERRAL_VISITS_PER_ADDRESS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1_000_000).default(10)),
  APP_STORE_URL: z.preprocess(emptyToUndefined, z.url().default('https://play.google.com/store/apps/details?id=com.example.wallet')),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http(s) address' }).optional()),
  CORS_ORIGINS: z.preprocess(emptyToUndefined, z.string().default('')),
  LOGIN_RATE_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(20)),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  LOG_REQUESTS: z.preprocess(emptyToUndefined, z.optional(z.enum(['summary', 'all']))),
  LOG_SLOW_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(600_000).default(500)),
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().trim().default('false').transform(parseTrustProxy)),
  STATEMENT_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(3_600_000).default(15_000)),
  EXPORT_MAX_PER_ADMIN: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).default(2)),
  EXPORT_MAX_PER_INSTANCE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).default(4)),
  EXPORT_IDLE_TIMEOUT_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(3600).default(60)),
  LOGIN_LOCK_FAILURES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(100).default(5)),
  LOGIN_LOCK_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(1440).default(10)),
  LOGIN_SLOW_AFTER: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1000).default(10)),
  LOGIN_SLOW_MAX_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(86_400).default(60)),
  OTP_DAILY_GUESSES: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(20)),
  UPLOAD_IMAGE_MAX_MB: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(1024).default(5)),
  UPLOAD_VIDEO_MAX_MB: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(10240).default(200)),
  UPLOAD_MAX_MEGAPIXELS: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(1000).default(50)),
  UPLOAD_SWEEP_GRACE_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(10080).default(10)),
  UPLOAD_SWEEP_INTERVAL_MINUTES: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(10080).default(60)),
  PGLITE_VACUUM_INTERVAL_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(86_400).default(60)),
  PGLITE_SHARED_BUFFERS_MB: z.preprocess(emptyToUndefined, z.coerce.number().int().min(16).max(4096).default(48)),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().regex(/^rediss?:\/\//, 'REDIS_URL must start with redis:// or rediss://').optional()),
  S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/, error: 'S3_ENDPOINT must be an http(s) address' }).optional()),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().trim().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'S3_BUCKET must be a bucket name (3-63 lower-case letters, digits, dots and hyphens)').optional()),
  S3_ACCESS_KEY: optionalText,
  S3_SECRET_KEY: optionalText,
  STORAGE_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .transform((v) => v.replace(/^\/+|\/+$/g, ''))
      .pipe(z.string().regex(/^([A-Za-z0-9_-][A-Za-z0-9._-]*)(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/, 'STORAGE_PREFIX must be one or more folder names separated by / (letters, digits, ".", "_" and "-", not starting with "."), such as site-a or shared/site-a').max(200))
      .optional(),
  ),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().trim().default('us-east-1')),
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(['0', '1', 'true', 'false']).default('true')),
  UNDO_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3600).default(10)),
  JOB_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(64).default(4)),
  JOB_POLL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(60_000).default(1000)),
  JOB_LEASE_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3600).default(60)),
  PROMOTION_BATCH_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(5000).default(1000)),
  PROMOTION_MAX_ATTEMPTS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(50).default(5)),
  PROMOTION_RETRY_BASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(10).max(3_600_000).default(5000)),
  PUSH_WEBHOOK_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/, error: 'PUSH_WEBHOOK_URL must be an http(s) address' }).optional()),
  PUSH_WEBHOOK_SECRET: z.preprocess(emptyToUndefined, z.string().min(16, 'PUSH_WEBHOOK_SECRET must be at least 16 characters').optional()),
  // Unset: 1000; set but empty, or 0: off (every send goes at once).
  FOUR_EYES_THRESHOLD: z
    .string()
    .trim()
    .regex(/^[0-9]*$/, 'FOUR_EYES_THRESHOLD must be a whole number of recipients (0 or empty: off)')
    .default('1000')
    .transform((v) => (v === '' ? 0 : Number(v)))
    .pipe(z.number().int().max(100_000_000, 'FOUR_EYES_THRESHOLD is too large')),
  FOUR_EYES_WINDOW_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().int('FOUR_EYES_WINDOW_HOURS must be a whole number of hours').min(0).max(24 * 31).default(24)),
  PUSH_WEBHOOK_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(120_000).default(10_000)),
  BACKUP_DIR: optionalText,
  BACKUP_EVERY_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(24 * 366).default(24)),
  BACKUP_KEEP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000).default(7)),
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().trim().min(16, 'METRICS_TOKEN must be at least 16 characters').optional()),
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(65535).optional()),
})

/**
 * TRUST_PROXY: `false`/`0` or `true` as before; a whole number (1, 2, ...) is a hop count; anything
 * else a comma list of proxy addresses or CIDRs, each checked here so a typo stops the start
 * instead of trusting nothing (or the wrong hop) in silence.
 */
function parseTrustProxy(value: string, ctx: z.RefinementCtx): TrustProxy {
  const lower = value.toLowerCase()
  if (lower === 'false' || lower === '0') return false
  if (lower === 'true') return true
  if (/^[0-9]+$/.test(value)) return Number(value)
  const entries = value.split(',').map((a) => a.trim()).filter((a) => a !== '')
  const bad = entries.filter((entry) => !isAddressOrCidr(entry))
  if (entries.length === 0 || bad.length > 0) {
    ctx.addIssue({ code: 'custom', message: `TRUST_PROXY must be true, false, a hop count, or proxy addresses/CIDRs separated by commas${bad.length > 0 ? ` (not an address: ${bad.join(', ')})` : ''}` })
    return z.NEVER
  }
  return entries
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/')
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  if (bits === undefined) return true
  return /^[0-9]{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)
}

/**
 * Whether the webhook's address keeps the batches off the network in clear text: https, or http to
 * a loopback host (a receiver beside the server, and the tests'). The configuration has no
 * development switch to lean on, and a loopback address never leaves the machine.
 */
export function webhookTransportIsSafe(url: string): boolean {
  const parsed = new URL(url)
  if (parsed.protocol === 'https:') return true
  const host = parsed.hostname.toLowerCase()
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || (isIP(host) === 4 && host.startsWith('127.'))
}

/** Thrown with every problem of the environment at once, so a bad start says all that is wrong. */
export class ConfigError extends Error {}

/**
 * Reads the environment. When JWT_SECRET is unset, a random key is generated on first start and
 * kept in DATA_DIR/jwt-secret, so tokens survive a restart without the operator managing a key.
 */
/**
 * The request log's mode when LOG_REQUESTS is not set: an operator who turns the log up to debug
 * or trace is looking for detail, and gets every request's lines with it.
 */
function requestLogMode(level: string): 'summary' | 'all' {
  return level === 'debug' || level === 'trace' ? 'all' : 'summary'
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = Env.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`)
  }
  const e = parsed.data
  if (e.REDIS_URL !== undefined) {
    // Several instances must agree on the token key and the data: a key made per data folder, or
    // an embedded database per instance, would split them silently.
    const missing = [e.JWT_SECRET === undefined ? 'JWT_SECRET (every instance must sign and check tokens with one key)' : null, e.DATABASE_URL === undefined ? 'DATABASE_URL (every instance must share one PostgreSQL)' : null].filter((m) => m !== null)
    if (missing.length > 0) throw new ConfigError(`Invalid configuration: REDIS_URL is set, so several instances may run; set also:\n  ${missing.join('\n  ')}`)
  }
  const s3 = s3Settings(e)
  if (e.PUSH_WEBHOOK_URL !== undefined && e.PUSH_WEBHOOK_SECRET === undefined) {
    // An unsigned webhook would let anyone who finds the receiver's address post promotions to it.
    throw new ConfigError('Invalid configuration:\n  PUSH_WEBHOOK_SECRET: required with PUSH_WEBHOOK_URL (the receiver checks each batch\'s signature with it)')
  }
  if (e.PUSH_WEBHOOK_URL !== undefined && !webhookTransportIsSafe(e.PUSH_WEBHOOK_URL)) {
    // The batches carry every recipient's email and a signature a listener could replay: in clear
    // text they are anyone's on the way. Plain http is for a receiver on this machine only.
    throw new ConfigError(
      'Invalid configuration:\n  PUSH_WEBHOOK_URL: must be an https:// address (plain http:// is allowed only for a receiver on this machine: localhost, 127.0.0.1 or ::1)',
    )
  }
  if (e.BACKUP_DIR !== undefined && e.DATABASE_URL !== undefined) {
    // Every instance would write its own copy on its own machine; PostgreSQL is backed up from
    // one place (npm run backup from cron, or pg_dump), not from each server.
    throw new ConfigError('Invalid configuration:\n  BACKUP_DIR: scheduled backups are for the embedded database only; with DATABASE_URL run `npm run backup -- FILE` from cron on one machine instead')
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_TOKEN === undefined) {
    // A metrics port that answers nobody would look like a broken scrape; say what is missing instead.
    throw new ConfigError('Invalid configuration:\n  METRICS_PORT: set METRICS_TOKEN too (the metrics are served only to a scrape that sends it)')
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) throw new ConfigError('Invalid configuration:\n  METRICS_PORT: must differ from PORT (the main port serves /metrics already)')
  if (env['NODE_ENV'] === 'production' && e.PUBLIC_URL === undefined) {
    // Passkeys are bound to PUBLIC_URL's host name and mailed links start with it: guessed from
    // each request's Host header, a production server would make passkeys for whatever name a
    // caller sends and mail links to http://localhost.
    throw new ConfigError(
      'Invalid configuration:\n  PUBLIC_URL: required when NODE_ENV=production (the address people open, such as https://back-office.example.com: passkeys are made for its host name and mailed links start with it)',
    )
  }
  const dataDir = resolve(e.DATA_DIR)
  mkdirSync(dataDir, { recursive: true })
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    uploadsDir: join(dataDir, 'uploads'),
    s3,
    storagePrefix: e.STORAGE_PREFIX === undefined ? '' : `${e.STORAGE_PREFIX}/`,
    tmpDir: join(dataDir, 'tmp'),
    // Beside the package, wherever the process was started from.
    distDir: fileURLToPath(new URL('../dist', import.meta.url)),
    database: e.DATABASE_URL ? { kind: 'pg', url: e.DATABASE_URL } : { kind: 'pglite', dir: join(dataDir, 'db'), sharedBuffersMb: e.PGLITE_SHARED_BUFFERS_MB },
    jwtSecret: new TextEncoder().encode(e.JWT_SECRET ?? persistedSecret(dataDir)),
    jwtSecretFile: e.JWT_SECRET === undefined ? join(dataDir, JWT_SECRET_FILE) : null,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    idleTimeoutSeconds: Math.round(e.IDLE_TIMEOUT_MINUTES * 60),
    stepUpMs: Math.round(e.STEP_UP_MINUTES * 60_000),
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD ?? null,
    smtpUrl: e.SMTP_URL ?? null,
    supportEmail: e.SUPPORT_EMAIL,
    mail: {
      ratePerSecond: e.MAIL_RATE_PER_SECOND,
      maxAttempts: e.MAIL_MAX_ATTEMPTS,
      retryBaseMs: 5_000,
      retryMaxMs: 30 * 60_000,
      logBodies: e.MAIL_LOG_BODIES === '1' || e.MAIL_LOG_BODIES === 'true',
    },
    mailEventsSecret: e.MAIL_EVENTS_SECRET ?? null,
    referralKey: e.REFERRAL_KEY,
    referralFlushMs: e.REFERRAL_FLUSH_MS,
    referralVisitsPerAddress: e.REFERRAL_VISITS_PER_ADDRESS,
    appStoreUrl: e.APP_STORE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    deployment: e.PUBLIC_URL === undefined ? null : e.PUBLIC_URL.replace(/\/+$/, ''),
    passkeyRelyingParty: e.PUBLIC_URL === undefined ? null : relyingPartyOf(e.PUBLIC_URL),
    corsOrigins: e.CORS_ORIGINS.split(',').map((o) => o.trim()).filter((o) => o !== ''),
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    socketRecheckMs: 60_000,
    hashCost: null,
    logLevel: e.LOG_LEVEL,
    requestLog: { mode: e.LOG_REQUESTS ?? requestLogMode(e.LOG_LEVEL), slowMs: e.LOG_SLOW_MS },
    trustProxy: e.TRUST_PROXY,
    statementTimeoutMs: e.STATEMENT_TIMEOUT_MS,
    exports: { perAdmin: e.EXPORT_MAX_PER_ADMIN, perInstance: e.EXPORT_MAX_PER_INSTANCE, idleTimeoutMs: Math.round(e.EXPORT_IDLE_TIMEOUT_SECONDS * 1000) },
    lockout: {
      pairFailures: e.LOGIN_LOCK_FAILURES,
      lockMs: Math.round(e.LOGIN_LOCK_MINUTES * 60_000),
      slowAfter: e.LOGIN_SLOW_AFTER,
      slowMaxMs: Math.round(e.LOGIN_SLOW_MAX_SECONDS * 1000),
      otpDailyGuesses: e.OTP_DAILY_GUESSES,
    },
    media: {
      imageBytes: Math.floor(e.UPLOAD_IMAGE_MAX_MB * 1024 * 1024),
      videoBytes: Math.floor(e.UPLOAD_VIDEO_MAX_MB * 1024 * 1024),
      maxPixels: Math.floor(e.UPLOAD_MAX_MEGAPIXELS * 1_000_000),
    },
    sweep: { graceMs: Math.round(e.UPLOAD_SWEEP_GRACE_MINUTES * 60_000), intervalMs: Math.round(e.UPLOAD_SWEEP_INTERVAL_MINUTES * 60_000) },
    vacuumIntervalMs: Math.round(e.PGLITE_VACUUM_INTERVAL_SECONDS * 1000),
    promotions: {
      batchSize: e.PROMOTION_BATCH_SIZE,
      maxAttempts: e.PROMOTION_MAX_ATTEMPTS,
      retryBaseMs: e.PROMOTION_RETRY_BASE_MS,
      retryMaxMs: 30 * 60_000,
      webhook:
        e.PUSH_WEBHOOK_URL === undefined || e.PUSH_WEBHOOK_SECRET === undefined
          ? null
          : { url: e.PUSH_WEBHOOK_URL, secret: e.PUSH_WEBHOOK_SECRET, timeoutMs: e.PUSH_WEBHOOK_TIMEOUT_MS },
    },
    fourEyesThreshold: e.FOUR_EYES_THRESHOLD,
    fourEyesWindowHours: e.FOUR_EYES_WINDOW_HOURS,
    undoSeconds: e.UNDO_SECONDS,
    jobs: { concurrency: e.JOB_CONCURRENCY, pollMs: e.JOB_POLL_MS, leaseMs: e.JOB_LEASE_SECONDS * 1000 },
    redisUrl: e.REDIS_URL ?? null,
    backups: e.BACKUP_DIR === undefined ? null : { dir: resolve(e.BACKUP_DIR), everyMs: Math.round(e.BACKUP_EVERY_HOURS * 3_600_000), keep: e.BACKUP_KEEP },
    metrics: e.METRICS_TOKEN === undefined ? null : { token: e.METRICS_TOKEN, port: e.METRICS_PORT ?? null },
  }
}

/**
 * S3 storage is all or nothing: an endpoint without its bucket or keys, or a bucket without an
 * endpoint, stops the start (uploads quietly kept on one instance's disk would be lost to the others).
 */
function s3Settings(e: z.output<typeof Env>): S3Settings | null {
  const named = { S3_ENDPOINT: e.S3_ENDPOINT, S3_BUCKET: e.S3_BUCKET, S3_ACCESS_KEY: e.S3_ACCESS_KEY, S3_SECRET_KEY: e.S3_SECRET_KEY }
  if (Object.values(named).every((v) => v === undefined)) return null
  const missing = Object.entries(named).filter(([, v]) => v === undefined).map(([k]) => k)
  if (e.S3_ENDPOINT === undefined || e.S3_BUCKET === undefined || e.S3_ACCESS_KEY === undefined || e.S3_SECRET_KEY === undefined) {
    throw new ConfigError(`Invalid configuration: S3 storage needs S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY and S3_SECRET_KEY together; missing:\n  ${missing.join('\n  ')}`)
  }
  return {
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET,
    accessKey: e.S3_ACCESS_KEY,
    secretKey: e.S3_SECRET_KEY,
    region: e.S3_REGION,
    pathStyle: e.S3_FORCE_PATH_STYLE === '1' || e.S3_FORCE_PATH_STYLE === 'true',
  }
}

/** The generated key's file in DATA_DIR. */
export const JWT_SECRET_FILE = 'jwt-secret'

function persistedSecret(dataDir: string): string {
  const file = join(dataDir, JWT_SECRET_FILE)
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim()
    if (kept.length >= 32) return kept
  }
  const secret = randomBytes(48).toString('base64url')
  // 0600: the key signs every session; other local users must not read it.
  writeFileSync(file, secret + '\n', { mode: 0o600 })
  return secret
}
