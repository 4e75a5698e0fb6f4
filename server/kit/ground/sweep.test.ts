import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { eq, is, sql } from 'drizzle-orm'
import { getTableConfig, PgArray, PgJsonb, PgTable, PgText, type PgColumn } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../app.ts'
import { ConfigError, loadConfig } from '../../config.ts'
import { seedDemo } from '../../demo.ts'
import { gradientIcon } from '../../db/png.ts'
import * as schema from '../../db/schema.ts'
import { categories, games, homepageContent, siteSettings, uploadColumns } from '../../db/schema.ts'
import { makeThumbnail, thumbOf } from './media.ts'
import { diskStorage } from './storage.ts'
import { scheduleSweeps, sweepFiles } from './sweep.ts'
import { promote } from './uploads.ts'
import { bodyOf, makeTestApp, multipart, type TestApp } from '../../testing/test-app.ts'

const MINUTE = 60_000
const GRACE = 10 * MINUTE
const OLD = 11 * MINUTE
const png = gradientIcon(16, [20, 80, 200], [120, 200, 255])

/** Writes a file whose modification time is `age` ms ago. */
async function put(dir: string, name: string, age: number, content: Buffer = png): Promise<string> {
  await mkdir(dir, { recursive: true })
  const path = join(dir, name)
  await writeFile(path, content)
  const at = new Date(Date.now() - age)
  await utimes(path, at, at)
  return path
}

/** A stored original and its thumbnail, both `age` ms old; returns the original's name. */
async function putUpload(dir: string, extension: string, age: number): Promise<string> {
  const name = `${randomUUID()}.${extension}`
  await put(dir, name, age)
  if (extension === 'png' || extension === 'jpg') await put(dir, thumbOf(name), age)
  return name
}

const listing = async (dir: string): Promise<string[]> => (existsSync(dir) ? (await readdir(dir)).sort() : [])
const sorted = (names: readonly string[]): string[] => [...names].sort()
/** `table.column` by SQL names. */
const nameOf = (column: PgColumn): string => `${getTableConfig(column.table).name}.${column.name}`
const isTextLike = (column: PgColumn): boolean => is(column, PgText) || (is(column, PgArray) && is(column.baseColumn, PgText))
/** A list of stored files, each with its name (a held link change's). */
const isFileList = (column: PgColumn): boolean => is(column, PgJsonb)

const tables = Object.values(schema).flatMap((value) => (is(value, PgTable) ? [value] : []))
const listed = new Set<PgColumn>(uploadColumns)

let t: TestApp
let dirs: { tmpDir: string; uploadsDir: string }
const sweep = (now?: number) => sweepFiles(t.handle.db, { tmpDir: dirs.tmpDir, storage: diskStorage(dirs.uploadsDir), graceMs: GRACE, ...(now === undefined ? {} : { now }) })

beforeAll(async () => {
  t = await makeTestApp()
  dirs = { tmpDir: t.config.tmpDir, uploadsDir: t.config.uploadsDir }
})
afterAll(async () => {
  await t.close()
})
// Each test starts from empty folders and no rows naming uploads, so one failure stays one.
beforeEach(async () => {
  await Promise.all([dirs.tmpDir, dirs.uploadsDir].map((dir) => rm(dir, { recursive: true, force: true })))
  await t.handle.db.delete(games)
  await t.handle.db.delete(categories)
  await t.handle.db.delete(homepageContent)
  await t.handle.db.delete(siteSettings)
  await t.handle.db.delete(schema.promotions)
})

describe('sweepFiles: DATA_DIR/tmp', () => {
  it('removes staging leftovers older than the grace period and keeps younger ones', async () => {
    await put(dirs.tmpDir, `${randomUUID()}.part`, OLD)
    await put(dirs.tmpDir, `${randomUUID()}-thumb.webp`, OLD)
    const young = `${randomUUID()}.part`
    await put(dirs.tmpDir, young, MINUTE)
    expect(await sweep()).toEqual({ tmp: 2, uploads: 0, thumbnails: 0 })
    expect(await listing(dirs.tmpDir)).toEqual([young])
    // Once past the grace period, a later sweep takes it too.
    expect((await sweep(Date.now() + GRACE)).tmp).toBe(1)
    expect(await listing(dirs.tmpDir)).toEqual([])
  })
})

