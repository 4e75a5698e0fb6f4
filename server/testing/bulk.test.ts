/**
 * Bulk actions (server/kit/request/bulk.ts) through the calls, on every list that has them: what a preview
 * counts and skips, Apply changing exactly the previewed set (409 once it differs), the run as
 * one job with one audit row, its one-step Undo, and who may do what.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BULK_NOTHING_TO_UNDO, BULK_SET_CHANGED, BULK_SKIP_REASONS, bulkRunGoesOn } from '#contract/bulk'
import { UNDO_NOT_YOURS } from '#contract/undo'
import { STEP_UP_MESSAGE, STEP_UP_REQUIRED } from '#contract/common'
import { admins, auditLog, brands, bulkRunRows, bulkRuns, categories, contactEnquiries, games, homepageContent, leads, links, newsletterSends, promotions, sessionTokens, type AdminRow } from '../db/schema.ts'
import { aboveActor } from '../areas/staff/routes.ts'
import { tuneBulk } from '../kit/request/bulk.ts'
import { bodyOf, makeTestApp, type TestApp } from './test-app.ts'

let t: TestApp
let admin: { authorization: string }
let category: string
let other: string

const post = (path: string, payload: Record<string, unknown>, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })

async function addGames(prefix: string, n: number, fields: Partial<typeof games.$inferInsert> = {}): Promise<string[]> {
  // At the end of the list, without a gap: the places an ordered list keeps.
  const start = (await t.handle.db.$count(games)) + 1
  const rows = await t.handle.db
    .insert(games)
    .values(
      Array.from({ length: n }, (_, i) => ({
        title: `${prefix} ${String(i + 1).padStart(2, '0')}`,
        description: 'A game',
        categoryId: category,
        operatingsystem: 'both' as const,
        liveLink: 'https://play.example/g',
        images: ['x.png'],
        preference: start + i,
        ...fields,
      })),
    )
    .returning({ id: games.id })
  return rows.map((r) => r.id)
}

interface Preview {
  token: string
  change: { count: number; names: string[] }
  skipped: { reason: string; label: string; count: number; names: string[] }[]
}

async function preview(path: string, payload: Record<string, unknown>, headers = admin): Promise<Preview> {
  const res = await post(path, payload, headers)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Preview>()
}

interface Run {
  id: string
  state: string
  total: number
  done: number
  skipped: number
  label: string
  undo: { token: string; seconds: number } | null
}

/** Waits for a run to end; answers it as getBulkRun tells it. */
async function ended(id: string, headers = admin): Promise<Run> {
  for (let i = 0; i < 400; i++) {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/getBulkRun?id=${id}`, headers })
    const run = res.json<{ run: Run }>().run
    if (!bulkRunGoesOn(run)) return run
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error('the bulk run did not end')
}

const frozen = async (ids: string[]): Promise<boolean[]> =>
  (await t.handle.db.select({ id: games.id, freeze: games.freeze }).from(games).where(inArray(games.id, ids))).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id)).map((g) => g.freeze)

beforeAll(async () => {
  t = await makeTestApp({ env: { UNDO_SECONDS: '60' } })
  admin = await t.auth(t.superadmin)
  const [c, d] = await t.handle.db
    .insert(categories)
    .values([
      { categoryName: 'Bulk arcade', image: 'c.png' },
      { categoryName: 'Bulk puzzle', image: 'c.png' },
    ])
    .returning({ id: categories.id })
  if (c === undefined || d === undefined) throw new Error('no category')
  category = c.id
  other = d.id
})
afterAll(async () => await t.close())

describe('preview', () => {
  it('counts what will change and what is skipped and why, with the first 20 names, for every row matching the search and filters', async () => {
    const ids = await addGames('Preview match', 25)
    await t.handle.db.update(games).set({ freeze: true }).where(inArray(games.id, ids.slice(0, 3)))
    // Matches the search but not the category filter: never counted.
    await addGames('Preview match elsewhere', 2, { categoryId: other })
    const p = await preview('/previewGamesBulk', { action: 'freeze', selection: { matching: { search: 'preview match', filters: { category } } } })
    expect(p.change.count).toBe(22)
    expect(p.change.names).toHaveLength(20)
    expect(p.change.names[0]).toBe('Preview match 04')
    expect(p.skipped).toEqual([{ reason: 'already', label: BULK_SKIP_REASONS.already, count: 3, names: ['Preview match 01', 'Preview match 02', 'Preview match 03'] }])
    // Nothing was written.
    expect(await frozen(ids.slice(3))).toEqual(Array(22).fill(false))
  })

  it('counts chosen ids that no longer exist as skipped', async () => {
    const [id] = await addGames('Preview gone', 1)
    const p = await preview('/previewGamesBulk', { action: 'unfreeze', selection: { ids: [id, 'no-such-game'] } })
    expect(p.change.count).toBe(0)
    expect(p.skipped.map((s) => [s.reason, s.count])).toEqual([
      ['already', 1],
      ['gone', 1],
    ])
  })

  it('refuses filters the list does not take', async () => {
    const res = await post('/previewGamesBulk', { action: 'freeze', selection: { matching: { search: '', filters: { operatingsystem: 'Windows' } } } })
    expect(res.statusCode).toBe(400)
  })

  it('skips every row, as no access, for an admin who may only view the list', async () => {
    const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/cms'] }))
    const ids = await addGames('Preview viewer', 2)
    const p = await preview('/previewGamesBulk', { action: 'freeze', selection: { ids } }, viewer)
    expect(p.change.count).toBe(0)
    expect(p.skipped).toEqual([{ reason: 'access', label: BULK_SKIP_REASONS.access, count: 2, names: ['Preview viewer 01', 'Preview viewer 02'] }])
    // And Apply is refused outright, whatever the token.
    const res = await post('/applyGamesBulk', { action: 'freeze', selection: { ids }, token: p.token }, viewer)
    expect(res.statusCode).toBe(403)
    expect(await frozen(ids)).toEqual([false, false])
  })
})

describe('apply', () => {
  it('changes exactly the previewed set as one job with one audit row, and one Undo reverts it', async () => {
    const ids = await addGames('Apply freeze', 30)
    await t.handle.db.update(games).set({ freeze: true }).where(eq(games.id, ids[0] ?? ''))
    const selection = { matching: { search: 'apply freeze', filters: {} } }
    const p = await preview('/previewGamesBulk', { action: 'freeze', selection })
    expect(p.change.count).toBe(29)
    const res = await post('/applyGamesBulk', { action: 'freeze', selection, token: p.token })
    expect(res.statusCode, res.body).toBe(200)
    const { run } = res.json<{ run: Run }>()
    expect(run.total).toBe(29)
    const done = await ended(run.id)
    expect(done).toMatchObject({ state: 'done', total: 29, done: 29, skipped: 0 })
    expect(await frozen(ids)).toEqual(Array(30).fill(true))
    // One audit row naming the run, its count in words; the ids are the run's rows, not the row's text.
    const rows = await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, run.id))
    expect(rows).toHaveLength(1)
    expect(rows[0]?.detail).toBe('Freeze: 29 games')
    expect(await t.handle.db.$count(bulkRunRows, eq(bulkRunRows.run, run.id))).toBe(29)

    // Someone unfreezes one meanwhile: the undo leaves that one as it is.
    await t.handle.db.update(games).set({ freeze: false }).where(eq(games.id, ids[5] ?? ''))
    const undone = await post('/undo', { token: done.undo?.token })
    expect(undone.statusCode, undone.body).toBe(200)
    expect(bodyOf(undone)['message']).toBe('Freeze undone: 28 games; 1 changed since, kept as they are')
    // The one frozen before the action stays frozen: only what the run changed goes back.
    expect(await frozen(ids)).toEqual([true, ...Array(29).fill(false)])
  })

  it('refuses with 409 when the matching rows changed since the preview, and touches nothing', async () => {
    const ids = await addGames('Apply drift', 4)
    const selection = { matching: { search: 'apply drift', filters: {} } }
    const p = await preview('/previewGamesBulk', { action: 'freeze', selection })
    // A row added that matches the filter: the admin never saw it counted.
    const [added] = await addGames('Apply drift late', 1)
    const res = await post('/applyGamesBulk', { action: 'freeze', selection, token: p.token })
    expect(res.statusCode).toBe(409)
    expect(bodyOf(res)['message']).toBe(BULK_SET_CHANGED)
    expect(await frozen([...ids, added ?? ''])).toEqual(Array(5).fill(false))
    expect(await t.handle.db.$count(bulkRuns, and(eq(bulkRuns.list, 'games'), eq(bulkRuns.action, 'freeze'), eq(bulkRuns.total, 0)))).toBe(0)
    // A row changed (frozen by someone else) is a different set too.
    const again = await preview('/previewGamesBulk', { action: 'freeze', selection })
    await t.handle.db.update(games).set({ freeze: true }).where(eq(games.id, ids[1] ?? ''))
    expect((await post('/applyGamesBulk', { action: 'freeze', selection, token: again.token })).statusCode).toBe(409)
  })

  it('never touches a row inserted after Apply, even one matching the filter', async () => {
    const ids = await addGames('Apply exact', 3)
    const selection = { matching: { search: 'apply exact', filters: {} } }
    const p = await preview('/previewGamesBulk', { action: 'freeze', selection })
    const res = await post('/applyGamesBulk', { action: 'freeze', selection, token: p.token })
    const [late] = await addGames('Apply exact late', 1)
    const run = await ended(res.json<{ run: Run }>().run.id)
    expect(run.done).toBe(3)
    expect(await frozen([...ids, late ?? ''])).toEqual([true, true, true, false])
  })

  it('loses no update when two admins bulk-edit overlapping sets at once, and each Undo reverts only its own rows', async () => {
    const ids = await addGames('Apply overlap', 9)
    const second = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: [] }))
    const mine = { ids: ids.slice(0, 6) }
    const theirs = { ids: ids.slice(3) }
    const [p1, p2] = await Promise.all([
      preview('/previewGamesBulk', { action: 'freeze', selection: mine }),
      preview('/previewGamesBulk', { action: 'freeze', selection: theirs }, second),
    ])
    // Applied together: either run may reach the shared rows first.
    const applied = await Promise.all([
      post('/applyGamesBulk', { action: 'freeze', selection: mine, token: p1.token }),
      post('/applyGamesBulk', { action: 'freeze', selection: theirs, token: p2.token }, second),
    ])
    const runs: Run[] = []
    for (const [i, res] of applied.entries()) {
      const headers = i === 0 ? admin : second
      const selection = i === 0 ? mine : theirs
      let answer = res
      // The other run froze some of the shared rows before this Apply read them: it asks again, as the dialog does.
      if (answer.statusCode === 409) {
        const again = await preview('/previewGamesBulk', { action: 'freeze', selection }, headers)
        answer = await post('/applyGamesBulk', { action: 'freeze', selection, token: again.token }, headers)
      }
      expect(answer.statusCode, answer.body).toBe(200)
      runs.push(await ended(answer.json<{ run: Run }>().run.id, headers))
    }
    const [a, b] = runs as [Run, Run]
    // Both runs' changes are there, each shared row changed by exactly one of them.
    expect(await frozen(ids)).toEqual(Array(9).fill(true))
    const doneBy = async (run: string) => new Set((await t.handle.db.select({ id: bulkRunRows.recordId }).from(bulkRunRows).where(and(eq(bulkRunRows.run, run), eq(bulkRunRows.outcome, 'done')))).map((r) => r.id))
    const [byA, byB] = [await doneBy(a.id), await doneBy(b.id)]
    expect(a.done + b.done).toBe(9)
    expect(new Set([...byA, ...byB]).size).toBe(9)
    // Each Undo puts back only the rows its own run froze.
    expect((await post('/undo', { token: a.undo?.token })).statusCode).toBe(200)
    expect(await frozen(ids)).toEqual(ids.map((id) => byB.has(id)))
    expect((await post('/undo', { token: b.undo?.token }, second)).statusCode).toBe(200)
    expect(await frozen(ids)).toEqual(Array(9).fill(false))
  })

  it('deletes games into the trash, and one Undo puts every one back at its place', async () => {
    const ids = await addGames('Apply delete', 6)
    const order = async () => (await t.handle.db.select({ id: games.id }).from(games).orderBy(games.preference)).map((g) => g.id)
    const before = await order()
    const p = await preview('/previewGamesBulk', { action: 'delete', selection: { ids: ids.slice(1, 5) } })
    expect(p.change.count).toBe(4)
    const res = await post('/applyGamesBulk', { action: 'delete', selection: { ids: ids.slice(1, 5) }, token: p.token })
    expect(res.statusCode, res.body).toBe(200)
    const run = await ended(res.json<{ run: Run }>().run.id)
    expect(run).toMatchObject({ state: 'done', done: 4 })
    expect(await t.handle.db.$count(games, inArray(games.id, ids))).toBe(2)
    // Another admin may not undo it.
    const stranger = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: [] }))
    const refused = await post('/undo', { token: run.undo?.token }, stranger)
    expect(bodyOf(refused)['message']).toBe(UNDO_NOT_YOURS)
    const undone = await post('/undo', { token: run.undo?.token })
    expect(undone.statusCode, undone.body).toBe(200)
    expect(await order()).toEqual(before)
  })

  it('marks Contact Us enquiries Resolved by the status filter, and undoes it', async () => {
    const rows = await t.handle.db
      .insert(contactEnquiries)
      .values([1, 2, 3].map((n) => ({ name: `Bulk enquirer ${n}`, email: `e${n}@example.com`, message: 'Hello', status: n === 3 ? ('Resolved' as const) : ('Open' as const) })))
      .returning({ id: contactEnquiries.id })
    const selection = { matching: { search: 'bulk enquirer', filters: { status: 'Open' } } }
    const p = await preview('/previewContactBulk', { action: 'resolve', selection })
    // Inserted together, they share their time: the list's order between them is by id.
    expect(p.change.count).toBe(2)
    expect([...p.change.names].sort()).toEqual(['Bulk enquirer 1 <e1@example.com>', 'Bulk enquirer 2 <e2@example.com>'])
    const res = await post('/applyContactBulk', { action: 'resolve', selection, token: p.token })
    const run = await ended(res.json<{ run: Run }>().run.id)
    const statuses = async () => (await t.handle.db.select({ s: contactEnquiries.status }).from(contactEnquiries).where(inArray(contactEnquiries.id, rows.map((r) => r.id)))).map((r) => r.s).sort()
    expect(await statuses()).toEqual(['Resolved', 'Resolved', 'Resolved'])
    expect((await post('/undo', { token: run.undo?.token })).statusCode).toBe(200)
    expect(await statuses()).toEqual(['Open', 'Open', 'Resolved'])
  })

  it('deletes categories, skipping those games use, and one Undo puts them back', async () => {
    const names = ['Bulk drop one', 'Bulk drop two', 'Bulk drop used']
    const rows = await t.handle.db.insert(categories).values(names.map((categoryName) => ({ categoryName, image: 'c.png' }))).returning({ id: categories.id })
    const used = rows[2]?.id ?? ''
    await t.handle.db.insert(games).values({ title: 'Uses a category', description: 'A game', categoryId: used, operatingsystem: 'both', liveLink: 'https://play.example/u', images: ['x.png'], preference: (await t.handle.db.$count(games)) + 1 })
    const selection = { matching: { search: 'bulk drop', filters: {} } }
    const p = await preview('/previewCategoriesBulk', { action: 'delete', selection })
    expect(p.change.count).toBe(2)
    expect([...p.change.names].sort()).toEqual(['Bulk drop one', 'Bulk drop two'])
    expect(p.skipped).toEqual([{ reason: 'inUse', label: BULK_SKIP_REASONS.inUse, count: 1, names: ['Bulk drop used'] }])
    const res = await post('/applyCategoriesBulk', { action: 'delete', selection, token: p.token })
    expect(res.statusCode, res.body).toBe(200)
    const run = await ended(res.json<{ run: Run }>().run.id)
    expect(run).toMatchObject({ state: 'done', done: 2 })
    expect(await t.handle.db.$count(categories, inArray(categories.id, rows.map((r) => r.id)))).toBe(1)
    expect((await post('/undo', { token: run.undo?.token })).statusCode).toBe(200)
    expect(await t.handle.db.$count(categories, inArray(categories.id, rows.map((r) => r.id)))).toBe(3)
  })

  it('cancels a run: what it changed stays changed and one Undo reverts that', async () => {
    const ids = await addGames('Apply cancel', 3)
    const p = await preview('/previewGamesBulk', { action: 'freeze', selection: { ids } })
    const res = await post('/applyGamesBulk', { action: 'freeze', selection: { ids }, token: p.token })
    const id = res.json<{ run: Run }>().run.id
    const cancel = await post('/cancelBulkRun', { id })
    // The job may have ended first (three rows are one batch): then Cancel says so.
    if (cancel.statusCode === 200) expect(cancel.json<{ run: Run }>().run.state).toBe('cancelling')
    else expect(cancel.statusCode).toBe(409)
    const run = await ended(id)
    expect(run.done + run.skipped).toBeLessThanOrEqual(3)
    expect(run.state).toBe(cancel.statusCode === 200 ? 'cancelled' : 'done')
    if (run.done > 0) expect((await post('/undo', { token: run.undo?.token })).statusCode).toBe(200)
    expect(await frozen(ids)).toEqual([false, false, false])
    // Another admin neither reads nor cancels it.
    const stranger = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: [] }))
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/getBulkRun?id=${id}`, headers: stranger })).statusCode).toBe(404)
  })
})

