import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bo-config-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('loadConfig', () => {
  it('has the documented defaults and PGlite under DATA_DIR', () => {
    const config = loadConfig({ DATA_DIR: dir })
    expect(config).toMatchObject({
      port: 8080,
      dataDir: dir,
      uploadsDir: join(dir, 'uploads'),
      tmpDir: join(dir, 'tmp'),
      database: { kind: 'pglite', dir: join(dir, 'db') },
      tokenTtlSeconds: 12 * 3600,
      adminEmail: 'admin@example.com',
      adminPassword: null,
      smtpUrl: null,
      corsOrigins: [],
    })
  })

  it('reads MAIL_EVENTS_SECRET (off when unset or empty) and refuses one shorter than 16 characters', () => {
    expect(loadConfig({ DATA_DIR: dir }).mailEventsSecret).toBeNull()
    expect(loadConfig({ DATA_DIR: dir, MAIL_EVENTS_SECRET: '' }).mailEventsSecret).toBeNull()
    expect(loadConfig({ DATA_DIR: dir, MAIL_EVENTS_SECRET: 'a-long-enough-secret' }).mailEventsSecret).toBe('a-long-enough-secret')
    expect(() => loadConfig({ DATA_DIR: dir, MAIL_EVENTS_SECRET: 'too-short' })).toThrow(/MAIL_EVENTS_SECRET must be at least 16 characters/)
  })

  it('refuses NODE_ENV=production without PUBLIC_URL, saying why; starts with it', () => {
    expect(() => loadConfig({ DATA_DIR: dir, NODE_ENV: 'production' })).toThrow(ConfigError)
    expect(() => loadConfig({ DATA_DIR: dir, NODE_ENV: 'production' })).toThrow(/PUBLIC_URL: required when NODE_ENV=production[\s\S]*passkeys/)
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: 'production', PUBLIC_URL: 'https://back-office.example.com/' })).toMatchObject({ publicUrl: 'https://back-office.example.com', deployment: 'https://back-office.example.com' })
    expect(loadConfig({ DATA_DIR: dir }).deployment).toBeNull()
  })

  it('generates the JWT secret once, keeps it private in DATA_DIR, and reuses it', async () => {
    const first = loadConfig({ DATA_DIR: dir })
    const second = loadConfig({ DATA_DIR: dir })
    expect(Buffer.from(first.jwtSecret).toString()).toBe(Buffer.from(second.jwtSecret).toString())
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32)
    expect((await readFile(join(dir, 'jwt-secret'), 'utf8')).trim()).toBe(Buffer.from(first.jwtSecret).toString())
    expect((await stat(join(dir, 'jwt-secret'))).mode & 0o077).toBe(0)
    const explicit = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40) })
    expect(Buffer.from(explicit.jwtSecret).toString()).toBe('x'.repeat(40))
  })

  it('reads every variable', () => {
    const config = loadConfig({
      DATA_DIR: dir,
      PORT: '9090',
      DATABASE_URL: 'postgres://app@db.internal:5432/backoffice',
      ADMIN_EMAIL: 'Boss@Example.com',
      ADMIN_PASSWORD: 'Strong@123',
      SMTP_URL: 'smtp://mail.internal:25',
      SUPPORT_EMAIL: 'help@example.com',
      REFERRAL_KEY: 'k',
      APP_STORE_URL: 'https://apps.example.com/wallet',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      TOKEN_TTL_SECONDS: '3600',
    })
    expect(config).toMatchObject({
      port: 9090,
      database: { kind: 'pg', url: 'postgres://app@db.internal:5432/backoffice' },
      adminEmail: 'boss@example.com',
      adminPassword: 'Strong@123',
      smtpUrl: 'smtp://mail.internal:25',
      supportEmail: 'help@example.com',
      referralKey: 'k',
      appStoreUrl: 'https://apps.example.com/wallet',
      corsOrigins: ['https://a.example', 'https://b.example'],
      tokenTtlSeconds: 3600,
    })
  })

  it('reads TRUST_PROXY as false or true, a hop count, or proxy addresses and CIDRs', () => {
    const trust = (value: string | undefined) => loadConfig({ DATA_DIR: dir, TRUST_PROXY: value }).trustProxy
    expect([trust(undefined), trust('false'), trust('0'), trust('true'), trust('TRUE')]).toEqual([false, false, false, true, true])
    // '1' was "true" before; it is now one hop: the proxy in front, not every address a client claims.
    expect([trust('1'), trust('2')]).toEqual([1, 2])
    expect(trust('10.0.0.1, 192.168.0.0/16 ,::1,fd00::/8')).toEqual(['10.0.0.1', '192.168.0.0/16', '::1', 'fd00::/8'])
    for (const bad of ['proxy.internal', '10.0.0.1/33', ',', '1.2.3', 'yes']) {
      expect(() => trust(bad), bad).toThrow(/TRUST_PROXY/)
    }
  })

  it('reads the export limits, with defaults below the pool of ten connections', () => {
    expect(loadConfig({ DATA_DIR: dir }).exports).toEqual({ perAdmin: 2, perInstance: 4, idleTimeoutMs: 60_000 })
    expect(loadConfig({ DATA_DIR: dir, EXPORT_MAX_PER_ADMIN: '1', EXPORT_MAX_PER_INSTANCE: '8', EXPORT_IDLE_TIMEOUT_SECONDS: '2.5' }).exports).toEqual({ perAdmin: 1, perInstance: 8, idleTimeoutMs: 2500 })
    expect(() => loadConfig({ DATA_DIR: dir, EXPORT_MAX_PER_ADMIN: '0' })).toThrow(/EXPORT_MAX_PER_ADMIN/)
    expect(() => loadConfig({ DATA_DIR: dir, EXPORT_IDLE_TIMEOUT_SECONDS: '0' })).toThrow(/EXPORT_IDLE_TIMEOUT_SECONDS/)
  })

  it('reads the statement timeout and the sign-in limits, with their defaults', () => {
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({
      statementTimeoutMs: 15_000,
      lockout: { pairFailures: 5, lockMs: 600_000, slowAfter: 10, slowMaxMs: 60_000, otpDailyGuesses: 20 },
    })
    const set = loadConfig({
      DATA_DIR: dir,
      STATEMENT_TIMEOUT_MS: '0',
      LOGIN_LOCK_FAILURES: '3',
      LOGIN_LOCK_MINUTES: '30',
      LOGIN_SLOW_AFTER: '20',
      LOGIN_SLOW_MAX_SECONDS: '300',
      OTP_DAILY_GUESSES: '10',
    })
    expect(set).toMatchObject({ statementTimeoutMs: 0, lockout: { pairFailures: 3, lockMs: 1_800_000, slowAfter: 20, slowMaxMs: 300_000, otpDailyGuesses: 10 } })
    expect(() => loadConfig({ DATA_DIR: dir, STATEMENT_TIMEOUT_MS: '-1' })).toThrow(/STATEMENT_TIMEOUT_MS/)
    expect(() => loadConfig({ DATA_DIR: dir, LOGIN_LOCK_FAILURES: '0' })).toThrow(/LOGIN_LOCK_FAILURES/)
  })

  it('reads the scheduled backups: off without BACKUP_DIR, every 24 hours keeping 7 by default, and only for the embedded database', () => {
    expect(loadConfig({ DATA_DIR: dir }).backups).toBeNull()
    expect(loadConfig({ DATA_DIR: dir, BACKUP_DIR: join(dir, 'backups') }).backups).toEqual({ dir: join(dir, 'backups'), everyMs: 24 * 3_600_000, keep: 7 })
    expect(loadConfig({ DATA_DIR: dir, BACKUP_DIR: join(dir, 'backups'), BACKUP_EVERY_HOURS: '0.5', BACKUP_KEEP: '30' }).backups).toEqual({ dir: join(dir, 'backups'), everyMs: 1_800_000, keep: 30 })
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_DIR: join(dir, 'backups'), BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/)
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_DIR: join(dir, 'backups'), BACKUP_EVERY_HOURS: '0' })).toThrow(/BACKUP_EVERY_HOURS/)
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_DIR: join(dir, 'backups'), DATABASE_URL: 'postgres://app@db.internal:5432/backoffice' })).toThrow(/BACKUP_DIR: scheduled backups are for the embedded database only/)
  })

  it('names the generated key file, for backups to carry; none when JWT_SECRET gives the key', () => {
    expect(loadConfig({ DATA_DIR: dir }).jwtSecretFile).toBe(join(dir, 'jwt-secret'))
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'x'.repeat(40) }).jwtSecretFile).toBeNull()
  })

  it('reads the request log settings: public calls summed up and 500 ms slow by default', () => {
    expect(loadConfig({ DATA_DIR: dir }).requestLog).toEqual({ mode: 'summary', slowMs: 500 })
    expect(loadConfig({ DATA_DIR: dir, LOG_REQUESTS: 'all', LOG_SLOW_MS: '250' }).requestLog).toEqual({ mode: 'all', slowMs: 250 })
    expect(() => loadConfig({ DATA_DIR: dir, LOG_REQUESTS: 'some' })).toThrow(/LOG_REQUESTS/)
    // A log turned up to debug or trace has every request's lines, unless LOG_REQUESTS says otherwise.
    expect(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'debug' }).requestLog.mode).toBe('all')
    expect(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'trace' }).requestLog.mode).toBe('all')
    expect(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'warn' }).requestLog.mode).toBe('summary')
    expect(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'debug', LOG_REQUESTS: 'summary' }).requestLog.mode).toBe('summary')
    expect(() => loadConfig({ DATA_DIR: dir, LOG_SLOW_MS: '0' })).toThrow(/LOG_SLOW_MS/)
  })

  it('refuses bad values, naming each', () => {
    const bad = () => loadConfig({ DATA_DIR: dir, PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', TOKEN_TTL_SECONDS: String(13 * 3600) })
    expect(bad).toThrow(ConfigError)
    expect(bad).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*JWT_SECRET[\s\S]*TOKEN_TTL_SECONDS/)
  })
})
