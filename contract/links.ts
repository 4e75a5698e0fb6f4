import { z } from 'zod/mini'
import { Done, ExpectedVersion, Id, PageQuery, RecordVersion, count, integer, ok, pageOf, preprocess, requiredUrl } from './common.ts'
import { endpoint, reads, writes } from './define.ts'
import { Deleted } from './undo.ts'

/*
 * Buy links, swap-out (sell) links and swap-in (bridge) links: three lists of the same pattern
 * (spec sections 3 and 7). Note the spellings: the add payloads carry `buylink` / `sellink` /
 * `bridgelink`, the records and edit payloads `buyLink` / `selLink` / `bridgeLink`.
 */

const preference = integer()
/** Ours: each record's edit version, which the edits may send back (common.ts, RECORD_CHANGED). */
const version = RecordVersion

/** Spec section 3, Buy link. */
export const BuyLink = z.object({ _id: z.string(), buyLink: z.string(), preference, version })
export type BuyLink = z.output<typeof BuyLink>
/** Spec section 3, Swap out link. */
export const SellLink = z.object({ _id: z.string(), selLink: z.string(), preference, version })
export type SellLink = z.output<typeof SellLink>
/** Spec section 3, Swap in link. */
export const BridgeLink = z.object({ _id: z.string(), bridgeLink: z.string(), preference, version })
export type BridgeLink = z.output<typeof BridgeLink>

const BuyUrl = requiredUrl('buylink is required')
const SellUrl = requiredUrl('swap out link is required')
const BridgeUrl = requiredUrl('Swap in link is required')

/** Optional on add (an empty field counts as absent): without one the link goes to the end of the list. */
const AddPreference = preprocess((v: unknown) => (v === '' ? undefined : v), z.optional(count('preference is required')))
/**
 * On edit the modal always sends the preference. A preference greater than the record count is
 * ignored by the server (spec section 5): the link keeps its place.
 */
const EditPreference = count('preference is required')

/** List calls are POST with page, limit, search in the body (spec section 7). */
const ListBody = PageQuery
/** Single-record fetches take `_id` as a query field. */
const ById = z.object({ _id: Id })
/** Deletes take `{id}`. */
const DeleteBody = z.object({ id: Id })

const LINK_FETCH_NOTE = 'Answer not shown: the record as data.'
const LINK_ADD_NOTE = 'Payload from section 3: the add-form link field plus an optional preference.'

// Buy links (/buy_list)

export const addbuyLink = endpoint({
  name: 'addbuyLink',
  method: 'POST',
  path: '/addbuyLink',
  input: z.object({ buylink: BuyUrl, preference: AddPreference }),
  output: Done,
  access: writes('/buy_list'),
  ours: LINK_ADD_NOTE,
})

export const getbuyLink = endpoint({
  name: 'getbuyLink',
  method: 'GET',
  path: '/getbuyLink',
  input: ById,
  output: ok({ data: BuyLink }),
  access: reads('/buy_list'),
  ours: LINK_FETCH_NOTE,
})

export const ListBuyLink = endpoint({
  name: 'ListBuyLink',
  method: 'POST',
  path: '/ListBuyLink',
  input: ListBody,
  output: pageOf(BuyLink),
  access: reads('/buy_list'),
})

/** Edit List modal: Title (buyLink) and Preference. A preference above the record count is ignored. */
export const editBuylink = endpoint({
  name: 'editBuylink',
  method: 'POST',
  path: '/editBuylink',
  input: z.object({ _id: Id, buyLink: BuyUrl, preference: EditPreference, version: ExpectedVersion }),
  output: Done,
  access: writes('/buy_list'),
})

export const DeleteBuyLink = endpoint({
  name: 'DeleteBuyLink',
  method: 'POST',
  path: '/DeleteBuyLink',
  input: DeleteBody,
  output: Deleted,
  access: writes('/buy_list'),
})

// Swap out links (/swapout_list)

export const addsellLink = endpoint({
  name: 'addsellLink',
  method: 'POST',
  path: '/addsellLink',
  input: z.object({ sellink: SellUrl, preference: AddPreference }),
  output: Done,
  access: writes('/swapout_list'),
  ours: LINK_ADD_NOTE,
})

export const getsellLink = endpoint({
  name: 'getsellLink',
  method: 'GET',
  path: '/getsellLink',
  input: ById,
  output: ok({ data: SellLink }),
  access: reads('/swapout_list'),
  ours: LINK_FETCH_NOTE,
})

export const ListSelLink = endpoint({
  name: 'ListSelLink',
  method: 'POST',
  path: '/ListSelLink',
  input: ListBody,
  output: pageOf(SellLink),
  access: reads('/swapout_list'),
})

/** Edit List modal: Title (selLink) and Preference. A preference above the record count is ignored. */
export const editSellink = endpoint({
  name: 'editSellink',
  method: 'POST',
  path: '/editSellink',
  input: z.object({ _id: Id, selLink: SellUrl, preference: EditPreference, version: ExpectedVersion }),
  output: Done,
  access: writes('/swapout_list'),
})

export const DeleteSellLink = endpoint({
  name: 'DeleteSellLink',
  method: 'POST',
  path: '/DeleteSellLink',
  input: DeleteBody,
  output: Deleted,
  access: writes('/swapout_list'),
})

// Swap in links (/swapin_list)

export const addBridgeLink = endpoint({
  name: 'addBridgeLink',
  method: 'POST',
  path: '/addBridgeLink',
  input: z.object({ bridgelink: BridgeUrl, preference: AddPreference }),
  output: Done,
  access: writes('/swapin_list'),
  ours: LINK_ADD_NOTE,
})

export const getBridgeLink = endpoint({
  name: 'getBridgeLink',
  method: 'GET',
  path: '/getBridgeLink',
  input: ById,
  output: ok({ data: BridgeLink }),
  access: reads('/swapin_list'),
  ours: LINK_FETCH_NOTE,
})

export const ListBridgeLink = endpoint({
  name: 'ListBridgeLink',
  method: 'POST',
  path: '/ListBridgeLink',
  input: ListBody,
  output: pageOf(BridgeLink),
  access: reads('/swapin_list'),
})

/**
 * Edit List modal: Title (bridgeLink) and Preference. A preference above the record count is
 * ignored. The path's missing "L" (`editBridgeink`) is the spec's spelling, kept on purpose.
 */
export const editBridgeink = endpoint({
  name: 'editBridgeink',
  method: 'POST',
  path: '/editBridgeink',
  input: z.object({ _id: Id, bridgeLink: BridgeUrl, preference: EditPreference, version: ExpectedVersion }),
  output: Done,
  access: writes('/swapin_list'),
})

export const DeleteBridgeLink = endpoint({
  name: 'DeleteBridgeLink',
  method: 'POST',
  path: '/DeleteBridgeLink',
  input: DeleteBody,
  output: Deleted,
  access: writes('/swapin_list'),
})