describe('a delete in batches', () => {
  afterEach(() => tuneBulk({ batch: undefined, before: undefined }))

  /** Every game as `id:preference`, in the list's order. */
  const gameList = async () =>
    (await t.handle.db.select({ id: games.id, preference: games.preference }).from(games).orderBy(games.preference, games.createdAt, games.id)).map((g) => `${g.id}:${g.preference}`)
  /** The places 1..count, as any write of the list leaves them (the rows here are inserted as they are). */
  const closeUp = (table: 'games' | 'categories') =>
    t.handle.db.execute(
      sql`update ${sql.identifier(table)} t set preference = r.n from (select id, row_number() over (order by preference, created_at, id) as n from ${sql.identifier(table)}) r where t.id = r.id`,
    )
  const trashRuns = async (run: string) =>
    (await t.handle.db.selectDistinct({ trash: bulkRunRows.trash }).from(bulkRunRows).where(and(eq(bulkRunRows.run, run), eq(bulkRunRows.outcome, 'done')))).length

  it('deletes games a batch at a time, the list closed up once, and one Undo gives back exactly the same list in the same order', async () => {
    const ids = await addGames('Batch order', 12)
    await closeUp('games')
    const before = await gameList()
    // Scattered through the list, the first game of all among them: every batch leaves gaps before others.
    const [first] = before
    const chosen = [...new Set([first?.split(':')[0] ?? '', ...ids.filter((_, i) => i % 2 === 0), ids[11] ?? ''])]
    tuneBulk({ batch: 2 })
    const run = await applied('GamesBulk', 'delete', { ids: chosen }, chosen.length)
    // One entry per batch, not per record.
    expect(await trashRuns(run.id)).toBe(Math.ceil(chosen.length / 2))
    const left = before.filter((g) => !chosen.includes(g.split(':')[0] ?? ''))
    expect(await gameList()).toEqual(left.map((g, i) => `${g.split(':')[0]}:${i + 1}`))
    expect(await undo(run)).toBe(`Delete undone: ${chosen.length} games`)
    expect(await gameList()).toEqual(before)
  })

  it('goes on past the rows it did when its job is stopped halfway, and undoes them all', async () => {
    const ids = await addGames('Batch resume', 7)
    await closeUp('games')
    const before = await gameList()
    let batches = 0
    tuneBulk({
      batch: 2,
      before: () => {
        // Once, after the first batch committed: the job fails and the queue runs it again.
        if (++batches === 2) throw new Error('stopped halfway')
      },
    })
    const run = await applied('GamesBulk', 'delete', { ids: ids.slice(1, 6) }, 5)
    // Stopped once, then taken up again by the queue.
    expect(batches).toBeGreaterThan(2)
    expect(await t.handle.db.$count(games, inArray(games.id, ids))).toBe(2)
    expect(await t.handle.db.$count(bulkRunRows, and(eq(bulkRunRows.run, run.id), eq(bulkRunRows.outcome, 'done')))).toBe(5)
    expect(await undo(run)).toBe('Delete undone: 5 games')
    expect(await gameList()).toEqual(before)
  })

  it('skips a category put in use while the run goes on, deletes the others of its batch, and one Undo puts them back in order', async () => {
    const rows = await t.handle.db
      .insert(categories)
      .values(['Batch drop a', 'Batch drop b', 'Batch drop c', 'Batch drop d'].map((categoryName) => ({ categoryName, image: 'c.png', preference: 1000 })))
      .returning({ id: categories.id })
    const categoryList = async () =>
      (await t.handle.db.select({ id: categories.id, preference: categories.preference }).from(categories).orderBy(categories.preference, categories.createdAt, categories.id)).map(
        (c) => `${c.id}:${c.preference}`,
      )
    await closeUp('categories')
    const before = await categoryList()
    // The run takes them in the list's order (inserted together, their ids decide it): the third of
    // them opens the second batch.
    const mine = new Set(rows.map((r) => r.id))
    const third = before.map((entry) => entry.split(':')[0] ?? '').filter((id) => mine.has(id))[2] ?? ''
    let batches = 0
    tuneBulk({
      batch: 2,
      before: async () => {
        // After the first batch: the third is given to a game, and its delete is refused by the foreign key.
        if (++batches === 2) await addGames('Batch uses c', 1, { categoryId: third })
      },
    })
    const p = await preview('/previewCategoriesBulk', { action: 'delete', selection: { matching: { search: 'batch drop', filters: {} } } })
    expect(p.change.count).toBe(4)
    const res = await post('/applyCategoriesBulk', { action: 'delete', selection: { matching: { search: 'batch drop', filters: {} } }, token: p.token })
    expect(res.statusCode, res.body).toBe(200)
    const run = await ended(res.json<{ run: Run }>().run.id)
    expect(run).toMatchObject({ state: 'done', done: 3, skipped: 1 })
    expect((await t.handle.db.select({ id: categories.id }).from(categories).where(inArray(categories.id, rows.map((r) => r.id)))).map((c) => c.id)).toEqual([third])
    expect(await undo(run)).toBe('Delete undone: 3 categories')
    expect(await categoryList()).toEqual(before)
  })
})

