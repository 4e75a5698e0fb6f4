/**
 * The server's areas, found by folder as the PWA finds its screens (src/app/route-table.ts): each
 * `server/areas/<area>/index.ts` exports `area = defineArea({...})`, which names the contract
 * modules the area serves (each with its name in the audit log), its route tables, its background
 * jobs and any route outside the contract. Nothing lists the areas by hand: app.ts, the audit
 * log's area names, undo, the authz matrix and the fuzz all read them from here, so a new area is
 * a new folder.
 *
 * Why folders and a dynamic import rather than import.meta.glob: the server runs under tsx, which
 * has no glob, and vitest as well; reading one directory and importing ~25 modules that the server
 * imported statically before costs a few milliseconds at start-up. The kit never imports an area
 * statically (lint says so), and this loader does not either: it names them by path.
 *
 * A declaration that is not what defineArea makes, a contract module claimed by two areas, or a
 * handler for an endpoint outside its area's contract stops the start with the file to fix.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { isEndpoint, type Endpoint } from '#contract/define'
import type { BoundHandler, JobDefinition } from './handlers.ts'
import type { ContractIndex, Services } from '../ground/services.ts'
import type { Finder } from '../ground/finders.ts'

/** One contract module (`import * as x from '#contract/x'`) and the area's name for it in the audit log. */
export interface ContractPart {
  module: object
  label: string
}

export interface AreaDeclaration {
  /** The contract modules this area serves: usually one; the site record's two screens share an area. */
  contracts: readonly ContractPart[]
  /** Its handler tables, each made by `handlers(contractModule, {...})` (server/kit/request/api.ts). */
  routes: readonly (readonly BoundHandler[])[]
  /** Its kinds of background job (server/kit/ground/queue.ts), made by `defineJob`. */
  jobs?: readonly JobDefinition[]
  /** How the palette's server search finds this area's records (server/kit/ground/finders.ts). */
  find?: readonly Finder[]
  /**
   * Routes outside the contract, registered after the API (the newsletter's one-click unsubscribe,
   * the referral redirect). May answer a stop, run at a graceful close before the database closes.
   */
  serve?: (app: FastifyInstance, services: Services) => void | (() => Promise<void>)
}

const AREA = Symbol('area')
export type Area = AreaDeclaration & { readonly [AREA]: true }

/** An area's declaration, exported as `area` from `server/areas/<area>/index.ts`. */
export const defineArea = (declaration: AreaDeclaration): Area => ({ ...declaration, [AREA]: true })

const isArea = (v: unknown): v is Area => typeof v === 'object' && v !== null && AREA in v

/** Every endpoint of one contract module, in its order. */
export const endpointsOf = (module: object): Endpoint[] => Object.values(module).filter(isEndpoint)

export interface LoadedArea {
  /** The folder's name. */
  name: string
  /** The declaring file, for messages. */
  file: string
  area: Area
}

export interface Areas {
  areas: readonly LoadedArea[]
  /** The served contract: every endpoint of every area, with its area's label. */
  index: ContractIndex
  routes: readonly BoundHandler[]
  jobs: readonly JobDefinition[]
  /** Every area's finders, in the areas' order. */
  finders: readonly Finder[]
}

export const AREAS_DIR = fileURLToPath(new URL('../../areas/', import.meta.url))

/** The areas from their declarations (file name to module), checked; exported for the tests. */
export function collectAreas(modules: readonly { name: string; file: string; module: Readonly<Record<string, unknown>> }[]): Areas {
  const areas: LoadedArea[] = []
  const claimedBy = new Map<object, string>()
  const endpoints: Endpoint[] = []
  const labels = new Map<Endpoint, string>()
  const routes: BoundHandler[] = []
  const jobs: JobDefinition[] = []
  const finders: Finder[] = []
  for (const { name, file, module } of modules) {
    const { area } = module
    if (!isArea(area)) throw new Error(`${file} must export \`area = defineArea({...})\` (server/kit/request/areas.ts)`)
    const own = new Set<Endpoint>()
    for (const part of area.contracts) {
      const earlier = claimedBy.get(part.module)
      if (earlier !== undefined) throw new Error(`${file}: a contract module is claimed twice (also by ${earlier})`)
      claimedBy.set(part.module, file)
      const found = endpointsOf(part.module)
      if (found.length === 0) throw new Error(`${file}: a contract module of '${part.label}' declares no endpoint`)
      for (const endpoint of found) {
        own.add(endpoint)
        endpoints.push(endpoint)
        labels.set(endpoint, part.label)
      }
    }
    for (const bound of area.routes.flat()) {
      if (!own.has(bound.endpoint)) throw new Error(`${file}: the handler of ${bound.endpoint.name} serves an endpoint outside this area's contracts`)
      routes.push(bound)
    }
    jobs.push(...(area.jobs ?? []))
    finders.push(...(area.find ?? []))
    areas.push({ name, file, area })
  }
  return { areas, index: { endpoints, areaLabels: labels }, routes, jobs, finders }
}

const loaded = new Map<string, Promise<Areas>>()

/** Every area under `dir` (server/areas by default), imported once per process. */
export function loadAreas(dir = AREAS_DIR): Promise<Areas> {
  let areas = loaded.get(dir)
  if (areas === undefined) {
    areas = importAreas(dir)
    loaded.set(dir, areas)
  }
  return areas
}

async function importAreas(dir: string): Promise<Areas> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
  const modules = await Promise.all(
    names.map(async (name) => {
      const file = join(dir, name, 'index.ts')
      const module: Readonly<Record<string, unknown>> = await import(pathToFileURL(file).href)
      return { name, file, module }
    }),
  )
  return collectAreas(modules)
}
