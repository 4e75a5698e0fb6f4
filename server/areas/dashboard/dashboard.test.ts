import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Dashboard, MenuCounts, SIGNUP_DAYS } from '#contract/dashboard'
import { accessRequests, admins, contactEnquiries, leads, links, newsletterRecipients, newsletterSends, promotions } from '../../db/schema.ts'
import { bodyOf, makeTestApp, testEngine, type TestApp } from '../../testing/test-app.ts'
import { signupsSince } from './routes.ts'

const DAY = 86_400_000
// A session time zone far from UTC (UTC+14): the days must still be UTC days.
const FAR_ZONE = 'Pacific/Kiritimati'

let t: TestApp
let admin: { authorization: string }

beforeAll(async () => {
  t = await makeTestApp({
    configure: (config) => {
      if (config.database.kind !== 'pg') return config
      const url = new URL(config.database.url)
      url.searchParams.set('options', `-c TimeZone=${FAR_ZONE}`)
      return { ...config, database: { kind: 'pg', url: url.toString() } }
    },
  })
  // PGlite has one connection: setting its zone once covers every query.
  if (testEngine() === 'pglite') await t.handle.db.execute(sql.raw(`set timezone to '${FAR_ZONE}'`))
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
})
beforeEach(async () => {
  await t.handle.db.delete(leads)
  await t.handle.db.delete(links)
  await t.handle.db.delete(promotions)
})

const getDashboard = async (headers: Record<string, string> = admin) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/getDashboard', headers })
  expect(res.statusCode, res.body).toBe(200)
  return Dashboard.parse(res.json())
}

/** Today's UTC midnight by the database's clock (the one that stamps leads). */
async function todayMidnight(): Promise<number> {
  const answer = await t.handle.db.execute(sql`select to_char(now() at time zone 'UTC', 'YYYY-MM-DD') as today`)
  const today = JSON.stringify(answer).match(/\d{4}-\d{2}-\d{2}/)?.[0]
  if (today === undefined) throw new Error('no date')
  return Date.parse(`${today}T00:00:00Z`)
}

const addLeads = (times: readonly number[]) =>
  t.handle.db.insert(leads).values(times.map((ms, i) => ({ email: `lead${i}@example.com`, createdAt: new Date(ms) })))

