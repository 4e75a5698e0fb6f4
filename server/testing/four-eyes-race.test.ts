/**
 * The four-eyes window under parallel sends (server/kit/rules/four-eyes.ts), on PostgreSQL only: PGlite
 * has one connection, so its calls never overlap. One Admin fires six sends of 4 recipients at the
 * same moment, promotions and newsletters mixed, under a threshold of 10: whatever the order, the
 * sends that start without approval reach 10 recipients at most, and the others wait.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { leads, newsletterSends, promotions, sendRequests } from '../db/schema.ts'
import { bodyOf, makeTestApp, multipart, testEngine, type TestApp } from './test-app.ts'

const THRESHOLD = 10
const RECIPIENTS = 4
let t: TestApp
let ann: { authorization: string }

describe.skipIf(testEngine() !== 'pg')(`the four-eyes window under parallel sends (threshold ${THRESHOLD}, PostgreSQL)`, () => {
  beforeAll(async () => {
    t = await makeTestApp({ env: { FOUR_EYES_THRESHOLD: String(THRESHOLD), MAIL_RATE_PER_SECOND: '0' } })
    // Nothing needs delivering here: what counts is what each send was let do.
    await t.app.services.jobs.stop()
    ann = await t.auth(await t.createAdmin({ name: 'Ann Asker', accessLevel: 'Admin', restrictions: [] }))
    await t.handle.db
      .insert(leads)
      .values(Array.from({ length: RECIPIENTS }, (_, i) => ({ name: `Reader ${i}`, email: `race-reader${i}@example.com`, subscribed: true, subscribedAt: new Date() })))
  })
  afterAll(async () => {
    await t.close()
  })

  const promotion = async (): Promise<boolean> => {
    const form = await multipart({ title: 'Drop', content: 'For everyone', selectall: 'true' }, [])
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/addNotification', headers: { ...ann, ...form.headers }, payload: form.payload })
    expect(res.statusCode, res.body).toBe(200)
    expect(bodyOf(res)).toMatchObject({ total: RECIPIENTS })
    return bodyOf(res)['awaitingApproval'] === true
  }
  const newsletter = async (): Promise<boolean> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/sendNewsletter',
      headers: { ...ann, 'content-type': 'application/json' },
      payload: JSON.stringify({ all: true, subject: 'News', content: '<p>Fresh games.</p>' }),
    })
    expect(res.statusCode, res.body).toBe(200)
    const data = bodyOf(res)['data'] as Record<string, unknown>
    expect(data['total']).toBe(RECIPIENTS)
    return data['awaitingApproval'] === true
  }

  it('six sends of one Admin at once: no more than the threshold goes without approval', async () => {
    // A few rounds: one round can happen to serialise by luck.
    for (let round = 0; round < 3; round += 1) {
      await t.handle.db.delete(sendRequests)
      await t.handle.db.delete(promotions)
      await t.handle.db.delete(newsletterSends)
      const waits = await Promise.all([promotion(), newsletter(), promotion(), newsletter(), promotion(), newsletter()])
      const started = waits.filter((w) => !w).length
      expect(started * RECIPIENTS, `round ${round}: ${started} sends started without approval`).toBeLessThanOrEqual(THRESHOLD)
      // Serialised, the first two go (8 recipients) and every later one waits.
      expect(started).toBe(Math.floor(THRESHOLD / RECIPIENTS))
      expect(await t.handle.db.$count(promotions, undefined)).toBe(3)
    }
  })
})
