/**
 * A minimal PNG encoder (8-bit RGB, no interlace) on node:zlib: the demo's category images and the
 * tests' real PNG uploads, without an image package.
 */
import { deflateSync } from 'node:zlib'

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

/** One PNG chunk: length, type, data and CRC (also for tests that build a malformed file). */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

export type Rgb = readonly [number, number, number]

/**
 * Wraps filtered scanlines (each row led by its filter byte) into a PNG file: 8-bit RGB or RGBA,
 * no interlace. Also used by scripts/make-icons.ts for the PWA icons (RGBA).
 */
export function pngFile(width: number, height: number, colour: 'rgb' | 'rgba', filteredRows: Buffer): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = colour === 'rgb' ? 2 : 6
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(filteredRows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** Encodes an image whose pixel colours come from `pixel(x, y)`. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height)
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1)
    raw[row] = 0 // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y)
      raw.set([r, g, b], row + 1 + x * 3)
    }
  }
  return pngFile(width, height, 'rgb', raw)
}

/** A soft diagonal gradient between two colours with a lighter disc in the middle: a tidy icon. */
export function gradientIcon(size: number, from: Rgb, to: Rgb): Buffer {
  const mix = (a: number, b: number, t: number): number => Math.round(a + (b - a) * t)
  return encodePng(size, size, (x, y) => {
    const t = (x + y) / (2 * (size - 1))
    const base: Rgb = [mix(from[0], to[0], t), mix(from[1], to[1], t), mix(from[2], to[2], t)]
    const dx = x - size / 2
    const dy = y - size / 2
    const inDisc = dx * dx + dy * dy < (size * 0.28) ** 2
    return inDisc ? [mix(base[0], 255, 0.55), mix(base[1], 255, 0.55), mix(base[2], 255, 0.55)] : base
  })
}
