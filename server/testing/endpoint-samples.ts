/**
 * Test support for the contract-wide proofs (authz-matrix, mass-assignment, the fuzz, stored XSS):
 * every area's samples, a payload per endpoint that its handler accepts, so that a refused call is
 * refused for who sent it and not for what it carried, and a way to send any endpoint a payload.
 *
 * Each area owns its samples beside its code (`server/areas/<area>/samples.ts`, written with
 * server/testing/sample-kit.ts), found by folder as server/kit/request/areas.ts finds the areas: nothing
 * here lists the areas. The shared records they point at are made by `makeFixtures`
 * (server/testing/fixtures.ts). A missing sample fails the matrix with `missingSample`'s message.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { LightMyRequestResponse } from 'fastify'
import type { Endpoint } from '#contract/define'
import { API_PREFIX } from '../kit/ground/services.ts'
import { AREAS_DIR, endpointsOf, loadAreas } from '../kit/request/areas.ts'
import { makeSharedFixtures, type Fixtures, type Payload } from './fixtures.ts'
import { OWN_SETUP, type OwnSetup, type Sample } from './sample-kit.ts'
import { multipart, type TestApp } from './test-app.ts'

export type { Fixtures, Payload } from './fixtures.ts'

/** Which area's folder serves each endpoint, by name. */
const areaOf = new Map<string, string>()
/** The areas' own fixture setups (`defineSamplesWith`). */
const setups: OwnSetup[] = []

/**
 * Every area's samples, read from `server/areas/<area>/samples.ts` (`export const samples =
 * defineSamples(...)`). A sample for an endpoint outside its area's contract, or one given twice,
 * stops the tests with the file to fix.
 */
async function collectSamples(): Promise<Readonly<Record<string, Sample>>> {
  const { areas } = await loadAreas()
  for (const { name, area } of areas) for (const part of area.contracts) for (const e of endpointsOf(part.module)) areaOf.set(e.name, name)
  const all: Record<string, Sample> = {}
  for (const { name } of areas) {
    const file = join(AREAS_DIR, name, 'samples.ts')
    if (!existsSync(file)) continue
    const module: Readonly<Record<string, unknown>> = await import(pathToFileURL(file).href)
    const own = module['samples']
    if (typeof own !== 'object' || own === null) throw new Error(`server/areas/${name}/samples.ts must export \`samples = defineSamples([...], {...})\` (server/testing/sample-kit.ts)`)
    for (const [endpoint, sample] of Object.entries(own)) {
      if (areaOf.get(endpoint) !== name) throw new Error(`server/areas/${name}/samples.ts: ${endpoint} is not an endpoint of this area's contracts`)
      if (typeof sample !== 'function') throw new Error(`server/areas/${name}/samples.ts: the sample of ${endpoint} must be a function of the fixtures`)
      all[endpoint] = sample as Sample
    }
    const setup = (own as { [OWN_SETUP]?: OwnSetup })[OWN_SETUP]
    if (setup !== undefined) setups.push(setup)
  }
  return all
}

/** A payload each registered endpoint accepts from a caller it permits (fresh values per call). */
export const samples: Readonly<Record<string, Sample>> = await collectSamples()

/** The records the samples point at: the shared ones (server/testing/fixtures.ts), then each area's own. */
export async function makeFixtures(t: TestApp): Promise<Fixtures> {
  const shared = await makeSharedFixtures(t)
  const own = new Map<symbol, unknown>()
  for (const setup of setups) own.set(setup.key, await setup.run(t))
  return { ...shared, own }
}

/** The message of a test that finds no sample for `e`: the file where it belongs. */
export const missingSample = (e: Pick<Endpoint, 'name'>): string =>
  `add a sample for ${e.name} in server/areas/${areaOf.get(e.name) ?? '<its area>'}/samples.ts`

/**
 * Calls that end the caller's own session when they succeed (Logout revokes the token it was
 * sent with): a test that reuses one token per caller runs these last, or gives them a token of
 * their own, or every later call of that caller is a 401.
 */
export const endsSession: ReadonlySet<string> = new Set(['logout'])

/**
 * Calls that change what the caller's own session may do, in the order a test reusing one token
 * per caller runs them, after every other call: View as makes every later write of the session a
 * 403 until it ends, and Logout ends the token.
 */
const LAST = ['startViewAs', 'endViewAs', 'logout']
const lastRank = (e: Endpoint): number => LAST.indexOf(e.name) + 1
/** Sorts the calls so those of LAST come after every other, in its order (a stable sort keeps the rest's). */
export const runLast = (a: Endpoint, b: Endpoint): number => lastRank(a) - lastRank(b)

/** Whether the app serves this endpoint (it has a handler). */
export const isServed = (t: TestApp, e: Endpoint): boolean => t.app.hasRoute({ method: e.method, url: API_PREFIX + e.path })

let address = 0
/** Each call from its own address: the per-address limits (login, OTP) are not what these tests are about. */
const nextAddress = (): string => `10.9.${Math.floor(++address / 250) % 250}.${address % 250}`

/** Sends `payload` to `e`: a query for GET, JSON or multipart for POST. */
export async function send(t: TestApp, e: Endpoint, headers: Record<string, string>, payload: Payload): Promise<LightMyRequestResponse> {
  const url = API_PREFIX + e.path
  const remoteAddress = nextAddress()
  if ('form' in payload) {
    const form = await multipart(payload.form.fields, payload.form.files)
    return t.app.inject({ method: e.method, url, headers: { ...headers, ...form.headers }, payload: form.payload, remoteAddress })
  }
  if (e.method === 'GET') {
    const query: Record<string, string> = {}
    for (const [key, value] of Object.entries(payload.json)) query[key] = typeof value === 'string' ? value : JSON.stringify(value)
    return t.app.inject({ method: 'GET', url, headers, query, remoteAddress })
  }
  return t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload.json), remoteAddress })
}
