/**
 * `defineList({...})`: a whole list screen from a short description (STYLE.md). Loading, empty,
 * error, paging, search, the view modal and the Admin-only add/edit/delete controls live in
 * ListPage, once, for every screen.
 */
import type { ComponentType } from 'react'
import { ListPage } from './list-page.tsx'
import type { ListDef, Row } from './list-types.ts'

/** Builds the screen component from its description. */
export function defineList<R extends Row>(def: ListDef<R>): ComponentType {
  function DefinedList() {
    return <ListPage def={def} />
  }
  DefinedList.displayName = `List(${def.title})`
  return DefinedList
}
