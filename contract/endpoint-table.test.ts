import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { endpointTable, endpointTableText } from './testing/endpoint-table.ts'

/**
 * The API's surface as a table: every endpoint's name, method and path, sorted by name. The
 * snapshot beside this file (contract/endpoint-table.json) is the table as it was last accepted,
 * and the contract may be reorganised freely (how endpoints are declared, where their names come
 * from) only as long as this table stays the same: a renamed key or a default path that differs
 * from the spelling of requirements R7 changes what the API answers, and fails here.
 *
 * Nobody edits the snapshot by hand: after adding or renaming an endpoint on purpose, rewrite it
 * with `UPDATE_SNAPSHOTS=1 npx vitest run contract/endpoint-table.test.ts` (or vitest's `-u`) and
 * review its diff. Without that request a difference fails, whichever side changed.
 */
const SNAPSHOT = join(import.meta.dirname, 'endpoint-table.json')

it('every endpoint keeps its name, method and path', async () => {
  const text = endpointTableText(await endpointTable(import.meta.dirname))
  if (process.env['UPDATE_SNAPSHOTS'] === '1') writeFileSync(SNAPSHOT, text)
  // vitest's file snapshot: compared as text, rewritten only under `-u`.
  await expect(text).toMatchFileSnapshot(SNAPSHOT)
})
