import { useSession } from '#src/lib/session.ts'
import { Button } from '#src/ui/button.tsx'
import { Tooltip } from '#src/ui/tooltip.tsx'
import { cn } from '#src/ui/cn.ts'
import { toast } from '#src/ui/toast.ts'
import type { PendingWrite } from '../form/confirm-write-dialog.tsx'
import { ActionIcon } from '../screens/icons.tsx'
import type { ListModel, Row, RowActionModel } from '../list/list-types.ts'
import { ToggleAction } from './toggle-action.tsx'

interface ActionButtonProps {
  icon: 'view' | 'edit' | 'remove'
  /** The tooltip and the accessible name (the tooltips of requirements R2.14: Edit, Delete). */
  label: string
  /** Which record, for screen readers: "Edit Racing" rather than a column of identical "Edit". */
  subject: string
  onClick: () => void
  /** Offline: shown, announced as unavailable, and clicking says why instead of acting. */
  blockedReason?: string | undefined
}

/** One icon button of a row, with its tooltip. */
export function ActionButton({ icon, label, subject, onClick, blockedReason }: ActionButtonProps) {
  return (
    <Tooltip content={blockedReason ?? label}>
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={`${label} ${subject}`.trim()}
        aria-disabled={blockedReason ? true : undefined}
        onClick={() => (blockedReason ? toast.error(blockedReason) : onClick())}
        className={cn(
          icon === 'remove' ? 'text-red-700 hover:bg-red-50' : 'text-slate-700',
          blockedReason ? 'cursor-not-allowed opacity-50' : '',
        )}
      >
        <ActionIcon name={icon} />
      </Button>
    </Tooltip>
  )
}

interface ActionCellProps<R extends Row> {
  model: ListModel<R>
  row: R
  subject: string
  /** Write controls are shown (Admin, the list's rule, a writable row). */
  writes: boolean
  blockedReason: string | undefined
  onView: () => void
  onEdit: () => void
  onAsk: (write: PendingWrite) => void
  /** After a delete: the row leaves the selection too. */
  onRemoved: (id: string) => void
}

/** A row action of the list's own (Resend, Cancel): a text button that asks its question first. */
function RowActionButton<R extends Row>({ action, row, subject, blockedReason, onAsk }: { action: RowActionModel<R>; row: R; subject: string; blockedReason: string | undefined; onAsk: (write: PendingWrite) => void }) {
  function press() {
    if (blockedReason) {
      toast.error(blockedReason)
      return
    }
    const choices = action.choices(row)
    const [first] = choices
    if (first === undefined) return
    const detail = action.detail?.(row)
    // Each answer is a button of its own, even a single one: these calls are not all removals,
    // and the one-yes dialog is styled as one.
    onAsk({
      question: action.confirm(row),
      request: first.request,
      choices,
      ...(detail === undefined ? {} : { description: detail }),
      ...(action.dismiss === undefined ? {} : { dismissLabel: action.dismiss }),
    })
  }
  return (
    <Tooltip content={blockedReason ?? action.label}>
      <Button
        variant="outline"
        size="sm"
        aria-label={`${action.label} ${subject}`.trim()}
        aria-disabled={blockedReason ? true : undefined}
        onClick={press}
        className={blockedReason ? 'cursor-not-allowed opacity-50' : undefined}
      >
        {action.label}
      </Button>
    </Tooltip>
  )
}

/** The Action cell of a row: View for everyone; Edit, Delete, the toggle and the list's own actions for Admin. */
export function ActionCell<R extends Row>({ model, row, subject, writes, blockedReason, onView, onEdit, onAsk, onRemoved }: ActionCellProps<R>) {
  const { view, remove, toggle, actions } = model
  const session = useSession()
  const edits = model.edit !== undefined || model.editDialog !== undefined
  return (
    // One line while the table fits its box; when it does not, the buttons wrap first (FIT_STAGES
    // in src/ui/table.tsx): the sticky Action column narrows instead of lying over the columns before it.
    <div className="flex items-center gap-1 group-data-wrap-actions/table:flex-wrap">
      {view || model.viewPage ? <ActionButton icon="view" label="View" subject={subject} onClick={onView} /> : null}
      {writes && edits ? <ActionButton icon="edit" label="Edit" subject={subject} blockedReason={blockedReason} onClick={onEdit} /> : null}
      {writes && remove ? (
        <ActionButton
          icon="remove"
          label="Delete"
          subject={subject}
          blockedReason={blockedReason}
          onClick={() => {
            onAsk({ question: remove.confirm, request: remove.request(row), onDone: () => onRemoved(row._id) })
          }}
        />
      ) : null}
      {writes && toggle ? <ToggleAction toggle={toggle} row={row} subject={subject} blockedReason={blockedReason} onAsk={onAsk} /> : null}
      {writes
        ? actions
            ?.filter((a) => a.when?.(row, session) ?? true)
            .map((a) => <RowActionButton key={a.label} action={a} row={row} subject={subject} blockedReason={blockedReason} onAsk={onAsk} />)
        : null}
    </div>
  )
}
