import type { ReactNode } from 'react'
import { AlertDialog as RadixAlertDialog } from 'radix-ui'
import { useReturnFocus } from './return-focus.ts'

interface ConfirmDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The question, word for word from the requirements (e.g. "Are you sure you want to remove this Category"). */
  title: string
  description?: ReactNode
  confirmLabel?: string
  cancelLabel?: string
  /** The confirm button's text while the action runs; 'Removing…' for the default remove question. */
  busyLabel?: string
  /** While the confirmed action runs, both buttons wait and the confirm button says so. */
  busy?: boolean
  onConfirm: () => void
  /**
   * Several answers instead of one yes (Resend: to everyone, or only the failed ones): one button
   * each, in the order given; `onConfirm` is then unused.
   */
  choices?: readonly { label: string; onChoose: () => void }[] | undefined
}

const confirmClass =
  'rounded-md px-3 py-1.5 text-sm font-medium text-on-fill focus-visible:outline-2 focus-visible:outline-offset-2 disabled:opacity-60'

/**
 * A confirmation that must be answered (Radix AlertDialog: focus starts on Cancel, Escape
 * cancels, the page behind is inert). The confirm button does not close the dialog by itself:
 * the caller closes it when the action has finished, so a failure can keep it open.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel = 'Yes, remove',
  cancelLabel = 'Cancel',
  busyLabel = confirmLabel === 'Yes, remove' ? 'Removing…' : 'Please wait…',
  busy = false,
  onConfirm,
  choices,
}: ConfirmDialogProps) {
  // Usually opened from a row button, not a Radix Trigger: focus goes back to that button.
  const back = useReturnFocus()
  return (
    <RadixAlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixAlertDialog.Portal>
        <RadixAlertDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50 scheme-light" />
        <RadixAlertDialog.Content
          onOpenAutoFocus={back.onOpenAutoFocus}
          onCloseAutoFocus={back.onCloseAutoFocus}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg border border-slate-300 bg-white p-6 shadow-xl focus:outline-none">
          <RadixAlertDialog.Title className="text-base font-semibold text-slate-900">{title}</RadixAlertDialog.Title>
          <RadixAlertDialog.Description className={description ? 'mt-2 text-sm text-slate-700' : 'sr-only'}>
            {description ?? 'This cannot be undone.'}
          </RadixAlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <RadixAlertDialog.Cancel
              disabled={busy}
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60"
            >
              {cancelLabel}
            </RadixAlertDialog.Cancel>
            {choices ? (
              choices.map((choice) => (
                <button
                  key={choice.label}
                  type="button"
                  disabled={busy}
                  onClick={choice.onChoose}
                  className={`${confirmClass} bg-primary hover:bg-primary-hover focus-visible:outline-indigo-600`}
                >
                  {choice.label}
                </button>
              ))
            ) : (
              <button
                type="button"
                disabled={busy}
                onClick={onConfirm}
                className={`${confirmClass} bg-danger hover:bg-danger-hover focus-visible:outline-red-700`}
              >
                {busy ? busyLabel : confirmLabel}
              </button>
            )}
          </div>
        </RadixAlertDialog.Content>
      </RadixAlertDialog.Portal>
    </RadixAlertDialog.Root>
  )
}
