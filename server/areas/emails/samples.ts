/**
 * The emails area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as emails from '#contract/emails'
import { defineSamples, unique } from '../../testing/sample-kit.ts'

export const samples = defineSamples([emails], {
  getemail: () => ({ json: { page: 1, limit: 10, search: '' } }),
  getTemplate: (f) => ({ json: { id: f.template.id } }),
  editTemplate: (f) => ({ json: { id: f.template.id, subject: `Code ${unique()}`, identifier: 'change-password-otp', content: `<p>Your code: {{otp}} (${unique()})</p>` } }),
  listTemplateVersions: (f) => ({ json: { id: f.template.id, page: 1, limit: 10 } }),
  restoreTemplateVersion: (f) => ({ json: { id: f.template.id, versionId: f.template.versionId } }),
  previewTemplate: () => ({ json: { subject: 'Preview', identifier: 'change-password-otp', content: '<p>{{otp}}</p>' } }),
  sendTestTemplate: (f) => ({ json: { id: f.template.id } }),
})
