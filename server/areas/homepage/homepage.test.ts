import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMAGE_KIND_MESSAGE } from '#contract/multipart'
import { RECORD_NOT_FOUND } from '../../kit/request/answers.ts'
import { auditLog, homepageContent, siteSettings, type AdminRow } from '../../db/schema.ts'
import { gradientIcon } from '../../db/png.ts'
import { bodyOf, listOf, makeTestApp, multipart, type TestApp, type UploadFile } from '../../testing/test-app.ts'
import { purgeTrashNow } from '../../testing/purge.ts'
import { HIDDEN_MESSAGE, SHOWN_MESSAGE } from './routes.ts'

const EDIT_KIND_MESSAGE = 'Please upload an image with .png, .jpeg,.jpg extension.'
let t: TestApp

beforeAll(async () => {
  t = await makeTestApp()
})
afterAll(async () => {
  await t.close()
})

const png = (name = 'block.png'): UploadFile => ({ field: 'image', name, type: 'image/png', content: gradientIcon(16, [200, 40, 90], [250, 200, 80]) })
const textAsPng: UploadFile = { field: 'image', name: 'notes.png', type: 'image/png', content: Buffer.from('plain text dressed up as an image') }

async function send(path: string, fields: Record<string, string>, files: UploadFile[] = [], as: AdminRow = t.superadmin) {
  const form = await multipart(fields, files)
  return t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: form.payload, headers: { ...(await t.auth(as)), ...form.headers } })
}
const postJson = async (path: string, payload: unknown, as: AdminRow = t.superadmin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', ...(await t.auth(as)) } })
const get = async (path: string, as: AdminRow = t.superadmin) => t.app.inject({ method: 'GET', url: `/api/admin${path}`, headers: await t.auth(as) })

const uploads = (): string[] => (existsSync(t.config.uploadsDir) ? readdirSync(t.config.uploadsDir) : [])
const temps = (): string[] => (existsSync(t.config.tmpDir) ? readdirSync(t.config.tmpDir) : [])
const rowByTitle = async (title: string) => (await t.handle.db.select().from(homepageContent).where(eq(homepageContent.title, title)))[0]
const stored = (name: string | undefined): boolean => existsSync(join(t.config.uploadsDir, name ?? 'missing'))
const preference = async (as: AdminRow = t.superadmin): Promise<unknown> => bodyOf(await get('/getHomepageCmsPreference', as))['result']

describe('POST /addHomePageCms', () => {
  it('adds a block with a real PNG, stored under a server-chosen name, and audits it', async () => {
    const res = await send('/addHomePageCms', { title: 'Play and earn', link: 'https://wallet.example/play' }, [png('../../escape.png')])
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'Homepage content added successfully' })
    const row = await rowByTitle('Play and earn')
    expect(row).toMatchObject({ link: 'https://wallet.example/play', image: expect.stringMatching(/^[0-9a-f-]{36}\.png$/) })
    expect(stored(row?.image)).toBe(true)
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.recordId, row?.id ?? ''))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, action: '/addHomePageCms' })
    expect(temps()).toEqual([])
  })

  it('answers the add form’s required messages: Title, link and image required', async () => {
    const res = await send('/addHomePageCms', { title: ' ', link: '' })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({
      status: 'failed',
      message: 'Title is required',
      errors: { title: 'Title is required', link: 'link is required', image: 'image is required' },
    })
  })

  it('takes http(s) and www links only, and says Incorrect format otherwise', async () => {
    const bad = await send('/addHomePageCms', { title: 'Bad link', link: 'wallet.example' }, [png()])
    expect(bodyOf(bad)['errors']).toEqual({ link: 'Incorrect format' })
    expect(bodyOf(await send('/addHomePageCms', { title: 'Www link', link: 'www.wallet.example' }, [png()]))['status']).toBe('success')
  })

  it('checks the image by content: a text file named .png is refused with the add message and nothing is stored', async () => {
    const before = uploads().length
    const res = await send('/addHomePageCms', { title: 'Fake image', link: 'https://wallet.example' }, [textAsPng])
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: IMAGE_KIND_MESSAGE, errors: { image: IMAGE_KIND_MESSAGE } })
    expect(uploads().length).toBe(before)
    expect(temps()).toEqual([])
    expect(await rowByTitle('Fake image')).toBeUndefined()
  })

  it('refuses two images', async () => {
    const res = await send('/addHomePageCms', { title: 'Two', link: 'https://wallet.example' }, [png('a.png'), png('b.png')])
    expect(bodyOf(res)['errors']).toEqual({ image: IMAGE_KIND_MESSAGE })
    expect(temps()).toEqual([])
  })

  it('refuses View Only staff (403) and staff without the route, storing nothing', async () => {
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/homepage-content'] })
    const other = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/users'] })
    const before = uploads().length
    expect((await send('/addHomePageCms', { title: 'Sneaky', link: 'https://x.example' }, [png()], viewer)).statusCode).toBe(403)
    expect((await send('/addHomePageCms', { title: 'Sneaky', link: 'https://x.example' }, [png()], other)).statusCode).toBe(403)
    expect(uploads().length).toBe(before)
    expect(await rowByTitle('Sneaky')).toBeUndefined()
    const allowed = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/homepage-content', '/add-homepage-content', '/edit-homepage-content'] })
    expect((await send('/addHomePageCms', { title: 'Allowed', link: 'https://x.example' }, [png()], allowed)).statusCode).toBe(200)
  })
})

