/**
 * Draws the PWA icons into public/ (192, 512 and a maskable 512) without any image tool or
 * network: a few shapes rasterised with 4x4 supersampling and written as PNG by server/db/png.ts.
 * Run with `npx tsx scripts/make-icons.ts`; the PNGs are committed, so builds do not need it.
 */
import { writeFileSync } from 'node:fs'
import { pngFile } from '../server/db/png.ts'

type Rgba = [number, number, number, number]
const INDIGO: Rgba = [55, 48, 163, 255]
const WHITE: Rgba = [255, 255, 255, 255]
const CLEAR: Rgba = [0, 0, 0, 0]

/** Signed distance to a rounded rectangle centred at (cx, cy); negative inside. */
function roundedRect(x: number, y: number, cx: number, cy: number, w: number, h: number, r: number): number {
  const qx = Math.abs(x - cx) - (w / 2 - r)
  const qy = Math.abs(y - cy) - (h / 2 - r)
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r
}

/** The mark, in a unit square: three list rows (a dot and a bar each). */
function mark(u: number, v: number): boolean {
  for (const row of [0.3, 0.5, 0.7]) {
    if (Math.hypot(u - 0.3, v - row) < 0.055) return true
    if (roundedRect(u, v, 0.56, row, 0.36, 0.09, 0.045) < 0) return true
  }
  return false
}

function draw(size: number, maskable: boolean): Buffer {
  const samples = 4
  const rows: Buffer[] = []
  // The maskable icon fills the square and keeps the mark inside the central safe zone (80%).
  const scale = maskable ? 0.72 : 1
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4)
    for (let x = 0; x < size; x++) {
      const sum = [0, 0, 0, 0]
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const u = (x + (sx + 0.5) / samples) / size
          const v = (y + (sy + 0.5) / samples) / size
          const inTile = maskable || roundedRect(u, v, 0.5, 0.5, 1, 1, 0.19) < 0
          const mu = (u - 0.5) / scale + 0.5
          const mv = (v - 0.5) / scale + 0.5
          const color = !inTile ? CLEAR : mark(mu, mv) ? WHITE : INDIGO
          for (let i = 0; i < 4; i++) sum[i]! += color[i]!
        }
      }
      for (let i = 0; i < 4; i++) row[1 + x * 4 + i] = Math.round(sum[i]! / samples ** 2)
    }
    rows.push(row)
  }
  return pngFile(size, size, 'rgba', Buffer.concat(rows))
}

writeFileSync('public/icon-192.png', draw(192, false))
writeFileSync('public/icon-512.png', draw(512, false))
writeFileSync('public/icon-maskable-512.png', draw(512, true))
writeFileSync('public/apple-touch-icon.png', draw(180, true))
console.log('wrote public/icon-192.png, icon-512.png, icon-maskable-512.png, apple-touch-icon.png')
