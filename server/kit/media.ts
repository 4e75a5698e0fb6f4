/**
 * Media rules beyond the contract's file rules: byte limits per kind of file set by the
 * environment, the pixel limit that keeps a small file from decoding into gigabytes (a
 * decompression bomb), and the thumbnails lists show instead of the originals.
 *
 * A thumbnail lives beside its original under a name derived from it (`<name>-thumb.webp`), so
 * no column records it and removing the original removes it too.
 */
import type { Sharp, SharpOptions } from 'sharp'
import type { FileKind, FileRule } from '#contract/define'

export interface MediaLimits {
  /** Bytes an image may have. */
  imageBytes: number
  /** Bytes a video (or audio) file may have. */
  videoBytes: number
  /** Width times height an image may declare. */
  maxPixels: number
}

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

export const isImage = (kind: FileKind): boolean => kind === 'png' || kind === 'jpeg'

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

export const tooManyPixels = (maxPixels: number): string => `Image is too large: at most ${Math.floor(maxPixels / 1_000_000)} megapixels`