describe('list and get one', () => {
  it('lists newest first with served image paths, pages with an exact count and searches title and link', async () => {
    const body = bodyOf(await get('/listHomePageCms?page=1&limit=2'))
    expect(body).toMatchObject({ status: 'success', count: 3 })
    const page = listOf(body, 'result')
    expect(page.map((r) => r['title'])).toEqual(['Allowed', 'Www link'])
    expect(page[0]).toMatchObject({ _id: expect.any(String), link: 'https://x.example', image: expect.stringMatching(/^\/uploads\/[0-9a-f-]{36}\.png$/) })
    expect(listOf(bodyOf(await get('/listHomePageCms?page=2&limit=2')), 'result').map((r) => r['title'])).toEqual(['Play and earn'])
    expect(listOf(bodyOf(await get('/listHomePageCms?search=EARN')), 'result').map((r) => r['title'])).toEqual(['Play and earn'])
    expect(listOf(bodyOf(await get('/listHomePageCms?search=www.wallet')), 'result').map((r) => r['title'])).toEqual(['Www link'])
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/homepage-content'] })
    expect((await get('/listHomePageCms', viewer)).statusCode).toBe(200)
  })

  it('reads one block by _id for the edit screen; an unknown id is 404 under _id', async () => {
    const row = await rowByTitle('Play and earn')
    expect(bodyOf(await get(`/getHomePageCms?_id=${row?.id}`))).toEqual({
      status: 'success',
      message: 'Homepage content fetched',
      data: { _id: row?.id, title: 'Play and earn', link: 'https://wallet.example/play', image: `/uploads/${row?.image}`, thumbnail: `/uploads/${row?.image.replace(/\.[a-z]+$/, '')}-thumb.webp`, version: 1 },
    })
    const unknown = await get('/getHomePageCms?_id=no-such-block')
    expect(unknown.statusCode).toBe(404)
    expect(bodyOf(unknown)).toEqual({ status: 'failed', message: RECORD_NOT_FOUND, errors: { _id: RECORD_NOT_FOUND } })
  })
})

describe('POST /editHomePageCms', () => {
  it('saves title and link and keeps the image without a new one', async () => {
    const row = await rowByTitle('Play and earn')
    const res = await send('/editHomePageCms', { _id: row?.id ?? '', title: 'Play, earn, repeat', link: 'www.wallet.example/play' })
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'Homepage content updated successfully' })
    expect(await rowByTitle('Play, earn, repeat')).toMatchObject({ id: row?.id, link: 'www.wallet.example/play', image: row?.image })
    expect(stored(row?.image)).toBe(true)
  })

  it('replaces the image and removes the old file once saved', async () => {
    const row = await rowByTitle('Play, earn, repeat')
    const res = await send('/editHomePageCms', { _id: row?.id ?? '', title: 'Play, earn, repeat', link: 'https://wallet.example/play' }, [png('new.png')])
    expect(bodyOf(res)['status']).toBe('success')
    const after = await rowByTitle('Play, earn, repeat')
    expect(after?.image).not.toBe(row?.image)
    expect(stored(after?.image)).toBe(true)
    expect(stored(row?.image)).toBe(false)
  })

  it('answers the edit form’s own messages: lower-case title, link, and the edit image message', async () => {
    const row = await rowByTitle('Www link')
    const missing = await send('/editHomePageCms', { _id: row?.id ?? '', title: '', link: '' })
    expect(bodyOf(missing)).toEqual({ status: 'failed', message: 'title is required', errors: { title: 'title is required', link: 'link is required' } })
    const format = await send('/editHomePageCms', { _id: row?.id ?? '', title: 'Www link', link: 'ftp://wallet.example' })
    expect(bodyOf(format)['errors']).toEqual({ link: 'Incorrect format' })
    const before = uploads().length
    const fake = await send('/editHomePageCms', { _id: row?.id ?? '', title: 'Www link', link: 'www.wallet.example' }, [textAsPng])
    expect(bodyOf(fake)).toEqual({ status: 'failed', message: EDIT_KIND_MESSAGE, errors: { image: EDIT_KIND_MESSAGE } })
    expect(uploads().length).toBe(before)
    expect(await rowByTitle('Www link')).toMatchObject({ image: row?.image, link: 'www.wallet.example' })
  })

  it('answers 404 for an unknown _id and keeps no uploaded file', async () => {
    const before = uploads().length
    const res = await send('/editHomePageCms', { _id: 'no-such-block', title: 'Ghost', link: 'https://wallet.example' }, [png()])
    expect(res.statusCode).toBe(404)
    expect(bodyOf(res)).toEqual({ status: 'failed', message: RECORD_NOT_FOUND, errors: { _id: RECORD_NOT_FOUND } })
    expect(uploads().length).toBe(before)
    expect(temps()).toEqual([])
  })

  it('refuses View Only staff', async () => {
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/homepage-content'] })
    const row = await rowByTitle('Www link')
    expect((await send('/editHomePageCms', { _id: row?.id ?? '', title: 'Hijacked', link: 'https://x.example' }, [], viewer)).statusCode).toBe(403)
    expect(await rowByTitle('Www link')).toBeDefined()
  })
})

