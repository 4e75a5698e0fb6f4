/**
 * The built PWA under /admin/ and the Content-Security-Policy every answer carries.
 *
 * Two shells come out of the build (vite.config.ts): `index.html`, a loading state in #root for every
 * client route, and `login.html`, the login screen already rendered with its CSS inlined, sent
 * for /admin/login only, so the login paints before any script runs and no other route shows a
 * login form first. The service worker precaches both and picks the same way (sw/sw.ts).
 *
 * Style elements: the UI needs a few made at run time (Radix's scroll lock computes its rule, the
 * Radix select viewport, TipTap's base styles) and login.html inlines the stylesheet. Each shell
 * sent gets a fresh nonce, in its header's `style-src-elem` and in the page (`<meta
 * name="csp-nonce">`, read by src/ui/csp-nonce.ts); nothing else inline is allowed, and style
 * attributes never are (React sets styles through the CSSOM, which CSP does not govern).
 *
 * The trade-off of the offline shell: the service worker stores a shell with the header it came
 * with and answers navigations with that copy, so an installed app reuses the nonce of its
 * precache until the next update. It still names only style elements (scripts never take a
 * nonce), and markup that could not run a script cannot read it; the alternative, a
 * network-first shell, would make every start wait for the network and break starting offline.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** Where the build leaves the nonce of a shell (vite.config.ts, index.html). */
const NONCE_PLACEHOLDER = '__CSP_NONCE__'

/** The policy of every answer; a shell adds its nonce to `style-src-elem` (helmet takes these names). */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'style-src-elem': ["'self'"],
  'style-src-attr': ["'none'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
}

/** The Content-Security-Policy header of a shell whose style elements carry `nonce`. */
export function shellPolicy(nonce: string): string {
  return Object.entries(CSP_DIRECTIVES)
    .map(([name, values]) => [name, ...values, ...(name === 'style-src-elem' ? [`'nonce-${nonce}'`] : [])].join(' '))
    .join('; ')
}

/** A shell file split at its nonce placeholders, read again when the file changes (a build after start). */
class Shell {
  private parts: string[] = []
  private stamp = ''
  constructor(readonly file: string) {}

  exists(): boolean {
    return existsSync(this.file)
  }

  render(nonce: string): string {
    const stat = statSync(this.file)
    const stamp = `${stat.mtimeMs}:${stat.size}`
    if (stamp !== this.stamp) {
      this.parts = readFileSync(this.file, 'utf8').split(NONCE_PLACEHOLDER)
      this.stamp = stamp
    }
    return this.parts.join(nonce)
  }
}

/** Sends a shell with a fresh nonce, compressed as the browser accepts (each body differs, so not precompressed). */
function sendShell(request: FastifyRequest, reply: FastifyReply, shell: Shell): FastifyReply {
  const nonce = randomBytes(16).toString('base64')
  const html = Buffer.from(shell.render(nonce))
  const accepts = String(request.headers['accept-encoding'] ?? '')
  void reply
    .header('Content-Security-Policy', shellPolicy(nonce))
    .header('Cache-Control', 'no-cache')
    .header('Vary', 'Accept-Encoding')
    .type('text/html; charset=utf-8')
  if (/\bbr\b/.test(accepts)) {
    return reply.header('Content-Encoding', 'br').send(brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }))
  }
  if (/\bgzip\b/.test(accepts)) return reply.header('Content-Encoding', 'gzip').send(gzipSync(html, { level: 6 }))
  return reply.send(html)
}

/** The built PWA under /admin/, a shell for every client route; `/` goes there. */
export function registerPwa(app: FastifyInstance, distDir: string): void {
  const index = new Shell(join(distDir, 'index.html'))
  const login = new Shell(join(distDir, 'login.html'))
  const shellFor = (path: string) => (path === '/admin/login' && login.exists() ? login : index)

  app.get('/', (_request, reply) => reply.redirect('/admin/'))
  app.get('/admin', (_request, reply) => reply.redirect('/admin/'))
  if (index.exists()) {
    // The shells by name too: the service worker precaches them at these addresses.
    app.get('/admin/', (request, reply) => sendShell(request, reply, index))
    app.get('/admin/index.html', (request, reply) => sendShell(request, reply, index))
    app.get('/admin/login.html', (request, reply) => sendShell(request, reply, login.exists() ? login : index))
    void app.register(fastifyStatic, {
      root: distDir,
      prefix: '/admin/',
      decorateReply: false,
      index: false,
      wildcard: true,
      // The build writes .br and .gz beside each JS, CSS, SVG and manifest file (vite.config.ts, precompress).
      preCompressed: true,
      setHeaders: (reply, path) => {
        // Hashed build assets never change; everything else (sw.js, icons) is revalidated.
        reply.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    if (path.startsWith('/api/')) return reply.code(404).send({ status: 'failed', message: 'Not found' })
    if (request.method === 'GET' && (path === '/admin/' || path.startsWith('/admin/'))) {
      if (!index.exists()) {
        return reply.code(503).type('text/plain; charset=utf-8').send('The admin app is not built yet: run npm run build (npm start does it for you).')
      }
      // A file-like path (an asset) that is missing is a real 404, not a client route.
      if (/\.[a-z0-9]+$/i.test(path)) return reply.code(404).type('text/plain; charset=utf-8').send('Not found')
      // Read at each request rather than at start: it works even when dist/ was built after start.
      return sendShell(request, reply, shellFor(path))
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found')
  })
}
