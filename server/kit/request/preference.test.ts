import { and, asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { links } from '../../db/schema.ts'
import { makeTestApp, testEngine, type TestApp } from '../../testing/test-app.ts'
import { preferenceOrder } from './preference.ts'

type Kind = 'buy' | 'sell' | 'bridge'
let t: TestApp

const orderOf = (kind: Kind) =>
  preferenceOrder({ lock: `links:${kind}`, id: links.id, preference: links.preference, createdAt: links.createdAt, scope: eq(links.kind, kind) })
const buy = orderOf('buy')
const sell = orderOf('sell')

/** The urls of a kind in stored preference order, as `url:preference`. */
async function listed(kind: Kind = 'buy'): Promise<string[]> {
  const rows = await t.handle.db.select().from(links).where(eq(links.kind, kind)).orderBy(asc(links.preference), asc(links.createdAt))
  return rows.map((r) => `${r.url}:${r.preference}`)
}

async function add(url: string, wanted?: number, kind: Kind = 'buy') {
  return orderOf(kind).add(t.handle.db, (tx, last) => tx.insert(links).values({ kind, url, preference: last }).returning({ id: links.id }), wanted)
}

async function idOf(url: string): Promise<string> {
  const [row] = await t.handle.db.select({ id: links.id }).from(links).where(eq(links.url, url))
  if (row === undefined) throw new Error(`no link ${url}`)
  return row.id
}

const move = async (url: string, wanted: number) => {
  const id = await idOf(url)
  return buy.edit(t.handle.db, id, wanted, (tx) => tx.update(links).set({ url }).where(eq(links.id, id)).returning({ id: links.id }))
}

beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})
beforeEach(async () => {
  await t.handle.db.delete(links)
  for (const url of ['a', 'b', 'c', 'd']) await add(url)
})

describe('preferenceOrder', () => {
  it('puts a new record last, or at the place asked for; a place past the end is ignored and it goes last', async () => {
    expect(await listed()).toEqual(['a:1', 'b:2', 'c:3', 'd:4'])
    expect(await add('e', 2)).toMatchObject({ place: 2, count: 5, ignored: false })
    expect(await add('f', 9)).toMatchObject({ place: 6, count: 6, ignored: true })
    expect(await listed()).toEqual(['a:1', 'e:2', 'b:3', 'c:4', 'd:5', 'f:6'])
  })

  it('moves a record up, shifting the ones between down by one', async () => {
    expect(await move('d', 2)).toEqual({ place: 2, count: 4, ignored: false })
    expect(await listed()).toEqual(['a:1', 'd:2', 'b:3', 'c:4'])
  })

  it('moves a record down, shifting the ones between up by one', async () => {
    expect(await move('a', 3)).toEqual({ place: 3, count: 4, ignored: false })
    expect(await listed()).toEqual(['b:1', 'c:2', 'a:3', 'd:4'])
  })

  it('ignores a place past the count or below 1: the record keeps its place, its other changes are saved', async () => {
    const id = await idOf('b')
    const placed = await buy.edit(t.handle.db, id, 5, (tx) => tx.update(links).set({ url: 'b2' }).where(eq(links.id, id)).returning({ id: links.id }))
    expect(placed).toEqual({ place: 2, count: 4, ignored: true })
    expect(await move('c', 0)).toEqual({ place: 3, count: 4, ignored: true })
    expect(await listed()).toEqual(['a:1', 'b2:2', 'c:3', 'd:4'])
  })

  it('answers undefined and changes nothing when the record to edit does not exist', async () => {
    const placed = await buy.edit(t.handle.db, 'no-such-id', 1, (tx) => tx.update(links).set({ url: 'x' }).where(eq(links.id, 'no-such-id')).returning({ id: links.id }))
    expect(placed).toBeUndefined()
    expect(await listed()).toEqual(['a:1', 'b:2', 'c:3', 'd:4'])
  })

  it('closes the gap on delete and answers the deleted rows', async () => {
    const id = await idOf('b')
    const removed = await buy.remove(t.handle.db, (tx) => tx.delete(links).where(eq(links.id, id)).returning({ url: links.url }))
    expect(removed).toEqual([{ url: 'b' }])
    expect(await listed()).toEqual(['a:1', 'c:2', 'd:3'])
    expect(await buy.remove(t.handle.db, (tx) => tx.delete(links).where(eq(links.id, id)).returning({ url: links.url }))).toEqual([])
  })

  it('keeps each scope its own order: a move in one kind never renumbers another', async () => {
    await add('s1', undefined, 'sell')
    await add('s2', undefined, 'sell')
    await move('d', 1)
    const s2 = await idOf('s2')
    await sell.edit(t.handle.db, s2, 1, (tx) => tx.update(links).set({ url: 's2' }).where(eq(links.id, s2)).returning({ id: links.id }))
    expect(await listed()).toEqual(['d:1', 'a:2', 'b:3', 'c:4'])
    expect(await listed('sell')).toEqual(['s2:1', 's1:2'])
  })

  it('brings rows stored with gaps, duplicates and zeros back to 1..count on the next write', async () => {
    await t.handle.db.delete(links)
    const base = Date.UTC(2024, 0, 1)
    await t.handle.db.insert(links).values([
      { kind: 'buy', url: 'x', preference: 0, createdAt: new Date(base) },
      { kind: 'buy', url: 'y', preference: 7, createdAt: new Date(base + 1000) },
      { kind: 'buy', url: 'z', preference: 7, createdAt: new Date(base + 2000) },
    ])
    expect(await add('w')).toMatchObject({ place: 4, count: 4 })
    expect(await listed()).toEqual(['x:1', 'y:2', 'z:3', 'w:4'])
  })

  it('rolls the whole write back when a step fails: no half-renumbered list', async () => {
    const id = await idOf('d')
    await expect(
      buy.edit(t.handle.db, id, 1, async (tx) => {
        await tx.update(links).set({ preference: 99 }).where(and(eq(links.kind, 'buy'), eq(links.url, 'a')))
        throw new Error('the save failed')
      }),
    ).rejects.toThrow('the save failed')
    expect(await listed()).toEqual(['a:1', 'b:2', 'c:3', 'd:4'])
  })

  it(`keeps 1..count without gaps or duplicates under concurrent adds, moves and deletes (${testEngine()})`, async () => {
    for (let i = 0; i < 8; i++) await add(`n${i}`)
    const ids = await Promise.all(['a', 'b', 'c', 'd', 'n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7'].map(idOf))
    const ops: Promise<unknown>[] = []
    for (let round = 0; round < 3; round++) {
      ids.forEach((id, i) => {
        const wanted = ((i * 7 + round * 5) % 12) + 1
        ops.push(buy.edit(t.handle.db, id, wanted, (tx) => tx.update(links).set({ url: `m${i}` }).where(eq(links.id, id)).returning({ id: links.id })))
      })
      ops.push(add(`late${round}`, round + 1))
    }
    const doomed = ids[11] ?? ''
    ops.push(buy.remove(t.handle.db, (tx) => tx.delete(links).where(eq(links.id, doomed)).returning({ id: links.id })))
    await Promise.all(ops)
    const places = (await t.handle.db.select({ p: links.preference }).from(links).where(eq(links.kind, 'buy'))).map((r) => r.p).sort((x, y) => x - y)
    expect(places).toEqual(Array.from({ length: 14 }, (_, i) => i + 1))
  })
})
