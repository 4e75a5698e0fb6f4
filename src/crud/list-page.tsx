import { Suspense, lazy, useEffect, useId, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { useCall } from '#src/lib/use-call.ts'
import { toast } from '#src/lib/toast.ts'
import { Button } from '#src/ui/button.tsx'
import { Tooltip } from '#src/ui/tooltip.tsx'
import { DataTable } from './data-table.tsx'
import { errorMessage } from './error-message.ts'
import { serialNumber, settlePage } from './list-query.ts'
import { rowsOf, type ListDef, type Row } from './list-types.ts'
import { PageSizeSelect, Pager } from './pager.tsx'
import { editHref } from './record.ts'
import { ActionButton, RowActions } from './row-actions.tsx'
import { SearchBox } from './search-box.tsx'
import { useListQuery } from './use-list-query.ts'
import type { ViewDialog as EagerViewDialog } from './view-dialog.tsx'
import { useWriteAccess } from './write-access.ts'

// The view modal and the delete confirmation (Radix Dialog and AlertDialog) are fetched the first
// time one opens: a list's first render does not need them.
// (Typed as the eager component: React.lazy would drop ViewDialog's record type parameter.)
const ViewDialog = lazy(async () => ({ default: (await import('./view-dialog.tsx')).ViewDialog })) as unknown as typeof EagerViewDialog
const RemoveDialog = lazy(async () => ({ default: (await import('./remove-dialog.tsx')).RemoveDialog }))

/** Text that names a record for screen readers: its first text column's value. */
function subjectOf<R extends Row>(def: ListDef<R>, row: R): string {
  for (const c of def.columns) {
    if ('key' in c && c.kind === 'text') {
      const value = row[c.key]
      if (typeof value === 'string' && value !== '') return value
    }
  }
  return ''
}

/** The generic list screen behind every `defineList`. */
export function ListPage<R extends Row>({ def }: { def: ListDef<R> }) {
  const headingId = useId()
  const [query, setQuery] = useListQuery(def.pageSize ?? 10)
  const { data, error, isLoading, isValidating, mutate } = useCall(def.endpoint, query, { keepPreviousData: true })
  const write = useWriteAccess(def.writeRule)
  const [, navigate] = useLocation()
  const [viewing, setViewing] = useState<R | null>(null)
  const [removing, setRemoving] = useState<R | null>(null)
  // Once opened, a dialog stays mounted, so it closes (and returns focus) as Radix does it.
  const [viewUsed, setViewUsed] = useState(false)
  const [removeUsed, setRemoveUsed] = useState(false)
  if (viewing !== null && !viewUsed) setViewUsed(true)
  if (removing !== null && !removeUsed) setRemoveUsed(true)

  const rows = data ? rowsOf(data) : undefined
  const count = data?.count

  // Spec section 4: a page size at least the total count resets to page 1; a page past the end
  // (after a delete, or a stale link) moves to the last page.
  useEffect(() => {
    if (count === undefined || isValidating) return
    const settled = settlePage(query.page, query.limit, count)
    if (settled !== query.page) setQuery({ ...query, page: settled }, { replace: true })
  }, [count, isValidating, query, setQuery])

  const { edit, remove, view, add, rowActions } = def
  const hasActions = view !== undefined || (write.allowed && (edit !== undefined || remove !== undefined || rowActions !== undefined))
  const actions = hasActions
    ? (row: R) => {
        const subject = subjectOf(def, row)
        const writes = write.allowed && (def.writable?.(row) ?? true)
        return (
          <RowActions>
            {view ? <ActionButton icon="view" label="View" subject={subject} onClick={() => setViewing(row)} /> : null}
            {writes && edit ? (
              <ActionButton
                icon="edit"
                label="Edit"
                subject={subject}
                blockedReason={write.blockedReason}
                onClick={() => navigate(editHref(edit, row._id), { state: { record: row } })}
              />
            ) : null}
            {writes && remove ? (
              <ActionButton
                icon="remove"
                label="Delete"
                subject={subject}
                blockedReason={write.blockedReason}
                onClick={() => setRemoving(row)}
              />
            ) : null}
            {writes && rowActions ? rowActions(row, write.blockedReason) : null}
          </RowActions>
        )
      }
    : undefined

  const Toolbar = def.toolbar
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex min-h-9 flex-wrap items-center justify-between gap-3">
        <h1 id={headingId} className="text-xl font-semibold text-slate-900">
          {def.title}
        </h1>
        <div className="flex items-center gap-2">
          {Toolbar ? <Toolbar /> : null}
          {write.allowed && add ? (
            write.blockedReason ? (
              <Tooltip content={write.blockedReason}>
                <Button aria-disabled onClick={() => toast.error(write.blockedReason ?? '')} className="opacity-50">
                  {add.label ?? 'Add'}
                </Button>
              </Tooltip>
            ) : (
              <Button asChild>
                <Link href={add.to}>{add.label ?? 'Add'}</Link>
              </Button>
            )
          ) : null}
        </div>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchBox value={query.search} onSearch={(search) => setQuery({ ...query, search, page: 1 }, { replace: true })} />
        <PageSizeSelect limit={query.limit} onChange={(limit) => setQuery({ ...query, limit, page: 1 })} />
      </div>

      {error && rows ? (
        <div role="alert" className="flex items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <span>Could not refresh this list: {errorMessage(error)}</span>
          <Button variant="outline" size="sm" onClick={() => void mutate()}>
            Retry
          </Button>
        </div>
      ) : null}

      <DataTable
        caption={def.title}
        columns={def.columns}
        rows={rows}
        serial={(index) => serialNumber(query, index)}
        error={error ? errorMessage(error) : undefined}
        onRetry={() => void mutate()}
        busy={isLoading && rows !== undefined}
        actions={actions}
      />

      {count !== undefined && count > 0 ? (
        <Pager page={query.page} limit={query.limit} count={count} onPage={(page) => setQuery({ ...query, page })} />
      ) : null}

      {view && viewUsed ? (
        <Suspense fallback={null}>
          <ViewDialog title={view.title} fields={view.fields} row={viewing} onClose={() => setViewing(null)} />
        </Suspense>
      ) : null}
      {remove && removeUsed ? (
        <Suspense fallback={null}>
          <RemoveDialog remove={remove} row={removing} onClose={() => setRemoving(null)} listName={def.endpoint.name} />
        </Suspense>
      ) : null}
    </section>
  )
}
