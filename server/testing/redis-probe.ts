/**
 * Whether the Redis of the several-instance tests answers (REDIS_URL, else the local default),
 * without keeping a connection: the tests that need it run only then.
 */
import { createConnection } from 'node:net'

export const TEST_REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379'

export async function redisAnswers(url: string = TEST_REDIS_URL): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) })
    socket.setTimeout(1000)
    socket.once('connect', () => {
      socket.end()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => {
      socket.destroy()
      resolve(false)
    })
  })
}
