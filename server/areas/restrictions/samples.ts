/**
 * The restrictions area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as restrictions from '#contract/restrictions'
import { defineSamples } from '../../testing/sample-kit.ts'

export const samples = defineSamples([restrictions], {
  listCountry: () => ({ json: {} }),
  FetchRestrictions: () => ({ json: {} }),
  AddRestrictions: () => ({ json: { country: ['France', 'Japan'] } }),
  HideRestrictions: (f) => ({ json: { hide: true, country: f.restrictionIds.kept } }),
  CheckBoxDelete: (f) => ({ json: { deleteData: [f.restrictionIds.deleted] } }),
  restrictedCountries: () => ({ json: {} }),
})
