/**
 * The request log as an operator reads it (server/kit/ground/request-log.ts): the public calls summed up
 * by route and status, their refusals, errors and slow answers still logged one by one, staff
 * calls logged each, and every line back with LOG_REQUESTS=all or LOG_LEVEL=debug.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildApp } from '../../app.ts'
import { loadConfig, type Config } from '../../config.ts'
import { openDb, type DbHandle } from '../../db/index.ts'
import { scratchDatabase } from '../../testing/test-app.ts'

const METRICS_TOKEN = 'request-log-metrics-token-0123456789'
let database: Config['database']
let drop: () => Promise<void>
let dataDir: string
const apps: FastifyInstance[] = []

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bo-request-log-'))
  const scratch = await scratchDatabase()
  drop = scratch.drop
  database = scratch.database
})
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()))
})
afterAll(async () => {
  await drop()
  await rm(dataDir, { recursive: true, force: true })
})

const Line = z.looseObject({
  level: z.number(),
  reqId: z.optional(z.string()),
  msg: z.string(),
  req: z.optional(z.looseObject({ url: z.string(), method: z.string() })),
  res: z.optional(z.looseObject({ statusCode: z.number() })),
  publicCalls: z.optional(z.record(z.string(), z.record(z.string(), z.number()))),
  total: z.optional(z.number()),
})
type Line = z.infer<typeof Line>

/** The real app with the log level a user runs (info), its log lines parsed. */
async function start(env: Record<string, string> = {}, configure: (c: Config) => Config = (c) => c, handle?: DbHandle): Promise<{ app: FastifyInstance; lines: Line[] }> {
  const loaded = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex'), ADMIN_EMAIL: 'root@example.com', ADMIN_PASSWORD: 'Test@1234', METRICS_TOKEN, ...env })
  const config = configure({ ...loaded, database, hashCost: { memoryCost: 1024, timeCost: 1, parallelism: 1 } })
  const lines: Line[] = []
  const app = await buildApp(config, { jobs: false, ...(handle === undefined ? {} : { handle }), logStream: { write: (line) => void lines.push(Line.parse(JSON.parse(line))) } })
  await app.ready()
  apps.push(app)
  return { app, lines }
}

const publicCalls = async (app: FastifyInstance): Promise<void> => {
  // A code no brand has is sent to the store listing all the same.
  for (const url of ['/api/admin/public-info', '/api/admin/public-info', '/api/admin/restricted-countries', '/admin/app/no-brand-code']) {
    const res = await app.inject({ method: 'GET', url })
    expect(res.statusCode).toBeLessThan(400)
  }
}

/** The lines of the requests to `path` (a request's lines share its reqId; only the first names the URL). */
const about = (lines: readonly Line[], path: string): Line[] => {
  const ids = new Set(lines.filter((l) => l.req?.url.startsWith(path) === true).map((l) => l.reqId))
  return lines.filter((l) => l.reqId !== undefined && ids.has(l.reqId))
}
const requestLines = (lines: readonly Line[]): Line[] => lines.filter((l) => l.req !== undefined || l.res !== undefined)

