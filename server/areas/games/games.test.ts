import { existsSync, readdirSync } from 'node:fs'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { categories, games } from '../../db/schema.ts'
import { encodePng, pngChunk } from '../../db/png.ts'
import { bodyOf, listOf, makeTestApp, multipart, type TestApp, type UploadFile } from '../../testing/test-app.ts'
import { purgeTrashNow } from '../../testing/purge.ts'

const KIND = 'Please upload file(s) with .png, .jpeg, .jpg extensions only.'
const VIDEO_KIND = 'Please upload file(s) with .mp4, .m4a, .webm extensions only.'
const TOO_MANY = 'You can upload a maximum of 5 images.'

let t: TestApp
let admin: { authorization: string }
let arcade: string
let puzzle: string

const png = (name = 'shot.png', size = 8): UploadFile => ({ field: 'image', name, type: 'image/png', content: encodePng(size, size, (x, y) => [x * 20, y * 20, 120]) })
/** An ISO base-media header (mp4 brand) and one `mdat` box of `bytes` of filler: what the server checks is the signature and the boxes. */
const mp4 = (bytes = 4096, name = 'clip.mp4'): UploadFile => ({
  field: 'video',
  name,
  type: 'video/mp4',
  content: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12), box('mdat', Buffer.alloc(bytes, 7))]),
})
/** An ISO base-media box. */
function box(type: string, ...content: Buffer[]): Buffer {
  const data = Buffer.concat(content)
  const size = Buffer.alloc(4)
  size.writeUInt32BE(8 + data.length)
  return Buffer.concat([size, Buffer.from(type, 'latin1'), data])
}

/** A PNG whose header declares 100,000 x 100,000 pixels (a decompression bomb's first bytes). */
function hugePng(): UploadFile {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(100_000, 0)
  ihdr.writeUInt32BE(100_000, 4)
  ihdr.set([8, 2, 0, 0, 0], 8)
  const content = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', Buffer.alloc(16)), pngChunk('IEND', Buffer.alloc(0))])
  return { field: 'image', name: 'bomb.png', type: 'image/png', content }
}

async function post(path: string, fields: Record<string, string | string[]>, files: UploadFile[] = [], headers: Record<string, string> = admin) {
  const form = await multipart(fields, files)
  return t.app.inject({ method: 'POST', url: `/api/admin${path}`, payload: form.payload, headers: { ...headers, ...form.headers } })
}
const postJson = (path: string, payload: Record<string, unknown>, headers: Record<string, string> = admin) =>
  t.app.inject({ method: 'POST', url: `/api/admin${path}`, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) })
const list = async (query: Record<string, string> = {}) =>
  bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/listCms', query: { page: '1', limit: '50', ...query }, headers: admin }))
const titles = async (query: Record<string, string> = {}) => listOf(await list(query), 'result').map((g) => String(g['title']))

const uploads = (): string[] => (existsSync(t.config.uploadsDir) ? readdirSync(t.config.uploadsDir) : [])
const temps = (): string[] => (existsSync(t.config.tmpDir) ? readdirSync(t.config.tmpDir) : [])

const addFields = (title: string, extra: Record<string, string> = {}) => ({
  title,
  description: `About ${title}`,
  categoryName: arcade,
  operatingsystem: 'Android',
  liveLink: 'https://play.example/game',
  isGameBackend: 'false',
  ...extra,
})

async function add(title: string, extra: Record<string, string> = {}, files: UploadFile[] = [png()]): Promise<string> {
  const res = await post('/addcms', addFields(title, extra), files)
  expect(bodyOf(res)).toEqual({ status: 'success', message: 'Game added successfully' })
  const [row] = await t.handle.db.select().from(games).where(eq(games.title, title))
  if (row === undefined) throw new Error('not added')
  return row.id
}
const rowOf = async (id: string) => (await t.handle.db.select().from(games).where(eq(games.id, id)))[0]

const editFields = (id: string, title: string, extra: Record<string, string | string[]> = {}) => ({
  _id: id,
  preference: '1',
  title,
  description: 'Edited',
  categoryName: JSON.stringify({ _id: puzzle, categoryName: 'Puzzle' }),
  operatingsystem: 'ios',
  liveLink: 'https://play.example/edited',
  isGameBackend: 'true',
  ...extra,
})

