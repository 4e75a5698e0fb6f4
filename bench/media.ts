/**
 * `--only=media`: a 100 MiB video uploaded through the real server (`POST /api/admin/addcms`,
 * multipart, with one image, as Add Games sends it), on one engine. The bench streams the body
 * from a 1 MiB block it repeats, so its own memory stays small, and the server runs in a child
 * process whose RSS is read from /proc: the growth is the peak during the upload minus the RSS
 * just before it. A small upload first loads what the first upload of a process loads (the
 * multipart parser, the image library), so the measured uploads count only what each upload costs.
 * Each upload is then checked: the stored video answers a range request with its full size.
 */
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { categoryDropdown } from '../contract/catalog.ts'
import { Done } from '../contract/common.ts'
import { listCms } from '../contract/games.ts'
import { encodePng } from '../server/db/png.ts'
import type { Engine } from './engines.ts'
import { bearer, f1, login, printRows, startServer, watchPeak } from './lib.ts'

const MIB = 1024 * 1024
/** The target: the server grows by less than 50 MB while a 100 MB video uploads. */
export const GROWTH_TARGET_MIB = 50e6 / MIB

export interface Upload {
  seconds: number
  mibPerSecond: number
  rssBeforeMiB: number
  peakRssMiB: number
  growthMiB: number
}

export interface MediaResult {
  engine: Engine['engine']
  version: string
  videoBytes: number
  uploads: Upload[]
  worstGrowthMiB: number
  medianSeconds: number
  peakFrom: string
}

/** An MP4 as the server identifies one (an `ftyp` box with the isom brand), then one `mdat` box of filler. */
async function* mp4Bytes(total: number): AsyncGenerator<Uint8Array> {
  const ftyp = Buffer.alloc(24)
  ftyp.writeUInt32BE(24, 0)
  ftyp.write('ftypisom', 4, 'latin1')
  ftyp.writeUInt32BE(0x200, 12)
  ftyp.write('isommp41', 16, 'latin1')
  const mdat = Buffer.alloc(8)
  mdat.writeUInt32BE(total - 24, 0)
  mdat.write('mdat', 4, 'latin1')
  yield ftyp
  yield mdat
  const block = randomBytes(MIB)
  for (let left = total - 32; left > 0; left -= block.length) yield left >= block.length ? block : block.subarray(0, left)
}

/** A multipart body of text fields and files, streamed part by part. */
async function* multipart(boundary: string, fields: Record<string, string>, files: { field: string; name: string; type: string; body: AsyncIterable<Uint8Array> }[]): AsyncGenerator<Uint8Array> {
  for (const [name, value] of Object.entries(fields)) {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  }
  for (const f of files) {
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`)
    yield* f.body
    yield Buffer.from('\r\n')
  }
  yield Buffer.from(`--${boundary}--\r\n`)
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

/** Posts a multipart body, streamed with backpressure (node:http, so no body is ever held whole); throws unless the answer is `status: success`. */
async function post(url: string, token: string, fields: Record<string, string>, files: Parameters<typeof multipart>[2]): Promise<void> {
  const boundary = `----bench${randomBytes(12).toString('hex')}`
  const req = request(url, { method: 'POST', headers: { authorization: bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` } })
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.once('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.once('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
      res.once('error', reject)
    })
    req.once('error', reject)
  })
  // A server that answers early (413) may close before the body is through: its answer is what counts.
  await pipeline(Readable.from(multipart(boundary, fields, files)), req).catch(() => {})
  const { status, text } = await answer
  const body = Done.safeParse(JSON.parse(text))
  if (status !== 200 || !body.success) throw new Error(`POST ${url}: HTTP ${status} ${text.slice(0, 300)}`)
}

const image = encodePng(64, 64, (x, y) => [x * 4, y * 4, 128])
const imageFile = () => ({ field: 'image', name: 'cover.png', type: 'image/png', body: once(image) })

