/**
 * Types shared by `defineList` and the generic list page. A screen writes a `ListDef` (typed
 * against its endpoints, so a payload that does not fit its call does not compile); `defineList`
 * turns it into a `ListModel`, the same description with each write bound to its endpoint, which
 * is what the page renders.
 */
import type { ComponentType } from 'react'
import type { z } from 'zod/mini'
import type { BulkCalls } from '#contract/bulk'
import type { ListSort } from '#contract/common'
import type { Endpoint } from '#contract/define'
import type { ScreenPath } from '#contract/routes'
import type { ApiError } from '#src/lib/api.ts'
import type { Session } from '#src/lib/session.ts'
import type { Column, ViewField } from './columns.tsx'
import type { FormDef, FormEndpoint } from '../form/form-def.ts'
import type { ListFilter } from './list-filters.tsx'
import type { ListQuery } from './list-query.ts'
import type { WriteRule } from '../writes/write-access.ts'

/** Every record of a list has an opaque `_id` (contract/common.ts). */
export interface Row {
  _id: string
}

/**
 * A page of records: `result` + `count` (most lists) or `data` + `count` (leads). The count is
 * null only in the answer of a list asked for its rows first (count 'later', contract/common.ts
 * CountLater) when the server did not know it yet: its count call answers it.
 */
export type Paged<R> = { result: R[]; count: number | null } | { data: R[]; count: number | null }

/** The query every list call accepts (contract/common.ts PageQuery). */
export interface ListInput {
  page?: unknown
  limit?: unknown
  search?: string
}

export type ListEndpoint<R> = Endpoint<z.ZodMiniType<unknown, ListInput>, z.ZodMiniType<Paged<R>>>

/** A list's count call: the list's search and filters in, the exact count out (contract/common.ts CountAnswer). */
export type CountEndpoint = Endpoint<z.ZodMiniType<unknown, { search?: string }>, z.ZodMiniType<{ count: number }>>

/** One call ready to send: the endpoint, the input it will get, and the sending itself. */
export interface BoundCall {
  endpoint: Endpoint
  input: unknown
  send: () => Promise<{ message: string }>
}

/** One page of a list as the list page shows it. */
export interface ListRows<R> {
  /** undefined while the first answer loads. */
  rows: R[] | undefined
  /** undefined while the first answer loads, and while the rows' count is being counted (`counting`). */
  count: number | undefined
  /** The rows are shown and their count is still being counted (a list with a count call). */
  counting?: boolean
  /** The count call failed: the rows are shown without a count; `retry` asks again. */
  countFailed?: boolean
  /** Every row the search matches, on every page; only a whole-list source knows them. */
  allRows: R[] | undefined
  error: ApiError | undefined
  isLoading: boolean
  isValidating: boolean
  retry: () => void
}

export interface ListSource<R> {
  /** A hook: the page of `query`, narrowed by the list's declared filters (list-filters.tsx) when it has any. */
  useRows(query: ListQuery, filters?: Readonly<Record<string, string>>): ListRows<R>
  /** The columns the rows can be sorted by (the list endpoint's `sort`), and its default order. */
  sort?: ListSort | undefined
}

/** What a list's toolbar knows of the list: its query, its filters' inputs and how many rows they match. */
export interface ToolbarProps {
  query: ListQuery
  /** The filters' inputs as the list call gets them (list-filters.tsx `filterInput`). */
  filters: Readonly<Record<string, string>>
  /** Whether a search or a filter narrows the list (a sort alone does not). */
  narrowed: boolean
  /** The rows the list matches, once its answer is in. */
  count: number | undefined
}

/** What a list's own selection actions are told: the list's query, and the rows chosen. */
export interface SelectionActionsProps extends ToolbarProps {
  /** The rows ticked (on every page), or with `matching` every row the search and filters match. */
  selection: { ids: readonly string[]; matching: boolean }
}

/** A write whose input is `I` and whose answer carries the server's message (toasted). */
export type WriteEndpoint<I> = Endpoint<z.ZodMiniType<unknown, I>, z.ZodMiniType<{ message: string }>>

/**
 * Delete with the required confirmation. The call gets `{ id }` unless `payload` maps the row to
 * what the call wants instead (`{ _id: row._id }` for homepage content).
 */
