import { sql } from 'drizzle-orm'
import Fastify from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openDb, type DbHandle } from '../../db/index.ts'
import { jobs } from '../../db/schema.ts'
import { scratchDatabase, testEngine } from '../../testing/test-app.ts'
import { JobQueue, backoffDelay, type JobHandler, type QueueOptions } from './queue.ts'

const log = Fastify({ logger: false }).log
let handle: DbHandle
let drop: () => Promise<void>
const queues: JobQueue[] = []

beforeAll(async () => {
  const scratch = await scratchDatabase()
  drop = scratch.drop
  handle = await openDb(scratch.database)
})
afterAll(async () => {
  await Promise.all(queues.map((q) => q.stop()))
  await handle.close()
  await drop()
})
beforeEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop()))
  await handle.db.delete(jobs)
})

function queue(kind: string, run: JobHandler, options: QueueOptions = {}, maxAttempts = 8): JobQueue {
  const q = new JobQueue(handle.db, log, { pollMs: 20, leaseMs: 2000, ...options })
  q.handle(kind, run, { maxAttempts, backoffBaseMs: 10, backoffMaxMs: 40 })
  queues.push(q)
  return q
}

async function until(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 10))
  }
}

const remaining = async () => (await handle.db.select().from(jobs)).length

describe(`job queue (${testEngine()})`, () => {
  it('runs an added job once and deletes it', async () => {
    const seen: unknown[] = []
    const q = queue('t.once', async (payload) => {
      seen.push(payload)
    })
    await q.add(handle.db, 't.once', { n: 1 })
    q.start()
    await until(async () => seen.length === 1 && (await remaining()) === 0)
    expect(seen).toEqual([{ n: 1 }])
  })

  it('adds a job with a key once while it exists', async () => {
    const q = queue('t.key', async () => {})
    expect(await q.add(handle.db, 't.key', {}, { key: 'k1' })).toBe(true)
    expect(await q.add(handle.db, 't.key', {}, { key: 'k1' })).toBe(false)
    expect(await remaining()).toBe(1)
  })

  it('a job kept as failed gives its key up: a new job with the key is added and runs, the failed row stays', async () => {
    let calls = 0
    const q = queue('t.keyfail', async () => {
      calls++
      if (calls === 1) throw new Error('gave up')
    }, {}, 1)
    expect(await q.add(handle.db, 't.keyfail', { n: 1 }, { key: 'k2' })).toBe(true)
    q.start()
    await until(async () => (await handle.db.select().from(jobs).where(sql`${jobs.failedAt} is not null`)).length === 1)
    expect(await q.add(handle.db, 't.keyfail', { n: 2 }, { key: 'k2' })).toBe(true)
    // The new job holds the key while it is pending or running.
    expect(await q.add(handle.db, 't.keyfail', { n: 3 }, { key: 'k2' })).toBe(false)
    await until(() => calls === 2)
    await until(async () => (await remaining()) === 1)
    const [failed] = await handle.db.select().from(jobs)
    expect(failed).toMatchObject({ payload: { n: 1 }, key: null, lastError: 'gave up' })
  })

  it('queues nothing when the transaction that added the job rolls back', async () => {
    const q = queue('t.tx', async () => {})
    await expect(
      handle.db.transaction(async (tx) => {
        await q.add(tx, 't.tx', {})
        throw new Error('rollback')
      }),
    ).rejects.toThrow('rollback')
    expect(await remaining()).toBe(0)
  })

  it('retries a failing job with backoff and keeps it as failed after its attempts', async () => {
    let calls = 0
    const q = queue(
      't.fail',
      async () => {
        calls++
        throw new Error(`boom ${calls}`)
      },
      {},
      3,
    )
    await q.add(handle.db, 't.fail', {})
    q.start()
    await until(async () => (await handle.db.select().from(jobs).where(sql`${jobs.failedAt} is not null`)).length === 1)
    expect(calls).toBe(3)
    const [row] = await handle.db.select().from(jobs)
    expect(row?.lastError).toBe('boom 3')
    expect(row?.attempts).toBe(3)
  })

  it('recovers from a failure: a later attempt that succeeds finishes the job', async () => {
    let calls = 0
    const q = queue('t.flaky', async () => {
      calls++
      if (calls < 3) throw new Error('not yet')
    })
    await q.add(handle.db, 't.flaky', {})
    q.start()
    await until(async () => (await remaining()) === 0)
    expect(calls).toBe(3)
  })

  it("runs a job again at once when it answers 'again' (one batch per run)", async () => {
    let left = 5
    const q = queue('t.again', async () => (--left > 0 ? 'again' : undefined))
    await q.add(handle.db, 't.again', {})
    q.start()
    await until(async () => (await remaining()) === 0)
    expect(left).toBe(0)
  })

  it('takes again a job whose worker died holding it once its lease has expired', async () => {
    const seen: string[] = []
    const q = queue('t.lease', async (_payload, job) => {
      seen.push(job.id)
    })
    await q.add(handle.db, 't.lease', {})
    // A dead instance's claim: leased, attempted once, never finished.
    await handle.db.update(jobs).set({ lockedBy: 'dead', lockedUntil: sql`now() + interval '300 milliseconds'`, attempts: 1 })
    q.start()
    await new Promise((r) => setTimeout(r, 150))
    expect(seen).toHaveLength(0)
    await until(() => seen.length === 1)
    await until(async () => (await remaining()) === 0)
  })

  it('marks failed, without running it, a job claimed again after its last attempt\'s lease expired (its process crashed each time)', async () => {
    const seen: number[] = []
    const q = queue('t.crash', async (_payload, job) => {
      seen.push(job.attempt)
    }, {}, 3)
    await q.add(handle.db, 't.crash', {})
    // Three claims by workers that died mid-run: three attempts counted, the last lease expired.
    await handle.db.update(jobs).set({ lockedBy: 'dead', lockedUntil: sql`now() - interval '1 second'`, attempts: 3 })
    q.start()
    await until(async () => (await handle.db.select().from(jobs).where(sql`${jobs.failedAt} is not null`)).length === 1)
    await new Promise((r) => setTimeout(r, 150))
    expect(seen).toEqual([])
    const [row] = await handle.db.select().from(jobs)
    expect(row).toMatchObject({ attempts: 3, lockedBy: null, lockedUntil: null })
    expect(row?.lastError).toMatch(/^gave up after 3 attempts: the last stopped without finishing/)
  })

  it('still runs a job claimed again after a lease expired while attempts are left', async () => {
    const seen: number[] = []
    const q = queue('t.crash-once', async (_payload, job) => {
      seen.push(job.attempt)
    }, {}, 3)
    await q.add(handle.db, 't.crash-once', {})
    await handle.db.update(jobs).set({ lockedBy: 'dead', lockedUntil: sql`now() - interval '1 second'`, attempts: 2 })
    q.start()
    await until(async () => (await remaining()) === 0)
    expect(seen).toEqual([3])
  })

  it('a worker whose lease was taken over cannot finish or retry the job', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const q = queue('t.stolen', async () => {
      await gate
      throw new Error('late failure')
    }, { leaseMs: 60_000 })
    await q.add(handle.db, 't.stolen', {})
    q.start()
    await until(async () => (await handle.db.select().from(jobs)).some((j) => j.lockedBy !== null))
    // Another instance took it over (its lease expired during a pause, say).
    await handle.db.update(jobs).set({ lockedBy: 'other', attempts: 7 })
    release()
    await new Promise((r) => setTimeout(r, 100))
    const [row] = await handle.db.select().from(jobs)
    expect(row?.lockedBy).toBe('other')
    expect(row?.lastError).toBeNull()
  })

  it('two instances on one database run each of 300 jobs exactly once', async () => {
    const runs = new Map<number, number>()
    const handler: JobHandler = async (payload) => {
      const n = Number(payload['n'])
      runs.set(n, (runs.get(n) ?? 0) + 1)
      await new Promise((r) => setTimeout(r, 1))
    }
    const a = queue('t.many', handler, { concurrency: 4 })
    const b = queue('t.many', handler, { concurrency: 4 })
    await handle.db.insert(jobs).values(Array.from({ length: 300 }, (_, n) => ({ kind: 't.many', payload: { n } })))
    a.start()
    b.start()
    await until(async () => (await remaining()) === 0, 30_000)
    expect(runs.size).toBe(300)
    expect([...runs.values()].every((c) => c === 1)).toBe(true)
  })

  it('leaves jobs of a kind it has no handler for to an instance that has one', async () => {
    const q = queue('t.mine', async () => {})
    await q.add(handle.db, 't.other', {})
    q.start()
    await new Promise((r) => setTimeout(r, 100))
    const [row] = await handle.db.select().from(jobs)
    expect(row?.attempts).toBe(0)
  })

  it('stop() waits for the jobs it is running', async () => {
    let done = false
    const q = queue('t.stop', async () => {
      await new Promise((r) => setTimeout(r, 150))
      done = true
    })
    await q.add(handle.db, 't.stop', {})
    q.start()
    await until(() => q.busy === 1)
    await q.stop()
    expect(done).toBe(true)
  })

  it('stop() also waits for the jobs of a claim that was on its way to the database', async () => {
    let ran = 0
    let finished = 0
    const q = queue('t.claiming', async () => {
      ran += 1
      await new Promise((r) => setTimeout(r, 50))
      finished += 1
    })
    await q.add(handle.db, 't.claiming', {})
    // The jobs table locked: the worker's claim waits for it.
    let release = (): void => {}
    const gate = new Promise<void>((r) => (release = r))
    let locked = (): void => {}
    const lockTaken = new Promise<void>((r) => (locked = r))
    const holding = handle.db.transaction(async (tx) => {
      await tx.execute(sql`lock table ${jobs} in access exclusive mode`)
      locked()
      await gate
    })
    await lockTaken
    q.start()
    await new Promise((r) => setTimeout(r, 100))
    const stopped = q.stop().then(() => ({ ran, finished }))
    release()
    await holding
    expect(await stopped).toEqual({ ran: 1, finished: 1 })
    await new Promise((r) => setTimeout(r, 100))
    expect(ran).toBe(1)
  })

  it('backs off exponentially, capped, with jitter', () => {
    for (let i = 0; i < 50; i++) {
      expect(backoffDelay(1, 1000, 60_000)).toBeGreaterThanOrEqual(750)
      expect(backoffDelay(1, 1000, 60_000)).toBeLessThanOrEqual(1000)
      expect(backoffDelay(4, 1000, 60_000)).toBeGreaterThanOrEqual(6000)
      expect(backoffDelay(30, 1000, 60_000)).toBeLessThanOrEqual(60_000)
    }
  })
})
