/**
 * The links area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as links from '#contract/links'
import { defineSamples, unique } from '../../testing/sample-kit.ts'

export const samples = defineSamples([links], {
  addbuyLink: () => ({ json: { buylink: `https://buy.example.com/${unique()}` } }),
  getbuyLink: (f) => ({ json: { _id: f.linkIds.buy.kept } }),
  ListBuyLink: () => ({ json: { page: 1, limit: 10, search: '', sortBy: 'buyLink', sortOrder: 'asc' } }),
  editBuylink: (f) => ({ json: { _id: f.linkIds.buy.kept, buyLink: `https://buy.example.com/${unique()}`, preference: 1 } }),
  DeleteBuyLink: (f) => ({ json: { id: f.linkIds.buy.deleted } }),
  addsellLink: () => ({ json: { sellink: `www.sell.example.com/${unique()}`, preference: 1 } }),
  getsellLink: (f) => ({ json: { _id: f.linkIds.sell.kept } }),
  ListSelLink: () => ({ json: { page: 1, limit: 10, search: 'sell' } }),
  editSellink: (f) => ({ json: { _id: f.linkIds.sell.kept, selLink: `https://sell.example.com/${unique()}`, preference: 2 } }),
  DeleteSellLink: (f) => ({ json: { id: f.linkIds.sell.deleted } }),
  addBridgeLink: () => ({ json: { bridgelink: `https://bridge.example.com/${unique()}` } }),
  getBridgeLink: (f) => ({ json: { _id: f.linkIds.bridge.kept } }),
  ListBridgeLink: () => ({ json: { page: 1, limit: 10, search: '' } }),
  editBridgeink: (f) => ({ json: { _id: f.linkIds.bridge.kept, bridgeLink: `https://bridge.example.com/${unique()}`, preference: 1 } }),
  DeleteBridgeLink: (f) => ({ json: { id: f.linkIds.bridge.deleted } }),
})
