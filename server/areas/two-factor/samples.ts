/**
 * The two-factor area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as twoFactor from '#contract/two-factor'
import { defineSamples, TEST_PASSWORD } from '../../testing/sample-kit.ts'

export const samples = defineSamples([twoFactor], {
  twofaSetup: () => ({ json: {} }),
  twofaEnable: () => ({ json: { code: '123456', password: TEST_PASSWORD } }),
  twofaDisable: () => ({ json: { code: '123456' } }),
})
