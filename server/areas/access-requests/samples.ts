/**
 * The access-requests area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as accessRequests from '#contract/access-requests'
import { defineSamples, unique, NEW_PASSWORD } from '../../testing/sample-kit.ts'

export const samples = defineSamples([accessRequests], {
  register: () => ({ json: { name: 'Applicant', email: `applicant-${unique()}@example.com` } }),
  getRequestToConfirm: (f) => ({ json: { token: f.confirmToken } }),
  setFirstPassword: (f) => ({ json: { token: f.unset.token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD } }),
  sendPasswordLink: (f) => ({ json: { id: f.unset.id } }),
  listAccessRequests: () => ({ json: { page: 1, limit: 10, search: '' } }),
  approveAccessRequest: (f) => ({ json: { _id: f.approveRequest.id, name: 'Applicant 1', email: f.approveRequest.email, accessLevel: 'View Only', restrictions: ['/users'] } }),
  declineAccessRequest: (f) => ({ json: { id: f.declineRequestId } }),
  getAccessRequest: (f) => ({ json: { id: f.declineRequestId } }),
  confirmAccessRequest: (f) => ({ json: { token: f.confirmToken } }),
})
