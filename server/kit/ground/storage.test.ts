/**
 * Uploads through the storage interface (server/kit/ground/storage.ts), once on the local disk and once
 * on an S3-compatible server (s3rver, started here on a free port): the content check, the stored
 * original and thumbnail, /uploads/ with ranges, replacement and the sweep behave alike on both.
 */
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../config.ts'
import { categories } from '../../db/schema.ts'
import { encodePng } from '../../db/png.ts'
import { bodyOf, makeTestApp, multipart, type TestApp, type UploadFile } from '../../testing/test-app.ts'
import { startS3, type TestS3 } from '../../testing/s3-server.ts'
import { THUMB_SIZE, thumbOf } from './media.ts'
import { parseRange } from '../request/serve-uploads.ts'
import { openStorage, type ObjectStorage } from './storage.ts'
import { sweepFiles } from './sweep.ts'

const KIND = 'Please upload an image with .png, .jpeg,.jpg extension.'
const MINUTE = 60_000

const image = (width = 640, height = 400): UploadFile => ({
  field: 'image',
  name: 'photo.png',
  type: 'image/png',
  content: encodePng(width, height, (x, y) => [x % 256, y % 256, 90]),
})

interface Backend {
  name: string
  start(): Promise<TestS3 | null>
}
const backends: Backend[] = [
  { name: 'the local disk', start: async () => null },
  { name: 'S3-compatible storage (s3rver)', start: () => startS3() },
]