// Each test builds the whole app (its migrations included) and signs in: longer than a unit's default on a busy machine.
describe('the request log with the shipped defaults', { timeout: 90_000 }, () => {
  it('sums the public calls up by route and status instead of two lines each', async () => {
    const { app, lines } = await start()
    const before = lines.length
    await publicCalls(app)
    expect(requestLines(lines.slice(before))).toEqual([])

    await app.close()
    const summary = lines.filter((l) => l.msg === 'public calls')
    expect(summary).toHaveLength(1)
    expect(summary[0]?.level).toBe(30)
    expect(summary[0]?.total).toBe(4)
    expect(summary[0]?.publicCalls).toEqual({
      'GET /api/admin/public-info': { '200': 2 },
      'GET /api/admin/restricted-countries': { '200': 1 },
      'GET /admin/app/:code': { '302': 1 },
    })
  })

  it('counts the public calls by endpoint and status in the metrics, with no line of their own', async () => {
    const { app, lines } = await start()
    const before = lines.length
    await publicCalls(app)
    expect(requestLines(lines.slice(before))).toEqual([])
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    expect(res.body).toContain('backoffice_http_requests_total{endpoint="publicInfo",method="GET",status="200"} 2')
    expect(res.body).toContain('backoffice_http_requests_total{endpoint="restrictedCountries",method="GET",status="200"} 1')
    expect(res.body).toContain('backoffice_http_requests_total{endpoint="/admin/app/:code",method="GET",status="302"} 1')
  })

  it('logs a refused public call alone, and counts it in the summary', async () => {
    const { app, lines } = await start()
    const res = await app.inject({ method: 'GET', url: '/api/admin/unsubscribe-status' })
    expect(res.statusCode).toBe(400)
    const logged = about(lines, '/api/admin/unsubscribe-status')
    expect(logged.map((l) => [l.msg, l.level, l.res?.statusCode])).toEqual([['request refused', 30, 400]])
    await app.close()
    expect(lines.find((l) => l.msg === 'public calls')?.publicCalls).toEqual({ 'GET /api/admin/unsubscribe-status': { '400': 1 } })
  })

  it('logs a public call slower than LOG_SLOW_MS alone, at warn', async () => {
    // Every answer takes at least 0 ms: each is slow by this measure.
    const { app, lines } = await start({}, (c) => ({ ...c, requestLog: { ...c.requestLog, slowMs: 0 } }))
    await app.inject({ method: 'GET', url: '/api/admin/public-info' })
    expect(about(lines, '/api/admin/public-info').map((l) => [l.msg, l.level])).toEqual([['slow request', 40]])
  })

  it('logs a public call that fails on the server alone, at error', async () => {
    // A database of the test's own, which it closes: the public read (not yet kept in memory) cannot be answered.
    const handle = await openDb(database)
    const { app, lines } = await start({}, (c) => c, handle)
    await handle.close()
    const res = await app.inject({ method: 'GET', url: '/api/admin/public-info' })
    expect(res.statusCode).toBeGreaterThanOrEqual(500)
    const logged = about(lines, '/api/admin/public-info').filter((l) => l.msg === 'request completed' || l.msg === 'request errored')
    expect(logged.map((l) => [l.level, l.res?.statusCode])).toEqual([[50, res.statusCode]])
  })

  it('keeps both lines of a signed-in staff call', async () => {
    const { app, lines } = await start()
    const login = await app.inject({ method: 'POST', url: '/api/admin/login', payload: { email: 'root@example.com', password: 'Test@1234' } })
    expect(login.statusCode).toBe(200)
    const token = z.object({ token: z.string() }).parse(login.json()).token
    const res = await app.inject({ method: 'GET', url: '/api/admin/getuser?limit=5', headers: { authorization: `Bearer ${token}` } })
    expect(res.statusCode).toBe(200)
    expect(about(lines, '/api/admin/getuser').map((l) => [l.msg, l.level, l.res?.statusCode])).toEqual([
      ['incoming request', 30, undefined],
      ['request completed', 30, 200],
    ])
    expect(about(lines, '/api/admin/login').map((l) => l.msg)).toEqual(['incoming request', 'request completed'])
  })

  it('keeps a line for each refused staff call and unknown address', async () => {
    const { app, lines } = await start()
    const res = await app.inject({ method: 'GET', url: '/api/admin/getuser' })
    expect(res.statusCode).toBe(401)
    const logged = about(lines, '/api/admin/getuser')
    expect(logged.map((l) => l.msg)).toEqual(['incoming request', 'request completed'])
    // An address no route serves is logged as before too.
    expect((await app.inject({ method: 'GET', url: '/api/admin/no-such-call' })).statusCode).toBe(404)
    expect(about(lines, '/api/admin/no-such-call').map((l) => l.msg)).toEqual(['incoming request', 'request completed'])
  })
})

describe('LOG_REQUESTS=all', { timeout: 90_000 }, () => {
  it('logs every public call as a staff call is logged', async () => {
    const { app, lines } = await start({ LOG_REQUESTS: 'all' })
    await publicCalls(app)
    expect(about(lines, '/api/admin/public-info').map((l) => l.msg)).toEqual(['incoming request', 'request completed', 'incoming request', 'request completed'])
    expect(about(lines, '/admin/app/').map((l) => [l.msg, l.res?.statusCode])).toEqual([
      ['incoming request', undefined],
      ['request completed', 302],
    ])
    await app.close()
    expect(lines.filter((l) => l.msg === 'public calls')).toEqual([])
  })
})

describe('LOG_LEVEL=debug', { timeout: 90_000 }, () => {
  it('logs every public call too, unless LOG_REQUESTS=summary is set', async () => {
    const request = ['incoming request', 'request completed']
    const { app, lines } = await start({ LOG_LEVEL: 'debug' })
    await publicCalls(app)
    expect(about(lines, '/api/admin/restricted-countries').map((l) => l.msg).filter((m) => request.includes(m))).toEqual(request)
    expect(about(lines, '/admin/app/').map((l) => l.msg).filter((m) => request.includes(m))).toEqual(request)

    const summed = await start({ LOG_LEVEL: 'debug', LOG_REQUESTS: 'summary' })
    await publicCalls(summed.app)
    expect(requestLines(about(summed.lines, '/api/admin/restricted-countries'))).toEqual([])
  })
})
