/**
 * Media rules beyond the contract's file rules: byte limits per kind of file set by the
 * environment, the pixel limit that keeps a small file from decoding into gigabytes (a
 * decompression bomb), the cleaning of an uploaded image's metadata, and the thumbnails lists
 * show instead of the originals.
 *
 * A thumbnail lives beside its original under a name derived from it (`<name>-thumb.webp`), so
 * no column records it and removing the original removes it too.
 */
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import type { Sharp, SharpOptions } from 'sharp'
import type { FileKind, FileRule } from '#contract/define'
import type { MediaLimits } from '../../config.ts'

/** sharp (libvips, about 17 MiB of memory) loads with the first image a server checks, not at start. */
let loaded: Promise<(input: string, options: SharpOptions) => Sharp> | undefined
function sharp(input: string, options: SharpOptions): Promise<Sharp> {
  loaded ??= import('sharp').then(({ default: load }) => {
    // Each upload is read once: sharp's cache would only keep files open (some about to be deleted) and memory in use.
    load.cache(false)
    return load
  })
  return loaded.then((load) => load(input, options))
}

const MOVING: readonly FileKind[] = ['mp4', 'm4a', 'webm']
const isMoving = (kind: FileKind): boolean => MOVING.includes(kind)

/** The byte limit of a rule: the environment's for its kind of file, else the rule's own. */
export function byteLimit(rule: FileRule, media: MediaLimits | undefined): number {
  if (media === undefined) return rule.maxBytes
  return rule.kinds.some(isMoving) ? media.videoBytes : media.imageBytes
}

export const isImage = (kind: FileKind): kind is 'png' | 'jpeg' => kind === 'png' || kind === 'jpeg'

/** Thumbnails fit in this box, keeping the aspect ratio. */
export const THUMB_SIZE = 320

/** The thumbnail's path or name for an original's path or name. */
export const thumbOf = (pathOrName: string): string => `${pathOrName.replace(/\.[a-z0-9]+$/i, '')}-thumb.webp`

/** Why an image is refused, or null when it decodes within the pixel limit. */
export async function checkImage(path: string, maxPixels: number): Promise<'pixels' | 'broken' | null> {
  try {
    // metadata() reads the header only: the declared size is known before anything is decoded.
    const { width, height } = await (await sharp(path, { limitInputPixels: false })).metadata()
    if (width * height > maxPixels) return 'pixels'
    return null
  } catch {
    return 'broken'
  }
}

/**
 * Writes the thumbnail of an image. The pixel limit is passed to the decoder as well, so a file
 * whose header understates its size still stops at the limit. Throws when the image does not decode.
 */
export async function makeThumbnail(path: string, target: string, maxPixels: number): Promise<void> {
  await (await sharp(path, { limitInputPixels: maxPixels }))
    .rotate()
    .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .toFile(target)
}

/** JPEG quality of a cleaned original: a second encoding at this quality shows no visible loss. */
export const CLEAN_JPEG_QUALITY = 90

/**
 * PNG chunks that are the image: its pixels, palette and transparency, how to show its colours
 * and size, and APNG's frames. Every other chunk goes: text (tEXt, zTXt, iTXt: comments, XMP),
 * eXIf, tIME, and any private chunk (content credentials and whatever an editor leaves).
 */
const PNG_IMAGE_CHUNKS = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'cHRM', 'gAMA', 'iCCP', 'sBIT', 'sRGB', 'cICP', 'mDCv', 'cLLi', 'bKGD', 'hIST', 'pHYs', 'sPLT', 'acTL', 'fcTL', 'fdAT'])
const PNG_SIGNATURE_BYTES = 8

/** A PNG's bytes with only its image chunks, or null when its chunks do not parse. */
export function pngImageChunks(png: Buffer): Buffer | null {
  const kept: Buffer[] = [png.subarray(0, PNG_SIGNATURE_BYTES)]
  let at = PNG_SIGNATURE_BYTES
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at)
    const end = at + 12 + length
    if (end > png.length) return null
    const type = png.toString('latin1', at + 4, at + 8)
    if (PNG_IMAGE_CHUNKS.has(type)) kept.push(png.subarray(at, end))
    at = end
    // Whatever follows IEND is no part of the image.
    if (type === 'IEND') return Buffer.concat(kept)
  }
  return null
}

/**
 * Rewrites an uploaded image without its metadata, in place, and returns its size in bytes.
 * Originals are served to anyone with the link, and a photo's EXIF can carry where it was taken
 * (GPS), when, with which device and its serial number, and an editor's XMP or IPTC the author's
 * name: none of it is the image, so none of it is kept.
 *
 * - A JPEG is decoded and encoded again at CLEAN_JPEG_QUALITY, with its EXIF orientation applied
 *   to the pixels first (a photo taken sideways stays upright once the tag that said so is gone).
 *   Its metadata lives in segments of many kinds, some unnamed by any decoder, and in pictures
 *   appended after its end: only a new encoding is sure to carry none.
 * - A PNG keeps its pixels as they are (lossless, an APNG's animation too): only its image chunks
 *   stay, and a PNG that had nothing else is left byte for byte. One whose eXIf turned it (rare)
 *   is decoded and encoded again, upright.
 *
 * The ICC profile stays: it is colour, not a person, and without it a wide-gamut photo shows
 * washed out. The pixel limit holds here as for the thumbnail. Throws when the image does not decode.
 */
export async function cleanImage(path: string, kind: 'png' | 'jpeg', maxPixels: number): Promise<number> {
  const target = `${path}.clean`
  try {
    const input = await sharp(path, { limitInputPixels: maxPixels })
    if (kind === 'png' && ((await input.metadata()).orientation ?? 1) === 1) {
      const original = await readFile(path)
      const image = pngImageChunks(original)
      if (image === null) throw new Error('the PNG chunks do not parse')
      if (image.length === original.length) return original.length
      await writeFile(target, image, { mode: 0o600 })
    } else {
      // sharp writes no metadata unless asked to (withMetadata, withExif...): only the profile is asked for.
      const upright = input.autoOrient().keepIccProfile()
      await (kind === 'png' ? upright.png() : upright.jpeg({ quality: CLEAN_JPEG_QUALITY })).toFile(target)
    }
    await rename(target, path)
    return (await stat(path)).size
  } finally {
    await rm(target, { force: true })
  }
}

export const tooManyPixels = (maxPixels: number): string => `Image is too large: at most ${Math.floor(maxPixels / 1_000_000)} megapixels`
