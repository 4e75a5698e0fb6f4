/**
 * Users and Access: the pending access requests of /register, for staff managers only (Admin
 * access and a role other than subadmin; the server refuses everyone else). Hidden entirely when
 * there are none. Built from the kit's table, pager and confirmation, not defineList: the staff
 * list on the same screen owns the URL's page, limit, search and sort, so this list pages and
 * sorts on the server with state of its own.
 */
import { Suspense, lazy, useState } from 'react'
import { useLocation } from 'wouter'
import { accessRequestSort, declineAccessRequest, listAccessRequests, type AccessRequest } from '#contract/access-requests'
import { col, date, type Column } from '#src/crud/list/columns.tsx'
import type { PendingWrite } from '#src/crud/form/confirm-write-dialog.tsx'
import { DataTable } from '#src/crud/list/data-table.tsx'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { nextSort, serialNumber, settlePage, shownSort, type SortState } from '#src/crud/list/list-query.ts'
import { Pager } from '#src/crud/list/pager.tsx'
import { bind } from '#src/crud/writes/row-writes.ts'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'
import { useOnline } from '#src/lib/online.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'
import { toast } from '#src/ui/toast.ts'
import { managesStaff } from './access.ts'
import { approveHref } from './request-record.ts'

const ConfirmWriteDialog = lazy(async () => ({ default: (await import('#src/crud/form/confirm-write-dialog.tsx')).ConfirmWriteDialog }))

const PENDING_PAGE_SIZE = 10
const DECLINE_QUESTION = 'Are you sure you want to decline this access request?'
const PENDING_HEADING = 'Pending access requests'

// One section per screen, so a fixed id: the notice at the top of the screen moves the focus here.
const HEADING_ID = 'pending-access-requests'

/** Marks a request as waiting for a decision. */
export function PendingBadge() {
  return <span className="inline-flex items-center rounded-full whitespace-nowrap bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300 ring-inset">Pending</span>
}

// The badge sits beside the name rather than in a Status column of its own, so the table still
// fits a tablet's width without scrolling the badge under the sticky actions.
const columns: readonly Column<AccessRequest>[] = [
  {
    header: 'Name',
    sortBy: 'name',
    cell: (row) => (
      <span className="flex items-center gap-2 whitespace-nowrap">
        <span>{row.name}</span>
        <PendingBadge />
      </span>
    ),
  },
  col('email', 'Email'),
  date('createdAt', 'Requested At'),
  date('confirmedAt', 'Email Confirmed At'),
]

/** A page of pending requests for a staff manager; for everyone else no call is made. */
export function usePendingRequests(page: number, sort?: SortState) {
  const write = useWriteAccess(managesStaff)
  const sortBy = accessRequestSort.columns.find((c) => c === sort?.by)
  const order = sortBy === undefined || sort === undefined ? {} : { sortBy, sortOrder: sort.order }
  const input = write.allowed ? { page, limit: PENDING_PAGE_SIZE, search: '', ...order } : null
  return { write, ...useCall(listAccessRequests, input, { keepPreviousData: true }) }
}

interface RowActionsProps {
  row: AccessRequest
  blockedReason: string | undefined
  onDecline: (write: PendingWrite) => void
}

function RowActions({ row, blockedReason, onDecline }: RowActionsProps) {
  const [, navigate] = useLocation()
  // Offline the buttons stay, marked unavailable, and say why when pressed (as the kit's do).
  const guard = (act: () => void) => () => (blockedReason ? toast.error(blockedReason) : act())
  const blocked = blockedReason ? { 'aria-disabled': true } : {}
  return (
    <div className="flex items-center gap-2">
      <Button size="sm" aria-label={`Approve ${row.name}`} {...blocked} onClick={guard(() => navigate(approveHref(row._id), { state: { record: row } }))}>
        Approve
      </Button>
      <Button
        size="sm"
        variant="outline"
        aria-label={`Decline ${row.name}`}
        {...blocked}
        onClick={guard(() => onDecline({ question: DECLINE_QUESTION, confirmLabel: 'Yes, decline', request: bind(declineAccessRequest, { id: row._id }) }))}
      >
        Decline
      </Button>
    </div>
  )
}

export function PendingRequests() {
  const [page, setPage] = useState(1)
  const [sort, setSort] = useState<SortState | undefined>()
  const { write, data, error, isLoading, isValidating, mutate } = usePendingRequests(page, sort)
  const sortable = accessRequestSort
  const query = { page, limit: PENDING_PAGE_SIZE, search: '', sort }
  const online = useOnline()
  const [pending, setPending] = useState<PendingWrite | null>(null)
  const [confirmUsed, setConfirmUsed] = useState(false)
  if (pending !== null && !confirmUsed) setConfirmUsed(true)

  const count = data?.count
  // After a decline or an approval elsewhere the last page may be gone: step back to the last one
  // (adjusted while rendering, as React advises for state that follows other data).
  const settled = count === undefined || isValidating ? page : settlePage(page, PENDING_PAGE_SIZE, count)
  if (settled !== page) setPage(settled)

  if (!write.allowed) return null
  // Nothing pending, or still loading the first time: no section at all. Offline with nothing
  // cached, the shell's banner already explains the missing data.
  if (count === 0 || (data === undefined && (error === undefined || !online))) return null

  return (
    <section aria-labelledby={HEADING_ID} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id={HEADING_ID} tabIndex={-1} className="scroll-mt-4 text-lg font-semibold text-slate-900 focus:outline-none">
          {PENDING_HEADING}
          {count === undefined ? null : <span className="ml-2 text-sm font-normal text-slate-700">({count})</span>}
        </h2>
        <p className="text-sm text-slate-700">
          People who asked for access on the Request access page and confirmed their email address from the link mailed to it. Approve opens Edit User to choose their user type and access; Decline deletes the request.
        </p>
      </div>
      <DataTable
        caption={PENDING_HEADING}
        columns={columns}
        rows={data?.result}
        serial={(index) => serialNumber({ page, limit: PENDING_PAGE_SIZE }, index)}
        error={error ? errorMessage(error) : undefined}
        onRetry={() => void mutate()}
        busy={isLoading && data !== undefined}
        actions={(row) => <RowActions row={row} blockedReason={write.blockedReason} onDecline={setPending} />}
        sort={{
          columns: sortable.columns,
          shown: shownSort(query, sortable),
          onSort: (by) => {
            setSort(nextSort(query, sortable, by))
            setPage(1)
          },
        }}
      />
      {count !== undefined && count > PENDING_PAGE_SIZE ? <Pager page={page} limit={PENDING_PAGE_SIZE} count={count} onPage={setPage} /> : null}
      {confirmUsed ? (
        <Suspense fallback={null}>
          <ConfirmWriteDialog pending={pending} onClose={() => setPending(null)} />
        </Suspense>
      ) : null}
    </section>
  )
}

/**
 * A line at the top of Users and Access while requests wait, since the section sits below a staff
 * list that may fill the screen: its button brings the section into view and reading order.
 */
export function PendingRequestsNotice() {
  // Page 1 is also the section's first answer: one request serves both.
  const { write, data } = usePendingRequests(1)
  if (!write.allowed || data === undefined || data.count === 0) return null
  const waiting = data.count === 1 ? '1 access request is' : `${data.count} access requests are`
  function review() {
    const heading = document.getElementById(HEADING_ID)
    heading?.scrollIntoView({ block: 'start' })
    heading?.focus({ preventScroll: true })
  }
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-950">
      <p>{waiting} waiting for review.</p>
      <Button variant="outline" size="sm" onClick={review}>
        Review requests
      </Button>
    </div>
  )
}
