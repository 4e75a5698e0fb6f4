/**
 * Pending link changes (/link-changes): the writes kept for a second admin while "Two admins for
 * outward links" is on (contract/link-changes.ts), oldest first, each with what it would change
 * as the audit log shows a change. Another admin approves or rejects; its requester reads that it
 * waits and may withdraw it. The server lists only the changes of writes the reader may make, and
 * refuses the requester's own approval. The menu's badge counts the ones waiting for this reader.
 */
import { useId, useState, type ReactNode } from 'react'
import { useSWRConfig } from 'swr'
import type { AuditChange } from '#contract/audit'
import { approveLinkChange, listLinkChanges, rejectLinkChange, withdrawLinkChange, type LinkChange } from '#contract/link-changes'
import { ChangeTable, fieldLabel } from '#src/crud/record/audit-changes.tsx'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { RecordUnloaded } from '#src/crud/form/form-frame.tsx'
import { refreshAfterWrite } from '#src/crud/writes/refresh.ts'
import { When } from '#src/crud/list/when.tsx'
import { call } from '#src/lib/api.ts'
import { useOnline } from '#src/lib/online.ts'
import { useSession } from '#src/lib/session.ts'
import { useCall } from '#src/lib/use-call.ts'
import { ConfirmDialog } from '#src/ui/alert-dialog.tsx'
import { Button } from '#src/ui/button.tsx'
import { Skeleton } from '#src/ui/skeleton.tsx'
import { toast } from '#src/ui/toast.ts'

type Decision = 'approve' | 'reject' | 'withdraw'

const CALLS = { approve: approveLinkChange, reject: rejectLinkChange, withdraw: withdrawLinkChange } as const

const QUESTIONS: Record<Decision, { title: string; detail: string; yes: string }> = {
  approve: { title: 'Approve this link change?', detail: 'It is saved as soon as you approve it, as if you had made it, and users follow the new link.', yes: 'Yes, approve' },
  reject: { title: 'Reject this link change?', detail: 'Nothing of it is saved; the audit log keeps that it was asked for and rejected.', yes: 'Yes, reject' },
  withdraw: { title: 'Withdraw your link change?', detail: 'Nothing of it is saved; the audit log keeps that it was asked for and withdrawn.', yes: 'Yes, withdraw' },
}

/** The diff in the audit log's own table: hidden fields read as secrets there. */
const asAuditChange = (c: LinkChange['changes'][number]): AuditChange => ({ ...c, fields: c.fields.map(({ hidden, ...f }) => ({ ...f, secret: hidden })) })

function ChangeCard({ change, mine, blocked, onDecide }: { change: LinkChange; mine: boolean; blocked: string | undefined; onDecide: (d: Decision) => void }) {
  const headingId = useId()
  const requester = change.requestedBy || 'an admin no longer listed'
  const guard = (d: Decision) => () => (blocked ? toast.error(blocked) : onDecide(d))
  const off = blocked ? { 'aria-disabled': true } : {}
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-md border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          {change.event}
        </h2>
        <span className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-amber-900 ring-1 ring-amber-300 ring-inset">Awaiting approval</span>
      </div>
      <p className="text-sm text-slate-700">
        {change.area} · {change.fields.map(fieldLabel).join(', ')} · requested by <span className="font-medium text-amber-800">{requester}</span>, <When at={change.requestedAt} />
      </p>
      {mine ? <p className="text-sm text-slate-600">Waiting for another admin to approve it</p> : null}
      {change.changes.map((c) => (
        <ChangeTable key={`${c.table}-${c.record}`} change={asAuditChange(c)} labels={{ before: 'Now', after: 'After approval' }} />
      ))}
      <div className="flex flex-wrap gap-2">
        {mine ? (
          <Button size="sm" variant="outline" {...off} onClick={guard('withdraw')}>
            Withdraw
          </Button>
        ) : (
          <>
            <Button size="sm" {...off} onClick={guard('approve')}>
              Approve
            </Button>
            <Button size="sm" variant="outline" {...off} onClick={guard('reject')}>
              Reject
            </Button>
          </>
        )}
      </div>
    </article>
  )
}

export function LinkChangesPage() {
  const headingId = useId()
  const { userId } = useSession()
  const online = useOnline()
  const { mutate: mutateAll } = useSWRConfig()
  const { data, error, mutate } = useCall(listLinkChanges, {})
  const [asked, setAsked] = useState<{ change: LinkChange; decision: Decision } | null>(null)
  const [busy, setBusy] = useState(false)
  const blocked = online ? undefined : 'You are offline: decisions wait until the connection is back.'

  async function decide() {
    if (asked === null) return
    setBusy(true)
    try {
      const answer = await call(CALLS[asked.decision], { id: asked.change._id })
      toast.success(answer.message)
      setAsked(null)
      await refreshAfterWrite(mutateAll)
    } catch (failure) {
      toast.error(errorMessage(failure))
      void mutate()
    } finally {
      setBusy(false)
    }
  }

  let body: ReactNode
  if (data) {
    body =
      data.result.length === 0 ? (
        <p className="rounded-md border border-slate-200 bg-white p-6 text-sm text-slate-700">No link changes are waiting for approval.</p>
      ) : (
        data.result.map((change) => <ChangeCard key={change._id} change={change} mine={change.requestedById === userId} blocked={blocked} onDecide={(decision) => setAsked({ change, decision })} />)
      )
  } else if (error) {
    body = <RecordUnloaded state={{ status: 'error', message: errorMessage(error) }} what="the link changes" rows={0} retry={() => void mutate()} />
  } else {
    body = <Skeleton className="h-32" />
  }
  const question = asked === null ? null : QUESTIONS[asked.decision]
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h1 id={headingId} className="text-xl font-semibold text-slate-900">
        Pending link changes
      </h1>
      <p className="text-sm text-slate-700">
        While Two admins for outward links is on (Settings), a save that changes a link users follow waits here, whole, until another admin approves it. Until then everyone is sent to the old link.
      </p>
      {body}
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => {
          if (!open && !busy) setAsked(null)
        }}
        title={question?.title ?? ''}
        description={question === null || asked === null ? '' : `${asked.change.event}, requested by ${asked.change.requestedBy || 'an admin no longer listed'}. ${question.detail}`}
        confirmLabel={question?.yes ?? 'Yes'}
        busy={busy}
        onConfirm={() => void decide()}
      />
    </section>
  )
}
