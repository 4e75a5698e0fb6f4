/**
 * Removing the metadata of an uploaded video or audio file without encoding it again, as
 * cleanImage (media.ts) does for images: the originals are served to anyone with the link, and a
 * phone's video carries where it was filmed (QuickTime's ©xyz, 3GPP's loci, Apple's
 * com.apple.quicktime.location.ISO6709), when, the device and its owner's name.
 *
 * The file is changed in place, byte ranges overwritten and nothing moved: the sample tables of
 * an MP4 point at absolute file offsets, and a box removed would shift every offset after it.
 *
 * - MP4 and M4A (ISO base media): every user-data and metadata box (`udta`, `meta`, `uuid` such as
 *   XMP), at the top and inside the movie, its tracks and fragments, becomes a `free` box of the
 *   same size with its content zeroed; a `free` or `skip` box's content (which may hold what an
 *   editor took out) is zeroed too. Players skip `free` boxes by definition.
 * - WebM (Matroska): Tags and Attachments, and the segment Info's Title and DateUTC, become Void
 *   elements of the same size, zeroed; players skip Void elements by definition.
 *
 * What this does not reach: a track of its own that records positions as samples (a dashcam's
 * GPS track, GoPro's telemetry), which is media, not metadata. A file whose structure does not
 * parse is refused rather than stored with what it might carry.
 */
import { open, type FileHandle } from 'node:fs/promises'

/** The file's structure does not parse: it is refused. */
export class MediaUnreadable extends Error {}

/** Overwrites `length` bytes at `at` with zeros, a piece at a time (a box may be large). */
async function zero(file: FileHandle, at: number, length: number): Promise<void> {
  const piece = Buffer.alloc(Math.min(length, 1 << 20))
  for (let done = 0; done < length; done += piece.length) await file.write(piece, 0, Math.min(piece.length, length - done), at + done)
}

async function readAt(file: FileHandle, at: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length)
  const { bytesRead } = await file.read(buffer, 0, length, at)
  return buffer.subarray(0, bytesRead)
}

/** Boxes that hold other boxes and may hold metadata among them. */
const MP4_CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'moof', 'traf', 'mvex', 'edts'])
/** Boxes of metadata: made `free`, their content zeroed. */
const MP4_METADATA = new Set(['udta', 'meta', 'uuid', 'ID32', 'XMP_'])
const MP4_FILLER = new Set(['free', 'skip'])

/** Strips the metadata boxes of an ISO base media file (MP4, M4A) between `start` and `end`. Returns the boxes made free. */
async function cleanBoxes(file: FileHandle, start: number, end: number): Promise<number> {
  let cleaned = 0
  let at = start
  while (at < end) {
    if (end - at < 8) {
      // Trailing padding inside a container is allowed only as zeros.
      if ((await readAt(file, at, end - at)).every((b) => b === 0)) break
      throw new MediaUnreadable('a box header is cut off')
    }
    const head = await readAt(file, at, 16)
    if (head.length < 8) throw new MediaUnreadable('a box header is cut off')
    let size = head.readUInt32BE(0)
    const type = head.toString('latin1', 4, 8)
    let header = 8
    if (size === 1) {
      if (head.length < 16) throw new MediaUnreadable('a large box header is cut off')
      size = Number(head.readBigUInt64BE(8))
      header = 16
    } else if (size === 0) {
      size = end - at
    }
    if (size < header || at + size > end) throw new MediaUnreadable(`the box ${JSON.stringify(type)} runs past its container`)
    if (MP4_METADATA.has(type)) {
      await file.write(Buffer.from('free', 'latin1'), 0, 4, at + 4)
      await zero(file, at + header, size - header)
      cleaned += 1
    } else if (MP4_FILLER.has(type)) {
      await zero(file, at + header, size - header)
    } else if (MP4_CONTAINERS.has(type)) {
      cleaned += await cleanBoxes(file, at + header, at + size)
    }
    at += size
  }
  return cleaned
}

// Matroska element ids (with their length marker bits, as they appear in the file).
const EBML_HEADER = 0x1a45dfa3
const SEGMENT = 0x18538067
const CLUSTER = 0x1f43b675
const INFO = 0x1549a966
const VOID = 0xec
/** Removed wherever they are met at segment level. */
const WEBM_METADATA = new Set([0x1254c367 /* Tags */, 0x1941a469 /* Attachments */])
/** Removed inside Info: the title and the time it was made. */
const INFO_METADATA = new Set([0x7ba9 /* Title */, 0x4461 /* DateUTC */])
/** What a Cluster of unknown size may hold: any other id ends it. */
const CLUSTER_CHILDREN = new Set([0xe7, 0xa3, 0xa0, 0xa7, 0xab, 0xa1, 0x5854, 0xaf])

interface Element {
  id: number
  /** Where its data starts. */
  data: number
  /** Its data's length; null when unknown (a live recording's Segment or Cluster). */
  size: number | null
}

