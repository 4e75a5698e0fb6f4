import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, contactEnquiries, leads } from '../../db/schema.ts'
import { RECORD_NOT_FOUND } from '../../kit/request/answers.ts'
import { csvLine, neutralise } from '../../kit/ground/csv.ts'
import { bodyOf, listOf, type TestApp } from '../../testing/test-app.ts'
import { dayOf, openLeadsApp } from '../../testing/leads-fixture.ts'

let t: TestApp
let admin: { authorization: string }

beforeAll(async () => {
  ;({ t, admin } = await openLeadsApp())
})
afterAll(async () => {
  await t.close()
})

const getuser = (query: string, headers: Record<string, string> = admin) => t.app.inject({ method: 'GET', url: `/api/admin/getuser${query}`, headers })

describe('GET /getuser', () => {
  it('pages 50 at a time, newest first, with the total count', async () => {
    const res = await getuser('')
    expect(res.statusCode).toBe(200)
    const body = bodyOf(res)
    expect(body['status']).toBe('success')
    expect(body['count']).toBe(120)
    const data = listOf(body, 'data')
    expect(data).toHaveLength(50)
    expect(data.slice(0, 2)).toMatchObject([{ name: 'Lead 119', createdAt: dayOf(119).toISOString(), provider: 'ipfs' }, { name: 'Lead 118' }])
    expect(Object.keys(data[0] ?? {}).sort()).toEqual(['_id', 'country', 'createdAt', 'email', 'name', 'operatingsystem', 'provider', 'walletaddress'])
    const last = listOf(bodyOf(await getuser('?page=3')), 'data')
    expect(last).toHaveLength(20)
    expect(last[0]).toMatchObject({ name: 'Lead 019' })
    expect(listOf(bodyOf(await getuser('?page=2&limit=10')), 'data')[0]).toMatchObject({ name: 'Lead 109' })
    expect(bodyOf(await getuser('?page=9'))['data']).toEqual([])
  })

  it('searches name, email and wallet address, ignoring case, and counts the matches', async () => {
    const byName = bodyOf(await getuser('?search=LEAD 10'))
    expect(byName['count']).toBe(10) // Lead 100 to Lead 109
    const byEmail = bodyOf(await getuser('?search=proton.me&limit=100'))
    expect(byEmail['count']).toBe(60)
    const wallet = `0x${(77).toString(16).padStart(40, 'a')}`
    const byWallet = bodyOf(await getuser(`?search=${wallet.toUpperCase()}`))
    expect(byWallet['count']).toBe(1)
    expect(listOf(byWallet, 'data')).toMatchObject([{ name: 'Lead 077', walletaddress: wallet }])
  })

  it('treats LIKE wildcards in the search as plain text', async () => {
    expect(bodyOf(await getuser('?search=%25'))['count']).toBe(0)
    expect(bodyOf(await getuser('?search=lead_1'))['count']).toBe(0)
  })

  it('uses the trigram index for a search on PostgreSQL (so it stays fast on a million rows)', async () => {
    // With 120 rows the planner prefers a scan; forbidding that shows the index fits the query.
    const plan = await t.handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`)
      return tx.execute(
        sql`explain select * from leads where lower(${leads.name} || ' ' || ${leads.email} || ' ' || ${leads.walletaddress}) like ${'%proton%'}`,
      )
    })
    expect(JSON.stringify(plan)).toContain('leads_search_trgm_idx')
  })

  it('refuses bad paging with field errors', async () => {
    const res = await getuser('?page=0&limit=abc')
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toMatchObject({ status: 'failed', errors: { page: expect.any(String), limit: expect.any(String) } })
  })

  it('needs a session allowed to open /users', async () => {
    expect((await getuser('', {})).statusCode).toBe(401)
    const elsewhere = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/category'] })
    expect((await getuser('', await t.auth(elsewhere))).statusCode).toBe(403)
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users'] })
    expect((await getuser('', await t.auth(viewer))).statusCode).toBe(200)
    const everything = await t.createAdmin({ accessLevel: 'View Only', restrictions: [] })
    expect((await getuser('', await t.auth(everything))).statusCode).toBe(200)
  })
})

describe('GET /DownloadFile', () => {
  it('streams every lead as user.csv with formula-looking cells neutralised', async () => {
    const tricky = [
      { name: '=HYPERLINK("http://evil.example","click")', email: '+1@example.com', walletaddress: '-0x1', provider: '@SUM(A1)' },
      { name: '\tTabbed', email: '\rcr@example.com', walletaddress: 'plain, with comma', provider: 'say "hi"' },
      { name: '\\.', email: '', walletaddress: 'line\nbreak', provider: '-"q"' },
    ]
    await t.handle.db.insert(leads).values(tricky.map((l, i) => ({ ...l, operatingsystem: 'ios', createdAt: dayOf(500 + i) })))
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/DownloadFile', headers: admin })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    expect(res.headers['content-disposition']).toBe('attachment; filename="user.csv"')
    expect(res.headers['cache-control']).toBe('no-store')
    const lines = res.body.split('\n')
    expect(lines[0]).toBe('createdAt,name,email,operatingsystem,walletaddress,provider')
    expect(lines.at(-1)).toBe('') // every row ends with a newline
    // The third lead's wallet address holds a line break: one more line, inside its quotes.
    expect(lines).toHaveLength(1 + 123 + 1 + 1)
    // Both engines write what csvLine writes (COPY on PostgreSQL, SQL-built lines on PGlite).
    const third = `${dayOf(502).toISOString()},\\.,"",ios,"line\nbreak","'-""q"""\n`
    expect(csvLine([dayOf(502).toISOString(), ...['\\.', '', 'ios', 'line\nbreak', '-"q"'].map(neutralise)])).toBe(third)
    expect(res.body).toContain(`\n${third}`)
    // Rows come in storage order (see COPY_SQL), so look each expected line up.
    expect(lines).toContain(`${dayOf(501).toISOString()},'\tTabbed,"'\rcr@example.com",ios,"plain, with comma","say ""hi"""`)
    expect(lines).toContain(
      `${dayOf(500).toISOString()},"'=HYPERLINK(""http://evil.example"",""click"")",'+1@example.com,ios,'-0x1,'@SUM(A1)`,
    )
    expect(lines).toContain(`${dayOf(119).toISOString()},Lead 119,lead119@proton.me,Android,0x${(119).toString(16).padStart(40, 'a')},ipfs`)
    await t.handle.db.delete(leads).where(sql`${leads.createdAt} >= ${dayOf(500)}`)
  })

  it('keeps every row exactly once when exporting more rows than one batch', async () => {
    // More rows than fit in one batch of the PGlite export (800), some sharing one created_at.
    await t.handle.db.execute(
      sql`insert into leads (created_at, name, email) select ${dayOf(-1)}::timestamptz, 'Bulk ' || g, 'bulk' || g || '@example.com' from generate_series(1, 12000) g`,
    )
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/DownloadFile', headers: admin })
    const names = res.body
      .split('\n')
      .slice(1, -1)
      .map((line) => line.split(',')[1])
    expect(names).toHaveLength(12120)
    expect(new Set(names).size).toBe(12120)
    await t.handle.db.delete(leads).where(sql`${leads.name} like 'Bulk %'`)
  })

  it('needs a session allowed to open /users', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/DownloadFile' })).statusCode).toBe(401)
    const other = await t.createAdmin({ restrictions: ['/contactus'] })
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/DownloadFile', headers: await t.auth(other) })
    expect(res.statusCode).toBe(403)
    expect(res.headers['content-disposition']).toBeUndefined()
  })
})

describe('GET /getContactUS', () => {
  it('pages the enquiries newest first and searches them', async () => {
    await t.handle.db.insert(contactEnquiries).values(
      Array.from({ length: 25 }, (_, i) => ({
        createdAt: dayOf(i),
        name: `Person ${i}`,
        email: `person${i}@example.com`,
        phonenumber: `+1 555 01${String(i).padStart(2, '0')}`,
        message: i === 7 ? 'My wallet does not sync' : 'Hello there',
      })),
    )
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/getContactUS?page=1&limit=10', headers: admin })
    const body = bodyOf(res)
    expect(body).toMatchObject({ status: 'success', count: 25 })
    expect(listOf(body, 'result')).toHaveLength(10)
    expect(listOf(body, 'result')[0]).toMatchObject({ name: 'Person 24', phonenumber: '+1 555 0124', message: 'Hello there' })
    const found = bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/getContactUS?search=SYNC', headers: admin }))
    expect(found['count']).toBe(1)
    expect(listOf(found, 'result')).toMatchObject([{ name: 'Person 7' }])
  })

  it('names the lead with the enquiry\'s address (any case) to staff who may read Leads, and to no one else', async () => {
    const [lead] = await t.handle.db.insert(leads).values({ name: 'Known Lead', email: 'Known.Lead@example.com' }).returning()
    if (lead === undefined) throw new Error('no lead')
    await t.handle.db.insert(contactEnquiries).values([
      { createdAt: new Date(Date.UTC(2029, 0, 3)), name: 'Known', email: 'known.lead@EXAMPLE.com', message: 'From a lead' },
      { createdAt: new Date(Date.UTC(2029, 0, 2)), name: 'Stranger', email: 'nobody-here@example.com', message: 'Not a lead' },
      { createdAt: new Date(Date.UTC(2029, 0, 1)), name: 'No address', email: '', message: 'No email' },
    ])
    const rows = async (headers: Record<string, string>) => listOf(bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/getContactUS?limit=3', headers })), 'result')
    expect((await rows(admin)).map((r) => [r['name'], r['leadId']])).toEqual([['Known', lead.id], ['Stranger', null], ['No address', null]])
    const enquiriesOnly = await t.createAdmin({ restrictions: ['/contactus'] })
    expect((await rows(await t.auth(enquiriesOnly))).map((r) => r['leadId'])).toEqual([null, null, null])
  })

  it('needs /contactus and refuses bad paging', async () => {
    const other = await t.createAdmin({ restrictions: ['/users'] })
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/getContactUS', headers: await t.auth(other) })).statusCode).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/getContactUS?limit=1000', headers: admin })).statusCode).toBe(400)
  })
})

describe('POST /setContactStatus', () => {
  const setStatus = (json: Record<string, unknown>, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/admin/setContactStatus', headers, payload: json })
  const contactList = async (query: string) => bodyOf(await t.app.inject({ method: 'GET', url: `/api/admin/getContactUS${query}`, headers: admin }))

  it('lets an Admin resolve an enquiry and open it again, audited, and the list filters by status', async () => {
    const [row] = await t.handle.db
      .insert(contactEnquiries)
      .values({ createdAt: new Date(Date.UTC(2030, 0, 1)), name: 'Status Asker', email: 'status@example.com', message: 'Is this resolved?' })
      .returning()
    if (row === undefined) throw new Error('no enquiry')
    const newest = listOf(await contactList('?page=1&limit=1'), 'result')[0]
    expect(newest).toMatchObject({ _id: row.id, status: 'Open', createdAt: '2030-01-01T00:00:00.000Z' })

    const staff = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/contactus'] })
    const res = await setStatus({ _id: row.id, status: 'Resolved' }, await t.auth(staff))
    expect(res.statusCode, res.body).toBe(200)
    expect(bodyOf(res)).toMatchObject({ status: 'success', message: 'Enquiry marked Resolved' })
    const audit = await t.handle.db.select().from(auditLog).where(and(eq(auditLog.recordId, row.id), eq(auditLog.action, '/setContactStatus')))
    expect(audit).toMatchObject([{ adminId: staff.id, detail: 'status Resolved' }])

    const resolved = await contactList('?status=Resolved&limit=100')
    expect(listOf(resolved, 'result').map((e) => e['_id'])).toEqual([row.id])
    const open = await contactList('?status=Open&limit=100')
    expect(listOf(open, 'result').every((e) => e['status'] === 'Open')).toBe(true)
    expect(listOf(open, 'result').map((e) => e['_id'])).not.toContain(row.id)
    expect(Number(open['count']) + 1).toBe(Number((await contactList('?limit=1'))['count']))

    expect(bodyOf(await setStatus({ _id: row.id, status: 'Open' }, admin))).toMatchObject({ status: 'success', message: 'Enquiry marked Open' })
    expect(listOf(await contactList('?page=1&limit=1'), 'result')[0]).toMatchObject({ _id: row.id, status: 'Open' })
  })

  it('refuses View Only staff, leaving the status as it was', async () => {
    const [row] = await t.handle.db.insert(contactEnquiries).values({ name: 'Viewer Case', email: 'viewer-case@example.com' }).returning()
    if (row === undefined) throw new Error('no enquiry')
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/contactus'] })
    expect((await setStatus({ _id: row.id, status: 'Resolved' }, await t.auth(viewer))).statusCode).toBe(403)
    const [after] = await t.handle.db.select().from(contactEnquiries).where(eq(contactEnquiries.id, row.id))
    expect(after?.status).toBe('Open')
    expect(await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, row.id))).toHaveLength(0)
  })

  it('answers an unknown id with the not-found message, and refuses a status that is not Open or Resolved', async () => {
    const missing = await setStatus({ _id: '00000000-0000-4000-8000-000000000000', status: 'Resolved' }, admin)
    expect(missing.statusCode).toBe(404)
    expect(bodyOf(missing)).toMatchObject({ status: 'failed', message: RECORD_NOT_FOUND, errors: { _id: RECORD_NOT_FOUND } })
    const [row] = await t.handle.db.insert(contactEnquiries).values({ name: 'Bad Status' }).returning()
    if (row === undefined) throw new Error('no enquiry')
    expect((await setStatus({ _id: row.id, status: 'Closed' }, admin)).statusCode).toBe(400)
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/getContactUS?status=Closed', headers: admin })).statusCode).toBe(400)
  })
})
