/**
 * deploy/ in step with the server: nginx lets through the largest form the server accepts and
 * little more, streams exactly the contract's CSV exports, and keeps the values the cluster test
 * replaces as that test expects them; the example environment is one the server starts with once
 * its secret is filled in; the systemd unit starts the production entry, one port and data
 * folder per instance. That nginx really runs the file is server/testing/cluster.test.ts's part.
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Endpoint } from '#contract/define'
import { loadConfig, type MediaLimits } from './config.ts'
import { loadAreas } from './kit/request/areas.ts'
import { byteLimit } from './kit/ground/media.ts'
import { formBounds } from './kit/ground/uploads.ts'
import { DEPLOY_NGINX, findNginx, siteForTest } from './testing/nginx.ts'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const nginx = readFileSync(DEPLOY_NGINX, 'utf8')
const unit = readFileSync(join(root, 'deploy', 'systemd', 'back-office@.service'), 'utf8')
const exampleFile = readFileSync(join(root, 'deploy', 'back-office.env.example'), 'utf8')
const { endpoints } = (await loadAreas()).index
const MB = 1024 * 1024

/**
 * A part's framing besides its value: its boundary line (at most 70 characters, RFC 2046), its
 * headers (Content-Disposition with a file name of up to 255 bytes, Content-Type) and line ends.
 */
const PART_FRAMING = 512

/** The largest multipart body the server accepts: every file at its limit, every text field at its bound. */
function largestForm(all: readonly Endpoint[], media: MediaLimits): { name: string; bytes: number } {
  const forms = all.flatMap((endpoint) => {
    if (endpoint.files === undefined) return []
    const rules = Object.values(endpoint.files)
    const bounds = formBounds(endpoint.input)
    const files = rules.reduce((n, rule) => n + byteLimit(rule, media) * rule.max, 0)
    const parts = bounds.fields + rules.reduce((n, rule) => n + rule.max, 0)
    return [{ name: endpoint.name, bytes: files + bounds.textBytes + parts * PART_FRAMING }]
  })
  return forms.reduce((largest, form) => (form.bytes > largest.bytes ? form : largest))
}

/** The KEY=value lines of an environment file (comments and blank lines left out). */
function environment(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']))
}

/** The variables server/config.ts reads (the same reading as server/docs.test.ts). */
function configVariables(): string[] {
  const config = readFileSync(join(root, 'server', 'config.ts'), 'utf8')
  const env = /const Env = z\.object\(\{\n([\s\S]*?)\n\}\)/.exec(config)?.[1] ?? ''
  return [...env.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1] ?? '')
}

/** The values of one `Key=` of the unit, in order. */
const unitValues = (key: string): string[] => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1] ?? '')

let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bo-deploy-'))
})
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

describe('deploy/nginx/back-office.conf', () => {
  it('lets through the largest form the server accepts with its default limits, rounded up to the MB', () => {
    const largest = largestForm(endpoints, loadConfig({ DATA_DIR: dataDir }).media)
    // Edit game: five images and a video at their limits.
    expect(largest.name).toBe('Editcms')
    const limits = [...nginx.matchAll(/^\s*client_max_body_size\s+(\S+);/gm)].map((m) => m[1])
    expect(limits).toEqual([`${Math.ceil(largest.bytes / MB)}m`])
  })

  it("streams unbuffered exactly the contract's CSV exports", () => {
    const location = /^\s*location ~ \^\/api\/admin\/\(([^)]*)\)\$ \{\n\s*proxy_buffering off;/m.exec(nginx)
    expect(location, 'the CSV exports location, with proxy_buffering off first').not.toBeNull()
    const listed = (location?.[1] ?? '').split('|').sort()
    expect(listed).toEqual(endpoints.filter((e) => e.answer === 'csv').map((e) => e.path.replace(/^\//, '')).sort())
  })

  it('is run by a cluster test that, without nginx, fails naming the Debian package', () => {
    expect(() => findNginx('/nonexistent-a:/nonexistent-b', '/nonexistent/nginx')).toThrow(/Debian package nginx \(sudo apt-get install nginx\)/)
  })

  it('keeps the values the cluster test replaces written as that test expects', () => {
    const site = siteForTest(nginx, { instances: [41001, 41002], httpPort: 41003, httpsPort: 41004, certificates: '/tmp/tls/' })
    expect(site).toContain('server 127.0.0.1:41001 ')
    expect(site).toContain('listen 127.0.0.1:41004 ssl http2;')
    expect(site).not.toMatch(/^\s*ssl_certificate\S* \/etc\//m)
  })
})

describe('deploy/back-office.env.example', () => {
  const example = environment(exampleFile)

  it('sets only variables the server reads, and leaves the per-instance ones to the unit', () => {
    const known = new Set(configVariables())
    expect(Object.keys(example).filter((name) => !known.has(name))).toEqual([])
    for (const name of ['PORT', 'DATA_DIR']) expect(example).not.toHaveProperty(name)
  })

  it('refuses to start until JWT_SECRET is filled in, then is a configuration for several instances behind nginx', () => {
    expect(() => loadConfig({ ...example, DATA_DIR: dataDir })).toThrow(/JWT_SECRET/)
    const config = loadConfig({ ...example, JWT_SECRET: 'x'.repeat(64), DATA_DIR: dataDir })
    expect(config.trustProxy).toEqual(['127.0.0.1'])
    expect(config.database.kind).toBe('pg')
    expect(config.redisUrl).not.toBeNull()
    expect(config.s3).not.toBeNull()
    expect(config.publicUrl).toMatch(/^https:\/\//)
  })

  it('names in its header the file the unit reads', () => {
    const [file] = unitValues('EnvironmentFile')
    expect(file).toBe('/etc/back-office/back-office.env')
    expect(exampleFile).toContain(` deploy/back-office.env.example ${file}`)
  })
})

describe('deploy/systemd/back-office@.service', () => {
  it('starts the production entry, as the cluster test does, on the port its instance is named after and with a data folder of its own', () => {
    const [exec = ''] = unitValues('ExecStart')
    expect(exec).toMatch(/^\/\S+\/node --import tsx server\/main\.ts$/)
    expect(existsSync(join(root, 'server', 'main.ts'))).toBe(true)
    const environmentLines = unitValues('Environment')
    expect(environmentLines).toContain('PORT=%i')
    expect(environmentLines).toContain('DATA_DIR=/var/lib/back-office/%i')
    // So a start without PUBLIC_URL is refused (server/config.ts).
    expect(environmentLines).toContain('NODE_ENV=production')
    expect(unitValues('StateDirectory')).toEqual(['back-office/%i'])
  })

  it('gives the server longer than its own shutdown takes before killing it', () => {
    const main = readFileSync(join(root, 'server', 'main.ts'), 'utf8')
    const shutdownMs = Number(/setTimeout\(\(\) => process\.exit\(1\), ([0-9_]+)\)/.exec(main)?.[1]?.replace(/_/g, '') ?? NaN)
    const [stop = ''] = unitValues('TimeoutStopSec')
    expect(Number(stop) * 1000).toBeGreaterThan(shutdownMs)
  })
})
