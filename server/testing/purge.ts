/**
 * Test support for undo (server/kit/request/undo.ts): ends every undo window now and runs the purge, as
 * the queue's purge job would once the windows had passed, so a test sees a deleted record's files
 * go without waiting.
 */
import { sql } from 'drizzle-orm'
import { trash } from '../db/schema.ts'
import { purgeExpired } from '../kit/request/undo.ts'
import type { TestApp } from './test-app.ts'

export async function purgeTrashNow(t: TestApp): Promise<void> {
  await t.handle.db.update(trash).set({ expiresAt: sql`now() - interval '1 second'` })
  while ((await purgeExpired(t.app.services)) === 'again');
}
