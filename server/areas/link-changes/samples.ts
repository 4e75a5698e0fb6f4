/**
 * The link-changes area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as linkChanges from '#contract/link-changes'
import { defineSamples } from '../../testing/sample-kit.ts'

export const samples = defineSamples([linkChanges], {
  approveLinkChange: (f) => ({ json: { id: f.linkChanges.approve } }),
  rejectLinkChange: (f) => ({ json: { id: f.linkChanges.reject } }),
  withdrawLinkChange: (f) => ({ json: { id: f.linkChanges.withdraw } }),
  listLinkChanges: () => ({ json: {} }),
})
