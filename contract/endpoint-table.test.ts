import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, it } from 'vitest'
import { isEndpoint, type Endpoint } from './define.ts'

/**
 * The API's surface as a table: every endpoint's name, method and path, sorted by name. The
 * fixture beside this file was written from the contract as it stood, and the contract may be
 * reorganised freely (how endpoints are declared, where their names come from) only as long as
 * this table stays the same: a renamed key or a default path that differs from the spec's
 * spelling changes what the API answers, and fails here.
 */
const modules: readonly Readonly<Record<string, unknown>>[] = await Promise.all(
  readdirSync(import.meta.dirname)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map(async (file): Promise<Readonly<Record<string, unknown>>> => await import(pathToFileURL(join(import.meta.dirname, file)).href)),
)
const endpoints: readonly Endpoint[] = [...new Set(modules.flatMap((m) => Object.values(m).filter(isEndpoint)))]

it('every endpoint keeps its name, method and path', () => {
  const table = endpoints.map((e) => [e.name, e.method, e.path]).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0))
  const fixture: unknown = JSON.parse(readFileSync(join(import.meta.dirname, 'endpoint-table.json'), 'utf8'))
  expect(table).toEqual(fixture)
})
