/**
 * The undo area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as undo from '#contract/undo'
import { defineSamples } from '../../testing/sample-kit.ts'

export const samples = defineSamples([undo], {
  undo: (f) => ({ json: { token: f.undoToken } }),
})
