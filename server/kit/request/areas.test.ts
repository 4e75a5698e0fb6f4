import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as catalog from '#contract/catalog'
import * as leads from '#contract/leads'
import { handlers } from './handlers.ts'
import { collectAreas, defineArea, endpointsOf, loadAreas } from './areas.ts'

const contractDir = fileURLToPath(new URL('../../../contract/', import.meta.url))
/** Every contract module by file name, imported as the areas import them. */
const contractModules = await Promise.all(
  readdirSync(contractDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map(async (file) => ({ file, module: (await import(pathToFileURL(join(contractDir, file)).href)) as object })),
)

describe('the areas, found by folder', () => {
  it('finds one area per folder of server/areas', async () => {
    const { areas } = await loadAreas()
    const folders = readdirSync(fileURLToPath(new URL('../../areas/', import.meta.url)), { withFileTypes: true }).filter((e) => e.isDirectory())
    expect(areas.map((a) => a.name)).toEqual(folders.map((e) => e.name).sort())
    expect(areas.map((a) => a.name)).toEqual(expect.arrayContaining(['auth', 'leads', 'newsletter', 'promotions', 'staff']))
  })

  it('claims every contract file that declares endpoints exactly once, and no other', async () => {
    const { areas } = await loadAreas()
    const claims = new Map<object, string[]>()
    for (const { name, area } of areas) for (const part of area.contracts) claims.set(part.module, [...(claims.get(part.module) ?? []), name])
    for (const { file, module } of contractModules) {
      const owners = claims.get(module) ?? []
      if (endpointsOf(module).length > 0) expect(owners, `contract/${file} must be claimed by one server area`).toHaveLength(1)
      else expect(owners, `contract/${file} declares no endpoint`).toHaveLength(0)
    }
    // Nothing claimed that is not a contract file (a module imported another way would be a second copy).
    const files = new Set(contractModules.map((c) => c.module))
    for (const module of claims.keys()) expect(files.has(module)).toBe(true)
  })

  it('serves every endpoint of the contract, each once', async () => {
    const { index, routes } = await loadAreas()
    const served = routes.map((bound) => bound.endpoint.name)
    expect(new Set(served).size).toBe(served.length)
    expect(index.endpoints.map((e) => e.name).filter((name) => !served.includes(name))).toEqual([])
  })

  it('names every endpoint with its area in the audit log', async () => {
    const { index } = await loadAreas()
    for (const e of index.endpoints) expect(index.areaLabels.get(e), e.name).toMatch(/\S/)
  })

  it('stops at a folder whose index.ts declares no area, naming the file', () => {
    expect(() => collectAreas([{ name: 'stray', file: 'server/areas/stray/index.ts', module: { routes: [] } }])).toThrow('server/areas/stray/index.ts must export `area = defineArea({...})`')
  })

  it('stops at a handler outside its area, and at a contract claimed twice', () => {
    const catalogRoutes = handlers(catalog, { listCategory: async () => ({ status: 'success', message: '', result: [], count: 0 }) })
    const stray = defineArea({ contracts: [{ module: leads, label: 'Leads' }], routes: [catalogRoutes] })
    expect(() => collectAreas([{ name: 'leads', file: 'leads/index.ts', module: { area: stray } }])).toThrow(/leads\/index.ts: the handler of .* serves an endpoint outside this area's contracts/)
    const one = defineArea({ contracts: [{ module: leads, label: 'Leads' }], routes: [] })
    expect(() =>
      collectAreas([
        { name: 'a', file: 'a/index.ts', module: { area: one } },
        { name: 'b', file: 'b/index.ts', module: { area: one } },
      ]),
    ).toThrow('b/index.ts: a contract module is claimed twice (also by a/index.ts)')
  })
})
