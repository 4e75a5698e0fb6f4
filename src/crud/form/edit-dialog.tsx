import { useState } from 'react'
import { useSWRConfig } from 'swr'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import type { FormDef, FormEndpoint } from './form-def.ts'
import { FormBody } from './form-body.tsx'
import { RecordHistory } from '../record/record-history.tsx'
import { RecordPresence } from '../record/presence.tsx'
import type { Row } from '../list/list-types.ts'
import { refreshAfterWrite } from '../writes/refresh.ts'

/** The record being edited: its id (a new form per record) and the form's starting values (from the row as the list shows it now). */
export interface EditTarget {
  id: string
  values: Record<string, unknown>
}

interface EditDialogProps {
  form: FormDef<FormEndpoint, Row>
  /** null closes the dialog. */
  target: EditTarget | null
  blockedReason: string | undefined
  onClose: () => void
}

/**
 * Edit in a modal (the links' "Edit List"): the kit's form, started from the row's values. The
 * form does the rest as on a page of its own (checks, server field errors under the inputs, the
 * overlay, the toast, the refetch); on success the dialog closes and the list shows the change.
 */
export function EditDialog({ form, target, blockedReason, onClose }: EditDialogProps) {
  const { mutate } = useSWRConfig()
  // Reload after a conflict: the list is fetched again (its rows give `target.values`), then a new form.
  const [generation, setGeneration] = useState(0)
  const reload = async () => {
    await refreshAfterWrite(mutate)
    setGeneration((n) => n + 1)
  }
  return (
    <Dialog open={target !== null} onOpenChange={(open) => (open ? null : onClose())}>
      {target !== null ? (
        <DialogContent
          // The form draws its own card on a page; inside the dialog the dialog is the card.
          className="[&>form]:border-0 [&>form]:p-0"
        >
          <DialogHeader className="flex-row flex-wrap items-center justify-between gap-2">
            <DialogTitle>{form.title}</DialogTitle>
            <RecordHistory recordId={target.id} />
            <DialogDescription className="sr-only">Change the fields, then save</DialogDescription>
          </DialogHeader>
          <RecordPresence id={target.id} mode="edit" onReload={reload} />
          <FormBody
            key={`${target.id}:${generation}`}
            def={form}
            defaults={target.values}
            blockedReason={blockedReason}
            onSaved={onClose}
            onCancel={onClose}
            onReload={reload}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  )
}
