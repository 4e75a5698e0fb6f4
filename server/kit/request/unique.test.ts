import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiFailure } from './answers.ts'
import { accessRequests, categories } from '../../db/schema.ts'
import { makeTestApp, type TestApp } from '../../testing/test-app.ts'
import { uniqueField } from './unique.ts'

let t: TestApp
const names = uniqueField({ column: categories.categoryName, id: categories.id, index: 'categories_name_key', field: 'categoryName', message: 'categoryName already exists' })
let arcadeId = ''

beforeAll(async () => {
  t = await makeTestApp()
  const [row] = await t.handle.db.insert(categories).values({ categoryName: 'Arcade', image: 'a.png' }).returning({ id: categories.id })
  arcadeId = row?.id ?? ''
})
afterAll(async () => {
  await t.close()
})

const answerOf = (f: unknown) => (f instanceof ApiFailure ? { code: f.statusCode, ...f.body() } : f)
const TAKEN = { code: 400, status: 'failed', message: 'categoryName already exists', errors: { categoryName: 'categoryName already exists' } }

describe('uniqueField', () => {
  it('finds a taken value whatever its case, with the message under the field', async () => {
    expect(answerOf(await names.check(t.handle.db, 'aRcAdE'))).toEqual(TAKEN)
    expect(await names.check(t.handle.db, 'Puzzle')).toBeNull()
  })

  it('leaves the record being edited out, so it may keep (or re-case) its own value', async () => {
    expect(await names.check(t.handle.db, 'ARCADE', arcadeId)).toBeNull()
    expect(await names.check(t.handle.db, 'arcade', 'another-id')).not.toBeNull()
  })

  it('does not treat LIKE wildcards as patterns', async () => {
    expect(await names.check(t.handle.db, 'Arcad_')).toBeNull()
    expect(await names.check(t.handle.db, '%')).toBeNull()
  })

  it('turns the race it cannot see (a unique violation on its index) into the same answer', async () => {
    // The check passed for both saves; the second insert hits the index.
    const error = await names.guard(() => t.handle.db.insert(categories).values({ categoryName: 'ARCADE', image: 'b.png' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiFailure)
    expect(answerOf(error)).toEqual(TAKEN)
  })

  it('passes the value through when the write succeeds', async () => {
    const rows = await names.guard(() => t.handle.db.insert(categories).values({ categoryName: 'Racing', image: 'r.png' }).returning({ name: categories.categoryName }))
    expect(rows).toEqual([{ name: 'Racing' }])
  })

  it('rethrows other errors untouched: a violation of another unique index, any other failure', async () => {
    await t.handle.db.insert(accessRequests).values({ name: 'A', email: 'a@example.com' })
    const other = await names.guard(() => t.handle.db.insert(accessRequests).values({ name: 'B', email: 'a@example.com' })).catch((e: unknown) => e)
    expect(other).not.toBeInstanceOf(ApiFailure)
    expect(other).toBeInstanceOf(Error)
    const boom = new Error('disk full')
    await expect(names.guard(() => Promise.reject(boom))).rejects.toBe(boom)
  })
})
