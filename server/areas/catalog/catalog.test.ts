import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { auditLog, categories } from '../../db/schema.ts'
import { gradientIcon } from '../../db/png.ts'
import { CATEGORY_EXISTS } from './routes.ts'
import { bodyOf, listOf, makeTestApp, multipart, type TestApp, type UploadFile } from '../../testing/test-app.ts'
import { purgeTrashNow } from '../../testing/purge.ts'

const KIND_MESSAGE = 'Please upload an image with .png, .jpeg,.jpg extension.'
let t: TestApp
let admin: { authorization: string }

const png = (name = 'icon.png'): UploadFile => ({ field: 'image', name, type: 'image/png', content: gradientIcon(16, [20, 80, 200], [120, 200, 255]) })
// A real 2x2 JPEG: the server checks the signature and decodes the image (for its thumbnail).
const JPEG_2X2 =
  '/9j/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCIARQv/9k='
const jpeg: UploadFile = { field: 'image', name: 'photo.jpg', type: 'image/jpeg', content: Buffer.from(JPEG_2X2, 'base64') }

async function post(path: string, fields: Record<string, string>, files: UploadFile[] = [], headers: Record<string, string> = admin) {
  const form = await multipart(fields, files)
  return t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: form.payload, headers: { ...headers, ...form.headers } })
}

const uploads = (): string[] => (existsSync(t.config.uploadsDir) ? readdirSync(t.config.uploadsDir) : [])
const temps = (): string[] => (existsSync(t.config.tmpDir) ? readdirSync(t.config.tmpDir) : [])
const rows = () => t.handle.db.select().from(categories)
/** Names and places in display order. */
const order = async (): Promise<string[]> => (await rows()).sort((a, b) => a.preference - b.preference).map((r) => `${r.categoryName}:${r.preference}`)

beforeAll(async () => {
  t = await makeTestApp()
  admin = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
})

describe('POST /addcategory', () => {
  it('adds a category with a real PNG, stored under a server-chosen name and served with nosniff', async () => {
    const res = await post('/addcategory', { categoryName: 'Arcade' }, [png('../../etc/passwd.png')])
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'Category added successfully' })
    const [row] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'Arcade'))
    expect(row?.image).toMatch(/^[0-9a-f-]{36}\.png$/)
    expect(existsSync(join(t.config.uploadsDir, row?.image ?? 'missing'))).toBe(true)
    const served = await t.app.inject({ method: 'GET', url: `/uploads/${row?.image}` })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/png')
    expect(served.headers['x-content-type-options']).toBe('nosniff')
    expect(served.rawPayload.equals(png().content)).toBe(true)
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, row?.id ?? ''))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, action: '/addcategory' })
    expect(temps()).toEqual([])
  })

  it('accepts a JPEG', async () => {
    expect(bodyOf(await post('/addcategory', { categoryName: 'Puzzle' }, [jpeg]))['status']).toBe('success')
    const [row] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'Puzzle'))
    expect(row?.image).toMatch(/\.jpg$/)
  })

  it('refuses a text file renamed .png with the required message, storing nothing', async () => {
    const before = uploads().length
    const fake: UploadFile = { field: 'image', name: 'notes.png', type: 'image/png', content: Buffer.from('just some text, not an image') }
    const res = await post('/addcategory', { categoryName: 'Fake' }, [fake])
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: KIND_MESSAGE, errors: { image: KIND_MESSAGE } })
    expect(uploads().length).toBe(before)
    expect(temps()).toEqual([])
    expect((await rows()).some((r) => r.categoryName === 'Fake')).toBe(false)
  })

  it('refuses more than one image', async () => {
    const res = await post('/addcategory', { categoryName: 'Twins' }, [png('a.png'), png('b.png')])
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)['errors']).toEqual({ image: KIND_MESSAGE })
    expect(temps()).toEqual([])
    expect((await rows()).some((r) => r.categoryName === 'Twins')).toBe(false)
  })

  it('refuses an image over 5 MB with 413', async () => {
    const big = png()
    const huge: UploadFile = { ...big, content: Buffer.concat([big.content, Buffer.alloc(5 * 1024 * 1024)]) }
    const before = uploads().length
    const res = await post('/addcategory', { categoryName: 'Huge' }, [huge])
    expect(res.statusCode).toBe(413)
    expect(bodyOf(res)).toMatchObject({ status: 'failed', errors: { image: expect.stringContaining('5 MB') } })
    expect(uploads().length).toBe(before)
    expect(temps()).toEqual([])
  })

  it('answers a body cut off in the middle of the image with 400 and leaves no temp file', async () => {
    const head = Buffer.from('--cut\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n')
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/addcategory',
      headers: { ...admin, 'content-type': 'multipart/form-data; boundary=cut' },
      payload: Buffer.concat([head, png().content]),
    })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)['status']).toBe('failed')
    // The cut-off upload's partial file is removed as its stream closes, which can be just after the answer.
    await vi.waitFor(() => expect(temps()).toEqual([]), { timeout: 5000 })
  })

  it('asks for the name and the image with the required messages', async () => {
    const res = await post('/addcategory', { categoryName: '  ' })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({
      status: 'failed',
      message: 'categoryName is required',
      errors: { categoryName: 'categoryName is required', image: 'image is required' },
    })
    // A JSON body without the file gets the same answer.
    const json = await t.app.inject({ method: 'POST', url: '/api/admin/addcategory', headers: admin, payload: { categoryName: 'No image' } })
    expect(bodyOf(json)['errors']).toEqual({ image: 'image is required' })
  })

  it('refuses a duplicate name, whatever its case, and keeps no file', async () => {
    const before = uploads().length
    const res = await post('/addcategory', { categoryName: 'ARCADE' }, [png()])
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: CATEGORY_EXISTS, errors: { categoryName: CATEGORY_EXISTS } })
    expect(uploads().length).toBe(before)
  })

  it('refuses a View Only admin (403) before storing the upload, and changes nothing', async () => {
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/category'] })
    const before = { uploads: uploads().length, rows: (await rows()).length }
    // Only what this request might leave counts: a leftover of an earlier test is that test's failure.
    const earlier = temps()
    const res = await post('/addcategory', { categoryName: 'Sneaky' }, [png()], await t.auth(viewer))
    expect(res.statusCode).toBe(403)
    expect(bodyOf(res)['status']).toBe('failed')
    expect({ uploads: uploads().length, rows: (await rows()).length }).toEqual(before)
    await vi.waitFor(() => expect(temps().filter((name) => !earlier.includes(name))).toEqual([]), { timeout: 5000 })
  })

  it('refuses a sub-admin without the /category route, and no token at all', async () => {
    const other = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/users'] })
    expect((await post('/addcategory', { categoryName: 'Other' }, [png()], await t.auth(other))).statusCode).toBe(403)
    expect((await post('/addcategory', { categoryName: 'Other' }, [png()], {})).statusCode).toBe(401)
    const allowed = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/category'] })
    expect((await post('/addcategory', { categoryName: 'Allowed' }, [png()], await t.auth(allowed))).statusCode).toBe(200)
  })
})

