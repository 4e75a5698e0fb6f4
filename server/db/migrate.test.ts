import { readFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { scratchDatabase, testEngine } from '../testing/test-app.ts'
import { openDb } from './index.ts'

const journal = z.object({ entries: z.array(z.object({ tag: z.string() })) }).parse(JSON.parse(readFileSync(new URL('./migrations/meta/_journal.json', import.meta.url), 'utf8')))

describe.runIf(testEngine() === 'pg')('migrations with several instances', () => {
  it('four instances started at once on an empty database migrate it once, without an error', async () => {
    const scratch = await scratchDatabase({ empty: true })
    try {
      const handles = await Promise.all([1, 2, 3, 4].map(() => openDb(scratch.database)))
      const first = handles[0]
      if (first === undefined) throw new Error('no handle')
      const applied = z.object({ rows: z.array(z.object({ n: z.coerce.number() })) }).parse(await first.db.execute(sql`select count(*) as n from drizzle.__drizzle_migrations`))
      expect(applied.rows[0]?.n).toBe(journal.entries.length)
      await Promise.all(handles.map((h) => h.close()))
    } finally {
      await scratch.drop()
    }
  })
})