describe('sweepFiles: DATA_DIR/uploads', () => {
  it('removes an old file no row names, with its thumbnail, and old thumbnails left without an original', async () => {
    const orphan = await putUpload(dirs.uploadsDir, 'png', OLD)
    const video = await putUpload(dirs.uploadsDir, 'webm', OLD)
    const strayThumb = `${randomUUID()}-thumb.webp`
    await put(dirs.uploadsDir, strayThumb, OLD)
    // The thumbnail of an orphan goes with it even when its own time is recent.
    const oldOriginal = `${randomUUID()}.jpg`
    await put(dirs.uploadsDir, oldOriginal, OLD)
    await put(dirs.uploadsDir, thumbOf(oldOriginal), MINUTE)
    const before = await listing(dirs.uploadsDir)
    expect(before).toEqual(sorted([orphan, thumbOf(orphan), video, strayThumb, oldOriginal, thumbOf(oldOriginal)]))
    expect(await sweep()).toEqual({ tmp: 0, uploads: 3, thumbnails: 3 })
    expect(await listing(dirs.uploadsDir)).toEqual([])
  })

  it('keeps files every upload column names, however old, and removes only the unnamed one', async () => {
    const [categoryImage, first, second, video, blockImage, logo, unnamed, promotionImage, trashed, held] = await Promise.all(
      ['png', 'jpg', 'png', 'mp4', 'jpg', 'png', 'm4a', 'png', 'jpg', 'png'].map((extension) => putUpload(dirs.uploadsDir, extension, 60 * MINUTE)),
    )
    if (categoryImage === undefined || first === undefined || second === undefined || video === undefined || blockImage === undefined || logo === undefined || unnamed === undefined || promotionImage === undefined || trashed === undefined || held === undefined) {
      throw new Error('ten uploads were written')
    }
    const [category] = await t.handle.db.insert(categories).values({ categoryName: `Kept ${randomUUID()}`, image: categoryImage }).returning()
    if (category === undefined) throw new Error('insert returned no row')
    await t.handle.db.insert(games).values({ title: 'Kept', description: 'd', categoryId: category.id, operatingsystem: 'both', liveLink: 'https://example.com', images: [first, second], video, preference: 1 })
    await t.handle.db.insert(homepageContent).values({ title: 'Kept', link: 'https://example.com', image: blockImage })
    await t.handle.db.insert(siteSettings).values({ sitelogo: logo })
    // A promotion's image, and the notification delivered with it (it names the same file).
    const [lead] = await t.handle.db.insert(schema.leads).values({ email: 'kept@example.com' }).returning()
    const [promotion] = await t.handle.db.insert(schema.promotions).values({ title: 'Kept', content: 'c', image: promotionImage, recipientCount: 1, total: 1 }).returning()
    if (lead === undefined || promotion === undefined) throw new Error('insert returned no row')
    await t.handle.db.insert(schema.leadNotifications).values({ leadId: lead.id, promotionId: promotion.id, round: 1, title: 'Kept', content: 'c', image: promotionImage })
    // A deleted record's file, kept for its undo window (server/kit/request/undo.ts).
    await t.handle.db.insert(schema.trash).values({ action: 'delete', kind: 'games', recordId: 'gone', endpoint: 'DeleteCms', rows: {}, files: [trashed], message: 'm', deletedBy: 'x', expiresAt: new Date(Date.now() + MINUTE) })
    // A link change waiting for a second admin keeps the files sent with it until it is decided.
    await t.handle.db.insert(schema.linkChanges).values({
      requestedBy: t.superadmin.id,
      endpoint: 'addHomepageCms',
      input: {},
      files: [{ field: 'image', name: held, url: `/uploads/${held}`, kind: 'image', bytes: 1, thumb: thumbOf(held) }],
      changes: [],
      fields: ['link'],
    })
    // The rows above cover every listed column: a newly listed one needs a row here too.
    expect(uploadColumns.map(nameOf)).toEqual(['categories.image', 'games.images', 'games.video', 'homepage_content.image', 'site_settings.sitelogo', 'promotions.image', 'lead_notifications.image', 'trash.files', 'link_changes.files'])
    const kept = [categoryImage, first, second, video, blockImage, logo, promotionImage, trashed, held]
    const keptFiles = [...kept, ...kept.filter((n) => !n.endsWith('.mp4')).map(thumbOf)]

    expect(await sweep()).toEqual({ tmp: 0, uploads: 1, thumbnails: 0 })
    expect(await listing(dirs.uploadsDir)).toEqual(sorted(keptFiles))
    expect(existsSync(join(dirs.uploadsDir, unnamed))).toBe(false)

    await t.handle.db.delete(games)
    await t.handle.db.delete(categories)
    await t.handle.db.delete(homepageContent)
    await t.handle.db.delete(siteSettings)
    expect(await sweep()).toEqual({ tmp: 0, uploads: 6, thumbnails: 5 })
  })

  it('keeps young files no row names yet: an upload on its way to its row', async () => {
    const young = await putUpload(dirs.uploadsDir, 'png', GRACE - MINUTE)
    // A thumbnail moved before its original (promote's order) is kept while young as well.
    const movingThumb = `${randomUUID()}-thumb.webp`
    await put(dirs.uploadsDir, movingThumb, 0)
    expect(await sweep()).toEqual({ tmp: 0, uploads: 0, thumbnails: 0 })
    expect(await listing(dirs.uploadsDir)).toEqual(sorted([young, thumbOf(young), movingThumb]))
    expect(await sweep(Date.now() + GRACE)).toEqual({ tmp: 0, uploads: 1, thumbnails: 2 })
  })

  it('never touches names the server does not make, nor folders', async () => {
    await put(dirs.uploadsDir, 'README.txt', OLD, Buffer.from('kept by hand'))
    await put(dirs.uploadsDir, 'logo.png', OLD)
    await mkdir(join(dirs.uploadsDir, 'by-hand'), { recursive: true })
    expect(await sweep(Date.now() + 24 * 60 * MINUTE)).toEqual({ tmp: 0, uploads: 0, thumbnails: 0 })
    expect(await listing(dirs.uploadsDir)).toEqual(['README.txt', 'by-hand', 'logo.png'])
  })

  it('keeps the files of a record restored by an Undo while the sweep reads the upload columns', async () => {
    const root = await t.auth(t.superadmin)
    const post = (path: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...root, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
    const categoryName = `Undone ${randomUUID()}`
    const form = await multipart({ categoryName }, [{ field: 'image', name: 'icon.png', type: 'image/png', content: png }])
    expect(bodyOf(await t.app.inject({ method: 'POST', url: '/api/admin/addcategory', payload: form.payload, headers: { ...root, ...form.headers } }))['status']).toBe('success')
    const [row] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, categoryName))
    if (row === undefined) throw new Error('the category was not stored')
    const files = [row.image, thumbOf(row.image)]
    // Deleted: its image now named by trash.files, the last upload column the sweep reads.
    const deleted = bodyOf(await post('/deleteCategory', { id: row.id }))
    const undo = deleted['undo']
    if (typeof undo !== 'object' || undo === null || !('token' in undo) || typeof undo.token !== 'string') throw new Error('no undo ticket')
    const token = undo.token

    // The Undo is sent right after the sweep read categories.image (without the image, it was in
    // the trash) and before it reads trash.files (where the Undo just took it from). Where the
    // reads hold the only connection (PGlite), the Undo waits for them: give it a moment, not more.
    let undone: Promise<unknown> | null = null
    const betweenReads = async (): Promise<void> => {
      if (undone !== null) return
      undone = post('/undo', { token }).then((res) => bodyOf(res))
      await Promise.race([undone, new Promise((resolve) => setTimeout(resolve, 500))])
    }
    const removed = await sweepFiles(t.handle.db, { tmpDir: dirs.tmpDir, storage: diskStorage(dirs.uploadsDir), graceMs: GRACE, now: Date.now() + GRACE, betweenReads })
    expect(await undone).toEqual({ status: 'success', message: 'Category restored successfully' })
    const [restored] = await t.handle.db.select().from(categories).where(eq(categories.id, row.id))
    expect(restored?.image).toBe(row.image)
    expect(removed).toEqual({ tmp: 0, uploads: 0, thumbnails: 0 })
    expect(files.filter((f) => existsSync(join(dirs.uploadsDir, f)))).toEqual(files)
  })

  it('takes the files of a row whose delete committed when the file step never ran (a crash between the two)', async () => {
    const categoryName = `Crash ${randomUUID()}`
    const form = await multipart({ categoryName }, [{ field: 'image', name: 'icon.png', type: 'image/png', content: png }])
    const added = await t.app.inject({ method: 'POST', url: '/api/admin/addcategory', payload: form.payload, headers: { ...(await t.auth(t.superadmin)), ...form.headers } })
    expect(bodyOf(added)['status']).toBe('success')
    const [row] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, categoryName))
    if (row === undefined) throw new Error('the category was not stored')
    const files = [row.image, thumbOf(row.image)]
    expect(files.every((f) => existsSync(join(dirs.uploadsDir, f)))).toBe(true)
    // Stored by the real upload path and named by its row: kept however late the sweep runs.
    expect(await sweep(Date.now() + 24 * 60 * MINUTE)).toEqual({ tmp: 0, uploads: 0, thumbnails: 0 })
    await t.handle.db.delete(categories).where(eq(categories.id, row.id))
    expect(await sweep(Date.now() + GRACE)).toEqual({ tmp: 0, uploads: 1, thumbnails: 1 })
    expect(files.some((f) => existsSync(join(dirs.uploadsDir, f)))).toBe(false)
  })
})

