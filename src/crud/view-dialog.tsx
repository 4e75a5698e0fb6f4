import { useRef } from 'react'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { renderValue, type ViewField } from './columns.tsx'
import type { Row } from './list-types.ts'

interface ViewDialogProps<R extends Row> {
  title: string
  fields: readonly ViewField<R>[]
  /** The record shown; null closes the dialog. */
  row: R | null
  onClose: () => void
}

/** The read-only record modal of a list's View action (spec: Leads and Contact Us). */
export function ViewDialog<R extends Row>({ title, fields, row, onClose }: ViewDialogProps<R>) {
  // Opened from a row button rather than a Radix Trigger, so Radix cannot return focus by itself.
  const opener = useRef<Element | null>(null)
  return (
    <Dialog open={row !== null} onOpenChange={(open) => (open ? null : onClose())}>
      {row !== null ? (
        <DialogContent
          onOpenAutoFocus={() => {
            opener.current = document.activeElement
          }}
          onCloseAutoFocus={(event) => {
            if (opener.current instanceof HTMLElement && opener.current.isConnected) {
              event.preventDefault()
              opener.current.focus()
            }
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription className="sr-only">Details of the selected record</DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-4 gap-y-2 text-sm">
            {fields.map((f) => (
              <div key={f.label} className="contents">
                <dt className="font-medium text-slate-700">{f.label}</dt>
                <dd className="break-words whitespace-pre-wrap text-slate-900">
                  {'value' in f ? f.value(row) : renderValue(f.kind, row[f.key], f.label)}
                </dd>
              </div>
            ))}
          </dl>
        </DialogContent>
      ) : null}
    </Dialog>
  )
}