describe('GET /getDashboard', () => {
  it('counts leads exactly: the total, the last 7 UTC days, and 30 zero-filled UTC days oldest first', async () => {
    const midnight = await todayMidnight()
    const firstDay = midnight - (SIGNUP_DAYS - 1) * DAY
    await addLeads([
      midnight + 1000, // today
      midnight, // today, at its first instant
      midnight - 1, // yesterday's last instant
      midnight - 6 * DAY, // the oldest of the 7 new days
      midnight - 6 * DAY - 1, // day -7: on the chart, not new
      firstDay, // the chart's first bar
      firstDay, // twice
      firstDay - 1, // before the chart: only in the total
      midnight - 400 * DAY,
    ])
    const { users } = await getDashboard()
    expect(users).toBeDefined()
    if (users === undefined) return
    expect(users.total).toBe(9)
    expect(users.newLeads).toBe(4)
    expect(users.signups).toHaveLength(SIGNUP_DAYS)
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
    expect(users.signups.map((d) => d.day)).toEqual(Array.from({ length: SIGNUP_DAYS }, (_, i) => day(firstDay + i * DAY)))
    const counts = new Map(users.signups.map((d) => [d.day, d.count]))
    expect(counts.get(day(midnight))).toBe(2)
    expect(counts.get(day(midnight - 1))).toBe(1)
    expect(counts.get(day(midnight - 6 * DAY))).toBe(1)
    expect(counts.get(day(midnight - 7 * DAY))).toBe(1)
    expect(counts.get(day(firstDay))).toBe(2)
    expect(users.signups.reduce((sum, d) => sum + d.count, 0)).toBe(7)
    expect(users.signups.filter((d) => d.count === 0)).toHaveLength(SIGNUP_DAYS - 5)
  })

  it('answers zeros on an empty database', async () => {
    const { users, links: linkCard, promotions: promotionCard } = await getDashboard()
    expect(users).toMatchObject({ total: 0, newLeads: 0 })
    expect(promotionCard).toEqual({ count: 0, lastSentAt: null, inFlight: 0 })
    expect(users?.signups.every((d) => d.count === 0)).toBe(true)
    expect(linkCard).toEqual({ buy: 0, swapOut: 0, swapIn: 0 })
  })

  it('counts each kind of link', async () => {
    await t.handle.db.insert(links).values([
      { kind: 'buy', url: 'https://buy.example/1', preference: 1 },
      { kind: 'buy', url: 'https://buy.example/2', preference: 2 },
      { kind: 'sell', url: 'https://sell.example/1', preference: 1 },
    ])
    expect((await getDashboard()).links).toEqual({ buy: 2, swapOut: 1, swapIn: 0 })
  })

  it('counts promotions, the newest delivery, and the deliveries still to make', async () => {
    const latest = new Date(Date.now() - 60_000)
    const promotion = (fields: Partial<typeof promotions.$inferInsert>) => ({ title: 'Promo', content: 'Text', recipientCount: 0, total: 0, ...fields })
    await t.handle.db.insert(promotions).values([
      promotion({ status: 'done', total: 10, sent: 9, failed: 1, lastSentAt: new Date(latest.getTime() - 3_600_000) }),
      promotion({ status: 'sending', total: 20, sent: 5, failed: 2, lastSentAt: latest }),
      promotion({ status: 'queued', total: 4 }),
      // Cancelled: its 5 undelivered are never sent, so not in flight.
      promotion({ status: 'cancelled', total: 8, sent: 3, lastSentAt: new Date(latest.getTime() - 60_000) }),
    ])
    expect((await getDashboard()).promotions).toEqual({ count: 4, lastSentAt: latest.toISOString(), inFlight: 13 + 4 })
  })

  it('answers only the cards of the areas a restricted admin may open', async () => {
    await addLeads([Date.now() - 1000])
    const as = async (restrictions: string[], accessLevel: 'Admin' | 'View Only' = 'Admin') => {
      const { status: _status, message: _message, ...cards } = await getDashboard(await t.auth(await t.createAdmin({ accessLevel, restrictions })))
      return cards
    }
    const leadsOnly = await as(['/users'], 'View Only')
    expect(Object.keys(leadsOnly)).toEqual(['users'])
    expect(leadsOnly.users?.total).toBe(1)
    expect(await as(['/swapin_list', '/add_swapin'])).toEqual({ links: { swapIn: 0 } })
    expect(await as(['/notificationlist'], 'View Only')).toEqual({
      work: { promotionsAwaiting: 0, promotionsQueued: 0, promotionsSending: 0 },
      promotions: { count: 0, lastSentAt: null, inFlight: 0 },
    })
    expect(await as(['/buy_list', '/swapout_list'], 'View Only')).toEqual({ links: { buy: 0, swapOut: 0 } })
    expect(await as(['/category', '/profile', '/resetpassword'])).toEqual({})
    expect(Object.keys(await as([], 'View Only')).sort()).toEqual(['links', 'promotions', 'users', 'work'])
  })

  it('is open to every signed-in admin and to nobody else', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/getDashboard' })).statusCode).toBe(401)
    const inactive = await t.createAdmin({ restrictions: ['/users'], activate: 0 })
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/getDashboard', headers: await t.auth(inactive) })).statusCode).toBe(401)
  })

  it('reads the last 30 days through leads_created_at_id_idx', async () => {
    const plan = await t.handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`)
      return tx.execute(sql`explain ${signupsSince(tx, new Date(Date.now() - 30 * DAY))}`)
    })
    expect(JSON.stringify(plan)).toContain('leads_created_at_id_idx')
  })
})

describe('the work waiting', () => {
  beforeEach(async () => {
    await t.handle.db.delete(contactEnquiries)
    await t.handle.db.delete(accessRequests)
    await t.handle.db.delete(newsletterSends)
  })

  const listCount = async (url: string, headers: Record<string, string> = admin): Promise<number> => {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/${url}`, headers })
    expect(res.statusCode, res.body).toBe(200)
    const body: unknown = res.json()
    if (typeof body !== 'object' || body === null || !('count' in body) || typeof body.count !== 'number') throw new Error(`no count in ${res.body}`)
    return body.count
  }

  it('counts what waits, and each count is the count of the filtered list it opens', async () => {
    await t.handle.db.insert(contactEnquiries).values([{ name: 'A' }, { name: 'B' }, { name: 'C', status: 'Resolved' as const }])
    await t.handle.db.insert(accessRequests).values([{ name: 'R1', email: 'r1@example.com', confirmedAt: new Date() }])
    const promotion = (status: typeof promotions.$inferInsert.status) => ({ title: `Promo ${status}`, content: 'Text', recipientCount: 1, total: 1, status })
    await t.handle.db.insert(promotions).values([promotion('awaiting'), promotion('awaiting'), promotion('queued'), promotion('sending'), promotion('done'), promotion('rejected')])
    const [lead] = await t.handle.db.insert(leads).values({ email: 'reader@example.com' }).returning({ id: leads.id })
    const send = (status: typeof newsletterSends.$inferInsert.status, subject: string) => ({ subject, content: 'Body', total: 1, status })
    const sends = await t.handle.db
      .insert(newsletterSends)
      .values([send('awaiting', 'Waits'), send('paused', 'Held'), send('sending', 'Going'), send('sending', 'Finished, not yet marked'), send('done', 'Done')])
      .returning({ id: newsletterSends.id, subject: newsletterSends.subject })
    const going = sends.find((x) => x.subject === 'Going')
    if (going === undefined || lead === undefined) throw new Error('not stored')
    // One recipient still to be queued: the send is running. The other 'sending' send has none left, so it is done.
    await t.handle.db.insert(newsletterRecipients).values({ sendId: going.id, leadId: lead.id })

    const { work } = await getDashboard()
    expect(work).toEqual({
      openEnquiries: 2,
      accessRequests: 1,
      promotionsAwaiting: 2,
      promotionsQueued: 1,
      promotionsSending: 1,
      newslettersAwaiting: 1,
      newslettersSending: 1,
      newslettersPaused: 1,
    })
    expect(await listCount('getContactUS?status=Open')).toBe(2)
    expect(await listCount('listNotification?status=awaiting')).toBe(2)
    expect(await listCount('listNotification?status=queued')).toBe(1)
    expect(await listCount('listNotification?status=sending')).toBe(1)
    expect(await listCount('listNewsletterSends?status=awaiting')).toBe(1)
    expect(await listCount('listNewsletterSends?status=sending')).toBe(1)
    expect(await listCount('listNewsletterSends?status=paused')).toBe(1)
    // The list shows the finished one as done, and its filter agrees.
    expect(await listCount('listNewsletterSends?status=done')).toBe(2)
    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/listNotification?status=later', headers: admin })
    expect(bad.statusCode).toBe(400)
  })

  it("answers only the counts of lists the admin may read, and no card when none is theirs", async () => {
    const as = async (restrictions: string[], accessLevel: 'Admin' | 'View Only' = 'Admin') =>
      (await getDashboard(await t.auth(await t.createAdmin({ accessLevel, restrictions })))).work
    expect(await as(['/contactus'], 'View Only')).toEqual({ openEnquiries: 0 })
    expect(await as(['/newsletter'], 'View Only')).toEqual({ newslettersAwaiting: 0, newslettersSending: 0, newslettersPaused: 0 })
    // A subadmin never manages staff, whatever their access names (as listAccessRequests).
    expect(await as(['/sub-admin'])).toBeUndefined()
    expect(await as(['/users', '/category'])).toBeUndefined()
  })
})