describe('the sweep at start', () => {
  it('removes what a crash between storing an upload and its insert left, when the server starts again', async () => {
    // The crashed request: one file fully staged and moved to uploads (with its thumbnail), one
    // cut off while streaming, and then no insert and no clean-up ever ran.
    const staged = await put(dirs.tmpDir, `${randomUUID()}.part`, 0)
    await makeThumbnail(staged, thumbOf(staged), 1_000_000)
    const [stored] = await promote([{ field: 'image', path: staged, kind: 'png', bytes: png.length, thumb: thumbOf(staged) }], diskStorage(dirs.uploadsDir))
    if (stored === undefined) throw new Error('nothing was stored')
    const cutOff = await put(dirs.tmpDir, `${randomUUID()}.part`, 0, randomBytes(4096))
    const leftovers = [join(dirs.uploadsDir, stored.name), join(dirs.uploadsDir, thumbOf(stored.name)), cutOff]
    expect(leftovers.every((p) => existsSync(p))).toBe(true)
    const crashedAt = new Date(Date.now() - OLD)
    for (const path of leftovers) await utimes(path, crashedAt, crashedAt)

    const restarted = await buildApp(t.config, { handle: t.handle })
    try {
      await restarted.ready()
      expect(leftovers.filter((p) => existsSync(p))).toEqual([])
      expect(await listing(dirs.tmpDir)).toEqual([])
    } finally {
      await restarted.close()
    }
  })

  it('runs again on its interval, so leftovers still young at start are taken later', async () => {
    const leftover = await put(dirs.tmpDir, `${randomUUID()}.part`, 0)
    const stop = await scheduleSweeps(t.handle.db, { tmpDir: dirs.tmpDir, storage: diskStorage(dirs.uploadsDir), sweep: { graceMs: 150, intervalMs: 50 } }, t.app.log)
    try {
      expect(existsSync(leftover)).toBe(true)
      const deadline = Date.now() + 5000
      while (existsSync(leftover) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25))
      expect(existsSync(leftover)).toBe(false)
    } finally {
      stop()
    }
  })

  it('reads its grace period and interval from the environment, and refuses a grace period of zero', () => {
    const env = { DATA_DIR: t.config.dataDir, JWT_SECRET: 'x'.repeat(32) }
    expect(loadConfig(env).sweep).toEqual({ graceMs: 10 * MINUTE, intervalMs: 60 * MINUTE })
    expect(loadConfig({ ...env, UPLOAD_SWEEP_GRACE_MINUTES: '30', UPLOAD_SWEEP_INTERVAL_MINUTES: '0' }).sweep).toEqual({ graceMs: 30 * MINUTE, intervalMs: 0 })
    expect(() => loadConfig({ ...env, UPLOAD_SWEEP_GRACE_MINUTES: '0' })).toThrow(ConfigError)
  })
})

