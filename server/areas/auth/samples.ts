/**
 * The auth area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as auth from '#contract/auth'
import { defineSamples, unique, SUPERADMIN_EMAIL, TEST_PASSWORD } from '../../testing/sample-kit.ts'

export const samples = defineSamples([auth], {
  login: () => ({ json: { email: SUPERADMIN_EMAIL, password: TEST_PASSWORD, twoFACode: '' } }),
  getProfile: () => ({ json: {} }),
  editProfile: () => ({ json: { name: `Name ${unique()}` } }),
  logout: () => ({ json: {} }),
  keepAlive: () => ({ json: {} }),
  listSessions: () => ({ json: {} }),
  proveIdentity: () => ({ json: { password: TEST_PASSWORD, twoFACode: '' } }),
  // Nobody's session: an unknown id is answered 404, as another admin's is.
  endSession: () => ({ json: { id: `no-session-${unique()}` } }),
  endOtherSessions: () => ({ json: {} }),
})
