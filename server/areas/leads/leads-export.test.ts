/**
 * The leads export under slow readers (server/kit/rules/export-gate.ts, exportLeads in leads.ts): clients
 * that stop reading must not take the database's connections from every other call, exports past
 * the limits are refused, and one whose client reads nothing is aborted and gives back what it held.
 *
 * The slow readers are raw HTTP clients that read the answer's head and then stop reading, so TCP
 * backpressure builds for real: the leads are long enough (about 40 MB of CSV) that the kernel's
 * buffers fill and the export waits on the client, as it would behind a stalled download.
 */
import { connect, type Socket } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exportGate, tooManyForAdmin, tooManyForServer } from '../../kit/rules/export-gate.ts'
import { bodyOf, makeTestApp, testEngine, type TestApp } from '../../testing/test-app.ts'

const LEADS = 60_000
/**
 * About 660 bytes of CSV per lead, the bulk in a column no index covers (the search's trigram index
 * makes long names slow to insert). One statement maintaining every index of 60,000 rows may take
 * longer than the pool's statement timeout on a busy machine: setup, not what is tested.
 */
const insertLongLeads = (t: TestApp) =>
  t.handle.db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`)
    await tx.execute(sql`insert into leads (name, email, walletaddress, provider) select 'Slow ' || g, 'slow' || g || '@example.com', '0x' || md5(g::text), repeat('x', 600) from generate_series(1, ${LEADS}) g`)
  })

interface SlowReader {
  /** The status line's code. */
  status: number
  /** The answer's head and whatever came with it. */
  head: string
  socket: Socket
  /** Resolves when the connection is closed (by either side). */
  closed: Promise<void>
}

/** GET DownloadFile and stop reading once the answer's head is in. */
function slowExport(port: number, authorization: string): Promise<SlowReader> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const closed = new Promise<void>((done) => socket.once('close', () => done()))
    let head = ''
    socket.on('error', () => {})
    socket.once('connect', () => {
      socket.write(`GET /api/admin/DownloadFile HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\n\r\n`)
    })
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1')
      if (!head.includes('\r\n\r\n')) return
      socket.off('data', onData)
      // From here on nothing is read: the receive buffer fills and the server's writes stop.
      socket.pause()
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, socket, closed })
    }
    socket.on('data', onData)
    socket.once('close', () => reject(new Error(`closed before an answer: ${head.slice(0, 200)}`)))
  })
}

/** COPY statements running on the test's database (PostgreSQL only). */
async function runningCopies(t: TestApp): Promise<number> {
  const [row] = await t.handle.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sql`pg_stat_activity`)
    .where(sql`datname = current_database() and query like 'COPY (SELECT%' and state <> 'idle'`)
  return row?.n ?? 0
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A test app listening on a port of its own (the slow readers are real sockets), with the long leads. */
async function listeningWithLeads(env: Record<string, string> = {}): Promise<{ t: TestApp; port: number }> {
  const t = await makeTestApp({ env })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  await insertLongLeads(t)
  return { t, port }
}

describe('the leads export under slow readers', () => {
  let t: TestApp
  let port: number

  beforeAll(async () => {
    // The defaults: 2 per admin, 4 per instance, a minute of idleness.
    const app = await listeningWithLeads()
    t = app.t
    port = app.port
  }, 120_000)
  afterAll(async () => {
    await t.close()
  })

  it('keeps every other call answering while ten slow readers export, and refuses the exports past the limits', async () => {
    const viewers = await Promise.all(Array.from({ length: 5 }, () => t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })))
    const headers = await Promise.all(viewers.map((v) => t.auth(v)))
    const readers: SlowReader[] = []
    try {
      // Two each for five View Only admins: ten exports, one after the other.
      for (const h of headers) for (let i = 0; i < 2; i++) readers.push(await slowExport(port, h.authorization))
      // Time for the exports that started to fill the buffers and stall on their clients.
      await sleep(1500)

      // Every other call still answers at once: the session check and a list, twenty times over,
      // more at once than the pool has connections.
      const admin = await t.auth(t.superadmin)
      const begun = Date.now()
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => [
          t.app.inject({ method: 'GET', url: '/api/admin/get-profile', headers: admin }),
          t.app.inject({ method: 'GET', url: '/api/admin/getuser?search=slow 7', headers: admin }),
        ]).flat(),
      )
      expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 20 }, () => 200))
      expect(Date.now() - begun).toBeLessThan(3000)

      const started = readers.filter((r) => r.status === 200)
      const refused = readers.filter((r) => r.status === 429)
      expect(started).toHaveLength(4)
      expect(refused).toHaveLength(6)
      expect(refused[0]?.head).toContain(tooManyForServer(4))
      // The four are stalled on their clients, not finished.
      if (testEngine() === 'pg') expect(await runningCopies(t)).toBe(4)
      expect(exportGate(t.handle, t.config.exports).running).toBe(4)
    } finally {
      for (const r of readers) r.socket.destroy()
    }
    // A client gone away gives its slot back (and, on PostgreSQL, its connection).
    await expect.poll(() => exportGate(t.handle, t.config.exports).running, { timeout: 5000 }).toBe(0)
    if (testEngine() === 'pg') await expect.poll(() => runningCopies(t), { timeout: 5000 }).toBe(0)
  }, 60_000)

  it("refuses one admin's export past EXPORT_MAX_PER_ADMIN with a message that says so", async () => {
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    const { authorization } = await t.auth(viewer)
    const readers = [await slowExport(port, authorization), await slowExport(port, authorization)]
    try {
      expect(readers.map((r) => r.status)).toEqual([200, 200])
      const third = await t.app.inject({ method: 'GET', url: '/api/admin/DownloadFile', headers: { authorization } })
      expect(third.statusCode).toBe(429)
      expect(bodyOf(third)).toEqual({ status: 'failed', message: tooManyForAdmin(2) })
      expect(third.headers['content-disposition']).toBeUndefined()
      // Another admin is not held back by this one's exports.
      const other = await t.app.inject({ method: 'GET', url: '/api/admin/DownloadFile', headers: await t.auth(t.superadmin) })
      expect(other.statusCode).toBe(200)
      expect(other.body.split('\n')).toHaveLength(LEADS + 2)
    } finally {
      for (const r of readers) r.socket.destroy()
    }
    await expect.poll(() => exportGate(t.handle, t.config.exports).running, { timeout: 5000 }).toBe(0)
    // Its slots back, the admin exports again, to the end.
    const again = await t.app.inject({ method: 'GET', url: '/api/admin/DownloadFile', headers: { authorization } })
    expect(again.statusCode).toBe(200)
    expect(again.body.split('\n')).toHaveLength(LEADS + 2)
  }, 60_000)
})

describe('the leads export idle timeout', () => {
  let t: TestApp
  let port: number

  beforeAll(async () => {
    const app = await listeningWithLeads({ EXPORT_IDLE_TIMEOUT_SECONDS: '1', EXPORT_MAX_PER_ADMIN: '1' })
    t = app.t
    port = app.port
  }, 120_000)
  afterAll(async () => {
    await t.close()
  })

  it('aborts an export whose client reads nothing, releasing its connection and its slot', async () => {
    const { authorization } = await t.auth(t.superadmin)
    const reader = await slowExport(port, authorization)
    expect(reader.status).toBe(200)
    const gate = exportGate(t.handle, t.config.exports)
    expect(gate.running).toBe(1)
    if (testEngine() === 'pg') expect(await runningCopies(t)).toBe(1)
    // A second second of nothing read: the export is aborted and the server closes the connection.
    await expect.poll(() => gate.running, { timeout: 6000, interval: 100 }).toBe(0)
    if (testEngine() === 'pg') await expect.poll(() => runningCopies(t), { timeout: 5000 }).toBe(0)
    reader.socket.resume()
    await reader.closed
    // The slot is back: the same admin (allowed one at a time) exports again, read at full speed.
    const again = await t.app.inject({ method: 'GET', url: '/api/admin/DownloadFile', headers: { authorization } })
    expect(again.statusCode).toBe(200)
    expect(again.body.split('\n')).toHaveLength(LEADS + 2)
  }, 30_000)
})
