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

  it('refuses bad values, naming each', () => {
    const bad = () => loadConfig({ DATA_DIR: dir, PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', TOKEN_TTL_SECONDS: String(13 * 3600) })
    expect(bad).toThrow(ConfigError)
    expect(bad).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*JWT_SECRET[\s\S]*TOKEN_TTL_SECONDS/)
  })
})
