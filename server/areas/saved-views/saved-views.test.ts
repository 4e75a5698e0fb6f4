import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { MAX_VIEWS_PER_LIST, SavedView, VIEW_NAME_TAKEN } from '#contract/saved-views'
import { eq } from 'drizzle-orm'
import { admins, type AdminRow } from '../../db/schema.ts'
import { bodyOf, makeTestApp, testEngine, type TestApp } from '../../testing/test-app.ts'

let t: TestApp
let ann: AdminRow
let bob: AdminRow

beforeAll(async () => {
  t = await makeTestApp()
  ann = await t.createAdmin({ name: 'Ann', accessLevel: 'View Only', restrictions: ['/users', '/category'] })
  bob = await t.createAdmin({ name: 'Bob', accessLevel: 'Admin', restrictions: [] })
})
afterAll(() => t.close())

const save = async (who: AdminRow, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/admin/saveView', headers: await t.auth(who), payload })
const views = async (who: AdminRow) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/listSavedViews', headers: await t.auth(who) })
  return z.object({ result: z.array(SavedView) }).parse(res.json()).result
}

describe(`saved views (${testEngine()})`, () => {
  it('keeps a view per admin, listed only to its owner, even for View Only staff', async () => {
    const res = await save(ann, { route: '/users', name: 'Gmail leads', query: '?search=gmail&limit=50' })
    expect(res.statusCode).toBe(200)
    expect(await views(ann)).toEqual([expect.objectContaining({ route: '/users', name: 'Gmail leads', query: '?search=gmail&limit=50' })])
    expect(await views(bob)).toEqual([])
  })

  it('refuses a name already used for that list, in any case, but not for another list', async () => {
    const again = await save(ann, { route: '/users', name: 'GMAIL LEADS', query: '' })
    expect(again.statusCode).toBe(400)
    expect(bodyOf(again)).toMatchObject({ message: VIEW_NAME_TAKEN, errors: { name: VIEW_NAME_TAKEN } })
    expect((await save(ann, { route: '/category', name: 'Gmail leads', query: '' })).statusCode).toBe(200)
  })

  it('refuses a list the admin may not open, an unknown route and a malformed query', async () => {
    const hidden = await save(ann, { route: '/sub-admin', name: 'Staff', query: '' })
    expect(hidden.statusCode).toBe(400)
    expect(bodyOf(hidden)).toMatchObject({ errors: { route: 'This list cannot be saved as a view' } })
    expect((await save(ann, { route: '/nowhere', name: 'X', query: '' })).statusCode).toBe(400)
    const bad = await save(ann, { route: '/users', name: 'Bad', query: 'search=no-question-mark' })
    expect(bodyOf(bad)).toMatchObject({ errors: { query: 'Incorrect format' } })
    expect(bodyOf(await save(ann, { route: '/users', name: '', query: '' }))).toMatchObject({ errors: { name: 'Name is required' } })
  })

  it(`keeps at most ${MAX_VIEWS_PER_LIST} views per list`, async () => {
    for (let i = 0; i < MAX_VIEWS_PER_LIST; i++) expect((await save(bob, { route: '/brand', name: `View ${i}`, query: `?page=${i + 1}` })).statusCode).toBe(200)
    const over = await save(bob, { route: '/brand', name: 'One more', query: '' })
    expect(over.statusCode).toBe(400)
  })

  it("deletes one's own view; another admin's answers as missing and stays", async () => {
    const mine = (await views(ann)).find((v) => v.route === '/users')
    const theirs = await t.app.inject({ method: 'POST', url: '/api/admin/deleteView', headers: await t.auth(bob), payload: { id: mine?._id } })
    expect(theirs.statusCode).toBe(404)
    expect(await views(ann)).toHaveLength(2)
    const own = await t.app.inject({ method: 'POST', url: '/api/admin/deleteView', headers: await t.auth(ann), payload: { id: mine?._id } })
    expect(own.statusCode).toBe(200)
    expect(await views(ann)).toHaveLength(1)
  })

  it('stops listing views of a screen the admin can no longer open', async () => {
    await t.handle.db.update(admins).set({ restrictions: ['/users'] }).where(eq(admins.id, ann.id))
    expect((await views(ann)).map((v) => v.route)).toEqual([])
  })
})
