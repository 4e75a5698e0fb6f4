/**
 * The suppression area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as suppression from '#contract/suppression'
import { defineSamples, unique } from '../../testing/sample-kit.ts'

export const samples = defineSamples([suppression], {
  listSuppressedAddresses: () => ({ json: { page: 1, limit: 10, search: '', sortBy: 'address', sortOrder: 'asc' } }),
  addSuppressedAddress: () => ({ json: { address: `Manual-${unique()}@Example.com` } }),
  removeSuppressedAddress: (f) => ({ json: { address: f.suppressed } }),
  // Off (404) in the test app, which sets no MAIL_EVENTS_SECRET; server/areas/suppression covers it signed.
  mailEvents: () => ({ json: { id: `evt-${unique()}`, type: 'bounce', email: `bounced-${unique()}@example.com` } }),
})
