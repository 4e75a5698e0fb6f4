import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTestApp, type TestApp } from './testing/test-app.ts'

let t: TestApp
let dist: string

const INDEX = '<!doctype html><meta name="csp-nonce" content="__CSP_NONCE__"><title>Back Office</title><div id="root"></div>'
const LOGIN =
  '<!doctype html><meta name="csp-nonce" content="__CSP_NONCE__"><style nonce="__CSP_NONCE__">main{display:grid}</style>' +
  '<title>Back Office</title><div id="root" data-prerendered="/login"><main><h1>Login</h1></main></div>'
/** A chunk smaller than any compression threshold: it must still be sent compressed. */
const TINY = 'export const a=1'

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'bo-shell-'))
  await mkdir(join(dist, 'assets'))
  await writeFile(join(dist, 'index.html'), INDEX)
  await writeFile(join(dist, 'login.html'), LOGIN)
  await writeFile(join(dist, 'assets', 'tiny-1234.js'), TINY)
  await writeFile(join(dist, 'assets', 'tiny-1234.js.br'), brotliCompressSync(TINY))
  await writeFile(join(dist, 'assets', 'tiny-1234.js.gz'), gzipSync(TINY))
  t = await makeTestApp({ configure: (config) => ({ ...config, distDir: dist }) })
})
afterAll(async () => {
  await t.close()
  await rm(dist, { recursive: true, force: true })
})

const nonceIn = (html: string) => /<meta name="csp-nonce" content="([^"]+)">/.exec(html)?.[1]
const headerNonce = (csp: string) => /style-src-elem 'self' 'nonce-([^']+)'/.exec(csp)?.[1]

describe('the PWA shells', () => {
  it('sends the login shell for /admin/login and the empty shell for every other route', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/admin/login' })
    expect(login.statusCode).toBe(200)
    expect(login.body).toContain('<h1>Login</h1>')
    for (const url of ['/admin/', '/admin/users', '/admin/index.html', '/admin/forgot', '/admin/login/extra']) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expect(res.body, url).toContain('<div id="root"></div>')
      expect(res.body, url).not.toContain('Login')
    }
    // The service worker precaches both by file name.
    expect((await t.app.inject({ method: 'GET', url: '/admin/login.html' })).body).toContain('<h1>Login</h1>')
  })

  it('gives each shell a fresh style nonce, the same in its header and in its page, and no unsafe-inline', async () => {
    const seen = new Set<string>()
    for (const url of ['/admin/login', '/admin/login', '/admin/users', '/admin/index.html', '/admin/login.html']) {
      const res = await t.app.inject({ method: 'GET', url })
      const csp = String(res.headers['content-security-policy'])
      const nonce = headerNonce(csp)
      expect(nonce, url).toMatch(/^[A-Za-z0-9+/]{22}==$/)
      expect(nonceIn(res.body)).toBe(nonce)
      expect(res.body).not.toContain('__CSP_NONCE__')
      expect(csp).not.toContain('unsafe-inline')
      expect(csp).toContain("script-src 'self';")
      expect(csp).toContain("style-src-attr 'none'")
      expect(res.headers['cache-control']).toBe('no-cache')
      seen.add(nonce ?? '')
    }
    expect(seen.size).toBe(5)
    const login = await t.app.inject({ method: 'GET', url: '/admin/login' })
    expect(login.body).toContain(`<style nonce="${headerNonce(String(login.headers['content-security-policy']))}">`)
  })

  it('compresses the shells as the browser accepts', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/admin/login', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['vary']).toContain('Accept-Encoding')
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<h1>Login</h1>')
    const gz = await t.app.inject({ method: 'GET', url: '/admin/users', headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toContain('<div id="root"></div>')
    const plain = await t.app.inject({ method: 'GET', url: '/admin/users' })
    expect(plain.headers['content-encoding']).toBeUndefined()
  })

  it('sends even the smallest chunk compressed, with the file next to it', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/admin/assets/tiny-1234.js', headers: { 'accept-encoding': 'gzip, br' } })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['cache-control']).toContain('immutable')
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(TINY)
    const gz = await t.app.inject({ method: 'GET', url: '/admin/assets/tiny-1234.js', headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
  })
})
