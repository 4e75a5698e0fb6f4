import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, links } from '../../db/schema.ts'
import { bodyOf, listOf, makeTestApp, testEngine, type TestApp } from '../../testing/test-app.ts'

/** The three kinds with their calls, fields and messages spelled as requirements R7.5 and R5.5 spell them. */
const kinds = [
  {
    kind: 'buy',
    route: '/buy_list',
    noun: 'Buy link',
    calls: { add: '/addbuyLink', get: '/getbuyLink', list: '/ListBuyLink', edit: '/editBuylink', remove: '/DeleteBuyLink' },
    addField: 'buylink',
    field: 'buyLink',
    required: 'buylink is required',
  },
  {
    kind: 'sell',
    route: '/swapout_list',
    noun: 'Swap out link',
    calls: { add: '/addsellLink', get: '/getsellLink', list: '/ListSelLink', edit: '/editSellink', remove: '/DeleteSellLink' },
    addField: 'sellink',
    field: 'selLink',
    required: 'swap out link is required',
  },
  {
    kind: 'bridge',
    route: '/swapin_list',
    noun: 'Swap in link',
    calls: { add: '/addBridgeLink', get: '/getBridgeLink', list: '/ListBridgeLink', edit: '/editBridgeink', remove: '/DeleteBridgeLink' },
    addField: 'bridgelink',
    field: 'bridgeLink',
    required: 'Swap in link is required',
  },
] as const
type Kind = (typeof kinds)[number]

let t: TestApp
let admin: { authorization: string }

beforeAll(async () => {
  t = await makeTestApp()
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
})

