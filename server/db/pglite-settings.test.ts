/**
 * PGLITE_SHARED_BUFFERS_MB reaches the embedded engine: the server's PGlite starts with the
 * configured shared buffers (its memory), and the default configuration asks for 48 MB.
 */
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { loadConfig } from '../config.ts'
import { openDb } from './index.ts'

describe('PGlite settings', () => {
  it('starts PGlite with the configured shared buffers', async () => {
    const handle = await openDb({ kind: 'pglite', dir: null, sharedBuffersMb: 32 })
    try {
      const shown = z.object({ rows: z.array(z.object({ shared_buffers: z.string() })) }).parse(await handle.db.execute(sql`show shared_buffers`))
      expect(shown.rows[0]?.shared_buffers).toBe('32MB')
    } finally {
      await handle.close()
    }
  })

  it('asks for 48 MB unless PGLITE_SHARED_BUFFERS_MB says otherwise, and refuses nonsense', () => {
    const env = { JWT_SECRET: 'x'.repeat(32) }
    expect(loadConfig(env).database).toMatchObject({ kind: 'pglite', sharedBuffersMb: 48 })
    expect(loadConfig({ ...env, PGLITE_SHARED_BUFFERS_MB: '256' }).database).toMatchObject({ sharedBuffersMb: 256 })
    expect(() => loadConfig({ ...env, PGLITE_SHARED_BUFFERS_MB: '1' })).toThrow(/PGLITE_SHARED_BUFFERS_MB/)
  })
})
