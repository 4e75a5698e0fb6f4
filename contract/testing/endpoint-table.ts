/**
 * The contract as its tests read it: every module of a folder (found by file name; the contract
 * keeps no list of itself, and the server's areas claim the modules, server/kit/request/areas.ts), the
 * endpoints they export, and those as a table of [name, method, path] sorted by name, which
 * contract/endpoint-table.json holds as it must stay.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isEndpoint, type Endpoint } from '../define.ts'

type Module = Readonly<Record<string, unknown>>

/** The contract's modules: every .ts file of the folder but its tests. */
export const contractFiles = (folder: string): string[] => readdirSync(folder).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))

export const contractModules = (folder: string): Promise<Module[]> =>
  Promise.all(contractFiles(folder).map(async (file): Promise<Module> => await import(pathToFileURL(join(folder, file)).href)))

/** Every endpoint the modules export, each once. */
export const endpointsOf = (modules: readonly Module[]): Endpoint[] => [...new Set(modules.flatMap((m) => Object.values(m).filter(isEndpoint)))]

export async function endpointTable(folder: string): Promise<string[][]> {
  const endpoints = endpointsOf(await contractModules(folder))
  return endpoints.map((e) => [e.name, e.method, e.path]).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0))
}