beforeAll(async () => {
  t = await makeTestApp({ env: { UPLOAD_VIDEO_MAX_MB: '1' } })
  admin = await t.auth(t.superadmin)
  const rows = await t.handle.db
    .insert(categories)
    .values([
      { categoryName: 'Arcade', image: 'a.png', preference: 1 },
      { categoryName: 'Puzzle', image: 'p.png', preference: 2 },
    ])
    .returning({ id: categories.id })
  arcade = rows[0]?.id ?? ''
  puzzle = rows[1]?.id ?? ''
})
afterAll(async () => {
  await t.close()
})
beforeEach(async () => {
  await t.handle.db.delete(games)
})

describe('POST /addcms', () => {
  it('adds a game with several images and a video, stored with thumbnails and listed with its category', async () => {
    const id = await add('Racer', { operatingsystem: 'both', isGameBackend: 'true' }, [png('a.png'), png('b.png', 600), mp4()])
    const row = await rowOf(id)
    expect(row?.images).toHaveLength(2)
    expect(row?.video).toMatch(/^[0-9a-f-]{36}\.mp4$/)
    for (const name of row?.images ?? []) {
      expect(existsSync(join(t.config.uploadsDir, name))).toBe(true)
      expect(existsSync(join(t.config.uploadsDir, name.replace('.png', '-thumb.webp')))).toBe(true)
    }
    const [game] = listOf(await list(), 'result')
    expect(game).toMatchObject({
      _id: id,
      title: 'Racer',
      description: 'About Racer',
      categoryName: { _id: arcade, categoryName: 'Arcade' },
      operatingsystem: 'both',
      isGameBackend: true,
      freeze: false,
      preference: 1,
      video: `/uploads/${row?.video}`,
    })
    const thumb = await t.app.inject({ method: 'GET', url: String((game?.['thumbnails'] as unknown[])[1]) })
    expect(thumb.statusCode).toBe(200)
    expect(thumb.headers['content-type']).toBe('image/webp')
    expect(thumb.rawPayload.length).toBeLessThan(png('b.png', 600).content.length)
  })

  it("answers the add form's messages", async () => {
    const res = await post('/addcms', { categoryName: '', operatingsystem: 'Windows', liveLink: 'not a link', description: '', title: '' })
    expect(res.statusCode).toBe(400)
    expect(bodyOf(res)['errors']).toEqual({
      liveLink: 'Invalid format',
      title: 'Title is required',
      categoryName: 'category Name is required',
      operatingsystem: 'OperatingSystem is required',
      description: 'description is required',
      image: 'image is required',
    })
    const empty = await post('/addcms', { title: 'x' })
    expect(bodyOf(empty)['errors']).toMatchObject({ liveLink: 'liveLink is required' })
  })

  it('refuses 6 images, a text file named .png, an absurd pixel count and a video of the wrong kind, storing nothing', async () => {
    const before = uploads().length
    const six = await post('/addcms', addFields('Six'), [1, 2, 3, 4, 5, 6].map((n) => png(`${n}.png`)))
    expect(bodyOf(six)['errors']).toEqual({ image: TOO_MANY })
    const text = await post('/addcms', addFields('Text'), [{ field: 'image', name: 'notes.png', type: 'image/png', content: Buffer.from('just some text') }])
    expect(bodyOf(text)['errors']).toEqual({ image: KIND })
    const bomb = await post('/addcms', addFields('Bomb'), [hugePng()])
    expect(bodyOf(bomb)['errors']).toEqual({ image: 'Image is too large: at most 50 megapixels' })
    const wrongVideo = await post('/addcms', addFields('Clip'), [png(), { ...png('clip.mp4'), field: 'video' }])
    expect(bodyOf(wrongVideo)['errors']).toEqual({ video: VIDEO_KIND })
    expect(uploads().length).toBe(before)
    expect(temps()).toEqual([])
    expect(await t.handle.db.select().from(games)).toEqual([])
  })

  it('refuses a video over the configured limit with 413 and leaves no file behind', async () => {
    const before = uploads().length
    const res = await post('/addcms', addFields('Huge'), [png(), mp4(1024 * 1024 + 10)])
    expect(res.statusCode).toBe(413)
    expect(bodyOf(res)).toMatchObject({ status: 'failed', errors: { video: 'File is too large: at most 1 MB' } })
    expect(uploads().length).toBe(before)
    expect(temps()).toEqual([])
  })

  it('answers 413 while the upload is still being sent, without waiting for the rest of the body', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const address = t.app.server.address()
    const port = typeof address === 'object' && address !== null ? address.port : 0
    const boundary = 'limit-test'
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`)
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/admin/addcms',
      headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(50 * 1024 * 1024) },
    })
    req.on('error', () => {})
    const answered = new Promise<IncomingMessage>((resolve) => req.on('response', resolve))
    // 1.5 MB of a body announced as 50 MB, then nothing more: the answer must not wait for the rest.
    req.write(Buffer.concat([head, mp4(1.5 * 1024 * 1024).content]))
    const response = await answered
    expect(response.statusCode).toBe(413)
    expect(response.headers['connection']).toBe('close')
    response.resume()
    // The server closes the connection itself rather than reading the rest of the body.
    await new Promise((resolve) => req.on('close', resolve))
    const open = await new Promise<number>((resolve) => t.app.server.getConnections((_error, n) => resolve(n)))
    expect(open).toBe(0)
    expect(temps()).toEqual([])
  })

  it('refuses an unknown category', async () => {
    const res = await post('/addcms', addFields('Lost', { categoryName: '00000000-0000-0000-0000-000000000000' }), [png()])
    expect(bodyOf(res)['errors']).toEqual({ categoryName: 'This category no longer exists' })
  })
})

describe('GET /listCms', () => {
  it('searches by title, filters by category and operating system, and pages in preference order', async () => {
    await add('Alpha Run', { operatingsystem: 'Android' })
    await add('Beta Blocks', { operatingsystem: 'ios', categoryName: puzzle })
    await add('Gamma Run', { operatingsystem: 'both', categoryName: puzzle })
    expect(await titles()).toEqual(['Alpha Run', 'Beta Blocks', 'Gamma Run'])
    expect(await titles({ search: 'run' })).toEqual(['Alpha Run', 'Gamma Run'])
    expect(await titles({ category: puzzle })).toEqual(['Beta Blocks', 'Gamma Run'])
    expect(await titles({ operatingsystem: 'ios' })).toEqual(['Beta Blocks'])
    expect(await titles({ category: puzzle, operatingsystem: 'both', search: 'gamma' })).toEqual(['Gamma Run'])
    const page = await list({ page: '2', limit: '2' })
    expect(listOf(page, 'result').map((g) => g['title'])).toEqual(['Gamma Run'])
    expect(page['count']).toBe(3)
    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/listCms', query: { operatingsystem: 'Windows' }, headers: admin })
    expect(bodyOf(bad)).toMatchObject({ status: 'failed', errors: { operatingsystem: 'Incorrect format' } })
  })
})

describe('POST /Editcms', () => {
  it("answers the edit form's own messages", async () => {
    const id = await add('Edit me')
    const res = await post('/Editcms', { _id: id, categoryName: '', operatingsystem: '', liveLink: 'nope', title: '', description: '' })
    expect(bodyOf(res)['errors']).toEqual({
      preference: 'preference is required',
      liveLink: 'Incorrect format',
      title: 'Title is required',
      categoryName: 'category Name is required',
      operatingsystem: 'Operating System is required',
      description: 'description is required',
    })
  })

  it('keeps the stored images and video when none are sent, and reads the category from its JSON', async () => {
    const id = await add('Keeper', {}, [png('a.png'), mp4()])
    const before = await rowOf(id)
    const res = await post('/Editcms', editFields(id, 'Kept'))
    expect(bodyOf(res)).toEqual({ status: 'success', message: 'Game updated successfully' })
    const after = await rowOf(id)
    expect(after).toMatchObject({ title: 'Kept', categoryId: puzzle, operatingsystem: 'ios', isGameBackend: true, images: before?.images, video: before?.video })
  })

  it('keeps the images the form names, adds new ones, removes dropped files after success, and caps the total at 5', async () => {
    const id = await add('Gallery', {}, [png('1.png'), png('2.png'), png('3.png'), mp4()])
    const before = await rowOf(id)
    const [first, second, third] = before?.images ?? []
    const kept = [`/uploads/${third}`, `/uploads/${first}`]
    const res = await post('/Editcms', editFields(id, 'Gallery', { keptImages: kept, keptVideo: '[]' }), [png('4.png')])
    expect(bodyOf(res)['status']).toBe('success')
    const after = await rowOf(id)
    expect(after?.images.slice(0, 2)).toEqual([third, first])
    expect(after?.images).toHaveLength(3)
    expect(after?.video).toBe('')
    expect(existsSync(join(t.config.uploadsDir, second ?? 'x'))).toBe(false)
    expect(existsSync(join(t.config.uploadsDir, (second ?? 'x').replace('.png', '-thumb.webp')))).toBe(false)
    expect(existsSync(join(t.config.uploadsDir, before?.video ?? 'x'))).toBe(false)

    const tooMany = await post('/Editcms', editFields(id, 'Gallery'), [png('a.png'), png('b.png'), png('c.png')])
    expect(bodyOf(tooMany)['errors']).toEqual({ image: TOO_MANY })
    const none = await post('/Editcms', editFields(id, 'Gallery', { keptImages: '[]' }))
    expect(bodyOf(none)['errors']).toEqual({ image: 'image is required' })
    const foreign = await post('/Editcms', editFields(id, 'Gallery', { keptImages: ['/uploads/../../jwt-secret'] }))
    expect(bodyOf(foreign)['errors']).toEqual({ keptImages: 'Incorrect format' })
    expect((await rowOf(id))?.images).toEqual(after?.images)
    for (const name of after?.images ?? []) expect(existsSync(join(t.config.uploadsDir, name))).toBe(true)
  })

  it('replaces the video with a new one and removes the old file', async () => {
    const id = await add('Movie', {}, [png(), mp4()])
    const before = await rowOf(id)
    expect(bodyOf(await post('/Editcms', editFields(id, 'Movie'), [mp4(100, 'new.mp4')]))['status']).toBe('success')
    const after = await rowOf(id)
    expect(after?.video).not.toBe(before?.video)
    expect(existsSync(join(t.config.uploadsDir, after?.video ?? 'x'))).toBe(true)
    expect(existsSync(join(t.config.uploadsDir, before?.video ?? 'x'))).toBe(false)
  })

  it('moves a game by preference, renumbering the others, and ignores a place past the count', async () => {
    const ids = [await add('One'), await add('Two'), await add('Three')]
    expect(bodyOf(await post('/Editcms', { ...editFields(ids[2] ?? '', 'Three'), preference: '1' }))['status']).toBe('success')
    expect(await titles()).toEqual(['Three', 'One', 'Two'])
    const ignored = bodyOf(await post('/Editcms', { ...editFields(ids[0] ?? '', 'One'), preference: '9' }))
    expect(ignored['message']).toBe('Game updated successfully; preference 9 is not a place in this list (1 to 3), so it keeps place 2')
    expect(listOf(await list(), 'result').map((g) => `${String(g['title'])}:${String(g['preference'])}`)).toEqual(['Three:1', 'One:2', 'Two:3'])
  })

  it('answers 404 for an unknown game', async () => {
    const res = await post('/Editcms', editFields('00000000-0000-0000-0000-000000000000', 'Ghost'))
    expect(res.statusCode).toBe(404)
  })

  it('two edits racing to replace the images (no version sent) remove no file the saved game names and leave none unreferenced', async () => {
    const id = await add('Race', {}, [png('x.png')])
    const [x] = (await rowOf(id))?.images ?? []
    if (x === undefined) throw new Error('no image stored')
    const before = new Set(uploads())
    // One keeps x and adds an image, the other drops x for a new one: whichever goes second must
    // start from what the first saved.
    const edits = () =>
      Promise.all([
        post('/Editcms', editFields(id, 'Race', { keptImages: [`/uploads/${x}`] }), [png('keep-add.png')]),
        post('/Editcms', editFields(id, 'Race', { keptImages: '[]' }), [png('replace.png')]),
      ])
    let answers: Awaited<ReturnType<typeof edits>>
    if (t.config.database.kind === 'pg') {
      // Another writer holds the game's row, so both edits are under way before either writes.
      const url = t.config.database.url
      const locker = new pg.Client({ connectionString: url })
      const watcher = new pg.Client({ connectionString: url })
      await locker.connect()
      await watcher.connect()
      try {
        await locker.query('begin')
        await locker.query('select id from games where id = $1 for update', [id])
        const pending = edits()
        await vi.waitFor(
          async () => {
            const { rows } = await watcher.query("select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")
            expect(rows.length).toBe(2)
          },
          { timeout: 20_000, interval: 25 },
        )
        await locker.query('commit')
        answers = await pending
      } finally {
        await locker.query('rollback').catch(() => {})
        await locker.end()
        await watcher.end()
      }
    } else {
      answers = await edits()
    }
    expect(answers.some((res) => bodyOf(res)['status'] === 'success')).toBe(true)
    const row = await rowOf(id)
    const named = [...(row?.images ?? []), row?.video ?? ''].filter((name) => name !== '')
    for (const name of named) expect(existsSync(join(t.config.uploadsDir, name)), `${name} is named by the game but was removed`).toBe(true)
    // Of this test's files (x and the two uploads), exactly those the game names are left: none for the sweep to find.
    const left = uploads().filter((name) => (!before.has(name) || name === x) && !name.endsWith('-thumb.webp'))
    expect(left.sort()).toEqual([...named].sort())
  })
})

describe('getCms, FreezeCms and DeleteCms', () => {
  it('reads one game by id', async () => {
    const id = await add('Single')
    const res = bodyOf(await t.app.inject({ method: 'GET', url: '/api/admin/getCms', query: { _id: id }, headers: admin }))
    expect(res).toMatchObject({ status: 'success', data: { _id: id, title: 'Single' } })
  })

  it('flips the freeze flag and answers the new state, both ways', async () => {
    const id = await add('Cold')
    expect(bodyOf(await postJson('/FreezeCms', { id }))).toMatchObject({ status: 'success', message: 'Game frozen successfully', freeze: true })
    expect((await rowOf(id))?.freeze).toBe(true)
    expect(bodyOf(await postJson('/FreezeCms', { id }))).toMatchObject({ status: 'success', message: 'Game unfrozen successfully', freeze: false })
    expect((await rowOf(id))?.freeze).toBe(false)
  })

  it('deletes a game, closing the gap in the order; its files and thumbnails go when the undo window has passed', async () => {
    await add('First')
    const id = await add('Doomed', {}, [png('a.png'), png('b.png'), mp4()])
    await add('Last')
    const row = await rowOf(id)
    const files = [...(row?.images ?? []), ...(row?.images ?? []).map((n) => n.replace('.png', '-thumb.webp')), row?.video ?? 'x']
    for (const name of files) expect(existsSync(join(t.config.uploadsDir, name))).toBe(true)
    expect(bodyOf(await postJson('/DeleteCms', { id }))).toMatchObject({ status: 'success', message: 'Game deleted successfully', undo: { seconds: 10 } })
    for (const name of files) expect(existsSync(join(t.config.uploadsDir, name))).toBe(true)
    await purgeTrashNow(t)
    for (const name of files) expect(existsSync(join(t.config.uploadsDir, name))).toBe(false)
    expect(listOf(await list(), 'result').map((g) => `${String(g['title'])}:${String(g['preference'])}`)).toEqual(['First:1', 'Last:2'])
    expect((await postJson('/DeleteCms', { id })).statusCode).toBe(404)
  })

  it('refuses to delete a category that games use, saying how many', async () => {
    await add('User one')
    await add('User two')
    const res = await postJson('/deleteCategory', { id: arcade })
    expect(res.statusCode).toBe(409)
    expect(bodyOf(res)['message']).toBe('This category is used by 2 games: move or delete them first')
    expect(await t.handle.db.select().from(categories).where(eq(categories.id, arcade))).toHaveLength(1)
  })
})

describe('serving a stored video', () => {
  let url = ''
  let size = 0
  beforeEach(async () => {
    const id = await add('Trailer', {}, [png(), mp4(1000)])
    const row = await rowOf(id)
    url = `/uploads/${row?.video}`
    size = mp4(1000).content.length
  })
  const get = (range?: string) => t.app.inject({ method: 'GET', url, headers: range === undefined ? {} : { range } })
  const whole = () => mp4(1000).content

  it('serves the whole file with its stored type, a long cache and nosniff', async () => {
    const res = await get()
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('video/mp4')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['accept-ranges']).toBe('bytes')
  })

  it('answers range requests with 206: the first, a middle and the last bytes', async () => {
    const first = await get('bytes=0-0')
    expect(first.statusCode).toBe(206)
    expect(first.headers['content-range']).toBe(`bytes 0-0/${size}`)
    expect(first.rawPayload).toEqual(whole().subarray(0, 1))
    const middle = await get('bytes=100-199')
    expect(middle.statusCode).toBe(206)
    expect(middle.headers['content-range']).toBe(`bytes 100-199/${size}`)
    expect(middle.rawPayload).toEqual(whole().subarray(100, 200))
    const last = await get('bytes=-1')
    expect(last.statusCode).toBe(206)
    expect(last.headers['content-range']).toBe(`bytes ${size - 1}-${size - 1}/${size}`)
    expect(last.rawPayload).toEqual(whole().subarray(size - 1))
  })

  it('answers 416 for a range past the end', async () => {
    const res = await get(`bytes=${size + 10}-`)
    expect(res.statusCode).toBe(416)
  })
})

describe('a video or audio file is stored without its metadata', () => {
  const SECRETS = ['51.5074', 'Secret Holiday', 'xmpmeta', 'Jo Filmmaker']
  /** A QuickTime-style user-data atom (©xyz, ©nam...): its text after the length and language. */
  const atom = (type: string, text: string) => {
    const head = Buffer.alloc(4)
    head.writeUInt16BE(Buffer.byteLength(text))
    return box(type, head, Buffer.from(text, 'utf8'))
  }
  const fullBox = (type: string, ...content: Buffer[]) => box(type, Buffer.alloc(4), ...content)
  const MEDIA = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 251))

  /** An MP4 (or M4A) as a phone writes one: where and by whom in the movie's and the track's user data, iTunes tags, XMP. */
  function phoneMp4(brand: 'isom' | 'M4A '): Buffer {
    const ftyp = box('ftyp', Buffer.from(`${brand}\0\0\0\0isom`, 'latin1'))
    const moov = box(
      'moov',
      fullBox('mvhd', Buffer.alloc(96)),
      box('trak', fullBox('tkhd', Buffer.alloc(80)), box('udta', atom('\u00a9xyz', '+51.5074-000.1278/')), box('mdia', fullBox('mdhd', Buffer.alloc(20)))),
      box('udta', atom('\u00a9xyz', '+51.5074-000.1278/'), atom('\u00a9ART', 'Jo Filmmaker')),
      fullBox('meta', fullBox('hdlr', Buffer.alloc(4), Buffer.from('mdir', 'latin1'), Buffer.alloc(13)), box('ilst', box('\u00a9nam', fullBox('data', Buffer.from('Secret Holiday'))))),
    )
    const xmp = box('uuid', Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex'), Buffer.from('<x:xmpmeta>exif:GPSLatitude 51.5074</x:xmpmeta>'))
    return Buffer.concat([ftyp, moov, xmp, box('mdat', MEDIA)])
  }
  /** The types of the boxes between `start` and `end`. */
  function boxTypes(file: Buffer, start = 0, end = file.length): string[] {
    const types: string[] = []
    for (let at = start; at + 8 <= end && file.readUInt32BE(at) >= 8; at += file.readUInt32BE(at)) types.push(file.toString('latin1', at + 4, at + 8))
    return types
  }

  /** An EBML element with an 8-byte size; `unknown` writes the size a live recording leaves open. */
  function ebml(id: string, content: Buffer | string, unknown = false): Buffer {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content
    const size = Buffer.alloc(8)
    if (unknown) size.fill(0xff, 1)
    else size.writeBigUInt64BE(BigInt(data.length))
    size[0] = 0x01
    return Buffer.concat([Buffer.from(id, 'hex'), size, data])
  }
  /** A WebM as a browser's recorder writes one (Segment and Cluster of unknown size), with a title, a date and a location tag. */
  function recordedWebm(): Buffer {
    const header = ebml('1a45dfa3', ebml('4282', 'webm'))
    const info = ebml('1549a966', Buffer.concat([ebml('2ad7b1', Buffer.from([0x0f, 0x42, 0x40])), ebml('4d80', 'recorder'), ebml('5741', 'recorder'), ebml('7ba9', 'Secret Holiday'), ebml('4461', Buffer.alloc(8, 1))]))
    const tracks = ebml('1654ae6b', ebml('ae', ebml('d7', Buffer.from([1]))))
    const cluster = ebml('1f43b675', Buffer.concat([ebml('e7', Buffer.from([0])), ebml('a3', MEDIA)]), true)
    const tags = ebml('1254c367', ebml('7373', ebml('67c8', Buffer.concat([ebml('45a3', 'LOCATION'), ebml('4487', '+51.5074-000.1278/'), ebml('45a3', 'ARTIST'), ebml('4487', 'Jo Filmmaker')]))))
    return Buffer.concat([header, ebml('18538067', Buffer.concat([info, tracks, cluster, tags]), true)])
  }

  async function storedVideo(title: string, file: UploadFile): Promise<Buffer> {
    const id = await add(title, {}, [png(), file])
    const res = await t.app.inject({ method: 'GET', url: `/uploads/${(await rowOf(id))?.video}` })
    expect(res.statusCode).toBe(200)
    return res.rawPayload
  }

  it.each(['isom', 'M4A '] as const)('MP4 (%s): the location, the names and the XMP are gone; every other byte, the media too, is where it was', async (brand) => {
    const original = phoneMp4(brand)
    const stored = await storedVideo(`Phone ${brand.trim()}`, { field: 'video', name: brand === 'isom' ? 'holiday.mp4' : 'holiday.m4a', type: brand === 'isom' ? 'video/mp4' : 'audio/mp4', content: original })
    for (const secret of SECRETS) {
      expect(original.includes(secret)).toBe(true)
      expect(stored.includes(secret), secret).toBe(false)
    }
    expect(stored.length).toBe(original.length)
    expect(boxTypes(stored)).toEqual(['ftyp', 'moov', 'free', 'mdat'])
    const moov = stored.readUInt32BE(0)
    expect(boxTypes(stored, moov + 8, moov + stored.readUInt32BE(moov))).toEqual(['mvhd', 'trak', 'free', 'free'])
    const mdat = original.length - MEDIA.length
    expect(stored.subarray(mdat)).toEqual(original.subarray(mdat))
    expect(stored.subarray(0, 8 + 16)).toEqual(original.subarray(0, 8 + 16))
  })

  it('WebM: the title, the date and the tags are gone; the clusters and tracks are untouched', async () => {
    const original = recordedWebm()
    const stored = await storedVideo('Recorded', { field: 'video', name: 'holiday.webm', type: 'video/webm', content: original })
    for (const secret of SECRETS.filter((s) => s !== 'xmpmeta')) {
      expect(original.includes(secret)).toBe(true)
      expect(stored.includes(secret), secret).toBe(false)
    }
    expect(stored.length).toBe(original.length)
    expect(stored.includes(MEDIA)).toBe(true)
    expect(stored.includes('recorder')).toBe(true)
    expect(stored.includes(Buffer.from('1654ae6b', 'hex'))).toBe(true)
  })

  it('refuses a video whose boxes do not parse, rather than storing what it may carry', async () => {
    const broken = Buffer.concat([box('ftyp', Buffer.from('isom\0\0\0\0', 'latin1')), Buffer.from([0, 0, 0x7f, 0xff]), Buffer.from('udta'), Buffer.from('+51.5074')])
    const res = await post('/addcms', addFields('Broken'), [png(), { field: 'video', name: 'broken.mp4', type: 'video/mp4', content: broken }])
    expect(bodyOf(res)).toMatchObject({ status: 'failed', errors: { video: VIDEO_KIND } })
  })
})