export type RemoveDef<R, I> =
  | { endpoint: WriteEndpoint<{ id: string }>; confirm: string; payload?: undefined }
  | { endpoint: WriteEndpoint<I>; confirm: string; payload: (row: R) => NoInfer<I> }

/**
 * A per-row on/off write (staff Active/DeActive, a game's Freeze/UnFreeze, a country's hide).
 * `switch` shows a switch named `name` whose state is `isOn`, with `label` as its visible text;
 * `button` shows a button whose text and tooltip are `label` ("Freeze"/"UnFreeze" of requirements R4.4).
 */
export interface ToggleDef<R, I> {
  kind: 'switch' | 'button'
  /** The switch's accessible name before the record's own name ("Active Ann"); buttons use `label`. */
  name?: string
  endpoint: WriteEndpoint<I>
  payload: (row: R) => NoInfer<I>
  isOn: (row: R) => boolean
  label: (row: R) => string
  /** A question to answer before the call, when flipping needs a second thought. */
  confirm?: (row: R) => string
}

/** An Admin-only call for every selected row at once ("Delete All"). */
export interface BulkDef<I> {
  label: string
  endpoint: WriteEndpoint<I>
  payload: (ids: string[]) => NoInfer<I>
  /** The question asked before the call. */
  confirm: string
}

/** The links' "Edit List" modal: the kit's form for `endpoint`, started from the row's values. */
export interface EditDialogDef<R, E extends FormEndpoint> {
  title: string
  endpoint: E
  fields: FormDef<E, Row>['fields']
  values: (row: R) => z.input<E['input']>
  submitLabel?: string
}

/**
 * Rows that change while shown (a promotion's delivery progress): a server event updates them in
 * place, without a refetch. Made by `live()` (list-source.ts).
 */
export interface LiveDef<R> {
  /** The socket event (contract/socket.ts). */
  event: string
  /** The change a payload makes: per row, the updated row, or undefined when it is not that row's; null when the payload does not parse. */
  update: (payload: unknown) => ((row: R) => R | undefined) | null
  /** While a shown row holds this, the page is also fetched again every few seconds, in case the socket is down. */
  pollWhile?: (row: R) => boolean
}

/**
 * An Admin-only call of its own per row (a promotion's Resend and Cancel), shown as a button named
 * `label` for the rows `when` allows. It asks `confirm` first, answered by one button per choice,
 * each sending its own payload (Resend: to everyone, or only to the failed deliveries).
 */
export interface RowActionDef<R, I> {
  label: string
  endpoint: WriteEndpoint<I>
  /** The rows (and sessions: a four-eyes approval is never the requester's) the button shows for. */
  when?: (row: R, session: Session) => boolean
  confirm: (row: R) => string
  /** Said under the question (what will happen). */
  detail?: (row: R) => string
  /** The button that closes without acting, when 'Cancel' would be ambiguous (a Cancel action). */
  dismiss?: string
  choices: readonly { label: string; payload: (row: R) => NoInfer<I>; when?: (row: R) => boolean }[]
  /** Runs once the call succeeded, before the list is fetched again (View as takes the session elsewhere). */
  afterSuccess?: (row: R) => void
}

