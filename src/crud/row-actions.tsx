import { Button } from '#src/ui/button.tsx'
import { Tooltip } from '#src/ui/tooltip.tsx'
import { cn } from '#src/ui/cn.ts'
import { toast } from '#src/ui/toast.ts'
import type { PendingWrite } from './confirm-write-dialog.tsx'
import { ActionIcon } from './icons.tsx'
import type { ListModel, Row } from './list-types.ts'
import { ToggleAction } from './toggle-action.tsx'

interface ActionButtonProps {
  icon: 'view' | 'edit' | 'remove'
  /** The tooltip and the accessible name (the spec's tooltips: Edit, Delete). */
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
        size="icon"
        aria-label={`${label} ${subject}`.trim()}
        aria-disabled={blockedReason ? true : undefined}
        onClick={() => (blockedReason ? toast.error(blockedReason) : onClick())}
        className={cn(
          'h-8 w-8',
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

/** The Action cell of a row: View for everyone; Edit, Delete and the toggle for Admin. */
export function ActionCell<R extends Row>({ model, row, subject, writes, blockedReason, onView, onEdit, onAsk, onRemoved }: ActionCellProps<R>) {
  const { view, remove, toggle } = model
  const edits = model.edit !== undefined || model.editDialog !== undefined
  return (
    <div className="flex items-center gap-1">
      {view || model.viewPage ? <ActionButton icon="view" label="View" subject={subject} onClick={onView} /> : null}
      {writes && edits ? <ActionButton icon="edit" label="Edit" subject={subject} blockedReason={blockedReason} onClick={onEdit} /> : null}
      {writes && remove ? (
        <ActionButton
          icon="remove"
          label="Delete"
          subject={subject}
          blockedReason={blockedReason}
          onClick={() => onAsk({ question: remove.confirm, request: remove.request(row), onDone: () => onRemoved(row._id) })}
        />
      ) : null}
      {writes && toggle ? <ToggleAction toggle={toggle} row={row} subject={subject} blockedReason={blockedReason} onAsk={onAsk} /> : null}
    </div>
  )
}
