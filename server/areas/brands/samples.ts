/**
 * The brands area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as brands from '#contract/brands'
import { defineSamples, unique } from '../../testing/sample-kit.ts'

export const samples = defineSamples([brands], {
  addBrand: () => ({ json: { brandname: `Brand ${unique()}`, type: 'web3auth' } }),
  listbrand: () => ({ json: { page: 1, limit: 10, search: '' } }),
  listbrandUser: (f) => ({ json: { id: f.brandIds.kept, page: 1, limit: 2 } }),
  editbrandUser: (f) => ({ json: { _id: f.brandIds.kept, brandname: `Renamed brand ${unique()}`, type: 'ipfs' } }),
  deleteBrand: (f) => ({ json: { id: f.brandIds.deleted } }),
  referralVisit: () => ({ json: { code: 'U2FsdGVkX1+not-a-brand' } }),
})
