import type { ReactNode } from 'react'
import { Button } from '#src/ui/button.tsx'
import { Skeleton } from '#src/ui/skeleton.tsx'
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '#src/ui/table.tsx'
import { isCustom, renderValue, type Column } from './columns.tsx'
import type { Row } from './list-types.ts'

/** The spec's empty text (sections 2 and 8). */
export const NO_RECORD_FOUND = 'No Record Found'
const SKELETON_ROWS = 5

interface DataTableProps<R extends Row> {
  caption: string
  columns: readonly Column<R>[]
  /** undefined while the first page loads. */
  rows: readonly R[] | undefined
  /** Serial number of the row at this index (S.No). */
  serial: (index: number) => number
  /** A failure with no data to show: the table says so and offers a retry. */
  error: string | undefined
  onRetry: () => void
  /** A newer page is being fetched while the previous one stays on screen. */
  busy: boolean
  /** The Action cell of a row, or undefined when the list has no actions. */
  actions?: ((row: R) => ReactNode) | undefined
}

function headerText<R>(c: Column<R>) {
  return isCustom(c) && c.srOnlyHeader ? <span className="sr-only">{c.header}</span> : c.header
}

function cell<R extends Row>(c: Column<R>, row: R, serial: number): ReactNode {
  if (isCustom(c)) return c.cell(row)
  if (c.kind === 'serial') return serial
  const alt = c.altKey === undefined ? '' : String(row[c.altKey])
  return renderValue(c.kind, row[c.key], alt, true)
}

/** The one table of every list: headers, rows, and its loading, error and empty states. */
export function DataTable<R extends Row>({ caption, columns, rows, serial, error, onRetry, busy, actions }: DataTableProps<R>) {
  const width = columns.length + (actions ? 1 : 0)
  const wide = (content: ReactNode) => (
    <TableRow>
      <TableCell colSpan={width} className="py-8 text-center text-slate-700">
        {content}
      </TableCell>
    </TableRow>
  )

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
    body = wide(NO_RECORD_FOUND)
  } else {
    body = rows.map((row, index) => (
      <TableRow key={row._id} className="hover:bg-slate-50">
        {columns.map((c) => (
          // Values stay on one line (the table scrolls sideways); custom cells decide for themselves.
          <TableCell key={c.header} className={isCustom(c) ? undefined : 'whitespace-nowrap'}>
            {cell(c, row, serial(index))}
          </TableCell>
        ))}
        {actions ? <TableCell>{actions(row)}</TableCell> : null}
      </TableRow>
    ))
  }

  return (
    <Table aria-busy={rows === undefined || busy} className={busy ? 'opacity-70' : undefined}>
      <TableCaption>{caption}</TableCaption>
      <TableHead>
        <TableRow>
          {columns.map((c) => (
            <TableHeader key={c.header}>{headerText(c)}</TableHeader>
          ))}
          {actions ? <TableHeader>Action</TableHeader> : null}
        </TableRow>
      </TableHead>
      <TableBody>{body}</TableBody>
    </Table>
  )
}
