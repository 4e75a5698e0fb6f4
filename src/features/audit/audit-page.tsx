import { Link } from 'wouter'
import { AUDIT_PAGE_SIZE, listAudit, type AuditEntry } from '#contract/audit'
import { IdText, col, field, low } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { When } from '#src/crud/list/when.tsx'
import { dateFilter, listFilter } from '#src/crud/list/list-filters.tsx'
import { auditWho as who } from '#src/crud/record/record-history.tsx'
import { AuditChanges, changedFieldsSummary } from '#src/crud/record/audit-changes.tsx'
import { actionOptions, adminOptions, areaOptions } from './audit-options.ts'
import { ExportAuditButton } from './export-button.tsx'
import { RevertChange } from '#src/crud/record/revert-change.tsx'

/** What happened, in words ('Category added', 'Failed sign-in'): the server names it from the contract. */
const event = (e: AuditEntry) => e.event
const or = (text: string): string => (text === '' ? '--' : text)
const HIDDEN_CHANGES = "Not shown: you may not open this record's screen"
/** The changed fields in a few words, or why they are not shown. */
const changesCell = (e: AuditEntry): string => (e.changesHidden ? 'Not shown' : changedFieldsSummary(e))

/** The record by name, opening where it lives; its id when it is gone or on a screen this reader cannot open. */
function RecordCell({ entry: e }: { entry: AuditEntry }) {
  if (e.recordName === '' || e.recordHref === '') return <IdText value={e.recordId} label="Record" />
  return (
    <Link className="font-medium wrap-anywhere text-indigo-700 underline-offset-2 hover:underline" href={e.recordHref} title={`Record ${e.recordId}`}>
      {e.recordName}
    </Link>
  )
}

/** The staff audit log (/audit): who did what to which record, and when. */
export const AuditPage = defineList({
  title: 'Audit Log',
  empty: { says: 'Every change staff make, and every sign-in, is written here with who made it and when.' },
  endpoint: listAudit,
  pageSize: AUDIT_PAGE_SIZE,
  columns: [
    { header: 'When', sortBy: 'at', cell: (e: AuditEntry) => <When at={e.at} /> },
    { header: 'Who', cell: who },
    col('area', 'Area'),
    // 'Event', not 'Action': the row's own View button sits under the list's Action header.
    { header: 'Event', cell: event },
    low({ header: 'Record', cell: (e: AuditEntry) => <RecordCell entry={e} /> }),
    low({ header: 'Changes', cell: changesCell }),
    low({ header: 'Address', cell: (e: AuditEntry) => or(e.ip) }),
  ],
  view: {
    title: 'Audit Entry',
    fields: [
      field('at', 'When', 'date'),
      { label: 'Who', value: who },
      field('area', 'Area'),
      { label: 'Event', value: event },
      { label: 'Record', value: (e: AuditEntry) => (e.recordName === '' ? or(e.recordId) : <RecordCell entry={e} />) },
      { label: 'Record ID', value: (e: AuditEntry) => or(e.recordId) },
      { label: 'Address', value: (e: AuditEntry) => or(e.ip) },
      { label: 'Detail', value: (e: AuditEntry) => or(e.detail) },
      {
        label: 'Changes',
        value: (e: AuditEntry) =>
          e.changesHidden ? (
            HIDDEN_CHANGES
          ) : e.changes.length === 0 ? (
            '--'
          ) : (
            <div className="flex flex-col gap-3">
              <AuditChanges entry={e} />
              <RevertChange entry={e} />
            </div>
          ),
      },
    ],
  },
  filters: [
    listFilter('admin', 'Admin', adminOptions, 'All staff'),
    listFilter('area', 'Area', areaOptions, 'All areas'),
    listFilter('action', 'Event', actionOptions, 'All events'),
    dateFilter('from', 'From'),
    dateFilter('to', 'To'),
  ],
  toolbar: ExportAuditButton,
})