describe('POST /deleteHomePageCms', () => {
  it('takes {_id}, deletes the block, and its image file after the undo window; a second delete is 404', async () => {
    const row = await rowByTitle('Allowed')
    expect(stored(row?.image)).toBe(true)
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/homepage-content'] })
    expect((await postJson('/deleteHomePageCms', { _id: row?.id }, viewer)).statusCode).toBe(403)
    const res = await postJson('/deleteHomePageCms', { _id: row?.id })
    expect(bodyOf(res)).toMatchObject({ status: 'success', message: 'Homepage content deleted successfully', undo: { seconds: 10 } })
    expect(await rowByTitle('Allowed')).toBeUndefined()
    expect(stored(row?.image)).toBe(true)
    await purgeTrashNow(t)
    expect(stored(row?.image)).toBe(false)
    const again = await postJson('/deleteHomePageCms', { _id: row?.id })
    expect(again.statusCode).toBe(404)
    expect(bodyOf(again)['errors']).toEqual({ _id: RECORD_NOT_FOUND })
    expect(bodyOf(await postJson('/deleteHomePageCms', {}))).toMatchObject({ status: 'failed', errors: { _id: expect.any(String) } })
  })
})

describe('the landing-page switch', () => {
  it('reads false before anything is stored, without creating the settings record', async () => {
    expect(await preference()).toEqual({ status: false })
    expect(await t.handle.db.select().from(siteSettings)).toEqual([])
  })

  it('round-trips on and off, each change re-read, in the one site settings record', async () => {
    expect(bodyOf(await postJson('/updateHomepageCmsPreference', { status: true }))).toEqual({ status: 'success', message: SHOWN_MESSAGE })
    expect(await preference()).toEqual({ status: true })
    const records = await t.handle.db.select().from(siteSettings)
    expect(records.map((r) => r.homepageCmsVisible)).toEqual([true])
    const [audit] = await t.handle.db.select().from(auditLog).where(eq(auditLog.action, '/updateHomepageCmsPreference'))
    expect(audit).toMatchObject({ adminId: t.superadmin.id, recordId: records[0]?.id })
    expect(bodyOf(await postJson('/updateHomepageCmsPreference', { status: false }))).toEqual({ status: 'success', message: HIDDEN_MESSAGE })
    expect(await preference()).toEqual({ status: false })
    expect(await t.handle.db.select().from(siteSettings)).toHaveLength(1)
  })

  it('takes a real boolean only, and Admin access only; View Only reads it', async () => {
    const text = await postJson('/updateHomepageCmsPreference', { status: 'true' })
    expect(bodyOf(text)).toEqual({ status: 'failed', message: 'Incorrect format', errors: { status: 'Incorrect format' } })
    const viewer = await t.createAdmin({ accessLevel: 'View Only', restrictions: ['/homepage-content'] })
    expect((await postJson('/updateHomepageCmsPreference', { status: true }, viewer)).statusCode).toBe(403)
    expect(await preference(viewer)).toEqual({ status: false })
    const other = await t.createAdmin({ accessLevel: 'Admin', restrictions: ['/users'] })
    expect((await get('/getHomepageCmsPreference', other)).statusCode).toBe(403)
  })
})
