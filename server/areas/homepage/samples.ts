/**
 * The homepage area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as homepage from '#contract/homepage'
import { defineSamples, unique, png } from '../../testing/sample-kit.ts'

export const samples = defineSamples([homepage], {
  addHomePageCms: () => ({ form: { fields: { title: `Block ${unique()}`, link: 'https://wallet.example/new' }, files: [png()] } }),
  listHomePageCms: () => ({ json: { page: 1, limit: 10, search: '' } }),
  getHomePageCms: (f) => ({ json: { _id: f.homepageIds.kept } }),
  editHomePageCms: (f) => ({ form: { fields: { _id: f.homepageIds.kept, title: `Edited ${unique()}`, link: 'www.wallet.example/edited' }, files: [] } }),
  deleteHomePageCms: (f) => ({ json: { _id: f.homepageIds.deleted } }),
  updateHomepageCmsPreference: () => ({ json: { status: true } }),
  getHomepageCmsPreference: () => ({ json: {} }),
})
