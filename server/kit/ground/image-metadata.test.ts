/**
 * Uploaded images are stored without their metadata (kit/ground/media.ts, cleanImage): the originals
 * are served to anyone with the link, and a photo's EXIF tells where it was taken and with what.
 * Every endpoint that takes an image is tried, with a photo taken sideways (EXIF orientation 6)
 * that carries a camera, an author and a GPS position.
 */
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadAreas } from '../request/areas.ts'
import { bodyOf, makeTestApp, multipart, type TestApp, type UploadFile } from '../../testing/test-app.ts'
import { isServed, makeFixtures, samples, send, type Fixtures } from '../../testing/endpoint-samples.ts'

/** Every endpoint the areas declare (server/kit/request/areas.ts). */
const { endpoints } = (await loadAreas()).index

let t: TestApp
let fixtures: Fixtures
let auth: Record<string, string>
beforeAll(async () => {
  t = await makeTestApp()
  fixtures = await makeFixtures(t)
  auth = await t.auth(t.superadmin)
})
afterAll(async () => {
  await t.close()
})

const WIDTH = 40
const HEIGHT = 20
const RED = [220, 30, 30]
const BLUE = [30, 30, 220]
/** Left half red, right half blue, as the sensor saw it (the camera was turned: orientation 6). */
function sensorPixels(): Buffer {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3)
  for (let y = 0; y < HEIGHT; y++) for (let x = 0; x < WIDTH; x++) raw.set(x < WIDTH / 2 ? RED : BLUE, (y * WIDTH + x) * 3)
  return raw
}
const EXIF = {
  IFD0: { Make: 'SpyCam', Model: 'Spy X1', Artist: 'Jo Photographer' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 1234/100', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 3900/100' },
}
const photo = (format: 'jpeg' | 'png', orientation = 6): Promise<Buffer> => {
  const pixels = sharp(sensorPixels(), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
  return (format === 'jpeg' ? pixels.jpeg() : pixels.png()).withExif(EXIF).withMetadata({ orientation }).toBuffer()
}
/** The types of a PNG's chunks, in order. */
function chunkTypes(png: Buffer): string[] {
  const types: string[] = []
  for (let at = 8; at + 12 <= png.length; at += 12 + png.readUInt32BE(at)) types.push(png.toString('latin1', at + 4, at + 8))
  return types
}
/** A PNG chunk of `type` with `data` (the CRC is not checked by the code under test, so any will do). */
const chunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)])
}

const storedOriginals = async (): Promise<Set<string>> => new Set((await readdir(t.config.uploadsDir).catch(() => [])).filter((n) => !n.includes('-thumb')))

/** Checks a stored original: no metadata left, upright (orientation applied), in its own format. */
async function expectClean(name: string, format: 'jpeg' | 'png'): Promise<void> {
  const bytes = await readFile(join(t.config.uploadsDir, name))
  const meta = await sharp(bytes).metadata()
  expect({ name, format: meta.format, width: meta.width, height: meta.height, orientation: meta.orientation, exif: meta.exif, xmp: meta.xmp, iptc: meta.iptc }).toEqual({
    name,
    format,
    width: HEIGHT,
    height: WIDTH,
    orientation: undefined,
    exif: undefined,
    xmp: undefined,
    iptc: undefined,
  })
  for (const marker of ['Exif', 'eXIf', 'SpyCam', 'Jo Photographer']) expect(bytes.includes(marker), `${name} contains ${marker}`).toBe(false)
  // Turned clockwise: what was the left (red) is now the top.
  const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true })
  const top = [...data.subarray(0, 3)]
  const bottom = [...data.subarray(data.length - 3)]
  expect(top.every((v, i) => Math.abs(v - (RED[i] ?? 0)) < 24)).toBe(true)
  expect(bottom.every((v, i) => Math.abs(v - (BLUE[i] ?? 0)) < 24)).toBe(true)
}