describe('category list, edit, delete and dropdown', () => {
  it('lists categories in preference order with served image paths and a count', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/listCategory?page=1&limit=2', headers: admin })
    const body = bodyOf(res)
    expect(body).toMatchObject({ status: 'success', count: 3 })
    const list = listOf(body, 'result')
    expect(list.map((c) => c['categoryName'])).toEqual(['Arcade', 'Puzzle'])
    expect(list[0]).toMatchObject({ preference: 1, image: expect.stringMatching(/^\/uploads\/[0-9a-f-]{36}\.png$/) })
    const found = bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listCategory?search=puz', headers: admin }))
    expect(listOf(found, 'result').map((c) => c['categoryName'])).toEqual(['Puzzle'])
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/category'] })
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/listCategory', headers: await t.auth(viewer) })).statusCode).toBe(200)
  })

  it('edits name and preference (the others move up to make room), keeps the image without a new one, and replaces (and deletes) it with one', async () => {
    const [arcade] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'Arcade'))
    const id = arcade?.id ?? ''
    const oldImage = arcade?.image ?? ''
    const keep = await post('/editCategoryData', { id, categoryName: 'Arcade Classics', preference: '3' })
    expect(bodyOf(keep)).toEqual({ status: 'success', message: 'Category updated successfully' })
    const [kept] = await t.handle.db.select().from(categories).where(eq(categories.id, id))
    expect(kept).toMatchObject({ categoryName: 'Arcade Classics', preference: 3, image: oldImage })
    expect(await order()).toEqual(['Puzzle:1', 'Allowed:2', 'Arcade Classics:3'])
    expect(bodyOf(await post('/editCategoryData', { id, categoryName: 'Arcade Classics', preference: '3' }, [png()]))['status']).toBe('success')
    const [replaced] = await t.handle.db.select().from(categories).where(eq(categories.id, id))
    expect(replaced?.image).not.toBe(oldImage)
    expect(existsSync(join(t.config.uploadsDir, oldImage))).toBe(false)
    expect(existsSync(join(t.config.uploadsDir, replaced?.image ?? 'missing'))).toBe(true)
  })

  it('ignores a preference past the count: the name is saved, the category keeps its place, and the answer says so', async () => {
    const [puzzle] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'Puzzle'))
    const res = await post('/editCategoryData', { id: puzzle?.id ?? '', categoryName: 'Puzzle', preference: '7' })
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'Category updated successfully; preference 7 is not a place in this list (1 to 3), so it keeps place 1' })
    expect(await order()).toEqual(['Puzzle:1', 'Allowed:2', 'Arcade Classics:3'])
  })

  it('reads one category by id for the edit screen; an unknown id is 404', async () => {
    const [puzzle] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'Puzzle'))
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/getCategory?id=${puzzle?.id}`, headers: admin })
    expect(bodyOf(res)).toEqual({
      status: 'success',
      message: 'Category fetched',
      data: { _id: puzzle?.id, categoryName: 'Puzzle', image: `/uploads/${puzzle?.image}`, thumbnail: `/uploads/${puzzle?.image.replace(/\.[a-z]+$/, '')}-thumb.webp`, preference: 1, version: expect.any(Number) },
    })
    const unknown = await t.app.inject({ method: 'GET', url: '/api/admin/getCategory?id=no-such-id', headers: admin })
    expect(unknown.statusCode).toBe(404)
    expect(bodyOf(unknown)).toEqual({ status: 'failed', message: 'Record not found', errors: { id: 'Record not found' } })
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/category'] })
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/getCategory?id=${puzzle?.id}`, headers: await t.auth(viewer) })).statusCode).toBe(200)
    const other = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/users'] })
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/getCategory?id=${puzzle?.id}`, headers: await t.auth(other) })).statusCode).toBe(403)
  })

  it('refuses an edit with missing fields, a taken name or an unknown id', async () => {
    const [puzzle] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'Puzzle'))
    const missing = await post('/editCategoryData', { id: puzzle?.id ?? '', categoryName: '' })
    expect(bodyOf(missing)['errors']).toEqual({ categoryName: 'categoryName is required', preference: 'preference is required' })
    const taken = await post('/editCategoryData', { id: puzzle?.id ?? '', categoryName: 'arcade classics', preference: '1' })
    expect(bodyOf(taken)['errors']).toEqual({ categoryName: CATEGORY_EXISTS })
    const before = uploads().length
    const unknown = await post('/editCategoryData', { id: 'no-such-id', categoryName: 'Ghost', preference: '1' }, [png()])
    expect(unknown.statusCode).toBe(404)
    expect(bodyOf(unknown)).toEqual({ status: 'failed', message: 'Record not found', errors: { id: 'Record not found' } })
    expect(uploads().length).toBe(before)
  })

  it('gives the dropdown as result.data with ids and names', async () => {
    const body = bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/categoryDropdown', headers: admin }))
    // strict(): the items carry exactly _id and categoryName.
    const result = z.object({ data: z.array(z.object({ _id: z.string(), categoryName: z.string() }).strict()) }).parse(body['result'])
    expect(result.data.map((c) => c.categoryName)).toContain('Puzzle')
  })

  it('keeps the row and its image when the delete fails in the database', async () => {
    const [allowed] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'Allowed'))
    const image = join(t.config.uploadsDir, allowed?.image ?? 'missing')
    expect(existsSync(image)).toBe(true)
    // A real failure after the row is gone, inside the delete's transaction.
    await t.handle.db.execute(sql`create function refuse_delete() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`)
    await t.handle.db.execute(sql`create trigger refuse_delete after delete on categories for each row execute function refuse_delete()`)
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/deleteCategory', headers: admin, payload: { id: allowed?.id } })
      expect(res.statusCode).toBe(500)
    } finally {
      await t.handle.db.execute(sql`drop trigger refuse_delete on categories`)
      await t.handle.db.execute(sql`drop function refuse_delete()`)
    }
    expect((await rows()).some((r) => r.id === allowed?.id)).toBe(true)
    expect(existsSync(image)).toBe(true)
  })

  it('deletes a category, closing the gap in the order, and its image file after the undo window; an unknown id is 404', async () => {
    const [puzzle] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, 'Puzzle'))
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/deleteCategory', headers: admin, payload: { id: puzzle?.id } })
    expect(bodyOf(res)).toMatchObject({ status: 'success', message: 'Category deleted successfully', undo: { seconds: 10 } })
    expect(await order()).toEqual(['Allowed:1', 'Arcade Classics:2'])
    expect((await rows()).some((r) => r.id === puzzle?.id)).toBe(false)
    expect(existsSync(join(t.config.uploadsDir, puzzle?.image ?? 'missing'))).toBe(true)
    await purgeTrashNow(t)
    expect(existsSync(join(t.config.uploadsDir, puzzle?.image ?? 'missing'))).toBe(false)
    const again = await t.app.inject({ method: 'POST', url: '/api/admin/deleteCategory', headers: admin, payload: { id: puzzle?.id } })
    expect(again.statusCode).toBe(404)
    const noId = await t.app.inject({ method: 'POST', url: '/api/admin/deleteCategory', headers: admin, payload: {} })
    expect(bodyOf(noId)).toMatchObject({ status: 'failed', errors: { id: expect.any(String) } })
  })

  it('refuses a View Only delete and leaves the row', async () => {
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/category'] })
    const [one] = await rows()
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/deleteCategory', headers: await t.auth(viewer), payload: { id: one?.id } })
    expect(res.statusCode).toBe(403)
    expect((await rows()).some((r) => r.id === one?.id)).toBe(true)
  })
})