describe('uploadColumns: the one list of columns holding stored upload names', () => {
  const UPLOAD_HINT = /image|img|video|logo|icon|photo|picture|avatar|banner|thumb|media|attachment|upload|audio|poster|(^|_)(files?|documents?|cover)(_|$)/i

  it('lists every column whose name says it holds a file, and only text, text-array or file-list columns', () => {
    const looking = tables.flatMap((table) => getTableConfig(table).columns.filter((c) => UPLOAD_HINT.test(c.name)))
    expect(looking.length).toBeGreaterThanOrEqual(uploadColumns.length)
    expect(looking.filter((c) => !listed.has(c)).map(nameOf)).toEqual([])
    expect(uploadColumns.filter((c) => !isTextLike(c) && !isFileList(c)).map(nameOf)).toEqual([])
  })

  it('lists every column the demo data stores upload names in, and the sweep keeps every demo file', async () => {
    const demo = await makeTestApp()
    try {
      await seedDemo(demo.handle.db, demo.config.uploadsDir, Date.now())
      const pattern = '^[0-9a-f-]{36}\\.(png|jpg|mp4|m4a|webm)$'
      const holding: string[] = []
      for (const table of tables) {
        for (const column of getTableConfig(table).columns.filter(isTextLike)) {
          const test = is(column, PgArray) ? sql`exists (select 1 from unnest(${column}) as v where v ~ ${pattern})` : sql`${column} ~ ${pattern}`
          const [found] = await demo.handle.db.select({ n: sql`count(*)`.mapWith(Number) }).from(table).where(test)
          if ((found?.n ?? 0) > 0) holding.push(nameOf(column))
        }
      }
      expect(holding.length).toBeGreaterThanOrEqual(4)
      expect(holding.filter((name) => !uploadColumns.map(nameOf).includes(name))).toEqual([])
      const files = await listing(demo.config.uploadsDir)
      expect(files.length).toBeGreaterThan(0)
      expect(await sweepFiles(demo.handle.db, { tmpDir: demo.config.tmpDir, storage: diskStorage(demo.config.uploadsDir), graceMs: 0 })).toEqual({ tmp: 0, uploads: 0, thumbnails: 0 })
      expect(await listing(demo.config.uploadsDir)).toEqual(files)
    } finally {
      await demo.close()
    }
  })
})
