/**
 * The saved-views area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as savedViews from '#contract/saved-views'
import { defineSamples, unique } from '../../testing/sample-kit.ts'

export const samples = defineSamples([savedViews], {
  listSavedViews: () => ({ json: {} }),
  saveView: () => ({ json: { route: '/profile', name: `View ${unique()}`, query: '?search=a' } }),
  deleteView: (f) => ({ json: { id: f.savedViewId } }),
})
