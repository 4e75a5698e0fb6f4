import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { directEndpointNames, nameAtBuild } from './build-names.ts'
import { isEndpoint } from './define.ts'
import { contractFiles, endpointTable } from './testing/endpoint-table.ts'

/**
 * The contract as the browser build writes it must be the same API: every module rewritten by
 * nameAtBuild is copied with the others into a folder of the repository (so `zod` resolves as it
 * does here), imported, and its endpoints' names, methods and paths must be the fixture's table,
 * which contract/endpoint-table.test.ts holds the run-time contract to.
 */
const files = contractFiles(import.meta.dirname)
const source = (file: string) => readFileSync(join(import.meta.dirname, file), 'utf8')
const built = join(import.meta.dirname, '..', '.tmp', `contract-build-${process.pid}`)
afterAll(() => rmSync(built, { recursive: true, force: true }))

it('names every endpoint of the rewritten contract as the run-time contract does', async () => {
  mkdirSync(built, { recursive: true })
  const rewritten: string[] = []
  for (const file of files) {
    const code = nameAtBuild(source(file))
    if (code !== null) rewritten.push(file)
    writeFileSync(join(built, file), code ?? source(file))
  }
  // The Leads page's modules are among the rewritten; links.ts and passkeys.ts, which take
  // endpoints from a factory's answer, are not.
  expect(rewritten).toEqual(expect.arrayContaining(['leads.ts', 'auth.ts', 'dashboard.ts', 'saved-views.ts', 'undo.ts']))
  expect(rewritten).not.toContain('links.ts')
  expect(rewritten).not.toContain('passkeys.ts')
  for (const file of rewritten) expect(readFileSync(join(built, file), 'utf8'), file).not.toMatch(/nameEndpoints\(|import \* as self/)

  expect(await endpointTable(built)).toEqual(JSON.parse(source('endpoint-table.json')))
})

it('rewrites a module only when every endpoint it exports is declared as export const X = endpoint(', async () => {
  for (const file of files) {
    if (nameAtBuild(source(file)) === null) continue
    const module: Readonly<Record<string, unknown>> = await import(`./${file}`)
    const exported = Object.entries(module).filter(([, value]) => isEndpoint(value)).map(([name]) => name)
    expect(directEndpointNames(source(file)).sort(), file).toEqual(exported.sort())
  }
})
