/**
 * The audit area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as audit from '#contract/audit'
import { defineSamples } from '../../testing/sample-kit.ts'

export const samples = defineSamples([audit], {
  listAudit: (f) => ({ json: { page: 1, limit: 10, search: '', from: '2026-01-01', record: f.categoryId } }),
  auditOptions: () => ({ json: {} }),
  exportAudit: () => ({ json: { action: '/login' } }),
  revertAuditEntry: (f) => ({ json: { id: f.auditEntryId, force: true } }),
})
