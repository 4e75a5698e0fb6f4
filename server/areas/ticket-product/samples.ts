/**
 * The ticket-product area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as ticketProduct from '#contract/ticket-product'
import { defineSamples, unique } from '../../testing/sample-kit.ts'

export const samples = defineSamples([ticketProduct], {
  getToken: () => ({ json: {} }),
  updateToken: () => ({ json: { tokenName: `Ticket ${unique()}`, price: '0.25', currency: 'USDT', productId: 'com.wallet.ticket', ticketCount: 10 } }),
})
