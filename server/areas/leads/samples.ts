/**
 * The leads area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as leads from '#contract/leads'
import { defineSamples } from '../../testing/sample-kit.ts'

export const samples = defineSamples([leads], {
  getuser: () => ({ json: { page: 1, limit: 10, search: '', sortBy: 'name', sortOrder: 'desc', provider: 'ipfs', operatingsystem: 'Android', from: '2026-01-01', to: '2026-12-31', tz: 'Europe/Lisbon', count: 'later' } }),
  getuserCount: () => ({ json: { search: 'a', provider: 'ipfs', operatingsystem: 'Android', from: '2026-01-01', to: '2026-12-31', tz: 'Europe/Lisbon' } }),
  DownloadFile: () => ({ json: { search: 'a', sortBy: 'email', provider: 'web3auth', from: '2026-01-01', tz: 'America/New_York' } }),
  getContactUS: () => ({ json: { page: 1, limit: 10, status: 'Open', sortBy: 'createdAt', sortOrder: 'asc' } }),
  setContactStatus: (f) => ({ json: { _id: f.enquiryId, status: 'Resolved' } }),
  getLead: (f) => ({ json: { id: f.promotion.leadId } }),
})
