import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { endpointTable } from './testing/endpoint-table.ts'

/**
 * The API's surface as a table: every endpoint's name, method and path, sorted by name. The
 * fixture beside this file was written from the contract as it stood, and the contract may be
 * reorganised freely (how endpoints are declared, where their names come from) only as long as
 * this table stays the same: a renamed key or a default path that differs from the
 * spelling of requirements R7 changes what the API answers, and fails here.
 */
it('every endpoint keeps its name, method and path', async () => {
  const table = await endpointTable(import.meta.dirname)
  const fixture: unknown = JSON.parse(readFileSync(join(import.meta.dirname, 'endpoint-table.json'), 'utf8'))
  expect(table).toEqual(fixture)
})