describe.each(backends)('uploads on $name', ({ start }) => {
  let s3: TestS3 | null
  let t: TestApp
  let storage: ObjectStorage
  let admin: { authorization: string }

  beforeAll(async () => {
    s3 = await start()
    t = await makeTestApp({ env: s3?.env ?? {} })
    storage = t.app.services.storage
    admin = await t.auth(t.superadmin)
  })
  afterAll(async () => {
    await t.close()
    await s3?.close()
  })

  const names = async (): Promise<string[]> => {
    const found: string[] = []
    for await (const o of storage.list()) found.push(o.name)
    return found.sort()
  }
  const localUploads = (): string[] => (existsSync(t.config.uploadsDir) ? readdirSync(t.config.uploadsDir) : [])
  const post = async (path: string, fields: Record<string, string>, files: UploadFile[]) => {
    const form = await multipart(fields, files)
    return t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: form.payload, headers: { ...admin, ...form.headers } })
  }
  async function addCategory(files: UploadFile[] = [image()]): Promise<{ id: string; image: string }> {
    const categoryName = `Category ${randomUUID().slice(0, 8)}`
    expect(bodyOf(await post('/addcategory', { categoryName }, files))['status']).toBe('success')
    const [row] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, categoryName))
    if (row === undefined) throw new Error('not stored')
    return { id: row.id, image: row.image }
  }
  const get = (name: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url: `/uploads/${name}`, headers })

  it('stores a checked image and its thumbnail there, and serves both with their types and headers', async () => {
    const upload = image()
    const { image: name } = await addCategory([upload])
    expect(name).toMatch(/^[0-9a-f-]{36}\.png$/)
    expect(await names()).toEqual(expect.arrayContaining([name, thumbOf(name)]))
    // On S3 nothing is kept on this instance's disk: another instance serves the same file.
    if (s3 !== null) expect(localUploads()).toEqual([])
    else expect(localUploads()).toEqual(expect.arrayContaining([name, thumbOf(name)]))

    const original = await get(name)
    expect(original.statusCode).toBe(200)
    expect(original.headers['content-type']).toBe('image/png')
    expect(original.headers['content-length']).toBe(String(upload.content.length))
    expect(original.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(original.headers['accept-ranges']).toBe('bytes')
    expect(original.headers['x-content-type-options']).toBe('nosniff')
    expect(original.headers['content-security-policy']).toContain('sandbox')
    expect(original.rawPayload.equals(upload.content)).toBe(true)

    const thumb = await get(thumbOf(name))
    expect(thumb.statusCode).toBe(200)
    expect(thumb.headers['content-type']).toBe('image/webp')
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: THUMB_SIZE, height: 200 })
  })

  it('answers byte ranges with 206, a range past the end with 416, HEAD without a body, and a known ETag with 304', async () => {
    const upload = image(300, 200)
    const { image: name } = await addCategory([upload])
    const size = upload.content.length
    const first = await get(name, { range: 'bytes=0-0' })
    expect(first.statusCode).toBe(206)
    expect(first.headers['content-range']).toBe(`bytes 0-0/${size}`)
    expect(first.rawPayload).toEqual(upload.content.subarray(0, 1))
    const middle = await get(name, { range: 'bytes=100-199' })
    expect(middle.statusCode).toBe(206)
    expect(middle.headers['content-range']).toBe(`bytes 100-199/${size}`)
    expect(middle.rawPayload).toEqual(upload.content.subarray(100, 200))
    const tail = await get(name, { range: 'bytes=-10' })
    expect(tail.headers['content-range']).toBe(`bytes ${size - 10}-${size - 1}/${size}`)
    expect(tail.rawPayload).toEqual(upload.content.subarray(size - 10))
    const open = await get(name, { range: `bytes=${size - 5}-` })
    expect(open.rawPayload).toEqual(upload.content.subarray(size - 5))

    const past = await get(name, { range: `bytes=${size + 10}-` })
    expect(past.statusCode).toBe(416)
    expect(past.headers['content-range']).toBe(`bytes */${size}`)

    const head = await get(name, {}, 'HEAD')
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-length']).toBe(String(size))
    expect(head.rawPayload.length).toBe(0)

    const etag = String((await get(name)).headers['etag'])
    expect((await get(name, { 'if-none-match': etag })).statusCode).toBe(304)
  })

  it('serves nothing it did not store: unknown names, other names and paths outside are 404', async () => {
    const missing = await get(`${randomUUID()}.png`)
    expect(missing.statusCode).toBe(404)
    expect(bodyOf(missing)).toEqual({ status: 'failed', message: 'Not found' })
    await writeFile(join(t.config.dataDir, 'notes.txt'), 'private')
    for (const path of ['..%2fnotes.txt', '..%2f..%2fjwt-secret', 'notes.txt', '.hidden']) {
      expect((await t.app.inject({ method: 'GET', url: `/uploads/${path}` })).statusCode).toBe(404)
    }
  })

  it('refuses a text file named .png and stores nothing, neither there nor in the staging folder', async () => {
    const before = await names()
    const res = await post('/addcategory', { categoryName: 'Not an image' }, [{ field: 'image', name: 'fake.png', type: 'image/png', content: Buffer.from('just text') }])
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)['message']).toBe(KIND)
    expect(await names()).toEqual(before)
    expect(readdirSync(t.config.tmpDir)).toEqual([])
  })

  it('removes the replaced image and its thumbnail when an edit stores a new one', async () => {
    const { id, image: old } = await addCategory()
    const res = await post('/editCategoryData', { id, categoryName: `Edited ${randomUUID().slice(0, 8)}`, preference: '1' }, [image(200, 200)])
    expect(bodyOf(res)['status']).toBe('success')
    const [row] = await t.handle.db.select().from(categories).where(eq(categories.id, id))
    const now = await names()
    expect(now).toEqual(expect.arrayContaining([row?.image ?? 'missing', thumbOf(row?.image ?? 'missing')]))
    expect(now).not.toContain(old)
    expect(now).not.toContain(thumbOf(old))
    expect((await get(old)).statusCode).toBe(404)
  })

  it('sweeps stored files no row names once past the grace period, and keeps the named ones', async () => {
    const { image: named } = await addCategory()
    const orphan = `${randomUUID()}.png`
    const staged = join(t.config.tmpDir, `${randomUUID()}.part`)
    await writeFile(staged, image(20, 20).content)
    await storage.putFile(orphan, staged)
    const sweep = (now: number) => sweepFiles(t.handle.db, { tmpDir: t.config.tmpDir, storage, graceMs: 10 * MINUTE, now })
    // Young: it may be an upload on its way to its row.
    expect(await sweep(Date.now())).toEqual({ tmp: 0, uploads: 0, thumbnails: 0 })
    expect(await sweep(Date.now() + 11 * MINUTE)).toEqual({ tmp: 0, uploads: 1, thumbnails: 0 })
    const left = await names()
    expect(left).not.toContain(orphan)
    expect(left).toEqual(expect.arrayContaining([named, thumbOf(named)]))
  })
})