describe('the dashboard in Access', () => {
  const create = (restrictions: string[]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/createSubAdminUsers',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Dash', email: `dash-${Math.random().toString(36).slice(2)}@example.com`, password: 'Passw0rd!', accessLevel: 'View Only', restrictions }),
    })

  it('is no Access option: a list naming only it is refused, and it is never stored', async () => {
    const alone = await create(['/dashboard'])
    expect(alone.statusCode).toBe(400)
    expect(bodyOf(alone)).toMatchObject({ status: 'failed', errors: { restrictions: 'Access is required' } })

    const withLeads = await create(['/dashboard', '/users'])
    expect(withLeads.statusCode, withLeads.body).toBe(200)
    const [row] = await t.handle.db.select({ restrictions: admins.restrictions }).from(admins).where(eq(admins.name, 'Dash'))
    expect(row?.restrictions).toEqual(['/users'])
  })
})

describe('GET /getMenuCounts', () => {
  const counts = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/getMenuCounts', headers })
    expect(res.statusCode, res.body).toBe(200)
    return MenuCounts.parse(res.json()).counts
  }

  it('counts open enquiries and confirmed access requests, each only for those who may read its list', async () => {
    await t.handle.db.delete(contactEnquiries)
    await t.handle.db.delete(accessRequests)
    const enquiries = await t.handle.db
      .insert(contactEnquiries)
      .values([{ name: 'A' }, { name: 'B' }, { name: 'C', status: 'Resolved' as const }])
      .returning({ id: contactEnquiries.id })
    await t.handle.db.insert(accessRequests).values([
      { name: 'R1', email: 'r1@example.com', confirmedAt: new Date() },
      { name: 'R2', email: 'r2@example.com', confirmedAt: new Date() },
      // Not confirmed: staff never see it, so it is not counted either.
      { name: 'R3', email: 'r3@example.com' },
    ])
    expect(await counts(admin)).toEqual({ contactus: 2, accessRequests: 2, linkChanges: 0 })

    // A subadmin never manages staff, whatever their access names (as listAccessRequests).
    const enquiryStaff = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/contactus', '/sub-admin'] })
    expect(await counts(await t.auth(enquiryStaff))).toEqual({ contactus: 2 })
    const leadsOnly = await t.createAdmin({ restrictions: ['/users'] })
    expect(await counts(await t.auth(leadsOnly))).toEqual({})

    // Resolving one is seen at once.
    const first = enquiries[0]
    if (first === undefined) throw new Error('no enquiry')
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/setContactStatus', headers: admin, payload: { _id: first.id, status: 'Resolved' } })
    expect(res.statusCode, res.body).toBe(200)
    expect(await counts(admin)).toEqual({ contactus: 1, accessRequests: 2, linkChanges: 0 })
  })

  it('is open to every signed-in admin and to nobody else', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/getMenuCounts' })).statusCode).toBe(401)
  })
})