const post = (path: string, payload: Record<string, unknown>, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
const getOne = (k: Kind, id: string, headers: Record<string, string> = admin) => t.app.inject({ method: 'GET', url: `/api/admin${k.calls.get}`, query: { _id: id }, headers })
const list = async (k: Kind, query: Record<string, unknown> = {}) => bodyOf(await post(k.calls.list, { page: 1, limit: 50, search: '', ...query }))
/** The list as `url:preference`, in the answer's order. */
const shown = async (k: Kind, query: Record<string, unknown> = {}) => listOf(await list(k, query), 'result').map((r) => `${String(r[k.field])}:${String(r['preference'])}`)
const clear = (k: Kind) => t.handle.db.delete(links).where(eq(links.kind, k.kind))

async function addAll(k: Kind, urls: readonly string[]): Promise<void> {
  for (const url of urls) expect(bodyOf(await post(k.calls.add, { [k.addField]: url }))['status']).toBe('success')
}
async function idOf(k: Kind, url: string): Promise<string> {
  const [row] = await t.handle.db.select({ id: links.id }).from(links).where(and(eq(links.kind, k.kind), eq(links.url, url)))
  if (row === undefined) throw new Error(`no ${k.kind} link ${url}`)
  return row.id
}
const edit = async (k: Kind, url: string, preference: unknown, newUrl = url) => post(k.calls.edit, { _id: await idOf(k, url), [k.field]: newUrl, preference })

for (const k of kinds) {
  describe(`${k.noun}s (${k.route})`, () => {
    it(`adds a link last with '${k.noun} added successfully' and an audit row, and lists it as { _id, ${k.field}, preference }`, async () => {
      await clear(k)
      await addAll(k, ['https://one.example.com', 'www.two.example.com'])
      const res = await post(k.calls.add, { [k.addField]: 'http://three.example.com' })
      expect(bodyOf(res)).toEqual({ status: 'success', message: `${k.noun} added successfully` })
      const id = await idOf(k, 'http://three.example.com')
      const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, id))
      expect(audit).toMatchObject({ adminId: t.superadmin.id, action: k.calls.add })
      const body = await list(k)
      expect(body).toMatchObject({ status: 'success', message: `${k.noun}s fetched`, count: 3 })
      const [last] = listOf(body, 'result').slice(-1)
      expect(last).toEqual({ _id: id, [k.field]: 'http://three.example.com', preference: 3, version: 1 })
      expect(await shown(k)).toEqual(['https://one.example.com:1', 'www.two.example.com:2', 'http://three.example.com:3'])
    })

    it(`adds at the preference asked for, and puts a link whose preference is past the end last`, async () => {
      expect(bodyOf(await post(k.calls.add, { [k.addField]: 'https://first.example.com', preference: 1 }))['status']).toBe('success')
      expect(bodyOf(await post(k.calls.add, { [k.addField]: 'https://far.example.com', preference: '40' }))['status']).toBe('success')
      expect(bodyOf(await post(k.calls.add, { [k.addField]: 'https://blank.example.com', preference: '' }))['status']).toBe('success')
      expect(await shown(k)).toEqual([
        'https://first.example.com:1',
        'https://one.example.com:2',
        'www.two.example.com:3',
        'http://three.example.com:4',
        'https://far.example.com:5',
        'https://blank.example.com:6',
      ])
    })

    it(`refuses a missing or malformed link with '${k.required}' / 'Incorrect format', storing nothing`, async () => {
      const before = await shown(k)
      for (const [value, message] of [
        ['', k.required],
        ['   ', k.required],
        ['ftp://files.example.com', 'Incorrect format'],
        ['example.com', 'Incorrect format'],
        ['https://spaced out.example.com', 'Incorrect format'],
      ] as const) {
        const res = await post(k.calls.add, { [k.addField]: value })
        expect(res.statusCode).toBe(400)
        expect(bodyOf(res)).toEqual({ status: 'failed', message, errors: { [k.addField]: message } })
      }
      const missing = await post(k.calls.add, {})
      expect(bodyOf(missing)).toEqual({ status: 'failed', message: k.required, errors: { [k.addField]: k.required } })
      // The record's spelling is not the add form's: it is not accepted in its place.
      expect(bodyOf(await post(k.calls.add, { [k.field]: 'https://x.example.com' }))['errors']).toEqual({ [k.addField]: k.required })
      expect(await shown(k)).toEqual(before)
    })

    it('reads one link by _id; an unknown id, or the id of another kind of link, is 404 Record not found', async () => {
      const id = await idOf(k, 'www.two.example.com')
      expect(bodyOf(await getOne(k, id))).toEqual({ status: 'success', message: `${k.noun} fetched`, data: { _id: id, [k.field]: 'www.two.example.com', preference: 3, version: expect.any(Number) } })
      const other = kinds.find((o) => o.kind !== k.kind) ?? k
      await post(other.calls.add, { [other.addField]: 'https://elsewhere.example.com' })
      for (const unknown of ['no-such-id', await idOf(other, 'https://elsewhere.example.com')]) {
        const res = await getOne(k, unknown)
        expect(res.statusCode).toBe(404)
        expect(bodyOf(res)).toEqual({ status: 'failed', message: 'Record not found', errors: { _id: 'Record not found' } })
      }
    })

    it('edits the link and moves it up, the ones between moving down by one', async () => {
      const res = await edit(k, 'https://far.example.com', 2, 'https://far.example.net')
      expect(bodyOf(res)).toEqual({ status: 'success', message: `${k.noun} updated successfully` })
      expect(await shown(k)).toEqual([
        'https://first.example.com:1',
        'https://far.example.net:2',
        'https://one.example.com:3',
        'www.two.example.com:4',
        'http://three.example.com:5',
        'https://blank.example.com:6',
      ])
    })

    it('moves a link down, the ones between moving up by one', async () => {
      expect(bodyOf(await edit(k, 'https://first.example.com', '5'))['status']).toBe('success')
      expect(await shown(k)).toEqual([
        'https://far.example.net:1',
        'https://one.example.com:2',
        'www.two.example.com:3',
        'http://three.example.com:4',
        'https://first.example.com:5',
        'https://blank.example.com:6',
      ])
    })

    it('ignores a preference greater than the count: the new link is saved, the place kept, and the answer says so', async () => {
      const res = await edit(k, 'www.two.example.com', 7, 'www.second.example.com')
      expect(bodyOf(res)).toEqual({
        status: 'success',
        message: `${k.noun} updated successfully; preference 7 is not a place in this list (1 to 6), so it keeps place 3`,
      })
      expect((await shown(k))[2]).toBe('www.second.example.com:3')
    })

    it(`refuses an edit without the link ('${k.required}'), without a preference, or of an unknown id`, async () => {
      const id = await idOf(k, 'https://one.example.com')
      expect(bodyOf(await post(k.calls.edit, { _id: id, [k.field]: '', preference: 1 }))['errors']).toEqual({ [k.field]: k.required })
      expect(bodyOf(await post(k.calls.edit, { _id: id, [k.field]: 'nope', preference: 1 }))['errors']).toEqual({ [k.field]: 'Incorrect format' })
      expect(bodyOf(await post(k.calls.edit, { _id: id, [k.field]: 'https://one.example.com' }))['errors']).toEqual({ preference: 'preference is required' })
      const unknown = await post(k.calls.edit, { _id: 'no-such-id', [k.field]: 'https://ghost.example.com', preference: 1 })
      expect(unknown.statusCode).toBe(404)
      expect(bodyOf(unknown)).toEqual({ status: 'failed', message: 'Record not found', errors: { _id: 'Record not found' } })
      expect((await shown(k))[1]).toBe('https://one.example.com:2')
    })

    it('deletes a link and closes the gap; deleting it again is 404', async () => {
      const id = await idOf(k, 'https://one.example.com')
      const res = await post(k.calls.remove, { id })
      expect(bodyOf(res)).toMatchObject({ status: 'success', message: `${k.noun} deleted successfully`, undo: { seconds: 10 } })
      expect(await shown(k)).toEqual([
        'https://far.example.net:1',
        'www.second.example.com:2',
        'http://three.example.com:3',
        'https://first.example.com:4',
        'https://blank.example.com:5',
      ])
      const again = await post(k.calls.remove, { id })
      expect(again.statusCode).toBe(404)
      expect(bodyOf(again)).toEqual({ status: 'failed', message: 'Record not found', errors: { id: 'Record not found' } })
      expect(bodyOf(await post(k.calls.remove, {}))).toMatchObject({ status: 'failed', errors: { id: expect.any(String) } })
    })

    it('lets View Only staff read the list and a link but not write; a sub-admin without the route gets nothing', async () => {
      const viewer = await t.auth(await t.createAdmin({ accessLevel: 'View Only', restrictions: [k.route] }))
      const id = await idOf(k, 'https://blank.example.com')
      expect((await post(k.calls.list, { page: 1, limit: 10 }, viewer)).statusCode).toBe(200)
      expect((await getOne(k, id, viewer)).statusCode).toBe(200)
      expect((await post(k.calls.add, { [k.addField]: 'https://sneaky.example.com' }, viewer)).statusCode).toBe(403)
      expect((await post(k.calls.edit, { _id: id, [k.field]: 'https://sneaky.example.com', preference: 1 }, viewer)).statusCode).toBe(403)
      expect((await post(k.calls.remove, { id }, viewer)).statusCode).toBe(403)
      const otherRoute = kinds.find((o) => o.kind !== k.kind)?.route ?? '/users'
      const outsider = await t.auth(await t.createAdmin({ accessLevel: 'Admin', restrictions: [otherRoute] }))
      expect((await post(k.calls.list, { page: 1, limit: 10 }, outsider)).statusCode).toBe(403)
      expect((await post(k.calls.remove, { id }, outsider)).statusCode).toBe(403)
      expect(await shown(k)).toContain('https://blank.example.com:5')
    })
  })
}

