import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gameImages, gameVideo } from '#contract/games'
import { MB } from '#contract/multipart'
import { encodePng } from '../../db/png.ts'
import { THUMB_SIZE, byteLimit, checkImage, makeThumbnail, thumbOf, tooManyPixels } from './media.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bo-media-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const media = { imageBytes: 2 * MB, videoBytes: 300 * MB, maxPixels: 1_000_000 }

describe('media limits', () => {
  it("takes the environment's limit for the rule's kind of file, else the rule's own", () => {
    expect(byteLimit(gameImages(true), media)).toBe(2 * MB)
    expect(byteLimit(gameVideo, media)).toBe(300 * MB)
    expect(byteLimit(gameVideo, undefined)).toBe(gameVideo.maxBytes)
    expect(tooManyPixels(50_000_000)).toBe('Image is too large: at most 50 megapixels')
  })

  it('names the thumbnail after its original, for paths and names alike', () => {
    expect(thumbOf('abc.png')).toBe('abc-thumb.webp')
    expect(thumbOf('/data/tmp/abc.part')).toBe('/data/tmp/abc-thumb.webp')
  })
})

describe('images', () => {
  it('accepts an image within the pixel limit and refuses one past it or one that does not decode', async () => {
    const small = join(dir, 'small.png')
    await writeFile(small, encodePng(100, 100, () => [10, 20, 30]))
    expect(await checkImage(small, media.maxPixels)).toBeNull()
    const large = join(dir, 'large.png')
    await writeFile(large, encodePng(1200, 1000, () => [10, 20, 30]))
    expect(await checkImage(large, media.maxPixels)).toBe('pixels')
    const broken = join(dir, 'broken.png')
    await writeFile(broken, Buffer.concat([encodePng(10, 10, () => [0, 0, 0]).subarray(0, 8), Buffer.from('not the rest of a png')]))
    expect(await checkImage(broken, media.maxPixels)).toBe('broken')
  })

  it('makes a WebP thumbnail that fits the box and keeps the aspect ratio', async () => {
    const wide = join(dir, 'wide.png')
    await writeFile(wide, encodePng(800, 400, (x) => [x % 256, 80, 160]))
    await makeThumbnail(wide, thumbOf(wide), media.maxPixels)
    const meta = await sharp(thumbOf(wide)).metadata()
    expect(meta).toMatchObject({ format: 'webp', width: THUMB_SIZE, height: THUMB_SIZE / 2 })
  })
})
