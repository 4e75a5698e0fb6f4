/**
 * Row selection of a list with bulk actions. Rows are kept by id, not by position, so a selection
 * survives paging, a new search and a refetch: the user can pick rows on page 1, search, pick
 * more, and send them all in one call. Pure functions (tested beside) and a small hook.
 */
import { useCallback, useMemo, useRef, useState } from 'react'

export type Selection = ReadonlySet<string>

/** How much of the visible page is selected: drives the header checkbox (checked, mixed, clear). */
export type PageState = 'all' | 'some' | 'none'

export function toggleId(selection: Selection, id: string): Selection {
  const next = new Set(selection)
  if (next.has(id)) next.delete(id)
  else next.add(id)
  return next
}

/** Selects or clears every row of the page; rows of other pages keep their state. */
export function setPage(selection: Selection, pageIds: readonly string[], on: boolean): Selection {
  const next = new Set(selection)
  for (const id of pageIds) {
    if (on) next.add(id)
    else next.delete(id)
  }
  return next
}

export function pageState(selection: Selection, pageIds: readonly string[]): PageState {
  const chosen = pageIds.filter((id) => selection.has(id)).length
  if (chosen === 0) return 'none'
  return chosen === pageIds.length ? 'all' : 'some'
}

/** The header checkbox: a page not fully selected becomes fully selected, a full one clears. */
export const flipPage = (selection: Selection, pageIds: readonly string[]): Selection =>
  setPage(selection, pageIds, pageState(selection, pageIds) !== 'all')

/**
 * Shift+click: every row of the page from the last one toggled (`anchor`) to `id` takes the state
 * `id` takes now; without an anchor on this page, `id` alone toggles.
 */
export function toggleRange(selection: Selection, pageIds: readonly string[], anchor: string | null, id: string): Selection {
  const from = anchor === null ? -1 : pageIds.indexOf(anchor)
  const to = pageIds.indexOf(id)
  if (from < 0 || to < 0) return toggleId(selection, id)
  const [low, high] = from < to ? [from, to] : [to, from]
  return setPage(selection, pageIds.slice(low, high + 1), !selection.has(id))
}

/** Forgets ids that no longer exist (a deleted row), so the count never counts ghosts. */
export function dropIds(selection: Selection, ids: readonly string[]): Selection {
  if (!ids.some((id) => selection.has(id))) return selection
  const next = new Set(selection)
  for (const id of ids) next.delete(id)
  return next
}

export interface SelectionState {
  selected: Selection
  toggle: (id: string) => void
  /** Shift+click: the rows of the page between the last one toggled and `id`. */
  toggleRange: (pageIds: readonly string[], id: string) => void
  flipPage: (pageIds: readonly string[]) => void
  drop: (ids: readonly string[]) => void
  /** Adds these rows (Select All: every row of a whole list, on every page). */
  select: (ids: readonly string[]) => void
  clear: () => void
}

export function useSelection(): SelectionState {
  const [selected, setSelected] = useState<Selection>(() => new Set())
  const anchor = useRef<string | null>(null)
  const toggle = useCallback((id: string) => {
    anchor.current = id
    setSelected((s) => toggleId(s, id))
  }, [])
  const range = useCallback((pageIds: readonly string[], id: string) => {
    const from = anchor.current
    anchor.current = id
    setSelected((s) => toggleRange(s, pageIds, from, id))
  }, [])
  const flip = useCallback((pageIds: readonly string[]) => setSelected((s) => flipPage(s, pageIds)), [])
  const drop = useCallback((ids: readonly string[]) => setSelected((s) => dropIds(s, ids)), [])
  const select = useCallback((ids: readonly string[]) => setSelected((s) => setPage(s, ids, true)), [])
  const clear = useCallback(() => setSelected(new Set()), [])
  return useMemo(() => ({ selected, toggle, toggleRange: range, flipPage: flip, drop, select, clear }), [selected, toggle, range, flip, drop, select, clear])
}
