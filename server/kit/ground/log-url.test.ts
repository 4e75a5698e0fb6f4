/**
 * The request log never writes a query string's values (server/kit/ground/log-url.ts): lead emails typed
 * in a search and the tokens of mailed links stay out of the log, whatever the route; the path and
 * the parameters' names stay, to tell requests apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { maskedUrl } from './log-url.ts'
import { makeTestApp, type TestApp } from '../../testing/test-app.ts'

describe('maskedUrl', () => {
  it('keeps the path and the names, masks every value', () => {
    expect(maskedUrl('/api/admin/getuser?search=lead%40example.com&page=1')).toBe('/api/admin/getuser?search=***&page=***')
    expect(maskedUrl('/admin/unsubscribe?token=abc.def')).toBe('/admin/unsubscribe?token=***')
    expect(maskedUrl('/api/admin/getuser')).toBe('/api/admin/getuser')
    expect(maskedUrl('/api/admin/getuser?')).toBe('/api/admin/getuser?')
  })

  it('masks a part without a name or with one no parameter has', () => {
    expect(maskedUrl('/admin/confirm-request?3f9a0c1d2e')).toBe('/admin/confirm-request?***')
    expect(maskedUrl('/x?lead@example.com=1&=2&a=b=c')).toBe('/x?***&***&a=***')
  })
})

describe('the request log', () => {
  const lines: string[] = []
  let t: TestApp
  beforeAll(async () => {
    t = await makeTestApp({ env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void lines.push(line) } })
  })
  afterAll(async () => {
    await t.close()
  })

  it('writes the path with the query values masked, for API calls, pages and unknown addresses', async () => {
    const headers = await t.auth(t.superadmin)
    const urls = [
      '/api/admin/getuser?page=1&limit=10&search=someone.private%40example.com',
      '/admin/unsubscribe?token=secret-unsubscribe-token',
      '/admin/confirm-request?token=secret-confirm-token',
      '/nowhere?email=someone.private%40example.com',
    ]
    for (const url of urls) await t.app.inject({ method: 'GET', url, headers })
    const log = lines.join('')
    expect(log).toContain('"url":"/api/admin/getuser?page=***&limit=***&search=***"')
    expect(log).toContain('"url":"/admin/unsubscribe?token=***"')
    expect(log).toContain('"url":"/nowhere?email=***"')
    for (const secret of ['someone.private', 'secret-unsubscribe-token', 'secret-confirm-token']) expect(log).not.toContain(secret)
  })
})
