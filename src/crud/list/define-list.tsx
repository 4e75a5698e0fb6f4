/**
 * `defineList({...})`: a whole list screen from a short description, so every list behaves alike. Loading, empty,
 * error, paging, search, the view modal, folding on narrow screens, and the Admin-only add, edit
 * (page or dialog), delete, toggle and bulk controls live in ListPage, once, for every screen.
 * The shapes, one example each, are in docs/decisions/005-crud-kit-second-edition.md.
 */
import type { ComponentType } from 'react'
import type { FormEndpoint } from '../form/form-def.ts'
import { columnId } from './column-choice.ts'
import { isLow } from './fold.ts'
import { ListPage } from './list-page.tsx'
import { isListSource, pagedSource } from './list-source.ts'
import type { ListDef, ListModel, Row } from './list-types.ts'
import { bulkModel, removeRequest, rowActionModel, toggleModel } from '../writes/row-writes.ts'

/**
 * Checks what the types cannot, then binds each write to its endpoint. Exported for the tests;
 * screens call `defineList`.
 */
export function listModel<R extends Row, RI, TI, B extends readonly unknown[], E extends FormEndpoint, const A extends readonly unknown[] = []>(
  def: ListDef<R, RI, TI, B, E, A>,
): ListModel<R> {
  const { remove, toggle, selection, editDialog, endpoint, actions, live, count, ...shown } = def
  if (def.columns.some(isLow) && !def.view) {
    // A folded column must stay readable somewhere: the view modal is where it goes.
    throw new Error(`${def.title}: a low-priority column needs a view modal to fold into`)
  }
  const ids = def.columns.map(columnId)
  // A column's id names it in the admin's column choice (column-choice.ts), comma-separated.
  const clash = ids.find((id, i) => ids.indexOf(id) !== i || id.includes(','))
  if (clash !== undefined) throw new Error(`${def.title}: column "${clash}" is not a unique name without commas`)
  if (count && isListSource(endpoint)) throw new Error(`${def.title}: a count call goes with a list call paged by the server`)
  if (editDialog && def.edit) throw new Error(`${def.title}: edit on a page or in a dialog, not both`)
  const route = def.route
  if (editDialog && !route) throw new Error(`${def.title}: an edit dialog needs the list's route`)
  return {
    ...shown,
    source: isListSource(endpoint) ? endpoint : pagedSource(endpoint, live, count),
    actions: actions?.map((a) => rowActionModel(a)),
    remove: remove ? { confirm: remove.confirm, request: removeRequest(remove) } : undefined,
    toggle: toggle ? toggleModel(toggle) : undefined,
    bulk: selection ? selection.bulk.map((b) => bulkModel(b)) : undefined,
    editDialog:
      editDialog && route
        ? {
            form: { title: editDialog.title, endpoint: editDialog.endpoint, fields: editDialog.fields, done: route, submitLabel: editDialog.submitLabel },
            values: (row) => ({ ...editDialog.values(row) }),
          }
        : undefined,
  }
}

/** Builds the screen component from its description. */
export function defineList<R extends Row, RI = never, TI = never, const B extends readonly unknown[] = [], E extends FormEndpoint = FormEndpoint, const A extends readonly unknown[] = []>(
  def: ListDef<R, RI, TI, B, E, A>,
): ComponentType {
  const model = listModel(def)
  function DefinedList() {
    return <ListPage model={model} />
  }
  DefinedList.displayName = `List(${def.title})`
  return DefinedList
}
