import type { ComponentProps, ReactNode } from 'react'
import { Dialog as DialogPrimitive } from 'radix-ui'
import { Button } from './button.tsx'
import { cn } from './cn.ts'
import { LoadingOverlay } from './spinner.tsx'
import { useReturnFocus } from './return-focus.ts'

export const Dialog = DialogPrimitive.Root
export const DialogTrigger = DialogPrimitive.Trigger
export const DialogClose = DialogPrimitive.Close

interface DialogContentProps extends ComponentProps<typeof DialogPrimitive.Content> {
  /** Where focus goes on close when the element that opened the dialog is no longer on the page. */
  returnFocus?: () => HTMLElement | null
}

/**
 * The dialog panel with its overlay and a labelled close button; focus is trapped inside and,
 * on close, goes back to what opened the dialog (return-focus.ts), whatever opened it. A caller's
 * own focus handlers run first; one that calls preventDefault keeps focus where it put it.
 */
export function DialogContent({ className, children, returnFocus, onOpenAutoFocus, onCloseAutoFocus, ...props }: DialogContentProps) {
  const back = useReturnFocus(returnFocus)
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/50 scheme-light" />
      <DialogPrimitive.Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 grid max-h-[90vh] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-lg border border-slate-300 bg-white p-6 shadow-xl',
          className,
        )}
        {...props}
        onOpenAutoFocus={(event) => {
          back.onOpenAutoFocus(event)
          onOpenAutoFocus?.(event)
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event)
          if (!event.defaultPrevented) back.onCloseAutoFocus(event)
        }}
      >
        {children}
        <DialogPrimitive.Close
          aria-label="Close"
          className="absolute top-3 right-3 rounded p-1 text-xl leading-none text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          ×
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  )
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-1 pr-6', className)} {...props} />
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex justify-end gap-2', className)} {...props} />
}

interface DialogFormFooterProps {
  /** The submit button's words; without them the footer has no submit button (a read-only view). */
  submit?: string
  onCancel: () => void
  cancel?: string
  /** While the form is being sent: both buttons wait and the loading overlay covers the form. */
  busy: boolean
  /** The overlay's words ('Saving…' unless told). */
  busyLabel?: string
  /** Both buttons wait without the overlay: another dialog on top runs the action. */
  waiting?: boolean
  /** Submit is refused for another reason than sending (a write blocked). */
  submitDisabled?: boolean
  /** Buttons before Cancel (Send test, say). */
  children?: ReactNode
  className?: string
}

/**
 * A dialog form's last row, Cancel then submit, and the overlay covering the form while it is
 * sent; the form wrapping it is `relative` so the overlay covers the form alone.
 */
export function DialogFormFooter({ submit, onCancel, cancel = 'Cancel', busy, busyLabel, waiting = false, submitDisabled = false, children, className }: DialogFormFooterProps) {
  const held = busy || waiting
  return (
    <>
      <DialogFooter className={className}>
        {children}
        <Button variant="outline" onClick={onCancel} disabled={held}>
          {cancel}
        </Button>
        {submit === undefined ? null : (
          <Button type="submit" disabled={held || submitDisabled}>
            {submit}
          </Button>
        )}
      </DialogFooter>
      {busy ? <LoadingOverlay label={busyLabel} /> : null}
    </>
  )
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-lg font-semibold text-slate-900', className)} {...props} />
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-sm text-slate-600', className)} {...props} />
}
