/**
 * The catalog area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as catalog from '#contract/catalog'
import { defineSamples, unique, png } from '../../testing/sample-kit.ts'

export const samples = defineSamples([catalog], {
  addcategory: () => ({ form: { fields: { categoryName: `Category ${unique()}` }, files: [png()] } }),
  listCategory: () => ({ json: { page: 1, limit: 10 } }),
  editCategoryData: (f) => ({ json: { id: f.categoryId, categoryName: `Renamed ${unique()}`, preference: 1 } }),
  deleteCategory: (f) => ({ json: { id: f.categoryId } }),
  categoryDropdown: () => ({ json: {} }),
  getCategory: (f) => ({ json: { id: f.categoryId } }),
})
