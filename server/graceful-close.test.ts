/**
 * A closing instance behind a balancer: from the first moment of the close it tells /readyz
 * watchers it is going, yet answers every request that still reaches it (before it stops
 * listening, while running jobs finish; or on a balancer's kept-alive connection) as usual and
 * closes that connection after the answer, so the balancer's next request goes elsewhere. The
 * whole path through nginx is in server/testing/cluster.test.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { makeTestApp, type TestApp } from './testing/test-app.ts'

let t: TestApp
let release: () => void = () => {}
const held = new Promise<void>((done) => (release = done))

beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  release()
  await t.close()
})

it('while a running job holds its close, an instance answers requests as usual, each with Connection: close, and /readyz says it is going', async () => {
  const { jobs } = t.app.services
  let started = false
  jobs.handle('test.hold-close', async () => {
    started = true
    await held
  })
  await jobs.add(t.handle.db, 'test.hold-close', {})
  jobs.wake()
  const deadline = Date.now() + 10_000
  while (!started) {
    if (Date.now() > deadline) throw new Error('the job did not start within 10 s')
    await new Promise((r) => setTimeout(r, 20))
  }
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  const base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`

  const closed = t.app.close()
  try {
    const answer = await fetch(`${base}/api/admin/listCountry`, { headers: await t.auth(t.superadmin) })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('connection')).toBe('close')
    expect(await answer.json()).toMatchObject({ status: 'success' })
    const ready = await fetch(`${base}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toEqual({ status: 'failed', message: 'Shutting down' })
  } finally {
    release()
    await closed
  }
})
