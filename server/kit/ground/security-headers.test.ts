import helmet from '@fastify/helmet'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { CSP_DIRECTIVES } from '../../pwa.ts'
import { helmetHeaders, sendSecurityHeaders } from './security-headers.ts'

const options = { contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES }, referrerPolicy: { policy: 'no-referrer' as const } }

describe('the security headers, worked out once', () => {
  it('are exactly the headers helmet sets on an answer, on every route and on a 404', async () => {
    const withHelmet = Fastify()
    await withHelmet.register(helmet, options)
    withHelmet.get('/a', async () => ({ ok: true }))
    const once = Fastify()
    sendSecurityHeaders(once, await helmetHeaders(options))
    once.get('/a', async () => ({ ok: true }))
    for (const url of ['/a', '/missing']) {
      const expected = (await withHelmet.inject({ method: 'GET', url })).headers
      const actual = (await once.inject({ method: 'GET', url })).headers
      const drop = ({ date: _date, ...rest }: Record<string, unknown>) => rest
      expect(drop(actual)).toEqual(drop(expected))
    }
    expect((await once.inject({ method: 'GET', url: '/a' })).headers['content-security-policy']).toContain("default-src 'self'")
    await withHelmet.close()
    await once.close()
  })
})
