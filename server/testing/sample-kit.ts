/**
 * What an area's test samples are written with (`server/areas/<area>/samples.ts`): a payload per
 * endpoint that its handler accepts from a caller it permits, fresh values per call. The
 * contract-wide proofs (the access matrix, mass assignment, the fuzz, stored XSS) collect every
 * area's samples through server/testing/endpoint-samples.ts.
 */
import type { Endpoint } from '#contract/define'
import { encodePng } from '../db/png.ts'
import type { Fixtures, Payload } from './fixtures.ts'
import type { UploadFile } from './test-app.ts'

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

/** A small real PNG, as the form field `image` (spread it with another `field` for another name). */
export const png = (): UploadFile => ({ field: 'image', name: 'a.png', type: 'image/png', content: encodePng(4, 4, () => [200, 40, 40]) })

/** A password the password policy accepts, different from the test accounts'. */
export const NEW_PASSWORD = 'Fresh#2024'
