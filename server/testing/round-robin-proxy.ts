/**
 * A load balancer without sticky sessions, for the cluster test: each HTTP request and each
 * WebSocket upgrade goes to the next instance in turn, whatever came before from the same client.
 */
import http from 'node:http'
import net from 'node:net'

export interface RoundRobinProxy {
  base: string
  /** Which instance each request and upgrade went to, in order ('http' or 'upgrade', and its base). */
  routed: { kind: 'http' | 'upgrade'; target: string }[]
  close: () => Promise<void>
}

export async function roundRobinProxy(targets: readonly string[]): Promise<RoundRobinProxy> {
  if (targets.length === 0) throw new Error('roundRobinProxy: no targets')
  let turn = 0
  const routed: RoundRobinProxy['routed'] = []
  const pick = (kind: 'http' | 'upgrade'): URL => {
    const target = targets[turn++ % targets.length] ?? ''
    routed.push({ kind, target })
    return new URL(target)
  }
  const open = new Set<net.Socket>()
  const track = (socket: net.Socket) => {
    open.add(socket)
    socket.once('close', () => open.delete(socket))
  }

  const server = http.createServer((request, response) => {
    const target = pick('http')
    const upstream = http.request({ host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    })
    upstream.once('error', () => {
      if (!response.headersSent) response.writeHead(502)
      response.end()
    })
    request.pipe(upstream)
  })
  server.on('connection', track)
  server.on('upgrade', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = pick('upgrade')
    const upstream = net.connect(Number(target.port), target.hostname, () => {
      const lines = [`${request.method ?? 'GET'} ${request.url ?? '/'} HTTP/${request.httpVersion}`]
      for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`)
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`)
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    track(upstream)
    const end = () => {
      upstream.destroy()
      client.destroy()
    }
    upstream.once('error', end)
    client.once('error', end)
    upstream.once('close', end)
    client.once('close', end)
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    base: `http://127.0.0.1:${port}`,
    routed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
