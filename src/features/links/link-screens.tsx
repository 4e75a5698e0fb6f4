/**
 * Buy List, Swap out and Swap in (requirements R2.18, R3.8, R5.5, R6.5, R7.5): one pattern, declared once and
 * instantiated three times. Each list shows S.No and the link in preference order (the server
 * orders it); Admin adds on a page of its own, edits Title and Preference in the "Edit List"
 * modal, and deletes after the required question. Each list's route, calls and field names
 * (`buylink` on add, `buyLink` on edit...) come with its kind in the contract (contract/links.ts);
 * the screens add their titles and the Add page's route.
 */
import type { ComponentType } from 'react'
import type { z } from 'zod/mini'
import type { ScreenPath } from '#contract/routes'
import { bridgeLinks, buyLinks, sellLinks } from '#contract/links'
import { col, serial } from '#src/crud/list/columns.tsx'
import { defineForm, type FormDef, type FormEndpoint } from '#src/crud/form/define-form.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { bridgeLinksBulk, buyLinksBulk, sellLinksBulk, type BulkCalls } from '#contract/bulk'
import { number, url } from '#src/crud/form/form-fields.ts'
import type { ListEndpoint, Row, WriteEndpoint } from '#src/crud/list/list-types.ts'

/** Requirements R2.18: the delete question of all three lists. */
export const REMOVE_LINK = 'Are you sure you want to remove this Link'

type FieldName<E extends FormEndpoint> = keyof z.input<E['input']> & string

/** What the screens take of a kind of the contract (contract/links.ts linkKind). */
interface LinkKind<R extends Row, A extends FormEndpoint, E extends FormEndpoint> {
  /** The list's screen. */
  route: ScreenPath
  /** The Add page's link field. */
  addField: FieldName<A>
  /** The record's link field: the list's second column, and Title in the Edit List modal. */
  recordField: keyof R & FieldName<E>
  add: A
  list: ListEndpoint<R>
  /** The Edit List modal's call: the link, Preference and the edit version, as the record has them. */
  edit: E
  remove: WriteEndpoint<{ id: string }>
}

/** What the screens add: the list's title, and the Add page's route, title and the link's label. */
interface LinkScreen {
  title: string
  add: { route: ScreenPath; title: string; label: string }
  /** Where users meet these links, said while the list has none. */
  empty: string
  /** Its bulk Delete (contract/bulk.ts). */
  bulk: BulkCalls
}

/** A link record as every kind's list answers it (contract/links.ts linkKind). */
type LinkRow = Row & { preference: number; version: number }

function linkScreens<R extends LinkRow, A extends FormEndpoint, E extends FormEndpoint>(kind: LinkKind<R, A, E>, screen: LinkScreen): { List: ComponentType; Add: ComponentType } {
  // Every kind's edit takes `_id`, its link, `preference` and `version` (contract/links.ts makes
  // the three from one definition): what TypeScript cannot see through the generic is said here.
  const fields = [url(kind.recordField, 'Title'), number('preference', 'Preference')] as FormDef<E, Row>['fields']
  const values = (row: R) => ({ _id: row._id, [kind.recordField]: row[kind.recordField], preference: row.preference, version: row.version }) as z.input<E['input']>
  const List = defineList({
    title: screen.title,
    route: kind.route,
    endpoint: kind.list,
    columns: [serial(), col(kind.recordField, screen.add.label)],
    add: { to: screen.add.route },
    empty: { says: screen.empty, addFirst: `Create the first ${screen.add.label.toLowerCase()}` },
    editDialog: { title: 'Edit List', endpoint: kind.edit, fields, values },
    remove: { endpoint: kind.remove, confirm: REMOVE_LINK },
    serverBulk: screen.bulk,
  })
  const Add = defineForm({
    title: screen.add.title,
    endpoint: kind.add,
    fields: [url(kind.addField, screen.add.label)],
    done: kind.route,
  })
  return { List, Add }
}

const buy = linkScreens(buyLinks, { title: 'Buy List', add: { route: '/add_buylink', title: 'Add Buy Link', label: 'Buy Link' }, empty: 'The wallet offers these links to users who buy crypto, in the order of their preference.', bulk: buyLinksBulk })
const swapOut = linkScreens(sellLinks, { title: 'Swap Out List', add: { route: '/add_swapout', title: 'Add Swap Out Link', label: 'Swap Out Link' }, empty: 'The wallet offers these links to users who swap crypto out, in the order of their preference.', bulk: sellLinksBulk })
const swapIn = linkScreens(bridgeLinks, { title: 'Swap in List', add: { route: '/add_swapin', title: 'Add Swap In Link', label: 'Swap In Link' }, empty: 'The wallet offers these links to users who swap crypto in, in the order of their preference.', bulk: bridgeLinksBulk })

export const BuyListPage = buy.List
export const AddBuyLinkPage = buy.Add
export const SwapOutListPage = swapOut.List
export const AddSwapOutPage = swapOut.Add
export const SwapInListPage = swapIn.List
export const AddSwapInPage = swapIn.Add