describe.each(backends)('two deployments sharing $name, each under its STORAGE_PREFIX', ({ start }) => {
  let s3: TestS3 | null
  let shared: string
  const apps: TestApp[] = []

  beforeAll(async () => {
    s3 = await start()
    shared = await mkdtemp(join(tmpdir(), 'bo-shared-uploads-'))
    for (const prefix of ['site-a', 'site-b/uploads']) {
      // One bucket, or one folder: the apps' own DATA_DIRs differ, their uploads folder does not.
      apps.push(await makeTestApp({ env: { ...(s3?.env ?? {}), STORAGE_PREFIX: prefix }, configure: (config) => ({ ...config, uploadsDir: shared }) }))
    }
  })
  afterAll(async () => {
    for (const t of apps) await t.close()
    await s3?.close()
    await rm(shared, { recursive: true, force: true })
  })

  const appAt = (index: number): TestApp => {
    const t = apps[index]
    if (t === undefined) throw new Error('no such app')
    return t
  }
  async function addCategory(t: TestApp): Promise<string> {
    const categoryName = `Shared ${randomUUID().slice(0, 8)}`
    const form = await multipart({ categoryName }, [image(64, 64)])
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/addcategory', payload: form.payload, headers: { ...(await t.auth(t.superadmin)), ...form.headers } })
    expect(bodyOf(res)['status']).toBe('success')
    const [row] = await t.handle.db.select().from(categories).where(eq(categories.categoryName, categoryName))
    if (row === undefined) throw new Error('not stored')
    return row.image
  }
  async function putOrphan(t: TestApp, storage: ObjectStorage = t.app.services.storage): Promise<string> {
    const name = `${randomUUID()}.png`
    const staged = join(t.config.tmpDir, `${randomUUID()}.part`)
    await writeFile(staged, image(20, 20).content)
    await storage.putFile(name, staged)
    return name
  }
  const sweepLater = (t: TestApp) => sweepFiles(t.handle.db, { tmpDir: t.config.tmpDir, storage: t.app.services.storage, graceMs: 10 * MINUTE, now: Date.now() + 11 * MINUTE })
  const served = async (t: TestApp, name: string): Promise<number> => (await t.app.inject({ method: 'GET', url: `/uploads/${name}` })).statusCode

  it('keeps the other deployment\'s files when each sweeps, and serves its own at /uploads/<name>', async () => {
    const [a, b] = [appAt(0), appAt(1)]
    const [kept, otherKept] = [await addCategory(a), await addCategory(b)]
    const [orphan, otherOrphan] = [await putOrphan(a), await putOrphan(b)]
    // Each sees only its own: B's database does not name A's image, and B's sweep must not care.
    expect(await b.app.services.storage.stat(kept)).toBeNull()
    expect(await a.app.services.storage.stat(otherKept)).toBeNull()

    expect(await sweepLater(a)).toEqual({ tmp: 0, uploads: 1, thumbnails: 0 })
    expect(await sweepLater(b)).toEqual({ tmp: 0, uploads: 1, thumbnails: 0 })
    for (const [t, name] of [[a, kept], [b, otherKept]] as const) {
      expect(await served(t, name)).toBe(200)
      expect(await served(t, thumbOf(name))).toBe(200)
    }
    expect(await a.app.services.storage.stat(orphan)).toBeNull()
    expect(await b.app.services.storage.stat(otherOrphan)).toBeNull()
    if (s3 === null) {
      // On the disk, each under its own folder.
      expect(readdirSync(join(shared, 'site-a')).sort()).toEqual([kept, thumbOf(kept)].sort())
      expect(readdirSync(join(shared, 'site-b', 'uploads')).sort()).toEqual([otherKept, thumbOf(otherKept)].sort())
    }
  })

  it('still serves, and never sweeps, a file stored at the top before the prefix was set', async () => {
    const a = appAt(0)
    // Stored by this deployment when it had no prefix, and named by its row since then.
    const top = await openStorage({ uploadsDir: shared, s3: a.config.s3 })
    const before = await putOrphan(a, top)
    const [row] = await a.handle.db.insert(categories).values({ categoryName: `Before ${randomUUID().slice(0, 8)}`, image: before }).returning()
    expect(row?.image).toBe(before)
    expect(await served(a, before)).toBe(200)
    expect((await a.app.inject({ method: 'GET', url: `/uploads/${before}`, headers: { range: 'bytes=0-3' } })).statusCode).toBe(206)
    // A file at the top that no row names is not this deployment's to judge either.
    const stray = await putOrphan(a, top)
    expect(await sweepLater(a)).toEqual({ tmp: 0, uploads: 0, thumbnails: 0 })
    expect(await top.stat(stray)).not.toBeNull()
    // Removing the record's file (a delete's purge) finds it there too.
    expect(await a.app.services.storage.remove(before)).toBe(true)
    expect(await top.stat(before)).toBeNull()
  })
})