describe('uploaded images are stored without their metadata', () => {
  it('the test photos carry what must go', async () => {
    for (const format of ['jpeg', 'png'] as const) {
      const bytes = await photo(format)
      expect(bytes.includes('SpyCam')).toBe(true)
      expect(await sharp(bytes).metadata()).toMatchObject({ width: WIDTH, height: HEIGHT, orientation: 6 })
    }
  })

  const withImages = endpoints.filter((e) => e.files !== undefined && Object.values(e.files).some((rule) => rule.kinds.includes('jpeg')))

  it('finds the endpoints that take an image: categories, games, homepage content, the settings logo, promotions', () => {
    expect(withImages.map((e) => e.name)).toEqual(expect.arrayContaining(['addcategory', 'editCategoryData', 'addcms', 'Editcms', 'addHomePageCms', 'editHomePageCms', 'updateSettings', 'addNotification']))
  })

  it.each(['jpeg', 'png'] as const)('%s: on every endpoint and field that takes one, upright and in its own format', async (format) => {
    const content = await photo(format)
    for (const endpoint of withImages) {
      if (!isServed(t, endpoint)) continue
      const sample = samples[endpoint.name]?.(fixtures)
      if (sample === undefined) throw new Error(`no sample for ${endpoint.name}`)
      // An edit whose sample keeps its image is sent as JSON; with a file it is a form of the same fields.
      const form = 'form' in sample ? sample.form : { fields: Object.fromEntries(Object.entries(sample.json).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])), files: [] }
      const imageFields = Object.entries(endpoint.files ?? {})
        .filter(([, rule]) => rule.kinds.includes(format))
        .map(([field]) => field)
      const files: UploadFile[] = [
        ...form.files.filter((f) => !imageFields.includes(f.field)),
        ...imageFields.map((field) => ({ field, name: format === 'jpeg' ? 'photo.jpg' : 'photo.png', type: `image/${format}`, content })),
      ]
      const before = await storedOriginals()
      const res = await send(t, endpoint, auth, { form: { fields: form.fields, files } })
      expect({ endpoint: endpoint.name, body: bodyOf(res) }).toMatchObject({ endpoint: endpoint.name, body: { status: 'success' } })
      const added = [...(await storedOriginals())].filter((n) => !before.has(n))
      expect(added.length, `${endpoint.name} stored ${imageFields.length} image(s)`).toBe(imageFields.length)
      for (const name of added) await expectClean(name, format)
    }
  })

  it('keeps an upright PNG as it is, less its metadata chunks', async () => {
    const withExif = await photo('png', 1)
    // A text chunk (what editors write comments and XMP in) and a private chunk, before IEND.
    const iend = withExif.length - 12
    const content = Buffer.concat([withExif.subarray(0, iend), chunk('tEXt', Buffer.from('Author\0Jo Photographer', 'latin1')), chunk('prVt', Buffer.from('secret')), withExif.subarray(iend)])
    expect(chunkTypes(content)).toEqual(expect.arrayContaining(['eXIf', 'tEXt', 'prVt']))
    const form = await multipart({ categoryName: `Upright ${Date.now()}` }, [{ field: 'image', name: 'p.png', type: 'image/png', content }])
    const before = await storedOriginals()
    expect(bodyOf(await t.app.inject({ method: 'POST', url: '/api/admin/addcategory', headers: { ...auth, ...form.headers }, payload: form.payload }))['status']).toBe('success')
    const [name] = [...(await storedOriginals())].filter((n) => !before.has(n))
    const stored = await readFile(join(t.config.uploadsDir, name ?? 'missing'))
    // The very chunks it had, less the metadata: the pixels are not encoded again.
    expect(chunkTypes(stored)).toEqual(chunkTypes(content).filter((type) => !['eXIf', 'tEXt', 'prVt'].includes(type)))
    for (const marker of ['Jo Photographer', 'SpyCam', 'secret']) expect(stored.includes(marker), marker).toBe(false)
    const meta = await sharp(stored).metadata()
    expect(meta).toMatchObject({ format: 'png', width: WIDTH, height: HEIGHT })
    expect(meta.exif).toBeUndefined()
  })

  it('keeps a PNG lossless', async () => {
    const form = await multipart({ categoryName: `Lossless ${Date.now()}` }, [{ field: 'image', name: 'p.png', type: 'image/png', content: await photo('png') }])
    const before = await storedOriginals()
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/addcategory', headers: { ...auth, ...form.headers }, payload: form.payload })
    expect(bodyOf(res)['status']).toBe('success')
    const [name] = [...(await storedOriginals())].filter((n) => !before.has(n))
    const stored = await sharp(join(t.config.uploadsDir, name ?? 'missing'))
      .raw()
      .toBuffer()
    const upright = await sharp(await photo('png'))
      .autoOrient()
      .raw()
      .toBuffer()
    expect(stored.equals(upright)).toBe(true)
  })
})