/** Reads the element header at `at`: its id (marker bits kept) and data size. */
async function element(file: FileHandle, at: number): Promise<Element> {
  const head = await readAt(file, at, 12)
  const first = head[0]
  if (first === undefined) throw new MediaUnreadable('an element header is cut off')
  const idLength = Math.clz32(first) - 23
  if (idLength < 1 || idLength > 4 || head.length < idLength + 1) throw new MediaUnreadable('an element id does not parse')
  let id = 0
  for (let i = 0; i < idLength; i++) id = id * 256 + (head[i] ?? 0)
  const sizeFirst = head[idLength] ?? 0
  const sizeLength = Math.clz32(sizeFirst) - 23
  if (sizeLength < 1 || sizeLength > 8 || head.length < idLength + sizeLength) throw new MediaUnreadable('an element size does not parse')
  let size = sizeFirst & (0xff >> sizeLength)
  let unknown = size === 0xff >> sizeLength
  for (let i = 1; i < sizeLength; i++) {
    const byte = head[idLength + i] ?? 0
    size = size * 256 + byte
    if (byte !== 0xff) unknown = false
  }
  return { id, data: at + idLength + sizeLength, size: unknown ? null : size }
}

/** Overwrites the element from `at` to `end` with a Void element of the same length, zeroed. */
async function voidOut(file: FileHandle, at: number, end: number): Promise<void> {
  const total = end - at
  if (total < 2) throw new MediaUnreadable('an element too small to void')
  const width = Math.min(8, total - 1)
  const dataLength = total - 1 - width
  const header = Buffer.alloc(1 + width)
  header[0] = VOID
  // The size as a vint of `width` bytes: the marker bit, then the value big-endian.
  let value = dataLength
  for (let i = width; i >= 1; i--) {
    header[i] = value & 0xff
    value = Math.floor(value / 256)
  }
  header[1] = (header[1] ?? 0) | (0x80 >> (width - 1))
  await file.write(header, 0, header.length, at)
  await zero(file, at + header.length, dataLength)
}

/** Strips a WebM file's metadata elements. Returns the elements voided. */
async function cleanWebm(file: FileHandle, length: number): Promise<number> {
  let cleaned = 0
  let at = 0
  while (at < length) {
    const top = await element(file, at)
    if (top.id === EBML_HEADER && top.size !== null) {
      at = top.data + top.size
      continue
    }
    if (top.id !== SEGMENT) throw new MediaUnreadable('no Segment where one is expected')
    const end = top.size === null ? length : Math.min(length, top.data + top.size)
    cleaned += await cleanSegment(file, top.data, end)
    at = end
  }
  return cleaned
}

async function cleanSegment(file: FileHandle, start: number, end: number): Promise<number> {
  let cleaned = 0
  let at = start
  while (at < end) {
    if (end - at < 2) break
    const child = await element(file, at)
    let childEnd: number
    if (child.size === null) {
      if (child.id !== CLUSTER) throw new MediaUnreadable('an element of unknown size that is no Cluster')
      childEnd = await clusterEnd(file, child.data, end)
    } else {
      childEnd = child.data + child.size
    }
    if (childEnd > end) throw new MediaUnreadable('an element runs past its segment')
    if (WEBM_METADATA.has(child.id)) {
      await voidOut(file, at, childEnd)
      cleaned += 1
    } else if (child.id === INFO) {
      let inner = child.data
      while (inner < childEnd) {
        const field = await element(file, inner)
        if (field.size === null) throw new MediaUnreadable('an Info field of unknown size')
        const fieldEnd = field.data + field.size
        if (fieldEnd > childEnd) throw new MediaUnreadable('an Info field runs past Info')
        if (INFO_METADATA.has(field.id)) {
          await voidOut(file, inner, fieldEnd)
          cleaned += 1
        }
        inner = fieldEnd
      }
    }
    at = childEnd
  }
  return cleaned
}

/** Where a Cluster of unknown size ends: at the first element that cannot be its child. */
async function clusterEnd(file: FileHandle, start: number, end: number): Promise<number> {
  let at = start
  while (at < end) {
    const child = await element(file, at)
    if (!CLUSTER_CHILDREN.has(child.id)) return at
    if (child.size === null) throw new MediaUnreadable('a Cluster child of unknown size')
    at = child.data + child.size
  }
  return end
}

/**
 * Removes the metadata of an uploaded MP4, M4A or WebM file, in place (see above). Returns how
 * many boxes or elements were emptied; throws MediaUnreadable when the structure does not parse.
 */
export async function cleanMedia(path: string, kind: 'mp4' | 'm4a' | 'webm'): Promise<number> {
  const file = await open(path, 'r+')
  try {
    const { size } = await file.stat()
    return kind === 'webm' ? await cleanWebm(file, size) : await cleanBoxes(file, 0, size)
  } finally {
    await file.close()
  }
}
