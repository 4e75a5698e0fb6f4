import { useEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react'
import { Button } from '#src/ui/button.tsx'
import { Checkbox } from '#src/ui/checkbox.tsx'
import { cn } from '#src/ui/cn.ts'
import { Skeleton } from '#src/ui/skeleton.tsx'
import type { PresencePerson } from '#contract/presence'
import { EditingMark } from '../record/presence.tsx'
import { STICKY_END, Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '#src/ui/table.tsx'
import { isCustom, renderValue, sortColumnOf, type Column } from './columns.tsx'
import { columnId } from './column-choice.ts'
import { CutText } from './cut-text.tsx'
import { FOLD_CLASS, isLow } from './fold.ts'
import type { SortState } from './list-query.ts'
import type { Row } from './list-types.ts'
import { pageState, type Selection } from './selection.ts'

/** The empty text of the lists (requirements R2.10, R8.6). */
export const NO_RECORD_FOUND = 'No Record Found'
const SKELETON_ROWS = 5

/** Headers that sort the list: the sortable columns, the order shown, and what a header's press asks for. */
export interface TableSort {
  /** The list's sortable columns (record field names). */
  columns: readonly string[]
  /** The order the rows are in, when it is one of the columns. */
  shown: SortState | undefined
  /** A sortable header was pressed (a click, or Enter or Space on its focused button). */
  onSort: (by: string) => void
}

/** The checkbox column of a list with bulk actions. */
export interface TableSelection<R> {
  selected: Selection
  /** `range`: Shift was held (the rows between the last one toggled and this one). */
  onToggle: (id: string, range: boolean) => void
  /** The header checkbox: select the visible page, or clear it when it is all selected. */
  onFlipPage: (pageIds: readonly string[]) => void
  /** Rows no write may touch get no checkbox. */
  selectable: (row: R) => boolean
  /** Names the row for screen readers: "Select https://…". */
  subject: (row: R) => string
}

interface DataTableProps<R extends Row> {
  caption: string
  columns: readonly Column<R>[]
  /** undefined while the first page loads. */
  rows: readonly R[] | undefined
  /** Serial number of the row at this index (S.No). */
  serial: (index: number) => number
  /** A failure with no data to show: the table says so and offers a retry. */
  error: string | undefined
  /** Said under "No Record Found" when there are no rows: why, and the way on. */
  emptyNote?: ReactNode
  onRetry: () => void
  /** A newer page is being fetched while the previous one stays on screen. */
  busy: boolean
  /** The Action cell of a row, or undefined when the list has no actions. */
  actions?: ((row: R) => ReactNode) | undefined
  selection?: TableSelection<R> | undefined
  /** The table's scrolling box, whose width decides which columns fold away. */
  boxRef?: RefObject<HTMLDivElement | null>
  /** The row the keyboard is on (list-keys.ts), focused for real; -1 for none. */
  focusedIndex?: number
  /** A row took focus (a click or Tab into it): the keys go on from there. */
  onFocusRow?: (index: number) => void
  /** Sortable headers; without it no header sorts. */
  sort?: TableSort | undefined
  /** Low-priority columns (by column id) the admin brought back: they do not fold on a narrow table. */
  kept?: readonly string[]
  /** The rows other staff are editing now (record id to its editors): marked in their first cell. */
  marks?: ReadonlyMap<string, readonly PresencePerson[]>
}

function headerText<R>(c: Column<R>) {
  return isCustom(c) && c.srOnlyHeader ? <span className="sr-only">{c.header}</span> : c.header
}

/** ▲ ascending, ▼ descending, a faint ↕ for a column that sorts but does not now. */
function SortArrow({ order }: { order: SortState['order'] | undefined }) {
  const path = order === 'asc' ? 'M6 15l6-6 6 6' : order === 'desc' ? 'M6 9l6 6 6-6' : 'M8 9l4-4 4 4M8 15l4 4 4-4'
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className={cn('size-3.5 shrink-0', order === undefined ? 'text-slate-400' : 'text-indigo-700')} fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
      <path d={path} />
    </svg>
  )
}

/**
 * A header cell; a sortable column's holds a button (so a click, Enter and Space sort by it) and
 * the cell says the order it is in (aria-sort).
 */
function HeaderCell<R>({ column, sort, className }: { column: Column<R>; sort: TableSort | undefined; className: string | undefined }) {
  const by = sort === undefined ? undefined : sortColumnOf(column, sort.columns)
  if (sort === undefined || by === undefined) return <TableHeader className={className}>{headerText(column)}</TableHeader>
  const order = sort.shown?.by === by ? sort.shown.order : undefined
  return (
    <TableHeader className={className} aria-sort={order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : undefined}>
      <button
        type="button"
        onClick={() => sort.onSort(by)}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 text-left font-semibold hover:text-slate-950 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {column.header}
        <SortArrow order={order} />
      </button>
    </TableHeader>
  )
}

function cell<R extends Row>(c: Column<R>, row: R, serial: number): ReactNode {
  if (isCustom(c)) return c.cell(row)
  if (c.kind === 'serial') return serial
  // An identifier's "alt" names it for its copy button ('Copy Game ID').
  const alt = c.altKey === undefined ? (c.kind === 'mono' ? c.header : '') : String(row[c.altKey])
  const thumb = c.thumbKey === undefined ? '' : String(row[c.thumbKey])
  const value = renderValue(c.kind, row[c.key], alt, true, thumb, c.empty)
  // Text cut to fit ends in an ellipsis and is read whole from its title (cut-text.tsx).
  if (c.kind !== 'text' || typeof value !== 'string' || value === '') return value
  return <CutText text={value} lines={c.wrap ? 3 : 1} />
}

/**
 * Values kept on one line: a date, a short identifier, Yes or No. Text gives way instead (CutText);
 * custom and image cells decide for themselves (an image's only text, 'No image in this
 * promotion', may wrap rather than push the columns after it out of sight).
 */
const oneLine = <R,>(c: Column<R>): boolean => !isCustom(c) && c.kind !== 'image' && c.kind !== 'text'

/** How a cell's text wraps, by its column (FIT_STAGES in src/ui/table.tsx). */
function wrapping<R>(c: Column<R>): string | undefined {
  // One line, unless the table still does not fit once its text is cut: then between words.
  if (oneLine(c)) return 'whitespace-nowrap group-data-wrap-values/table:whitespace-normal'
  // A custom cell's words wrap (a long category name takes two lines); once text is cut, a word
  // too long for the column (an address) breaks too rather than widening the table.
  return isCustom(c) ? 'group-data-cut-text/table:wrap-anywhere' : undefined
}

function PageCheckbox<R extends Row>({ rows, selection }: { rows: readonly R[] | undefined; selection: TableSelection<R> }) {
  const ids = (rows ?? []).filter(selection.selectable).map((r) => r._id)
  const state = pageState(selection.selected, ids)
  return (
    <Checkbox
      aria-label="Select all rows on this page"
      checked={ids.length > 0 && state === 'all'}
      indeterminate={state === 'some'}
      disabled={ids.length === 0}
      onChange={() => selection.onFlipPage(ids)}
    />
  )
}

/** The one table of every list: headers, rows, and its loading, error and empty states. */
export function DataTable<R extends Row>({ caption, columns, rows, serial, error, emptyNote, onRetry, busy, actions, selection, boxRef, focusedIndex = -1, onFocusRow, sort, kept = [], marks }: DataTableProps<R>) {
  const rowElements = useRef(new Map<number, HTMLTableRowElement>())
  useEffect(() => {
    const row = rowElements.current.get(focusedIndex)
    // Moved by a key: the row itself takes focus (a screen reader reads it), unless focus is already
    // inside it. Only when the index moves: rows refreshed after a dialog's save must not take the
    // focus the dialog gives back to its opener.
    if (row && !row.contains(document.activeElement)) row.focus()
  }, [focusedIndex])
  const width = columns.length + (actions ? 1 : 0) + (selection ? 1 : 0)
  // What the table shows: when it changes, the table is fitted to its box again (FIT_STAGES).
  const fitKey = useMemo(() => ({ rows, columns, kept, width }), [rows, columns, kept, width])
  const wide = (content: ReactNode) => (
    <TableRow>
      <TableCell colSpan={width} className="py-8 text-center text-slate-700">
        {content}
      </TableCell>
    </TableRow>
  )
  const fold = (c: Column<R>) => (isLow(c) && !kept.includes(columnId(c)) ? FOLD_CLASS : undefined)

  let body: ReactNode
  if (rows === undefined && error !== undefined) {
    body = wide(
      <div role="alert" className="flex flex-col items-center gap-3">
        <p>Could not load this list: {error}</p>
        <Button variant="outline" size="sm" onClick={onRetry}>
          Retry
        </Button>
      </div>,
    )
  } else if (rows === undefined) {
    body = Array.from({ length: SKELETON_ROWS }, (_, i) => (
      <TableRow key={i}>
        {Array.from({ length: width }, (_, j) => (
          <TableCell key={j}>
            <Skeleton className="w-3/4" />
          </TableCell>
        ))}
      </TableRow>
    ))
  } else if (rows.length === 0) {
    body = wide(
      emptyNote === undefined ? (
        NO_RECORD_FOUND
      ) : (
        <div className="flex flex-col items-center gap-3">
          <p className="font-medium text-slate-900">{NO_RECORD_FOUND}</p>
          {emptyNote}
        </div>
      ),
    )
  } else {
    body = rows.map((row, index) => {
      const chosen = selection?.selected.has(row._id) ?? false
      // The sticky Action cell paints its own background, following the row's (hover, selected).
      const stickyBackground = chosen ? 'bg-indigo-50' : 'bg-white group-hover:bg-slate-50'
      return (
        <TableRow
          key={row._id}
          ref={(el: HTMLTableRowElement | null) => {
            if (el) rowElements.current.set(index, el)
            else rowElements.current.delete(index)
          }}
          tabIndex={index === focusedIndex || (focusedIndex < 0 && index === 0) ? 0 : -1}
          onFocus={() => onFocusRow?.(index)}
          className={cn('group focus:outline-2 focus:-outline-offset-2 focus:outline-indigo-600', chosen ? 'bg-indigo-50' : 'hover:bg-slate-50')}
        >
          {selection ? (
            <TableCell className="w-10">
              {selection.selectable(row) ? (
                <Checkbox
                  aria-label={`Select ${selection.subject(row) || `row ${serial(index)}`}`}
                  checked={chosen}
                  // Shift+click selects the rows between this one and the last one toggled.
                  onChange={(event) => selection.onToggle(row._id, event.nativeEvent instanceof MouseEvent && event.nativeEvent.shiftKey)}
                />
              ) : null}
            </TableCell>
          ) : null}
          {columns.map((c, j) => {
            const editors = j === 0 ? marks?.get(row._id) : undefined
            return (
              <TableCell key={c.header} className={cn(wrapping(c), fold(c))}>
                {cell(c, row, serial(index))}
                {editors ? <EditingMark editors={editors} /> : null}
              </TableCell>
            )
          })}
          {actions ? <TableCell className={cn(STICKY_END, stickyBackground)}>{actions(row)}</TableCell> : null}
        </TableRow>
      )
    })
  }

  return (
    <Table boxRef={boxRef} fitKey={fitKey} aria-busy={rows === undefined || busy} className={busy ? 'opacity-70' : undefined}>
      <TableCaption>{caption}</TableCaption>
      <TableHead>
        <TableRow>
          {selection ? (
            <TableHeader className="w-10">
              <PageCheckbox rows={rows} selection={selection} />
            </TableHeader>
          ) : null}
          {columns.map((c) => (
            <HeaderCell key={c.header} column={c} sort={sort} className={fold(c)} />
          ))}
          {actions ? <TableHeader className={cn(STICKY_END, 'bg-slate-50 whitespace-nowrap')}>Action</TableHeader> : null}
        </TableRow>
      </TableHead>
      <TableBody>{body}</TableBody>
    </Table>
  )
}
