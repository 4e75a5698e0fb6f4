/**
 * GET /uploads/<name>: stored uploads and thumbnails, from whichever storage holds them
 * (server/kit/ground/storage.ts), with byte ranges (a video seeks, Safari asks for bytes=0-1 first).
 *
 * Only names the server gives (`<uuid>.<ext>` and `<uuid>-thumb.webp`) are looked up: nothing
 * else in the folder or bucket is ever served. Names are random and never reused, so an answer
 * may be cached for good and a range never needs an If-Range check.
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { ApiFailure } from './answers.ts'
import { NotStored, type ByteRange, type ObjectStorage } from '../ground/storage.ts'
import { storedName, uploadUrl } from '../ground/uploads.ts'

const THUMB = /^[0-9a-f-]{36}-thumb\.webp$/
const servable = (name: string): boolean => storedName(uploadUrl(name)) === name || THUMB.test(name)

/**
 * The one range of a Range header: 'none' when there is none or it is not one we answer (several
 * ranges, another unit, bad syntax: RFC 9110 lets a server send the whole file then), 'unsatisfiable'
 * when it starts past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'none' | 'unsatisfiable' {
  if (header === undefined) return 'none'
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (match === null) return 'none'
  const [, from = '', to = ''] = match
  if (from === '' && to === '') return 'none'
  if (from === '') {
    // The last N bytes.
    const suffix = Number(to)
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(from)
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1)
  if (to !== '' && Number(to) < start) return 'none'
  if (start >= size) return 'unsatisfiable'
  return { start, end }
}

const NOT_FOUND = (): ApiFailure => new ApiFailure(404, 'Not found')

export function serveUploads(app: FastifyInstance, storage: ObjectStorage): void {
  // HEAD is declared with GET, rather than left to Fastify's automatic one, which answers Content-Length: 0.
  app.route<{ Params: { name: string } }>({
    method: ['GET', 'HEAD'],
    url: '/uploads/:name',
    handler: async (request, reply) => {
      const { name } = request.params
      if (!servable(name)) throw NOT_FOUND()
      const info = await storage.stat(name)
      if (info === null) throw NOT_FOUND()
      const etag = `"${info.size.toString(16)}-${info.modified.getTime().toString(16)}"`
      headers(reply).header('Content-Type', info.type).header('Last-Modified', info.modified.toUTCString()).header('ETag', etag)
      if (request.headers['if-none-match'] === etag) return reply.code(304).send()

      const range = parseRange(request.headers.range, info.size)
      if (range === 'unsatisfiable') return reply.code(416).header('Content-Range', `bytes */${info.size}`).send()
      const part = range === 'none' ? null : range
      reply.header('Content-Length', part === null ? info.size : part.end - part.start + 1)
      if (part !== null) reply.code(206).header('Content-Range', `bytes ${part.start}-${part.end}/${info.size}`)
      if (request.method === 'HEAD') return reply.send()
      try {
        return reply.send(await storage.read(name, part ?? undefined))
      } catch (error) {
        // Removed between the stat and the read (a delete or the sweep).
        if (error instanceof NotStored) throw NOT_FOUND()
        throw error
      }
    },
  })
}

function headers(reply: FastifyReply): FastifyReply {
  // Names are random and never reused, so the files can be cached for good. The sandbox CSP
  // keeps anything that slipped past the content check from running as a page.
  return reply
    .header('Cache-Control', 'public, max-age=31536000, immutable')
    .header('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox")
    .header('Accept-Ranges', 'bytes')
}
