/**
 * "Revert this change" on an audit entry (`revertAuditEntry`): writes the entry's before values
 * back, as a new audited change. When a record changed since, the server answers with its values
 * now: they are shown, and "Revert anyway" sends the call again with `force`. The server decides
 * who may (the access of the entry's own call, and step-up); the button shows only where the list
 * said the reader may. A revert that would put a link users follow back, while two admins are asked
 * for outward links, is kept for another admin's approval: said as done, in the server's words.
 */
import { useState } from 'react'
import { useSWRConfig } from 'swr'
import { RevertConflict, revertAuditEntry, type AuditChange, type AuditEntry } from '#contract/audit'
import { ChangeTable } from './audit-changes.tsx'
import { errorMessage } from '../form/error-message.ts'
import { refreshAfterWrite } from '../writes/refresh.ts'
import { ApiError, HeldForApproval, call } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { toast } from '#src/ui/toast.ts'

type State = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; message: string } | { kind: 'conflict'; message: string; current: AuditChange[] } | { kind: 'failed'; message: string }

const SINCE: Record<AuditChange['op'], string> = { create: 'made again since', update: 'changed since', delete: 'deleted since' }

export function RevertChange({ entry }: { entry: AuditEntry }) {
  const { mutate } = useSWRConfig()
  const [state, setState] = useState<State>({ kind: 'idle' })

  async function revert(force: boolean) {
    setState({ kind: 'busy' })
    try {
      const answer = await call(revertAuditEntry, { id: entry._id, force })
      setState({ kind: 'done', message: answer.message })
      // Also a toast: a History list read again after the write may draw this entry anew.
      toast.success(answer.message)
      await refreshAfterWrite(mutate)
    } catch (failure) {
      if (failure instanceof HeldForApproval) {
        setState({ kind: 'done', message: failure.message })
        toast.success(failure.message)
        return
      }
      const conflict = failure instanceof ApiError && failure.status === 409 ? RevertConflict.safeParse(failure.body) : undefined
      if (conflict?.success === true) setState({ kind: 'conflict', message: conflict.data.message, current: conflict.data.current })
      else setState({ kind: 'failed', message: errorMessage(failure) })
    }
  }

  if (!entry.revertible) return null
  if (state.kind === 'done') {
    return (
      <p role="status" className="text-sm font-medium text-green-800">
        {state.message}
      </p>
    )
  }
  return (
    <div className="flex flex-col gap-2">
      {state.kind === 'conflict' ? (
        <div role="alert" className="flex flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-2">
          <p className="text-sm font-medium text-amber-950">{state.message}</p>
          {state.current.map((c) =>
            c.fields.length === 0 ? (
              <p key={`${c.table}:${c.record}`} className="text-sm text-slate-800">
                {c.table} {c.record}: {SINCE[c.op]}
              </p>
            ) : (
              <ChangeTable key={`${c.table}:${c.record}`} change={c} labels={{ before: 'This entry left', after: 'Now' }} />
            ),
          )}
          <div>
            <Button variant="destructive" size="sm" onClick={() => void revert(true)}>
              Revert anyway
            </Button>
          </div>
        </div>
      ) : (
        <div>
          <Button variant="outline" size="sm" disabled={state.kind === 'busy'} onClick={() => void revert(false)}>
            Revert this change
          </Button>
        </div>
      )}
      {state.kind === 'failed' ? (
        <p role="alert" className="text-sm text-red-800">
          {state.message}
        </p>
      ) : null}
    </div>
  )
}