/** Preview, apply exactly the previewed set, wait for the run: the run as it ended. */
async function applied(path: string, action: string, selection: Record<string, unknown>, change: number, headers = admin): Promise<Run> {
  const p = await preview(`/preview${path}`, { action, selection }, headers)
  expect(p.change.count).toBe(change)
  const res = await post(`/apply${path}`, { action, selection, token: p.token }, headers)
  expect(res.statusCode, res.body).toBe(200)
  const run = await ended(res.json<{ run: Run }>().run.id, headers)
  expect(run).toMatchObject({ state: 'done', total: change, done: change, skipped: 0 })
  return run
}

async function undo(run: Run, headers = admin): Promise<string> {
  const res = await post('/undo', { token: run.undo?.token }, headers)
  expect(res.statusCode, res.body).toBe(200)
  return String(bodyOf(res)['message'])
}

describe('the other lists', () => {
  it('deletes brands matching the search, their leads kept with the reference cleared, and one Undo puts both back', async () => {
    const rows = await t.handle.db
      .insert(brands)
      .values(['Bulk brand one', 'Bulk brand two', 'Bulk brand three'].map((brandname) => ({ brandname, type: 'web3auth' as const })))
      .returning({ id: brands.id })
    const ids = rows.map((r) => r.id)
    const [lead] = await t.handle.db.insert(leads).values({ name: 'Referred', email: 'bulk-referred@example.com', brandId: ids[0] }).returning({ id: leads.id })
    const p = await preview('/previewBrandsBulk', { action: 'delete', selection: { ids: [...ids, 'no-such-brand'] } })
    expect(p.change.count).toBe(3)
    expect(p.skipped).toEqual([{ reason: 'gone', label: BULK_SKIP_REASONS.gone, count: 1, names: [] }])
    const run = await applied('BrandsBulk', 'delete', { matching: { search: 'bulk brand', filters: {} } }, 3)
    expect(await t.handle.db.$count(brands, inArray(brands.id, ids))).toBe(0)
    const brandOf = async () => (await t.handle.db.select({ b: leads.brandId }).from(leads).where(eq(leads.id, lead?.id ?? '')))[0]?.b
    expect(await brandOf()).toBeNull()
    expect(await undo(run)).toBe('Delete undone: 3 brands')
    expect(await t.handle.db.$count(brands, inArray(brands.id, ids))).toBe(3)
    expect(await brandOf()).toBe(ids[0])
  })

  it('deletes only the links of its own kind, whatever ids are sent, and one Undo puts them back at their places', async () => {
    const add = async (kind: 'buy' | 'sell', url: string) => {
      const [row] = await t.handle.db.insert(links).values({ kind, url, preference: (await t.handle.db.$count(links, eq(links.kind, kind))) + 1 }).returning({ id: links.id })
      return row?.id ?? ''
    }
    const buys = [await add('buy', 'https://bulk-links.example/a'), await add('buy', 'https://bulk-links.example/b'), await add('buy', 'https://bulk-links.example/c')]
    const sell = await add('sell', 'https://bulk-links.example/sell')
    const order = async () => (await t.handle.db.select({ id: links.id }).from(links).where(eq(links.kind, 'buy')).orderBy(links.preference)).map((l) => l.id)
    const before = await order()
    // A swap-out link's id sent to Buy links is not one of its rows: not found, never deleted.
    const p = await preview('/previewBuyLinksBulk', { action: 'delete', selection: { ids: [buys[0] ?? '', buys[2] ?? '', sell] } })
    expect(p.change.count).toBe(2)
    expect(p.skipped).toEqual([{ reason: 'gone', label: BULK_SKIP_REASONS.gone, count: 1, names: [] }])
    // By the search, the swap-out link (same host) is not in the buy list either.
    const run = await applied('BuyLinksBulk', 'delete', { matching: { search: 'bulk-links.example', filters: {} } }, 3)
    expect(await t.handle.db.$count(links, inArray(links.id, [...buys, sell]))).toBe(1)
    await undo(run)
    expect(await order()).toEqual(before)
  })

  it('deletes swap-out and swap-in links and homepage content through their own lists', async () => {
    const [sell] = await t.handle.db.insert(links).values({ kind: 'sell', url: 'https://bulk-sell.example/x', preference: (await t.handle.db.$count(links, eq(links.kind, 'sell'))) + 1 }).returning({ id: links.id })
    const [bridge] = await t.handle.db.insert(links).values({ kind: 'bridge', url: 'https://bulk-bridge.example/x', preference: (await t.handle.db.$count(links, eq(links.kind, 'bridge'))) + 1 }).returning({ id: links.id })
    const blocks = await t.handle.db
      .insert(homepageContent)
      .values([1, 2].map((n) => ({ title: `Bulk block ${n}`, link: 'https://home.example', image: 'b.png' })))
      .returning({ id: homepageContent.id })
    const sellRun = await applied('SellLinksBulk', 'delete', { ids: [sell?.id ?? ''] }, 1)
    const bridgeRun = await applied('BridgeLinksBulk', 'delete', { matching: { search: 'bulk-bridge', filters: {} } }, 1)
    const blockRun = await applied('HomepageBulk', 'delete', { matching: { search: 'bulk block', filters: {} } }, 2)
    expect(await t.handle.db.$count(links, inArray(links.id, [sell?.id ?? '', bridge?.id ?? '']))).toBe(0)
    expect(await t.handle.db.$count(homepageContent, inArray(homepageContent.id, blocks.map((b) => b.id)))).toBe(0)
    for (const run of [sellRun, bridgeRun, blockRun]) await undo(run)
    expect(await t.handle.db.$count(links, inArray(links.id, [sell?.id ?? '', bridge?.id ?? '']))).toBe(2)
    expect(await t.handle.db.$count(homepageContent, inArray(homepageContent.id, blocks.map((b) => b.id)))).toBe(2)
  })

  it('deactivates staff, skipping the acting admin, the superadmin and those already inactive, ends their sessions, and one Undo activates them again', async () => {
    const staff = [
      await t.createAdmin({ name: 'Bulk staff one', accessLevel: 'View Only', restrictions: ['/users'] }),
      await t.createAdmin({ name: 'Bulk staff two', accessLevel: 'Admin', restrictions: [] }),
      await t.createAdmin({ name: 'Bulk staff off', accessLevel: 'View Only', restrictions: ['/users'], activate: 0 }),
    ]
    const other = await t.createAdmin({ name: 'Bulk other superadmin', role: 'superadmin', accessLevel: 'Admin', restrictions: [] })
    const session = await t.auth(staff[0] as AdminRow)
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/getuser?page=1&limit=1', headers: session })).statusCode).toBe(200)
    const selection = { ids: [...staff.map((s) => s.id), t.superadmin.id, other.id] }
    const p = await preview('/previewStaffBulk', { action: 'deactivate', selection })
    expect(p.change.count).toBe(2)
    expect(p.skipped.map((s) => [s.reason, s.label, s.count])).toEqual([
      ['superadmin', BULK_SKIP_REASONS.superadmin, 1],
      ['self', BULK_SKIP_REASONS.self, 1],
      ['already', BULK_SKIP_REASONS.already, 1],
    ])
    const res = await post('/applyStaffBulk', { action: 'deactivate', selection, token: p.token })
    expect(res.statusCode, res.body).toBe(200)
    const run = await ended(res.json<{ run: Run }>().run.id)
    expect(run).toMatchObject({ state: 'done', done: 2 })
    const active = async () => (await t.handle.db.select({ id: admins.id, a: admins.activate }).from(admins).where(inArray(admins.id, staff.map((s) => s.id)))).sort((a, b) => staff.findIndex((s) => s.id === a.id) - staff.findIndex((s) => s.id === b.id)).map((r) => r.a)
    expect(await active()).toEqual([0, 0, 0])
    // Their sessions ended with it, each logged as a forced logout.
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/getuser?page=1&limit=1', headers: session })).statusCode).toBe(401)
    expect(await t.handle.db.$count(auditLog, and(eq(auditLog.action, 'forced-logout'), inArray(auditLog.recordId, staff.slice(0, 2).map((s) => s.id))))).toBe(2)
    // Undo gives access back, as Activate does: it asks for the same recent proof as the Apply.
    await t.handle.db.update(sessionTokens).set({ provedAt: new Date(Date.now() - 24 * 3600 * 1000) }).where(eq(sessionTokens.adminId, t.superadmin.id))
    const stale = await post('/undo', { token: run.undo?.token })
    expect(stale.statusCode, stale.body).toBe(403)
    expect(bodyOf(stale)).toMatchObject({ code: STEP_UP_REQUIRED, message: STEP_UP_MESSAGE })
    expect(await active()).toEqual([0, 0, 0])
    await t.handle.db.update(sessionTokens).set({ provedAt: new Date() }).where(eq(sessionTokens.adminId, t.superadmin.id))
    expect(await undo(run)).toBe('Deactivate undone: 2 users')
    // The one inactive before stays inactive.
    expect(await active()).toEqual([1, 1, 0])
    expect(await t.handle.db.select({ a: admins.activate }).from(admins).where(eq(admins.id, other.id))).toEqual([{ a: 1 }])
  })

  it('activates staff by the list\'s search, and signs staff out everywhere, which has no undo', async () => {
    const off = [
      await t.createAdmin({ name: 'Bulk activate a', email: 'bulk-activate-a@example.com', accessLevel: 'View Only', restrictions: ['/users'], activate: 0 }),
      await t.createAdmin({ name: 'Bulk activate b', email: 'bulk-activate-b@example.com', accessLevel: 'View Only', restrictions: ['/users'], activate: 0 }),
    ]
    const run = await applied('StaffBulk', 'activate', { matching: { search: 'bulk activate', filters: {} } }, 2)
    expect(await t.handle.db.$count(admins, and(inArray(admins.id, off.map((o) => o.id)), eq(admins.activate, 1)))).toBe(2)
    const session = await t.auth(off[0] as AdminRow)
    const out = await applied('StaffBulk', 'signOut', { matching: { search: 'bulk activate', filters: {} } }, 2)
    expect(out.undo).toBeNull()
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/getuser?page=1&limit=1', headers: session })).statusCode).toBe(401)
    expect(await undo(run)).toBe('Activate undone: 2 users')
    expect(await t.handle.db.$count(admins, and(inArray(admins.id, off.map((o) => o.id)), eq(admins.activate, 0)))).toBe(2)
  })

  it('counts as no access the staff above a sub-admin actor, row by row (the single toggle\'s ceiling)', async () => {
    const above = await t.createAdmin({ name: 'Bulk reach admin', accessLevel: 'Admin', restrictions: [] })
    const beside = await t.createAdmin({ name: 'Bulk reach users', accessLevel: 'View Only', restrictions: ['/users'] })
    const wider = await t.createAdmin({ name: 'Bulk reach wider', accessLevel: 'View Only', restrictions: ['/users', '/cms'] })
    const actor = { ...(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/users', '/profile'] })) }
    const out = aboveActor(actor)
    if (out === undefined) throw new Error('a sub-admin has a ceiling')
    const reached = await t.handle.db.select({ id: admins.id, out: sql<boolean>`${out}` }).from(admins).where(inArray(admins.id, [above.id, beside.id, wider.id]))
    expect(Object.fromEntries(reached.map((r) => [r.id, r.out]))).toEqual({ [above.id]: true, [beside.id]: false, [wider.id]: true })
    expect(aboveActor(t.superadmin)).toBeUndefined()
  })

  it('cancels scheduled promotions and newsletter sends, skipping those not scheduled, and one Undo schedules them again', async () => {
    const later = new Date(Date.now() + 24 * 3600 * 1000)
    const promos = await t.handle.db
      .insert(promotions)
      .values([
        { title: 'Bulk promo later 1', content: 'x', status: 'scheduled' as const, recipientCount: 0, total: 0, scheduledAt: later },
        { title: 'Bulk promo later 2', content: 'x', status: 'scheduled' as const, recipientCount: 0, total: 0, scheduledAt: later },
        { title: 'Bulk promo sent', content: 'x', status: 'done' as const, recipientCount: 0, total: 0 },
      ])
      .returning({ id: promotions.id })
    const selection = { matching: { search: 'bulk promo', filters: {} } }
    const p = await preview('/previewPromotionsBulk', { action: 'cancel', selection })
    expect(p.change.count).toBe(2)
    expect(p.skipped).toEqual([{ reason: 'notScheduled', label: BULK_SKIP_REASONS.notScheduled, count: 1, names: ['Bulk promo sent'] }])
    const run = await applied('PromotionsBulk', 'cancel', selection, 2)
    const states = async () => (await t.handle.db.select({ s: promotions.status, c: promotions.cancelledAt }).from(promotions).where(inArray(promotions.id, promos.map((r) => r.id)))).map((r) => `${r.s}:${r.c === null ? '-' : 'at'}`).sort()
    expect(await states()).toEqual(['cancelled:at', 'cancelled:at', 'done:-'])
    await undo(run)
    expect(await states()).toEqual(['done:-', 'scheduled:-', 'scheduled:-'])

    const sends = await t.handle.db
      .insert(newsletterSends)
      .values([
        { subject: 'Bulk send later', content: 'x', status: 'scheduled' as const, total: 0, scheduledAt: later },
        { subject: 'Bulk send going', content: 'x', status: 'sending' as const, total: 0 },
      ])
      .returning({ id: newsletterSends.id })
    const n = await preview('/previewNewsletterBulk', { action: 'cancel', selection: { ids: sends.map((r) => r.id) } })
    expect(n.skipped).toEqual([{ reason: 'notScheduled', label: BULK_SKIP_REASONS.notScheduled, count: 1, names: ['Bulk send going'] }])
    const sent = await applied('NewsletterBulk', 'cancel', { ids: sends.map((r) => r.id) }, 1)
    expect(await t.handle.db.select({ s: newsletterSends.status }).from(newsletterSends).where(eq(newsletterSends.id, sends[0]?.id ?? ''))).toEqual([{ s: 'cancelled' }])
    await undo(sent)
    expect(await t.handle.db.select({ s: newsletterSends.status }).from(newsletterSends).where(inArray(newsletterSends.id, sends.map((r) => r.id)))).toEqual(expect.arrayContaining([{ s: 'scheduled' }, { s: 'sending' }]))
  })

  it('deletes promotions with what they took, and one Undo puts them back', async () => {
    const rows = await t.handle.db
      .insert(promotions)
      .values([1, 2].map((i) => ({ title: `Bulk promo drop ${i}`, content: 'x', status: 'done' as const, recipientCount: 0, total: 0 })))
      .returning({ id: promotions.id })
    const run = await applied('PromotionsBulk', 'delete', { matching: { search: 'bulk promo drop', filters: { status: 'done' } } }, 2)
    expect(await t.handle.db.$count(promotions, inArray(promotions.id, rows.map((r) => r.id)))).toBe(0)
    expect(await undo(run)).toBe('Delete undone: 2 promotions')
    expect(await t.handle.db.$count(promotions, inArray(promotions.id, rows.map((r) => r.id)))).toBe(2)
  })

  it('refuses every write to an admin who may only view, and counts every row as no access', async () => {
    const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/brand', '/buy_list', '/homepage-content', '/notificationlist', '/newsletter', '/sub-admin'] }))
    const [brand] = await t.handle.db.insert(brands).values({ brandname: 'Bulk viewer brand', type: 'ipfs' }).returning({ id: brands.id })
    const p = await preview('/previewBrandsBulk', { action: 'delete', selection: { ids: [brand?.id ?? ''] } }, viewer)
    expect(p.change.count).toBe(0)
    expect(p.skipped).toEqual([{ reason: 'access', label: 'No access', count: 1, names: ['Bulk viewer brand'] }])
    for (const [path, action] of [
      ['BrandsBulk', 'delete'],
      ['BuyLinksBulk', 'delete'],
      ['HomepageBulk', 'delete'],
      ['PromotionsBulk', 'cancel'],
      ['NewsletterBulk', 'cancel'],
      ['StaffBulk', 'deactivate'],
    ] as const) {
      const res = await post(`/apply${path}`, { action, selection: { ids: [brand?.id ?? ''] }, token: p.token }, viewer)
      expect(res.statusCode, `${path}: ${res.body}`).toBe(403)
    }
    expect(await t.handle.db.$count(brands, eq(brands.id, brand?.id ?? ''))).toBe(1)
  })
})

describe('undo from the audit log', () => {
  const auditRow = async (runId: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/listAudit?page=1&limit=5&record=${runId}`, headers: admin })
    expect(res.statusCode, res.body).toBe(200)
    // The Apply's own row (a revert of it is a row of the run too).
    const rows = res.json<{ result: { _id: string; action: string; revertible: boolean }[] }>().result.filter((r) => r.action.startsWith('/apply'))
    expect(rows).toHaveLength(1)
    return rows[0] as { _id: string; revertible: boolean }
  }

  it('reverts a whole bulk action from its one audit row, by the toast Undo\'s rules, once', async () => {
    const blocks = await t.handle.db
      .insert(homepageContent)
      .values([1, 2, 3].map((n) => ({ title: `Bulk audit block ${n}`, link: 'https://home.example', image: 'b.png' })))
      .returning({ id: homepageContent.id })
    const ids = blocks.map((b) => b.id)
    const run = await applied('HomepageBulk', 'delete', { ids }, 3)
    const row = await auditRow(run.id)
    expect(row.revertible).toBe(true)
    // Another admin may neither see it as revertible nor revert it.
    const stranger = await t.createAdmin({ accessLevel: 'Admin', restrictions: [] })
    const refused = await post('/revertAuditEntry', { id: row._id }, await t.auth(stranger))
    expect(refused.statusCode).not.toBe(200)
    expect(await t.handle.db.$count(homepageContent, inArray(homepageContent.id, ids))).toBe(0)
    const res = await post('/revertAuditEntry', { id: row._id })
    expect(res.statusCode, res.body).toBe(200)
    expect(bodyOf(res)['message']).toBe('Delete undone: 3 homepage contents')
    expect(await t.handle.db.$count(homepageContent, inArray(homepageContent.id, ids))).toBe(3)
    // The undo is spent: the row is no longer revertible, and the toast's ticket is refused too.
    expect((await auditRow(run.id)).revertible).toBe(false)
    expect((await post('/undo', { token: run.undo?.token })).statusCode).not.toBe(200)
    expect((await post('/revertAuditEntry', { id: row._id })).statusCode).not.toBe(200)
  })

  it('offers nothing to revert for a run that kept no undo (Sign out everywhere)', async () => {
    await t.createAdmin({ name: 'Bulk audit signout', email: 'bulk-audit-signout@example.com', accessLevel: 'View Only', restrictions: ['/users'] })
    const run = await applied('StaffBulk', 'signOut', { matching: { search: 'bulk-audit-signout', filters: {} } }, 1)
    const row = await auditRow(run.id)
    expect(row.revertible).toBe(false)
    const res = await post('/revertAuditEntry', { id: row._id })
    expect(res.statusCode).toBe(409)
    expect(bodyOf(res)['message']).toBe(BULK_NOTHING_TO_UNDO)
  })
})
