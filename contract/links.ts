import { z } from 'zod/mini'
import { Done, ExpectedVersion, Id, PageQuery, RecordVersion, count, integer, ok, pageOf, preprocess, requiredUrl, sortable } from './common.ts'
import { endpoint, nameEndpoints, reads, writes } from './define.ts'
import * as self from './links.ts'
import { Deleted } from './undo.ts'
import type { ScreenPath } from './routes.ts'

/*
 * Buy links, swap-out (sell) links and swap-in (bridge) links: three lists of the same pattern
 * (requirements R3.8 and R7.5). Note the spellings: the add payloads carry `buylink` / `sellink` /
 * `bridgelink`, the records and edit payloads `buyLink` / `selLink` / `bridgeLink`.
 */

const preference = integer()
/** Ours: each record's edit version, which the edits may send back (common.ts, RECORD_CHANGED). */
const version = RecordVersion

/** Optional on add (an empty field counts as absent): without one the link goes to the end of the list. */
const AddPreference = preprocess((v: unknown) => (v === '' ? undefined : v), z.optional(count('preference is required')))
/**
 * On edit the modal always sends the preference. A preference greater than the record count is
 * ignored by the server (requirements R5.6): the link keeps its place.
 */
const EditPreference = count('preference is required')

/** List calls are POST with page, limit, search in the body (requirements R7.5). */
const ListBody = PageQuery
/** Single-record fetches take `_id` as a query field. */
const ById = z.object({ _id: Id })
/** Deletes take `{id}`. */
const DeleteBody = z.object({ id: Id })

const LINK_FETCH_NOTE = 'Answer not shown: the record as data.'
const LINK_ADD_NOTE = 'Payload from the fields of requirements R3.8: the add-form link field plus an optional preference.'

/** `{ [key]: value }` with the key's literal type kept (a computed key alone widens to string). */
const field = <K extends string, V>(key: K, value: V): Record<K, V> => ({ [key]: value }) as Record<K, V>

/**
 * One kind of link: its record, and its five calls, exported below under the names of requirements R7.5 (which
 * it spells irregularly: `ListSelLink`, `editSellink`, `editBridgeink`). The add payload's field
 * and the record's field are data too (`sellink` against `selLink`). The kind is exported whole as
 * well (`buyLinks`...), so the server's handlers and the PWA's screens take its fields from here.
 */
function linkKind<const Route extends ScreenPath, const AddField extends string, const RecordField extends string>(kind: {
  /** The list screen whose permissions the calls take. */
  route: Route
  /** The link field of the add payload. */
  addField: AddField
  /** The link field of the record and of the edit payload. */
  recordField: RecordField
  /** The message for a missing link (requirements R5.5). */
  required: string
  /** The link as the audit log names it in words ('Buy link'). */
  noun: string
}) {
  const url = requiredUrl(kind.required)
  const record = z.object({ _id: z.string(), ...field(kind.recordField, z.string()), preference, version })
  const linkSort = sortable([kind.recordField])
  return {
    ...kind,
    record,
    add: endpoint({
      method: 'POST',
      input: z.object({ ...field(kind.addField, url), preference: AddPreference }),
      output: Done,
      access: writes(kind.route),
      logAs: `${kind.noun} added`,
      ours: LINK_ADD_NOTE,
    }),
    get: endpoint({
      method: 'GET',
      input: ById,
      output: ok({ data: record }),
      access: reads(kind.route),
      ours: LINK_FETCH_NOTE,
    }),
    list: endpoint({ method: 'POST', input: z.extend(ListBody, linkSort.input), output: pageOf(record), access: reads(kind.route), sort: linkSort, ours: linkSort.note }),
    // Edit List modal: Title (the record's field) and Preference. A preference above the record count is ignored.
    edit: endpoint({
      method: 'POST',
      input: z.object({ _id: Id, ...field(kind.recordField, url), preference: EditPreference, version: ExpectedVersion }),
      output: Done,
      access: writes(kind.route),
      logAs: `${kind.noun} edited`,
    }),
    remove: endpoint({ method: 'POST', input: DeleteBody, output: Deleted, access: writes(kind.route), logAs: `${kind.noun} deleted` }),
  }
}

// Buy links (/buy_list). Requirements R3.8, Buy link.
export const buyLinks = linkKind({
  route: '/buy_list',
  addField: 'buylink',
  recordField: 'buyLink',
  required: 'buylink is required',
  noun: 'Buy link',
})
export const {
  record: BuyLink,
  add: addbuyLink,
  get: getbuyLink,
  list: ListBuyLink,
  edit: editBuylink,
  remove: DeleteBuyLink,
} = buyLinks
export type BuyLink = z.output<typeof BuyLink>

// Swap out links (/swapout_list). Requirements R3.8, Swap out link.
export const sellLinks = linkKind({
  route: '/swapout_list',
  addField: 'sellink',
  recordField: 'selLink',
  required: 'swap out link is required',
  noun: 'Swap out link',
})
export const {
  record: SellLink,
  add: addsellLink,
  get: getsellLink,
  list: ListSelLink,
  edit: editSellink,
  remove: DeleteSellLink,
} = sellLinks
export type SellLink = z.output<typeof SellLink>

// Swap in links (/swapin_list). Requirements R3.8, Swap in link. The edit's missing "L"
// (`editBridgeink`) is the spelling of requirements R7.5, kept on purpose.
export const bridgeLinks = linkKind({
  route: '/swapin_list',
  addField: 'bridgelink',
  recordField: 'bridgeLink',
  required: 'Swap in link is required',
  noun: 'Swap in link',
})
export const {
  record: BridgeLink,
  add: addBridgeLink,
  get: getBridgeLink,
  list: ListBridgeLink,
  edit: editBridgeink,
  remove: DeleteBridgeLink,
} = bridgeLinks
export type BridgeLink = z.output<typeof BridgeLink>

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