describe.each(backends)('deployments on one prefix of $name', ({ start }) => {
  it('refuses a second deployment (another PUBLIC_URL) on a prefix a first one marked, naming STORAGE_PREFIX; its own instances and other prefixes start', async () => {
    const s3 = await start()
    const folder = await mkdtemp(join(tmpdir(), 'bo-marked-uploads-'))
    try {
      const settings =
        s3 === null
          ? null
          : { endpoint: s3.env['S3_ENDPOINT'] ?? '', bucket: s3.env['S3_BUCKET'] ?? '', accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1', pathStyle: true }
      const open = (deployment: string, storagePrefix = '') => openStorage({ uploadsDir: folder, s3: settings, storagePrefix, deployment })
      await open('https://a.example.com')
      // A second instance of the same deployment.
      await open('https://a.example.com')
      await expect(open('https://b.example.com')).rejects.toThrow(/holds the uploads of another deployment \(https:\/\/a\.example\.com\)[\s\S]*own STORAGE_PREFIX/)
      await open('https://b.example.com', 'site-b/')
      await expect(open('https://a.example.com', 'site-b/')).rejects.toThrow(/https:\/\/b\.example\.com/)
      // The marker is no upload: the sweep's listing never sees it.
      const names: string[] = []
      for await (const file of (await open('https://a.example.com')).list()) names.push(file.name)
      expect(names).toEqual([])
    } finally {
      await s3?.close()
      await rm(folder, { recursive: true, force: true })
    }
  })
})

describe('S3 configuration', () => {
  const base = { DATA_DIR: '.tmp/storage-config', JWT_SECRET: 'x'.repeat(32) }
  const full = { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'uploads', S3_ACCESS_KEY: 'key', S3_SECRET_KEY: 'secret' }

  it('reads S3_ENDPOINT and its companions; without them uploads stay on the disk', () => {
    expect(loadConfig(base).s3).toBeNull()
    expect(loadConfig({ ...base, ...full, S3_REGION: 'eu-west-1', S3_FORCE_PATH_STYLE: 'false' }).s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'uploads',
      accessKey: 'key',
      secretKey: 'secret',
      region: 'eu-west-1',
      pathStyle: false,
    })
    expect(loadConfig({ ...base, ...full }).s3).toMatchObject({ region: 'us-east-1', pathStyle: true })
  })

  it('reads STORAGE_PREFIX as folder names ending with /, empty by default, and refuses a path that climbs', () => {
    const prefix = (value?: string) => loadConfig({ ...base, ...(value === undefined ? {} : { STORAGE_PREFIX: value }) }).storagePrefix
    expect([prefix(), prefix(''), prefix('site-a'), prefix('/shared/site-a/')]).toEqual(['', '', 'site-a/', 'shared/site-a/'])
    for (const bad of ['../elsewhere', 'a/../b', '.hidden', 'a//b', 'a b', '/']) expect(() => prefix(bad), bad).toThrow(/STORAGE_PREFIX/)
  })

  it('refuses to start with S3_ENDPOINT but without the bucket or keys, naming what is missing', () => {
    expect(() => loadConfig({ ...base, S3_ENDPOINT: full.S3_ENDPOINT })).toThrow(ConfigError)
    expect(() => loadConfig({ ...base, S3_ENDPOINT: full.S3_ENDPOINT })).toThrow(/S3_BUCKET[\s\S]*S3_ACCESS_KEY[\s\S]*S3_SECRET_KEY/)
    expect(() => loadConfig({ ...base, ...full, S3_SECRET_KEY: '' })).toThrow(/missing:\s+S3_SECRET_KEY/)
    // A bucket without an endpoint would quietly keep uploads on one instance's disk.
    expect(() => loadConfig({ ...base, S3_BUCKET: 'uploads' })).toThrow(/S3_ENDPOINT/)
    expect(() => loadConfig({ ...base, ...full, S3_ENDPOINT: 'ftp://host' })).toThrow(/S3_ENDPOINT must be an http\(s\) address/)
  })

  it('refuses to start when the bucket does not exist or the endpoint does not answer', async () => {
    const s3 = await startS3('present')
    try {
      const settings = { endpoint: s3.env['S3_ENDPOINT'] ?? '', bucket: 'absent', accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1', pathStyle: true }
      await expect(openStorage({ uploadsDir: '.tmp/unused', s3: settings })).rejects.toThrow(/S3_BUCKET absent at S3_ENDPOINT http:\/\/127\.0\.0\.1:\d+ does not exist/)
      await expect(openStorage({ uploadsDir: '.tmp/unused', s3: { ...settings, bucket: 'present' } })).resolves.toBeDefined()
    } finally {
      await s3.close()
    }
    const settings = { endpoint: s3.env['S3_ENDPOINT'] ?? '', bucket: 'present', accessKey: 'S3RVER', secretKey: 'S3RVER', region: 'us-east-1', pathStyle: true }
    await expect(openStorage({ uploadsDir: '.tmp/unused', s3: settings })).rejects.toThrow(/cannot reach S3_BUCKET present/)
  })
})

describe('parseRange', () => {
  it('reads one range of the three forms, and leaves what it does not answer to a whole answer', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 })
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 })
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 })
    expect(parseRange(undefined, 1000)).toBe('none')
    expect(parseRange('bytes=0-1,5-6', 1000)).toBe('none')
    expect(parseRange('items=0-1', 1000)).toBe('none')
    expect(parseRange('bytes=50-10', 1000)).toBe('none')
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable')
  })
})
