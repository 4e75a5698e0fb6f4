/**
 * The staff area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as staff from '#contract/staff'
import { defineSamples, unique } from '../../testing/sample-kit.ts'

export const samples = defineSamples([staff], {
  getSubAdminUser: (f) => ({ json: { _id: f.victim.id } }),
  createSubAdminUsers: () => ({
    json: { name: 'New Staff', email: `new-${unique()}@example.com`, password: 'Passw0rd!', accessLevel: 'View Only', restrictions: ['/users'] },
  }),
  FetchSubAdminUsers: () => ({ json: { page: 1, limit: 10 } }),
  UpdateSubAdminUsers: (f) => ({ json: { _id: f.victim.id, name: `Victim ${unique()}`, email: f.victim.email, accessLevel: 'View Only', restrictions: ['/users', '/cms'] } }),
  ActivateSubadminStatusUpdate: (f) => ({ json: { id: f.victim.id } }),
  unlockAdmin: (f) => ({ json: { id: f.victim.id } }),
  signOutStaff: (f) => ({ json: { id: f.victim.id } }),
  removeStaffPasskeys: (f) => ({ json: { id: f.victim.id } }),
  // Puts the caller's session into View as (read only): a test reusing one token runs it late, then endViewAs (runLast).
  startViewAs: (f) => ({ json: { id: f.victim.id } }),
  endViewAs: () => ({ json: {} }),
})
