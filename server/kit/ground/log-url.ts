/**
 * What the request log says of a URL: its path, and its query with every value masked
 * (`/api/admin/getLeads?search=***&page=***`). Query strings carry lead emails typed in searches
 * and the tokens of mailed links (confirmation, unsubscribe, password reset); a log line is kept
 * and read far more widely than the database, so none of it is written. A name that does not look
 * like a parameter name is masked too, as a bare `?someone@example.com` would be a value.
 */
/** The fields of a Fastify request the serializer reads (the socket may be gone when it logs). */
interface LoggedRequest {
  method: string
  url: string
  host: string
  ip: string
  socket?: { remotePort?: number | undefined } | undefined
}

const MASK = '***'
const PARAMETER_NAME = /^[A-Za-z0-9_.[\]-]{1,64}$/

/** The URL as the log shows it: the path as sent, each query value replaced by `***`. */
export function maskedUrl(url: string): string {
  const start = url.indexOf('?')
  if (start === -1) return url
  const query = url.slice(start + 1)
  if (query === '') return url
  const masked = query.split('&').map((part) => {
    if (part === '') return part
    const equals = part.indexOf('=')
    const name = part.slice(0, Math.max(equals, 0))
    return PARAMETER_NAME.test(name) ? `${name}=${MASK}` : MASK
  })
  return `${url.slice(0, start)}?${masked.join('&')}`
}

/**
 * Fastify's `req` log serializer (its default fields) with the URL masked: every line that names
 * a request (the incoming request, an error of the request) goes through it.
 */
export function logRequest(request: LoggedRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: maskedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}