describe('links: search, paging and concurrent edits', () => {
  const buy = kinds[0]
  const sell = kinds[1]

  it('searches the URL case-insensitively, with LIKE wildcards taken literally, and counts the matches', async () => {
    await clear(buy)
    await addAll(buy, ['https://alpha.example.com', 'https://BETA.example.com', 'https://100%_off.example.org', 'www.gamma.example.com'])
    expect(await shown(buy, { search: 'beta' })).toEqual(['https://BETA.example.com:2'])
    expect((await list(buy, { search: 'EXAMPLE.COM' }))['count']).toBe(3)
    expect(await shown(buy, { search: '%_' })).toEqual(['https://100%_off.example.org:3'])
    expect(await list(buy, { search: 'nothing-like-it' })).toMatchObject({ count: 0, result: [] })
    // Another kind's links never show up in this list.
    await addAll(sell, ['https://alpha.example.com/sell'])
    expect(await shown(buy, { search: 'alpha' })).toEqual(['https://alpha.example.com:1'])
  })

  it('pages in preference order with the whole count on every page', async () => {
    const first = await list(buy, { page: 1, limit: 3 })
    expect(first['count']).toBe(4)
    expect(listOf(first, 'result').map((r) => r['preference'])).toEqual([1, 2, 3])
    const second = await list(buy, { page: 2, limit: 3 })
    expect(second['count']).toBe(4)
    expect(listOf(second, 'result').map((r) => r[buy.field])).toEqual(['www.gamma.example.com'])
    expect(bodyOf(await post(buy.calls.list, { page: 0 }))['status']).toBe('failed')
  })

  it(`keeps places 1..count without gaps or duplicates when edits, adds and deletes arrive at once (${testEngine()})`, async () => {
    await clear(buy)
    await addAll(buy, Array.from({ length: 10 }, (_, i) => `https://n${i}.example.com`))
    await addAll(sell, ['https://s1.example.com', 'https://s2.example.com'])
    const sellBefore = await shown(sell)
    const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => idOf(buy, `https://n${i}.example.com`)))
    const calls = ids.flatMap((id, i) => [
      post(buy.calls.edit, { _id: id, [buy.field]: `https://m${i}.example.com`, preference: ((i * 3) % 10) + 1 }),
      post(buy.calls.edit, { _id: id, [buy.field]: `https://m${i}.example.com`, preference: 10 - i }),
    ])
    calls.push(post(buy.calls.add, { [buy.addField]: 'https://late.example.com', preference: 2 }), post(buy.calls.remove, { id: ids[4] }))
    const answers = await Promise.all(calls)
    // The deleted link's two edits may come before the delete (200) or after it (404); every other call succeeds.
    const doomedEdits = new Set([8, 9])
    expect(answers.filter((_, i) => !doomedEdits.has(i)).map((a) => a.statusCode)).toEqual(answers.slice(2).map(() => 200))
    for (const i of doomedEdits) expect([200, 404]).toContain(answers[i]?.statusCode)
    const places = listOf(await list(buy), 'result').map((r) => r['preference'])
    expect(places).toEqual(Array.from({ length: 10 }, (_, i) => i + 1))
    // Another kind's list was not renumbered.
    expect(await shown(sell)).toEqual(sellBefore)
  })
})
