/**
 * What an area's test samples are written with (`server/areas/<area>/samples.ts`): a payload per
 * endpoint that its handler accepts from a caller it permits, fresh values per call. The
 * contract-wide proofs (the access matrix, mass assignment, the fuzz, stored XSS) collect every
 * area's samples through server/testing/endpoint-samples.ts.
 */
import type { Endpoint } from '#contract/define'
import { encodePng } from '../db/png.ts'
import type { Fixtures, Payload } from './fixtures.ts'
import type { TestApp, UploadFile } from './test-app.ts'

export type { Fixtures, Payload } from './fixtures.ts'
export { unique } from './fixtures.ts'
export { SUPERADMIN_EMAIL, TEST_PASSWORD } from './test-app.ts'

/** One endpoint's sample: a payload made from the shared fixtures. */
export type Sample = (f: Fixtures) => Payload

/** The names of the endpoints a contract module exports. */
type EndpointNames<M> = M extends object ? { [K in keyof M]: M[K] extends Endpoint ? K : never }[keyof M] & string : never

/**
 * An area's samples, keyed by endpoint name: the keys are checked against the area's contract
 * modules, so a renamed endpoint or a misspelt sample does not compile.
 */
export const defineSamples = <const Ms extends readonly object[]>(_contracts: Ms, samples: { [K in EndpointNames<Ms[number]>]?: Sample }): Readonly<Record<string, Sample>> =>
  samples as Readonly<Record<string, Sample>>

/** An area's own fixture setup, run by `makeFixtures` (server/testing/endpoint-samples.ts) after the shared one. */
export const OWN_SETUP = Symbol('own fixtures')
export interface OwnSetup {
  key: symbol
  run: (t: TestApp) => Promise<unknown>
}
export type AreaSamples = Readonly<Record<string, Sample>> & { readonly [OWN_SETUP]?: OwnSetup }

/**
 * An area's samples that point at records of its own: `setup` makes them once per test app (rows
 * of the area's table, say one to edit and one to delete), and each sample gets them beside the
 * shared fixtures. The way a new area's samples need no change to the shared Fixtures.
 */
export function defineSamplesWith<const Ms extends readonly object[], O>(
  _contracts: Ms,
  setup: (t: TestApp) => Promise<O>,
  samples: { [K in EndpointNames<Ms[number]>]?: (f: Fixtures, own: O) => Payload },
): AreaSamples {
  const key = Symbol('area fixtures')
  const wrapped: Record<string, Sample> = {}
  for (const [name, sample] of Object.entries(samples) as [string, ((f: Fixtures, own: O) => Payload) | undefined][]) {
    if (sample === undefined) continue
    wrapped[name] = (f) => {
      if (!f.own.has(key)) throw new Error(`the fixtures of ${name}'s area were not made: use makeFixtures from server/testing/endpoint-samples.ts`)
      return sample(f, f.own.get(key) as O)
    }
  }
  return Object.assign(wrapped, { [OWN_SETUP]: { key, run: setup } })
}

/** A small real PNG, as the form field `image` (spread it with another `field` for another name). */
export const png = (): UploadFile => ({ field: 'image', name: 'a.png', type: 'image/png', content: encodePng(4, 4, () => [200, 40, 40]) })

/** A password the password policy accepts, different from the test accounts'. */
export const NEW_PASSWORD = 'Fresh#2024'
