import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bodyOf, makeTestApp, tcpProxy, testEngine, type TcpProxy, type TestApp } from './testing/test-app.ts'

let t: TestApp
let dist: string
let admin: { authorization: string }
/** On PostgreSQL the app reaches the server through a proxy the outage test can cut. */
let proxy: TcpProxy | null = null

beforeAll(async () => {
  const url = process.env['DATABASE_URL']
  if (url) {
    const server = new URL(url)
    proxy = await tcpProxy(server.hostname, Number(server.port || 5432))
  }
  dist = await mkdtemp(join(tmpdir(), 'bo-dist-'))
  await mkdir(join(dist, 'assets'))
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Back office</title><div id="root"></div>')
  await writeFile(join(dist, 'assets', 'app-1234.js'), 'console.log("app")')
  t = await makeTestApp({
    configure: (config) => {
      if (proxy === null || config.database.kind !== 'pg') return { ...config, distDir: dist }
      const viaProxy = new URL(config.database.url)
      viaProxy.hostname = '127.0.0.1'
      viaProxy.port = String(proxy.port)
      return { ...config, distDir: dist, database: { kind: 'pg', url: viaProxy.toString() } }
    },
  })
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await proxy?.start().catch(() => {})
  await t.close()
  await proxy?.stop()
  await rm(dist, { recursive: true, force: true })
})

describe('security headers', () => {
  it('sends CSP, nosniff, Referrer-Policy and no-store on API answers, errors included', async () => {
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/api/admin/get-profile', headers: admin }),
      await t.app.inject({ method: 'GET', url: '/api/admin/get-profile' }),
      await t.app.inject({ method: 'GET', url: '/api/admin/no-such-call' }),
    ]) {
      expect(res.headers['content-security-policy']).toContain("script-src 'self'")
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'")
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['referrer-policy']).toBe('no-referrer')
      expect(res.headers['cache-control']).toBe('no-store')
    }
  })

  it('sends no CORS headers unless origins are configured', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/get-profile', headers: { ...admin, origin: 'https://evil.example' } })
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe('bad requests get the failed shape, never a 500', () => {
  const login = '/api/admin/login'

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: login, headers: { 'content-type': 'application/json' }, payload: '{"email": "a@b.co",' })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: 'Malformed JSON body' })
  })

  it('answers an unsupported content type with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: login, headers: { 'content-type': 'application/xml' }, payload: '<login/>' })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)['status']).toBe('failed')
  })

  it('answers a body over 1 MB with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/edit-profile',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
    })
    expect(res.statusCode).toBe(413)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: 'Request body is too large' })
  })

  it('answers a JSON array, a prototype-poisoning body and wrong types with 400', async () => {
    const array = await t.app.inject({ method: 'POST', url: login, headers: { 'content-type': 'application/json' }, payload: '[]' })
    expect(array.statusCode).toBe(400)
    const poison = await t.app.inject({ method: 'POST', url: login, headers: { 'content-type': 'application/json' }, payload: '{"__proto__": {"admin": true}}' })
    expect(poison.statusCode).toBe(400)
    const types = await t.app.inject({ method: 'POST', url: login, payload: { email: { $ne: '' }, password: ['x'] } })
    expect(types.statusCode).toBe(400)
    expect(bodyOf(types)).toMatchObject({ status: 'failed', errors: { email: expect.any(String), password: expect.any(String) } })
  })

  it('answers a broken multipart body with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/addcategory',
      headers: { ...admin, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="categoryName"\r\n\r\nBroken',
    })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)['status']).toBe('failed')
  })

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/nothing-here' })
    expect(res.statusCode).toBe(404)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: 'Not found' })
  })
})

describe('the PWA and uploads', () => {
  it('redirects / to /admin/', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' })
    expect(res.statusCode).toBe(302)
    expect(res.headers['location']).toBe('/admin/')
  })

  it('serves index.html for every client route and the built assets as files', async () => {
    // /admin/app/:code is the server's referral redirect, not a client route (brands.test.ts).
    for (const path of ['/admin/', '/admin/users', '/admin/edit-category', '/admin/data-deletion']) {
      const res = await t.app.inject({ method: 'GET', url: path })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      expect(res.body).toContain('<div id="root">')
      expect(res.headers['content-security-policy']).toContain("script-src 'self'")
    }
    const asset = await t.app.inject({ method: 'GET', url: '/admin/assets/app-1234.js' })
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['cache-control']).toContain('immutable')
    expect((await t.app.inject({ method: 'GET', url: '/admin/assets/missing.js' })).statusCode).toBe(404)
  })

  it('does not serve files outside the uploads folder', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/uploads/..%2f..%2fjwt-secret' })
    expect([403, 404]).toContain(res.statusCode)
    expect(bodyOf(res)['status']).toBe('failed')
  })
})

describe('a lost database connection', () => {
  it(
    testEngine() === 'pg'
      ? 'answers 503 or recovers at once after the server drops every connection, and the process lives'
      : 'answers 503 when the embedded database is gone, and the process lives',
    async () => {
      const profile = () => t.app.inject({ method: 'GET', url: '/api/admin/categoryDropdown', headers: admin })
      expect((await profile()).statusCode).toBe(200)
      if (t.handle.kind === 'pg') {
        const database = t.config.database.kind === 'pg' ? new URL(t.config.database.url).pathname.slice(1) : ''
        const killer = new pg.Client({ connectionString: process.env['DATABASE_URL'] })
        await killer.connect()
        const killed = await killer.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [database])
        await killer.end()
        expect(killed.rowCount).toBeGreaterThan(0)
        const statuses: number[] = []
        for (let i = 0; i < 20 && statuses.at(-1) !== 200; i++) {
          const res = await profile()
          statuses.push(res.statusCode)
          if (res.statusCode === 503) expect(bodyOf(res)).toEqual({ status: 'failed', message: 'The database is not available right now; please try again shortly' })
          else await new Promise((r) => setTimeout(r, 100))
        }
        expect(statuses.every((s) => s === 200 || s === 503)).toBe(true)
        expect(statuses.at(-1)).toBe(200)

        // Now the server is unreachable for a while: 503 while it is gone, 200 once it is back.
        await proxy?.stop()
        const down = await profile()
        expect(down.statusCode).toBe(503)
        expect(bodyOf(down)).toEqual({ status: 'failed', message: 'The database is not available right now; please try again shortly' })
        // Alive, but not ready: a load balancer stops sending requests here until the database is back.
        expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
        expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503)
        await proxy?.start()
        expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
        expect((await profile()).statusCode).toBe(200)
      } else {
        await t.handle.close()
        const res = await profile()
        expect(res.statusCode).toBe(503)
        expect(bodyOf(res)).toEqual({ status: 'failed', message: 'The database is not available right now; please try again shortly' })
        const login = await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'a@b.co', password: 'Test@1234' } })
        expect(login.statusCode).toBe(503)
      }
    },
  )
})
