/**
 * The bulk area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as bulk from '#contract/bulk'
import { defineSamples } from '../../testing/sample-kit.ts'

export const samples = defineSamples([bulk], {
  previewGamesBulk: (f) => ({ json: { action: 'freeze', selection: { ids: [f.bulk.gameId] } } }),
  applyGamesBulk: (f) => ({ json: { action: 'freeze', selection: { ids: [f.bulk.gameId] }, token: f.bulk.gameToken } }),
  previewContactBulk: () => ({ json: { action: 'resolve', selection: { matching: { search: 'Bulk fixture', filters: { status: 'Open' } } } } }),
  applyContactBulk: (f) => ({ json: { action: 'resolve', selection: { ids: [f.bulk.enquiryId] }, token: f.bulk.enquiryToken } }),
  previewCategoriesBulk: (f) => ({ json: { action: 'delete', selection: { ids: [f.bulk.categoryId] } } }),
  applyCategoriesBulk: (f) => ({ json: { action: 'delete', selection: { ids: [f.bulk.categoryId] }, token: f.bulk.categoryToken } }),
  getBulkRun: (f) => ({ json: { id: f.bulk.runId } }),
  cancelBulkRun: (f) => ({ json: { id: f.bulk.runId } }),
})
