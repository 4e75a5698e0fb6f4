/**
 * Four eyes on mass sends (contract/four-eyes.ts) in a list of sends (promotions, newsletters):
 * the row's approval in words (under its status, which says 'Awaiting approval'), and the Approve and Reject row actions, offered to an
 * administrator who did not ask for the send. The requester reads that it waits for another Admin.
 * The other administrators learn of a new request wherever they are (approval-alerts.tsx).
 */
import { plural } from '#contract/common'
import { isAdministrator } from '#contract/define'
import { WAITS_FOR_ANOTHER_ADMIN, type Approval } from '#contract/four-eyes'
import { useSession, type Session } from '#src/lib/session.ts'
import type { Row, RowActionDef, WriteEndpoint } from '../list/list-types.ts'

/** A send that may need a second Admin: its status and its approval (null when it needed none). */
export interface Approvable extends Row {
  status: string
  total: number
  approval: Approval | null
}

export const awaitsApproval = (row: Pick<Approvable, 'status'>): boolean => row.status === 'awaiting'

/** The session may decide on this send: it awaits approval, and the session is another administrator. */
export function mayDecide(row: Approvable, session: Session): boolean {
  const { role, accessLevel, restrictions, userId } = session
  if (!awaitsApproval(row) || row.approval === null || row.approval.requestedById === userId) return false
  return role !== null && accessLevel !== null && isAdministrator({ role, accessLevel, restrictions })
}

/**
 * A list keeps fetching while this holds: the send awaits a decision, or a live progress event
 * already moved it on (events carry progress, not names) and the list has not yet read who decided.
 */
export const approvalUnsettled = (row: Pick<Approvable, 'status' | 'approval'>): boolean =>
  row.approval !== null && row.approval.decidedBy === '' && row.status !== 'cancelled'

const requester = (approval: Approval): string => approval.requestedBy || 'an admin no longer listed'

/** Where the send's approval stands, under its progress; nothing for a send that needed none. */
export function ApprovalNote({ row }: { row: Approvable }) {
  const session = useSession()
  const { approval } = row
  if (approval === null) return null
  if (awaitsApproval(row)) {
    return (
      <span className="flex flex-col text-xs">
        <span className="font-medium text-amber-800">Requested by {requester(approval)}</span>
        {approval.requestedById === session.userId ? <span className="text-slate-600">{WAITS_FOR_ANOTHER_ADMIN}</span> : null}
      </span>
    )
  }
  // Withdrawn (cancelled) before anyone decided: only who asked.
  if (approval.decidedBy === '' && row.status !== 'rejected') return <span className="text-xs text-slate-600">Requested by {requester(approval)}</span>
  return (
    <span className="text-xs text-slate-600">
      {row.status === 'rejected' ? 'Rejected' : 'Approved'} by {approval.decidedBy || 'an admin no longer listed'}, requested by {requester(approval)}
    </span>
  )
}

/**
 * The Approve and Reject actions of a list of sends, for `what` ("this promotion"): each asks
 * first, naming the recipient count and the requester.
 */
export function approvalActions<R extends Approvable, I>(calls: {
  what: string
  approve: WriteEndpoint<I>
  reject: WriteEndpoint<I>
  payload: (row: R) => I
}): [RowActionDef<R, I>, RowActionDef<R, I>] {
  const by = (row: R): string => (row.approval === null ? '' : `Requested by ${requester(row.approval)}. `)
  return [
    {
      label: 'Approve',
      endpoint: calls.approve,
      when: mayDecide,
      confirm: (row) => `Approve sending ${calls.what} to ${plural(row.total, 'recipient')}?`,
      detail: (row) => `${by(row)}It is sent as soon as you approve it.`,
      choices: [{ label: 'Approve', payload: calls.payload }],
    },
    {
      label: 'Reject',
      endpoint: calls.reject,
      when: mayDecide,
      confirm: (row) => `Reject sending ${calls.what} to ${plural(row.total, 'recipient')}?`,
      detail: (row) => `${by(row)}Nothing of it will be sent.`,
      dismiss: 'Keep it waiting',
      choices: [{ label: 'Reject', payload: calls.payload }],
    },
  ]
}