/** The stored size of the video of the game titled `title`, from a one-byte range request. */
async function storedVideoBytes(base: string, token: string, title: string): Promise<number> {
  const res = await fetch(`${base}/api/admin/listCms?search=${encodeURIComponent(title)}`, { headers: { authorization: bearer(token) } })
  const [game] = listCms.output.parse(await res.json()).result
  const video = game?.title === title ? game.video : ''
  if (video === '') throw new Error(`no video stored for "${title}"`)
  const range = await fetch(`${base}${video}`, { headers: { range: 'bytes=0-0' } })
  await range.arrayBuffer()
  const total = /\/(\d+)$/.exec(range.headers.get('content-range') ?? '')?.[1]
  if (range.status !== 206 || total === undefined) throw new Error(`GET ${video} with a range: HTTP ${range.status}`)
  return Number(total)
}

export async function benchMedia(e: Engine, videoMiB: number, uploads: number, log: (s: string) => void): Promise<MediaResult> {
  const videoBytes = Math.round(videoMiB * MIB)
  const server = await startServer({ ...e.env, UPLOAD_VIDEO_MAX_MB: String(Math.max(200, Math.ceil(videoMiB) + 1)) })
  try {
    const token = await login(server.base)
    const api = `${server.base}/api/admin`
    await post(`${api}/addcategory`, token, { categoryName: 'Bench' }, [imageFile()])
    const dropdown = categoryDropdown.output.parse(await (await fetch(`${api}/categoryDropdown`, { headers: { authorization: bearer(token) } })).json())
    const found = dropdown.result.data[0]?._id
    if (found === undefined) throw new Error('categoryDropdown named no category')
    const addGame = (title: string, bytes: number) =>
      post(`${api}/addcms`, token, { title, description: 'Uploaded by the bench', categoryName: found, operatingsystem: 'both', liveLink: 'https://play.example.com/bench', isGameBackend: 'false' }, [
        imageFile(),
        { field: 'video', name: 'trailer.mp4', type: 'video/mp4', body: mp4Bytes(bytes) },
      ])

    await addGame('Bench warm-up', MIB)
    log(`${e.engine}: ${uploads} uploads of a ${videoMiB} MiB video (after one of 1 MiB, not counted)`)
    const done: Upload[] = []
    let peakFrom = ''
    for (let i = 1; i <= uploads; i++) {
      const title = `Bench video ${i}`
      const t0 = performance.now()
      const watched = await watchPeak(server.pid, () => addGame(title, videoBytes))
      const seconds = (performance.now() - t0) / 1000
      const stored = await storedVideoBytes(server.base, token, title)
      if (stored !== videoBytes) throw new Error(`the stored video holds ${stored} bytes, ${videoBytes} were sent`)
      peakFrom = watched.peakFrom
      done.push({ seconds, mibPerSecond: videoMiB / seconds, rssBeforeMiB: watched.rssBeforeMiB, peakRssMiB: watched.peakRssMiB, growthMiB: watched.peakRssMiB - watched.rssBeforeMiB })
    }
    const times = done.map((u) => u.seconds).sort((a, b) => a - b)
    return {
      engine: e.engine,
      version: e.version,
      videoBytes,
      uploads: done,
      worstGrowthMiB: Math.max(...done.map((u) => u.growthMiB)),
      medianSeconds: times[Math.floor((times.length - 1) / 2)] ?? NaN,
      peakFrom,
    }
  } finally {
    await server.stop()
  }
}

export function printMedia(results: readonly MediaResult[]): void {
  const first = results[0]
  if (first === undefined) return
  console.log(`\nVideo upload through addcms: ${f1(first.videoBytes / MIB)} MiB, ${first.uploads.length} uploads per engine (peak from ${first.peakFrom})`)
  const rows = results.map((r) => [
    r.version,
    r.uploads.map((u) => u.seconds.toFixed(2)).join(', '),
    r.uploads.map((u) => f1(u.mibPerSecond)).join(', '),
    r.uploads.map((u) => f1(u.rssBeforeMiB)).join(', '),
    r.uploads.map((u) => f1(u.growthMiB)).join(', '),
    f1(r.worstGrowthMiB),
  ])
  rows.push(['target', '', '', '', '', `< ${f1(GROWTH_TARGET_MIB)} (50 MB)`])
  printRows(['engine', 'seconds', 'MiB/s', 'RSS before MiB', 'RSS growth MiB', 'worst growth MiB'], rows)
}
