/**
 * The Prometheus metrics (server/kit/ground/metrics.ts) as a scraper sees them: the text parsed by a
 * Prometheus text-format parser, the token rule on the main port and on METRICS_PORT, and counts
 * that move with what the server does.
 */
import { createServer } from 'node:net'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { io } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ConfigError, loadConfig } from '../../config.ts'
import { mailOutbox, promotions } from '../../db/schema.ts'
import { bodyOf, makeTestApp, testEngine, type TestApp } from '../../testing/test-app.ts'
import { UNMATCHED, bearerMatches } from './metrics.ts'

const TOKEN = 'metrics-token-0123456789abcdef'

const Sample = z.object({ labels: z.record(z.string(), z.string()).optional(), value: z.string().optional(), count: z.string().optional() })
const Family = z.object({ name: z.string(), type: z.string(), metrics: z.array(Sample) })
const Families = z.array(Family)
type Families = z.output<typeof Families>

const parse = (text: string): Families => Families.parse(parsePrometheusTextFormat(text))

/** The value of the sample of `name` whose labels include `labels`; undefined when there is none. */
function valueOf(families: Families, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = families.find((f) => f.name === name)
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
  const raw = sample?.value ?? sample?.count
  return raw === undefined ? undefined : Number(raw)
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

describe('metrics off (METRICS_TOKEN unset)', () => {
  let t: TestApp
  beforeAll(async () => (t = await makeTestApp()))
  afterAll(async () => await t.close())

  it('answers /metrics 404, whatever the token', async () => {
    expect(t.app.metrics).toBeNull()
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404)
  })
})

