/**
 * A record's History: every edit page and edit dialog of the kit offers it, listing the
 * audit log's rows naming that record (who, what, when, and the fields each changed), newest first, from the audit list's
 * record filter, each with "Revert this change" where the reader may revert it. Only staff who may read the audit log see the control: the superadmin and staff
 * granted its page. Each page of rows is a cached read, so history already seen opens offline.
 */
import { AUDIT_PAGE_SIZE, listAudit, type AuditEntry } from '#contract/audit'
import { useSession } from '#src/lib/session.ts'
import { Button } from '#src/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '#src/ui/dialog.tsx'
import { When } from '../list/when.tsx'
import { AuditChanges } from './audit-changes.tsx'
import { LoadMoreList } from '../list/load-more-list.tsx'
import { RevertChange } from './revert-change.tsx'

/** The audit log's screen: reading it is what History needs. */
const AUDIT_SCREEN = '/audit'

/** Who acted, as the audit log shows it. */
export function auditWho(e: AuditEntry): string {
  if (e.adminName !== '') return `${e.adminName} (${e.adminEmail})`
  return e.adminId === '' ? 'Nobody signed in' : 'A removed admin'
}

function HistoryLine({ entry }: { entry: AuditEntry }) {
  return (
    <div className="flex flex-col gap-0.5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-medium text-slate-900">{entry.event}</span>
        <When at={entry.at} className="text-xs text-slate-600" />
      </div>
      <span className="text-slate-700">{auditWho(entry)}</span>
      {entry.detail === '' ? null : <span className="text-xs text-slate-600">{entry.detail}</span>}
      {entry.changesHidden ? <span className="text-xs text-slate-600">Changes not shown: you may not open this record&apos;s screen</span> : <AuditChanges entry={entry} />}
      <RevertChange entry={entry} />
    </div>
  )
}

/** The History button and its dialog; nothing for a session that may not read the audit log. */
export function RecordHistory({ recordId }: { recordId: string }) {
  const session = useSession()
  if (recordId === '' || !session.mayOpen(AUDIT_SCREEN)) return null
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          History
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>History</DialogTitle>
          <DialogDescription>Who changed this record and when, newest first.</DialogDescription>
        </DialogHeader>
        <LoadMoreList
          key={recordId}
          label="History"
          endpoint={listAudit}
          input={(page) => ({ record: recordId, page, limit: AUDIT_PAGE_SIZE })}
          pick={(answer) => ({ items: answer.result, count: answer.count })}
          itemKey={(e) => e._id}
          render={(e) => <HistoryLine entry={e} />}
          moreLabel="Load More"
          step={AUDIT_PAGE_SIZE}
          empty="No history recorded for this record."
        />
      </DialogContent>
    </Dialog>
  )
}