export interface ListDef<R extends Row, RI, TI, B extends readonly unknown[], E extends FormEndpoint, A extends readonly unknown[] = []> {
  /** The page heading, as the requirements title the screen. */
  title: string
  /** One line under the heading saying what a state shown in the list means (said once, not per row). */
  about?: string
  /**
   * Said under "No Record Found" while the list has no rows at all (no search, no filter): what
   * belongs here, and (for an Admin, where the list has Add) the link that adds the first one.
   */
  empty?: { says: string; addFirst?: string }
  /** The list's own path: where the edit dialog's form would go back to. Needed with `editDialog`. */
  route?: ScreenPath
  /** The list call, paged by the server; or a `wholeListSource` for a call that answers every row at once. */
  endpoint: ListEndpoint<R> | ListSource<R>
  /**
   * The list's count call, for a list call that takes `count: 'later'`: the page then asks for
   * its rows first, shows them with "counting…" in the pager, and fills in the exact count when
   * this call answers (a broad search on a million rows counts in a tenth of a second).
   */
  count?: CountEndpoint
  columns: readonly Column<NoInfer<R>>[]
  /** Default page size; 10 unless the requirements say otherwise (leads: 50, R9.1). */
  pageSize?: number
  /** A modal opened by the row's View action, listing these fields (and any folded column). */
  view?: { title: string; fields: readonly ViewField<NoInfer<R>>[] }
  /** Admin only: the Add button's route and label. */
  add?: { to: ScreenPath; label?: string }
  /** Admin only: the edit route; the record rides along in history state, its id in `?id=`. */
  edit?: ScreenPath
  /** For everyone: View opens this page about the row (record in history state, id in `?id=`) instead of a modal. */
  viewPage?: ScreenPath
  /** Admin only: edit in a modal on the list instead of a page of its own. */
  editDialog?: EditDialogDef<NoInfer<R>, E>
  /** Admin only: delete with the required confirmation text. */
  remove?: RemoveDef<NoInfer<R>, RI>
  /** Admin only: an on/off write per row. */
  toggle?: ToggleDef<NoInfer<R>, TI>
  /** Admin only: calls of their own per row, each asked first (Resend, Cancel). */
  actions?: { [K in keyof A]: RowActionDef<NoInfer<R>, A[K]> }
  /** Rows a server event updates while shown. */
  live?: LiveDef<NoInfer<R>>
  /** Admin only: a checkbox per row, kept across pages and searches, and calls for the selection. */
  selection?: { bulk: { [K in keyof B]: BulkDef<B[K]> } }
  /**
   * Bulk actions the server previews and runs as one job (contract/bulk.ts): a checkbox per row,
   * "Select all N matching" (sent as the list's search and filters), a preview before each action,
   * and one Undo for the whole run.
   */
  serverBulk?: BulkCalls
  /**
   * Actions on the selection that reading the list is enough to select for (the leads' "Export the
   * selection"): whoever may open the list, View Only included, may tick rows then, and each action
   * decides for itself whom it is shown to. Drawn inside the selection bar (BarAction each), told
   * the list's query and the selection.
   */
  selectionActions?: ComponentType<SelectionActionsProps>
  /** Extra controls beside the title, for every session (e.g. Download CSV); told the list's query and count. */
  toolbar?: ComponentType<ToolbarProps>
  /** Dropdowns beside the search whose choices go to the list call (list-filters.tsx). */
  filters?: readonly ListFilter[]
  /** Stricter than Admin access for every write control (staff: role other than subadmin). */
  writeRule?: WriteRule
  /** Rows no write control may touch (the superadmin in the staff list). */
  writable?: (row: NoInfer<R>) => boolean
}

/** The edit dialog as the page uses it: a form definition and the row's starting values. */
export interface EditDialogModel<R> {
  form: FormDef<FormEndpoint, Row>
  values: (row: R) => Record<string, unknown>
}

export interface ToggleModel<R> extends Pick<ToggleDef<R, unknown>, 'kind' | 'name' | 'isOn' | 'label' | 'confirm'> {
  request: (row: R) => BoundCall
}

export interface RowActionModel<R> {
  label: string
  when?: (row: R, session: Session) => boolean
  confirm: (row: R) => string
  detail?: (row: R) => string
  dismiss?: string
  choices: (row: R) => { label: string; request: BoundCall }[]
}

export interface BulkModel {
  label: string
  confirm: string
  request: (ids: string[]) => BoundCall
}

/** A `ListDef` with each write bound to its endpoint: what the list page renders. */
export interface ListModel<R extends Row>
  extends Pick<ListDef<R, never, never, [], FormEndpoint>, 'title' | 'about' | 'empty' | 'columns' | 'pageSize' | 'view' | 'viewPage' | 'add' | 'edit' | 'toolbar' | 'writeRule' | 'writable' | 'filters' | 'serverBulk' | 'selectionActions'> {
  source: ListSource<R>
  editDialog?: EditDialogModel<R>
  remove?: { confirm: string; request: (row: R) => BoundCall }
  toggle?: ToggleModel<R>
  bulk?: readonly BulkModel[]
  actions?: readonly RowActionModel<R>[]
}

/** The records of a page, whichever of the two answer shapes the list uses. */
export const rowsOf = <R>(page: Paged<R>): R[] => ('result' in page ? page.result : page.data)
