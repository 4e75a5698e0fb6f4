/**
 * Which columns of a list a staff member sees: every column by default; some hidden by choice from
 * the Columns menu; and, on a narrow table (a tablet, fold.ts), low-priority columns brought back
 * ("kept") that would otherwise fold into the view modal.
 *
 * The choice is kept per admin and list in localStorage (nothing to sync: it is a preference of one
 * browser's screen), and travels in a saved view as the `columns` query parameter: a saved view is
 * a URL query, so a view saved with its columns restores them when opened from the list or the
 * palette. The list adopts a `columns` parameter it is opened with and takes it off the address
 * again, so paging and Back never carry an old choice around.
 *
 * The text form is a comma-separated list of column ids, `-id` hidden and `+id` kept:
 * `columns=-walletaddress,+operatingsystem`; an empty value is the default choice.
 */
import { isCustom, type Column } from './columns.tsx'
import { isLow } from './fold.ts'

export interface ColumnChoice {
  /** Columns the admin hid, at every width. */
  hidden: readonly string[]
  /** Low-priority columns the admin brought back on a narrow table (the table scrolls sideways). */
  kept: readonly string[]
}

export const DEFAULT_CHOICE: ColumnChoice = { hidden: [], kept: [] }

/** The query parameter a saved view carries its columns in. */
export const COLUMNS_PARAM = 'columns'

/** A column's name in a choice: its record field, or its header for a computed one. */
export function columnId<R>(c: Column<R>): string {
  if (isCustom(c)) return c.header
  if (c.kind === 'serial') return 'serial'
  return c.key
}

/**
 * Reads a choice's text, keeping only ids of `ids` (a column since removed is forgotten) and never
 * hiding them all: a choice that would leave no column shows them all again.
 */
export function parseChoice(text: string | null | undefined, ids: readonly string[]): ColumnChoice {
  if (!text) return DEFAULT_CHOICE
  const hidden: string[] = []
  const kept: string[] = []
  for (const part of text.split(',')) {
    const id = part.slice(1)
    if (!ids.includes(id)) continue
    if (part.startsWith('-') && !hidden.includes(id)) hidden.push(id)
    else if (part.startsWith('+') && !kept.includes(id)) kept.push(id)
  }
  return normalize({ hidden: hidden.length >= ids.length ? [] : hidden, kept }, ids)
}

/** The choice in the list's column order, so equal choices have equal text. */
function normalize(choice: ColumnChoice, ids: readonly string[]): ColumnChoice {
  return {
    hidden: ids.filter((id) => choice.hidden.includes(id)),
    kept: ids.filter((id) => choice.kept.includes(id) && !choice.hidden.includes(id)),
  }
}

export const writeChoice = (choice: ColumnChoice): string => [...choice.hidden.map((id) => `-${id}`), ...choice.kept.map((id) => `+${id}`)].join(',')

export const sameChoice = (a: ColumnChoice, b: ColumnChoice): boolean => writeChoice(a) === writeChoice(b)

/** The columns a table draws: all but the hidden ones. */
export const shownColumns = <R>(columns: readonly Column<R>[], choice: ColumnChoice): Column<R>[] =>
  columns.filter((c) => !choice.hidden.includes(columnId(c)))

/** Whether a column is folded away now: low priority, on a narrow table, and not brought back. */
export const isFolded = <R>(c: Column<R>, choice: ColumnChoice, narrow: boolean): boolean =>
  narrow && isLow(c) && !choice.kept.includes(columnId(c)) && !choice.hidden.includes(columnId(c))

/** Whether a column is on screen at this width. */
export const isOnScreen = <R>(c: Column<R>, choice: ColumnChoice, narrow: boolean): boolean =>
  !choice.hidden.includes(columnId(c)) && !isFolded(c, choice, narrow)

/**
 * Shows or takes away one column, as its checkbox in the Columns menu does ("on screen at this
 * width"). Showing a hidden or folded column on a narrow table also keeps it there; taking one
 * away hides it. The last column on screen cannot be taken away: the answer is the same choice.
 */
export function setOnScreen<R>(columns: readonly Column<R>[], choice: ColumnChoice, id: string, show: boolean, narrow: boolean): ColumnChoice {
  const ids = columns.map(columnId)
  const column = columns.find((c) => columnId(c) === id)
  if (column === undefined) return choice
  if (show) {
    const hidden = choice.hidden.filter((h) => h !== id)
    const kept = narrow && isLow(column) ? [...choice.kept, id] : choice.kept
    return normalize({ hidden, kept }, ids)
  }
  const onScreen = columns.filter((c) => isOnScreen(c, choice, narrow))
  if (onScreen.length <= 1 && onScreen.some((c) => columnId(c) === id)) return choice
  return normalize({ hidden: [...choice.hidden, id], kept: choice.kept.filter((k) => k !== id) }, ids)
}

/** Whether the menu must refuse to take this column away: it is the last one on screen. */
export const isLastOnScreen = <R>(columns: readonly Column<R>[], choice: ColumnChoice, id: string, narrow: boolean): boolean => {
  const onScreen = columns.filter((c) => isOnScreen(c, choice, narrow))
  return onScreen.length === 1 && onScreen.some((c) => columnId(c) === id)
}

/** Where a browser keeps one admin's choice for one list. */
export const choiceStorageKey = (userId: string, route: string): string => `columns:${userId}:${route}`

/** The query text without the columns parameter ('' or '?…'). */
export function withoutChoice(query: string): string {
  const params = new URLSearchParams(query)
  params.delete(COLUMNS_PARAM)
  const rest = params.toString()
  return rest === '' ? '' : `?${rest}`
}

/** The query text with this choice in it, as a saved view keeps it (the default too, so it restores). */
export function withChoice(query: string, choice: ColumnChoice): string {
  const params = new URLSearchParams(query)
  params.set(COLUMNS_PARAM, writeChoice(choice))
  return `?${params.toString()}`
}

/** The choice a query carries, or undefined when it says nothing about columns. */
export function choiceInQuery(query: string, ids: readonly string[]): ColumnChoice | undefined {
  const params = new URLSearchParams(query)
  return params.has(COLUMNS_PARAM) ? parseChoice(params.get(COLUMNS_PARAM), ids) : undefined
}

/**
 * Whether a saved view is the one on screen: the same query, and the same columns when the view
 * keeps columns (a view saved before views kept them matches whatever columns are shown).
 */
export function isCurrentView(viewQuery: string, query: string, choice: ColumnChoice, ids: readonly string[]): boolean {
  if (withoutChoice(viewQuery) !== withoutChoice(query)) return false
  const saved = choiceInQuery(viewQuery, ids)
  return saved === undefined || sameChoice(saved, choice)
}
