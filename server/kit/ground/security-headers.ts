/**
 * The security headers of every answer (Content-Security-Policy, Referrer-Policy,
 * Cross-Origin-Resource-Policy, HSTS, nosniff, frame options...), as @fastify/helmet makes them,
 * worked out once at start rather than on every request.
 *
 * Why: helmet builds its headers again for each request, which halved the requests a public read
 * could be answered at (the referral redirect, the restricted countries; `npm run bench --
 * --only=public`). Nothing in them depends on the request (no nonce: the PWA's shells set their
 * own policy with theirs, server/pwa.ts), so the headers helmet answers a first request with are
 * the headers of every request, and helmet stays the one that decides them.
 */
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet'
import Fastify, { type FastifyInstance } from 'fastify'

/** The headers helmet sets with these options, read from its answer to one request. */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Readonly<Record<string, string>>> {
  const probe = Fastify({ logger: false })
  try {
    await probe.register(helmet, options)
    probe.get('/', async () => '')
    const answer = await probe.inject({ method: 'GET', url: '/' })
    const defaults = await defaultHeaders()
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(answer.headers)) {
      // Only what helmet added: not Fastify's own (content-type, length, date, connection).
      if (name in defaults || value === undefined) continue
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value)
    }
    return headers
  } finally {
    await probe.close()
  }
}

async function defaultHeaders(): Promise<Record<string, unknown>> {
  const plain = Fastify({ logger: false })
  try {
    plain.get('/', async () => '')
    return (await plain.inject({ method: 'GET', url: '/' })).headers
  } finally {
    await plain.close()
  }
}

/** Sets `headers` on every answer of `app`, from the first moment of each request (as helmet's hook did). */
export function sendSecurityHeaders(app: FastifyInstance, headers: Readonly<Record<string, string>>): void {
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers)
    done()
  })
}