describe('metrics on', () => {
  let t: TestApp
  beforeAll(async () => (t = await makeTestApp({ env: { METRICS_TOKEN: TOKEN } })))
  afterAll(async () => await t.close())

  const scrape = async (): Promise<Families> => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    return parse(response.body)
  }

  it('refuses a scrape without the token, or with a wrong one, 401', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' })
    expect(none.statusCode).toBe(401)
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/)
    expect(none.body).not.toContain('backoffice_')
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Basic ${TOKEN}`, 'Bearer ', 'Bearer']) {
      const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } })
      expect(wrong.statusCode, authorization).toBe(401)
    }
  })

  it('counts a call under its contract name and status, with its latency', async () => {
    const before = await scrape()
    const counted = (f: Families, status: string) => valueOf(f, 'backoffice_http_requests_total', { endpoint: 'getuser', method: 'GET', status }) ?? 0
    const headers = await t.auth(t.superadmin)
    const ok = await t.app.inject({ method: 'GET', url: '/api/admin/getuser?page=1&limit=10&search=', headers })
    expect(bodyOf(ok)['status']).toBe('success')
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/getuser?page=1&limit=10&search=' })).statusCode).toBe(401)
    const after = await scrape()
    expect(counted(after, '200')).toBe(counted(before, '200') + 1)
    expect(counted(after, '401')).toBe(counted(before, '401') + 1)
    expect(after.find((f) => f.name === 'backoffice_http_request_duration_seconds')?.type).toBe('HISTOGRAM')
    // The parser keeps a labelled histogram's buckets but drops its _count and _sum: read those lines as text.
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    const line = response.body.split('\n').find((l) => l.startsWith('backoffice_http_request_duration_seconds_count{endpoint="getuser",method="GET"}'))
    expect(Number(line?.split(' ')[1])).toBeGreaterThanOrEqual(2)
  })

  it('counts the referral visits dropped while the database refused their writes, from 0', async () => {
    expect(valueOf(await scrape(), 'backoffice_referral_visits_dropped_total', {})).toBe(0)
  })

  it('groups unknown addresses under one label, never by their URL', async () => {
    await t.app.inject({ method: 'GET', url: '/api/admin/no-such-call-123' })
    await t.app.inject({ method: 'GET', url: '/nothing/here-456' })
    const families = await scrape()
    expect(valueOf(families, 'backoffice_http_requests_total', { endpoint: UNMATCHED, status: '404' })).toBeGreaterThanOrEqual(2)
    const endpoints = families.find((f) => f.name === 'backoffice_http_requests_total')?.metrics.map((m) => m.labels?.['endpoint']) ?? []
    expect(endpoints.filter((e) => e?.includes('123') === true || e?.includes('456') === true)).toEqual([])
  })

  it('reports the database counts as they stand: jobs, mail, newsletter and promotion deliveries', async () => {
    const { db } = t.handle
    // A kind no instance handles stays queued.
    await t.app.services.jobs.add(db, 'metrics.test-kind', {})
    await db.insert(mailOutbox).values([
      { to: 'a@example.com', status: 'failed', group: 'newsletter:metrics-test' },
      { to: 'b@example.com', status: 'sent', group: 'newsletter:metrics-test' },
      { to: 'c@example.com', status: 'sent' },
    ])
    await db.insert(promotions).values({ title: 'Metrics', content: 'c', recipientCount: 10, total: 10, sent: 6, failed: 1, status: 'sending' })
    await db.insert(promotions).values({ title: 'Cancelled', content: 'c', recipientCount: 5, total: 5, sent: 2, failed: 0, status: 'cancelled' })
    const families = await scrape()
    expect(valueOf(families, 'backoffice_database_up')).toBe(1)
    expect(valueOf(families, 'backoffice_jobs', { kind: 'metrics.test-kind', state: 'queued' })).toBe(1)
    // Every kind this instance handles is reported, at 0 when none waits.
    expect(valueOf(families, 'backoffice_jobs', { kind: 'mail.send', state: 'failed' })).toBe(0)
    expect(valueOf(families, 'backoffice_mail_outbox', { status: 'failed' })).toBeGreaterThanOrEqual(1)
    expect(valueOf(families, 'backoffice_mail_outbox', { status: 'sent' })).toBeGreaterThanOrEqual(2)
    expect(valueOf(families, 'backoffice_newsletter_deliveries', { outcome: 'failed' })).toBe(1)
    expect(valueOf(families, 'backoffice_newsletter_deliveries', { outcome: 'sent' })).toBe(1)
    expect(valueOf(families, 'backoffice_newsletter_deliveries', { outcome: 'pending' })).toBe(0)
    expect(valueOf(families, 'backoffice_promotion_deliveries', { outcome: 'sent' })).toBe(8)
    expect(valueOf(families, 'backoffice_promotion_deliveries', { outcome: 'failed' })).toBe(1)
    expect(valueOf(families, 'backoffice_promotion_deliveries', { outcome: 'pending' })).toBe(3)
    expect(valueOf(families, 'backoffice_promotion_deliveries', { outcome: 'cancelled' })).toBe(3)

    // A second scrape reads the database again: a change shows at once.
    await db.insert(mailOutbox).values({ to: 'd@example.com', status: 'pending', group: 'newsletter:metrics-test' })
    expect(valueOf(await scrape(), 'backoffice_newsletter_deliveries', { outcome: 'pending' })).toBe(1)
  })

  it('reports the process: sockets, event-loop lag, memory, and the pool where there is one', async () => {
    const families = await scrape()
    expect(valueOf(families, 'backoffice_sockets_open')).toBe(0)
    expect(valueOf(families, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0)
    expect(valueOf(families, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(valueOf(families, 'backoffice_db_engine_info', { engine: testEngine() })).toBe(1)
    if (testEngine() === 'pg') {
      expect(valueOf(families, 'backoffice_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0)
      expect(valueOf(families, 'backoffice_db_pool_waiting')).toBe(0)
      expect(valueOf(families, 'backoffice_db_pool_max')).toBe(10)
    } else {
      expect(valueOf(families, 'backoffice_db_pool_connections')).toBeUndefined()
    }
  })
})

describe('metrics while the database is away', () => {
  let t: TestApp
  beforeAll(async () => (t = await makeTestApp({ env: { METRICS_TOKEN: TOKEN } })))
  afterAll(async () => await t.close())

  it('still answers the scrape: backoffice_database_up 0, the database gauges absent, the process ones there', async () => {
    // The worker first: its next claim would fail on the closed database, to no purpose here.
    await t.app.services.jobs.stop()
    await t.handle.close()
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    expect(response.statusCode).toBe(200)
    const families = parse(response.body)
    expect(valueOf(families, 'backoffice_database_up')).toBe(0)
    for (const name of ['backoffice_jobs', 'backoffice_mail_outbox', 'backoffice_newsletter_deliveries', 'backoffice_promotion_deliveries']) {
      expect(valueOf(families, name), name).toBeUndefined()
    }
    expect(valueOf(families, 'process_resident_memory_bytes')).toBeGreaterThan(0)
  })
})

describe('METRICS_PORT', () => {
  let t: TestApp
  let port: number
  let url: string
  beforeAll(async () => {
    port = await freePort()
    t = await makeTestApp({ realtime: true, env: { METRICS_TOKEN: TOKEN, METRICS_PORT: String(port), HOST: '127.0.0.1' } })
    url = await t.app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => await t.close())

  const scrapePort = async (): Promise<Families> => {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(response.status).toBe(200)
    return parse(await response.text())
  }

  it('counts the open sockets of this instance', async () => {
    expect(valueOf(await scrapePort(), 'backoffice_sockets_open')).toBe(0)
    const socket = io(url, { auth: { token: `Bearer ${await t.tokenFor(t.superadmin)}` }, transports: ['websocket'], reconnection: false })
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve())
      socket.once('connect_error', reject)
    })
    expect(valueOf(await scrapePort(), 'backoffice_sockets_open')).toBe(1)
    const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()))
    socket.close()
    await closed
    await expect.poll(async () => valueOf(await scrapePort(), 'backoffice_sockets_open')).toBe(0)
  })

  it('serves /metrics there with the same token rule, and nothing else', async () => {
    expect(t.app.metrics?.portAddress()?.port).toBe(port)
    const base = `http://127.0.0.1:${port}`
    const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(ok.status).toBe(200)
    const families = parse(await ok.text())
    expect(valueOf(families, 'backoffice_database_up')).toBe(1)
    expect((await fetch(`${base}/metrics`)).status).toBe(401)
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401)
    expect((await fetch(`${base}/api/admin/getuser`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404)
  })

  it('closes with the app', async () => {
    await t.app.close()
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow()
  })
})

describe('the metrics settings', () => {
  it('refuse METRICS_PORT without METRICS_TOKEN, and a short token', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/bo-metrics-config', METRICS_PORT: '9464' })).toThrow(ConfigError)
    expect(() => loadConfig({ DATA_DIR: '/tmp/bo-metrics-config', METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/)
    expect(loadConfig({ DATA_DIR: '/tmp/bo-metrics-config', JWT_SECRET: 'x'.repeat(32) }).metrics).toBeNull()
    expect(loadConfig({ DATA_DIR: '/tmp/bo-metrics-config', JWT_SECRET: 'x'.repeat(32), METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' }).metrics).toEqual({ token: TOKEN, port: 9464 })
  })

  it('compare the token whole', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true)
    expect(bearerMatches(`Bearer ${TOKEN} `, TOKEN)).toBe(true)
    expect(bearerMatches(undefined, TOKEN)).toBe(false)
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(false)
    expect(bearerMatches(`Bearer ${TOKEN.toUpperCase()}`, TOKEN)).toBe(false)
  })
})
