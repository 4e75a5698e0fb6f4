/**
 * Buy List, Swap out and Swap in (spec sections 2, 3, 5, 6, 7): one pattern, declared once and
 * instantiated three times. Each list shows S.No and the link in preference order (the server
 * orders it); Admin adds on a page of its own, edits Title and Preference in the "Edit List"
 * modal, and deletes after the spec's question. What differs per list is data: routes, titles,
 * calls and the field names (`buylink` on add, `buyLink` on edit...).
 */
import type { ComponentType } from 'react'
import type { z } from 'zod/mini'
import type { ScreenPath } from '#contract/routes'
import {
  DeleteBridgeLink,
  DeleteBuyLink,
  DeleteSellLink,
  ListBridgeLink,
  ListBuyLink,
  ListSelLink,
  addBridgeLink,
  addbuyLink,
  addsellLink,
  editBridgeink,
  editBuylink,
  editSellink,
} from '#contract/links'
import { col, serial } from '#src/crud/columns.tsx'
import { defineForm, type FormDef, type FormEndpoint } from '#src/crud/define-form.tsx'
import { defineList } from '#src/crud/define-list.tsx'
import { number, url } from '#src/crud/form-fields.ts'
import type { ListEndpoint, Row, WriteEndpoint } from '#src/crud/list-types.ts'

/** Spec section 2: the delete question of all three lists. */
export const REMOVE_LINK = 'Are you sure you want to remove this Link'

type FieldName<E extends FormEndpoint> = keyof z.input<E['input']> & string

interface LinkKind<R extends Row, A extends FormEndpoint, E extends FormEndpoint> {
  title: string
  route: ScreenPath
  /** The Add page: its route, title, call, and the link field's name and label. */
  add: { route: ScreenPath; title: string; endpoint: A; field: FieldName<A>; label: string }
  list: ListEndpoint<R>
  /** The record's link field: the list's second column, and Title in the Edit List modal. */
  link: keyof R & FieldName<E>
  /** The Edit List modal's call: the link, Preference and the edit version, as the record has them. */
  edit: E
  remove: WriteEndpoint<{ id: string }>
}

/** A link record as every kind's list answers it (contract/links.ts linkKind). */
type LinkRow = Row & { preference: number; version: number }

function linkScreens<R extends LinkRow, A extends FormEndpoint, E extends FormEndpoint>(kind: LinkKind<R, A, E>): { List: ComponentType; Add: ComponentType } {
  // Every kind's edit takes `_id`, its link, `preference` and `version` (contract/links.ts makes
  // the three from one definition): what TypeScript cannot see through the generic is said here.
  const fields = [url(kind.link, 'Title'), number('preference', 'Preference')] as FormDef<E, Row>['fields']
  const values = (row: R) => ({ _id: row._id, [kind.link]: row[kind.link], preference: row.preference, version: row.version }) as z.input<E['input']>
  const List = defineList({
    title: kind.title,
    route: kind.route,
    endpoint: kind.list,
    columns: [serial(), col(kind.link, kind.add.label)],
    add: { to: kind.add.route },
    editDialog: { title: 'Edit List', endpoint: kind.edit, fields, values },
    remove: { endpoint: kind.remove, confirm: REMOVE_LINK },
  })
  const Add = defineForm({
    title: kind.add.title,
    endpoint: kind.add.endpoint,
    fields: [url(kind.add.field, kind.add.label)],
    done: kind.route,
  })
  return { List, Add }
}

const buy = linkScreens({
  title: 'Buy List',
  route: '/buy_list',
  add: { route: '/add_buylink', title: 'Add Buy Link', endpoint: addbuyLink, field: 'buylink', label: 'Buy Link' },
  list: ListBuyLink,
  link: 'buyLink',
  edit: editBuylink,
  remove: DeleteBuyLink,
})

const swapOut = linkScreens({
  title: 'Swap Out List',
  route: '/swapout_list',
  add: { route: '/add_swapout', title: 'Add Swap Out Link', endpoint: addsellLink, field: 'sellink', label: 'Swap Out Link' },
  list: ListSelLink,
  link: 'selLink',
  edit: editSellink,
  remove: DeleteSellLink,
})

const swapIn = linkScreens({
  title: 'Swap in List',
  route: '/swapin_list',
  add: { route: '/add_swapin', title: 'Add Swap In Link', endpoint: addBridgeLink, field: 'bridgelink', label: 'Swap In Link' },
  list: ListBridgeLink,
  link: 'bridgeLink',
  edit: editBridgeink,
  remove: DeleteBridgeLink,
})

export const BuyListPage = buy.List
export const AddBuyLinkPage = buy.Add
export const SwapOutListPage = swapOut.List
export const AddSwapOutPage = swapOut.Add
export const SwapInListPage = swapIn.List
export const AddSwapInPage = swapIn.Add
