import { Suspense, cloneElement, createElement, lazy, useEffect, useId, useMemo, useRef, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { useOnline } from '#src/lib/online.ts'
import { Button } from '#src/ui/button.tsx'
import { deferred, useDeferredTrigger } from '#src/ui/deferred.ts'
import { columnId, shownColumns } from './column-choice.ts'
import { viewLines, type ViewLine } from './columns.tsx'
import type { ColumnsMenuProps } from './columns-menu.tsx'
import type { PendingWrite } from '../form/confirm-write-dialog.tsx'
import { DataTable, type TableSelection } from './data-table.tsx'
import type { EditTarget } from '../form/edit-dialog.tsx'
import { errorMessage } from '../form/error-message.ts'
import { foldedColumns, foldsAt, withFolded } from './fold.ts'
import { FoldedFilters, ListFilters, filterInput, useListFilters } from './list-filters.tsx'
import { ListHeader } from './list-header.tsx'
import { nextSort, serialNumber, settlePage, shownSort } from './list-query.ts'
import type { ListModel, Row } from './list-types.ts'
import { PageSizeSelect, Pager } from './pager.tsx'
import { useListPresence } from '../record/presence.tsx'
import { editHref } from '../record/record.ts'
import { ActionCell } from '../writes/row-actions.tsx'
import { SearchBox } from './search-box.tsx'
import { BarAction, SelectionBar } from './selection-bar.tsx'
import { useSelection } from './selection.ts'
import { useListQuery } from './use-list-query.ts'
import { useListKeys } from './list-keys.ts'
import { SavedViews } from './saved-views.tsx'
import { useColumnChoice } from './use-column-choice.ts'
import { useWriteAccess } from '../writes/write-access.ts'

// The dialogs (Radix Dialog and AlertDialog, and the form kit for an edit dialog) are fetched the
// first time one opens: a list's first render does not need them.
const ViewDialog = lazy(async () => ({ default: (await import('../record/view-dialog.tsx')).ViewDialog }))
const EditDialog = lazy(async () => ({ default: (await import('../form/edit-dialog.tsx')).EditDialog }))
const ConfirmWriteDialog = lazy(async () => ({ default: (await import('../form/confirm-write-dialog.tsx')).ConfirmWriteDialog }))
// The server's bulk actions (and the contract's bulk calls) load with the lists that have them.
const ServerBulkBar = lazy(async () => ({ default: (await import('./server-bulk.tsx')).ServerBulkBar }))

// Radix's menu code comes with the first hover, focus or press of the Columns button (ui/deferred.ts).
const columnsMenu = deferred(() => import('./columns-menu.tsx'))

/** The Columns menu, or until its code arrives a button that looks, reads and responds the same. */
function ColumnsMenuSlot<R>(props: Omit<ColumnsMenuProps<R>, 'trigger' | 'openOnArrival'>) {
  const { module, openOnArrival, slot, placeholder } = useDeferredTrigger(columnsMenu, { openKeys: ['Enter', ' ', 'ArrowDown'] })
  const trigger = (
    <Button variant="outline" size="sm" {...slot}>
      Columns
    </Button>
  )
  if (module) return <module.ColumnsMenu {...props} trigger={trigger} openOnArrival={openOnArrival} />
  return cloneElement(trigger, { 'aria-haspopup': 'menu', 'aria-expanded': false, 'data-state': 'closed', ...placeholder })
}

/** Text that names a record for screen readers: its first text column's value. */
function subjectOf<R extends Row>(model: ListModel<R>, row: R): string {
  for (const c of model.columns) {
    if ('key' in c && c.kind === 'text') {
      const value = row[c.key]
      if (typeof value === 'string' && value !== '') return value
    }
  }
  return ''
}

/** A dialog's state: once opened it stays mounted, so it closes (and returns focus) as Radix does it. */
function useDialogState<T>(): [T | null, (value: T | null) => void, boolean] {
  const [value, setValue] = useState<T | null>(null)
  const [used, setUsed] = useState(false)
  if (value !== null && !used) setUsed(true)
  return [value, setValue, used]
}

/** The generic list screen behind every `defineList`. */
export function ListPage<R extends Row>({ model }: { model: ListModel<R> }) {
  const headingId = useId()
  const sortable = model.source.sort
  const [query, setQuery] = useListQuery(model.pageSize ?? 10, sortable)
  const filters = useListFilters(model.filters)
  const input = useMemo(() => filterInput(model.filters, filters.values), [model.filters, filters.values])
  const { rows, count, counting = false, countFailed = false, allRows, error, isLoading, isValidating, retry } = model.source.useRows(query, input)
  const write = useWriteAccess(model.writeRule)
  const online = useOnline()
  // The rows other staff are editing now, marked in the table.
  const marks = useListPresence(true)
  const [location, navigate] = useLocation()
  const selection = useSelection()
  const box = useRef<HTMLDivElement>(null)
  const [viewing, setViewing, viewUsed] = useDialogState<readonly ViewLine[]>()
  const [editing, setEditing, editUsed] = useDialogState<EditTarget>()
  const [pending, setPending, pendingUsed] = useDialogState<PendingWrite>()
  const [choice, setChoice] = useColumnChoice(model.columns, location)
  const shown = useMemo(() => shownColumns(model.columns, choice), [model.columns, choice])

  // Requirements R4.10: a page size at least the total count resets to page 1; a page past the end
  // (after a delete, or a stale link) moves to the last page.
  useEffect(() => {
    if (count === undefined || isValidating) return
    const settled = settlePage(query.page, query.limit, count)
    if (settled !== query.page) setQuery({ ...query, page: settled }, { replace: true })
  }, [count, isValidating, query, setQuery])

  const { view, editDialog, bulk, serverBulk } = model
  const readerActions = model.selectionActions
  // Selecting for an export is a read: any reader may tick rows then.
  const selects = ((bulk !== undefined || serverBulk !== undefined) && write.allowed) || readerActions !== undefined
  // "Select all N matching": the choice is the list's search and filters, read by the server when
  // it previews; a new search or filter means other rows, so it ends.
  const choiceKey = JSON.stringify([query.search, input])
  const [matchingKey, setMatchingKey] = useState<string | null>(null)
  const matching = matchingKey === choiceKey
  const setMatching = (on: boolean) => setMatchingKey(on ? choiceKey : null)
  const writable = (row: R) => write.allowed && (model.writable?.(row) ?? true)
  const selectable = (row: R) => readerActions !== undefined || writable(row)
  const writesAny = model.edit !== undefined || editDialog !== undefined || model.remove !== undefined || model.toggle !== undefined || (model.actions?.length ?? 0) > 0
  const hasActions = view !== undefined || model.viewPage !== undefined || (write.allowed && writesAny)

  function open(row: R) {
    if (model.viewPage) {
      navigate(editHref(model.viewPage, row._id), { state: { record: row } })
      return
    }
    if (!view) return
    // Columns folded away on a narrow table, and the ones the admin hid, are read in the modal instead.
    const folded = foldedColumns(
      shown.filter((c) => !choice.kept.includes(columnId(c))),
      box.current?.clientWidth,
    )
    const hidden = model.columns.filter((c) => choice.hidden.includes(columnId(c)))
    setViewing(viewLines(withFolded(view.fields, [...folded, ...hidden]), row))
  }
  // The dialog's values follow the row as the list shows it now (fresh after a Reload).
  const editRow = editing && rows ? rows.find((row) => row._id === editing.id) : undefined
  const editTarget = editing && editDialog && editRow ? { id: editing.id, values: editDialog.values(editRow) } : editing
  function edit(row: R) {
    if (editDialog) setEditing({ id: row._id, values: editDialog.values(row) })
    else if (model.edit) navigate(editHref(model.edit, row._id), { state: { record: row } })
  }

  const actions = hasActions
    ? (row: R) => (
        <ActionCell
          model={model}
          row={row}
          subject={subjectOf(model, row)}
          writes={writable(row)}
          blockedReason={write.blockedReason}
          onView={() => open(row)}
          onEdit={() => edit(row)}
          onAsk={setPending}
          onRemoved={(id) => selection.drop([id])}
        />
      )
    : undefined
  const keys = useListKeys({
    rowCount: rows?.length ?? 0,
    onOpen: (index) => {
      const row = rows?.[index]
      if (row === undefined) return
      if (view || model.viewPage) open(row)
      else if (writable(row) && !write.blockedReason && (model.edit || editDialog)) edit(row)
    },
    onSelect: selects
      ? (index) => {
          const row = rows?.[index]
          if (row === undefined || !selectable(row)) return
          setMatching(false)
          selection.toggle(row._id)
        }
      : undefined,
    onAdd: write.allowed && !write.blockedReason && model.add ? () => navigate(model.add?.to ?? '') : undefined,
  })
  const pageIds = (rows ?? []).filter(selectable).map((row) => row._id)
  const tableSelection: TableSelection<R> | undefined = selects
    ? {
        selected: selection.selected,
        onToggle: (id, range) => {
          setMatching(false)
          if (range) selection.toggleRange(pageIds, id)
          else selection.toggle(id)
        },
        onFlipPage: (ids) => {
          setMatching(false)
          selection.flipPage(ids)
        },
        selectable,
        subject: (row) => subjectOf(model, row),
      }
    : undefined

  const narrowed = query.search !== '' || Object.values(filters.values).some((v) => v !== '')
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <ListHeader
        model={model}
        headingId={headingId}
        write={write}
        toolbar={{ query, filters: input, narrowed, count }}
      />

      {/*
        The toolbar holds the list's own tools, the same on every list, in one row at a desk and two
        at most on a tablet; the filters, as many as the list has, get the row beneath at a desk and
        fold into one Filters control beside the page size on a tablet.
      */}
      <div data-list-toolbar="" className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <SearchBox value={query.search} onSearch={(search) => setQuery({ ...query, search, page: 1 }, { replace: true })} />
          <SavedViews route={location} columns={{ choice, ids: model.columns.map(columnId) }} />
          <ColumnsMenuSlot<R> columns={model.columns} choice={choice} onChange={setChoice} narrowNow={() => foldsAt(box.current?.clientWidth)} />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {model.filters ? <FoldedFilters filters={model.filters} values={filters.values} onChange={filters.set} onClear={filters.clear} /> : null}
          <PageSizeSelect limit={query.limit} onChange={(limit) => setQuery({ ...query, limit, page: 1 })} />
        </div>
      </div>
      {model.filters ? (
        <div className="hidden lg:block">
          <ListFilters filters={model.filters} values={filters.values} onChange={filters.set} onClear={filters.clear} />
        </div>
      ) : null}

      {/* Offline, the shell's banner already says so, with the time of the data shown: one notice. */}
      {error && rows && online ? (
        <div role="alert" className="flex items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <span>Could not refresh this list: {errorMessage(error)}</span>
          <Button variant="outline" size="sm" onClick={retry}>
            Retry
          </Button>
        </div>
      ) : null}

      {serverBulk && tableSelection ? (
        <Suspense fallback={null}>
          <ServerBulkBar
            calls={serverBulk}
            count={selection.selected.size}
            matchingCount={count ?? undefined}
            matching={matching}
            selection={
              matching
                ? { matching: { search: query.search, filters: input } }
                : selection.selected.size > 0
                  ? { ids: [...selection.selected] }
                  : null
            }
            blockedReason={write.blockedReason}
            onSelectMatching={() => setMatching(true)}
            onClear={() => {
              setMatching(false)
              selection.clear()
            }}
          />
        </Suspense>
      ) : null}
      {tableSelection && !serverBulk ? (
        <SelectionBar
          count={selection.selected.size}
          // A list of every row selects them all at once; a paged one selects what its search and filters match.
          matching={readerActions ? { count: count ?? undefined, chosen: matching, onChoose: () => setMatching(true) } : undefined}
          // Nothing to select on an empty list: no Select All that would do nothing.
          onSelectAll={bulk && allRows && allRows.some(writable) ? () => selection.select(allRows.filter(writable).map((row) => row._id)) : undefined}
          onClear={() => {
            setMatching(false)
            selection.clear()
          }}
        >
          {readerActions
            ? createElement(readerActions, { query, filters: input, narrowed, count, selection: { ids: [...selection.selected], matching } })
            : null}
          {bulk?.map((action) => (
            <BarAction
              key={action.label}
              label={action.label}
              danger
              blockedReason={write.blockedReason}
              onRun={() => setPending({ question: action.confirm, request: action.request([...selection.selected]), onDone: selection.clear })}
            />
          ))}
        </SelectionBar>
      ) : null}

      <DataTable
        caption={model.title}
        marks={marks}
        emptyNote={
          narrowed ? (
            <>
              <p>Nothing matches the search or the filters.</p>
              <Button
                variant="outline"
                size="sm"
                onClick={() => {
                  filters.clear()
                  setQuery({ ...query, search: '', page: 1 }, { replace: true })
                }}
              >
                Clear the search and filters
              </Button>
            </>
          ) : model.empty ? (
            <>
              <p className="max-w-prose">{model.empty.says}</p>
              {model.empty.addFirst && model.add && write.allowed && !write.blockedReason ? (
                <Button asChild size="sm">
                  <Link href={model.add.to}>{model.empty.addFirst}</Link>
                </Button>
              ) : null}
            </>
          ) : undefined
        }
        columns={shown}
        kept={choice.kept}
        rows={rows}
        serial={(index) => serialNumber(query, index)}
        error={error ? errorMessage(error) : undefined}
        onRetry={retry}
        busy={isLoading && rows !== undefined}
        actions={actions}
        selection={tableSelection}
        boxRef={box}
        focusedIndex={keys.focused}
        onFocusRow={keys.setFocused}
        // A new order starts again from page 1 (the page the admin was on means other rows now).
        sort={sortable ? { columns: sortable.columns, shown: shownSort(query, sortable), onSort: (by) => setQuery({ ...query, page: 1, sort: nextSort(query, sortable, by) }) } : undefined}
      />

      {count !== undefined && count > 0 ? (
        <Pager page={query.page} limit={query.limit} count={count} shown={rows?.length ?? 0} onPage={(page) => setQuery({ ...query, page })} />
      ) : (counting || countFailed) && rows !== undefined ? (
        // The rows came first: their count follows (list-source.ts useLaterCount).
        <Pager page={query.page} limit={query.limit} count={null} shown={rows.length} countFailed={countFailed ? { retry } : undefined} onPage={(page) => setQuery({ ...query, page })} />
      ) : null}

      {view && viewUsed ? (
        <Suspense fallback={null}>
          <ViewDialog title={view.title} lines={viewing} onClose={() => setViewing(null)} />
        </Suspense>
      ) : null}
      {editDialog && editUsed ? (
        <Suspense fallback={null}>
          <EditDialog form={editDialog.form} target={editTarget} blockedReason={write.blockedReason} onClose={() => setEditing(null)} />
        </Suspense>
      ) : null}
      {pendingUsed ? (
        <Suspense fallback={null}>
          <ConfirmWriteDialog pending={pending} onClose={() => setPending(null)} />
        </Suspense>
      ) : null}
    </section>
  )
}
