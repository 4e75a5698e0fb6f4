import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import type { ViewLine } from '../list/columns.tsx'

interface ViewDialogProps {
  title: string
  /** The record's lines; null closes the dialog. */
  lines: readonly ViewLine[] | null
  onClose: () => void
}

/** The read-only record modal of a list's View action (requirements R2.10, R2.11: Leads and Contact Us). */
export function ViewDialog({ title, lines, onClose }: ViewDialogProps) {
  return (
    <Dialog open={lines !== null} onOpenChange={(open) => (open ? null : onClose())}>
      {lines !== null ? (
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription className="sr-only">Details of the selected record</DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-4 gap-y-2 text-sm">
            {lines.map((line) => (
              <div key={line.label} className="contents">
                <dt className="font-medium text-slate-700">{line.label}</dt>
                <dd className="break-words whitespace-pre-wrap text-slate-900">{line.content}</dd>
              </div>
            ))}
          </dl>
        </DialogContent>
      ) : null}
    </Dialog>
  )
}
