/**
 * The promotions area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as promotions from '#contract/promotions'
import { defineSamples, unique, png } from '../../testing/sample-kit.ts'

export const samples = defineSamples([promotions], {
  sendTestPromotion: () => ({ json: { title: `Test ${unique()}`, content: 'Fresh games' } }),
  FilterOption: () => ({ json: { page: 1, limit: 100, data: { email: 'lead', provider: 'ipfs', country: 'Portugal' } } }),
  countRecipients: (f) => ({ json: { id: [f.promotion.leadId] } }),
  forecastPromotion: () => ({ json: { selectall: true, email: '', provider: '', country: '' } }),
  forecastPromotionRound: (f) => ({ json: { id: f.promotion.kept } }),
  forecastPromotionLeads: (f) => ({ json: { id: [f.promotion.leadId], reason: 'duplicate', page: 1, limit: 50 } }),
  forecastPromotionCsv: (f) => ({ json: { promotion: f.promotion.kept, reason: 'invalid-address' } }),
  addNotification: (f) => ({ form: { fields: { title: `Promotion ${unique()}`, content: 'Hello again', id: f.promotion.leadId }, files: [png()] } }),
  listNotification: () => ({ json: { page: 1, limit: 10, search: '' } }),
  listnotfiyuser: (f) => ({ json: { id: f.promotion.kept, page: 1, limit: 100 } }),
  // The first accepted call starts round 2; a repeat of round 1 is answered as already started.
  ResendData: (f) => ({ json: { id: f.promotion.kept, round: 1, only: 'all' } }),
  cancelPromotion: (f) => ({ json: { id: f.promotion.kept } }),
  // A new time each call, a day or so ahead of now: every sample changes the row.
  reschedulePromotion: (f) => ({ json: { id: f.promotion.scheduled, sendAt: new Date(Date.now() + 86_400_000 + Math.floor(Math.random() * 3_600_000)).toISOString() } }),
  DeletePromotion: (f) => ({ json: { id: f.promotion.deleted } }),
  approvePromotion: (f) => ({ json: { id: f.fourEyes.approvePromotion, round: 1 } }),
  rejectPromotion: (f) => ({ json: { id: f.fourEyes.rejectPromotion, round: 1 } }),
})
