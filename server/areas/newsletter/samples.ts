/**
 * The newsletter area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as newsletter from '#contract/newsletter'
import { defineSamples, unique } from '../../testing/sample-kit.ts'

export const samples = defineSamples([newsletter], {
  sendTestNewsletter: () => ({ json: { all: true, subject: 'Hello {{name}}', content: '<p>This month.</p>' } }),
  allUser: () => ({ json: { page: 1, limit: 50, search: '' } }),
  countNewsletterRecipients: (f) => ({ json: { all: false, id: [f.newsletter.leadId] } }),
  forecastNewsletter: () => ({ json: { all: true } }),
  forecastNewsletterSend: (f) => ({ json: { id: f.newsletter.sending } }),
  forecastNewsletterLeads: (f) => ({ json: { all: false, id: [f.newsletter.leadId], reason: 'unsubscribed' } }),
  forecastNewsletterCsv: (f) => ({ json: { send: f.newsletter.sending, reason: 'suppressed' } }),
  sendNewsletter: (f) => ({ json: { all: false, id: [f.newsletter.leadId], subject: `News ${unique()}`, content: '<p>This month in the wallet.</p>' } }),
  listNewsletterSends: () => ({ json: { page: 1, limit: 10, search: '' } }),
  getNewsletterMail: (f) => ({ json: { id: f.newsletter.sending } }),
  pauseNewsletter: (f) => ({ json: { id: f.newsletter.sending } }),
  resumeNewsletter: (f) => ({ json: { id: f.newsletter.paused } }),
  cancelNewsletter: (f) => ({ json: { id: f.newsletter.cancelled } }),
  rescheduleNewsletter: (f) => ({ json: { id: f.newsletter.scheduled, sendAt: new Date(Date.now() + 86_400_000 + Math.floor(Math.random() * 3_600_000)).toISOString() } }),
  unsubscribeStatus: (f) => ({ json: { token: f.newsletter.token } }),
  unsubscribe: (f) => ({ json: { token: f.newsletter.token } }),
  approveNewsletter: (f) => ({ json: { id: f.fourEyes.approveNewsletter } }),
  rejectNewsletter: (f) => ({ json: { id: f.fourEyes.rejectNewsletter } }),
})
