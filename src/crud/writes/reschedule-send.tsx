/**
 * "Edit time" on a scheduled send (contract/send-later.ts): a new date and time in the admin's own
 * time zone, with the same moment in UTC beside it, as the Send later field takes it. The server
 * checks the time (one that has passed is refused with its own message, shown under the field) and
 * that the send has not started; the control is offered only to the Admin access level, and while
 * offline it says so instead of opening, as every write does.
 */
import { useId, useState, type FormEvent } from 'react'
import { useSWRConfig } from 'swr'
import type { reschedulePromotion } from '#contract/promotions'
import { call } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFormFooter, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { Input } from '#src/ui/input.tsx'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from '../form/error-message.ts'
import { SendLaterNote, localValueOf, localZone, sendAtOf, utcText } from '../form/fields/send-later.tsx'
import { refreshAfterWrite } from './refresh.ts'
import { useWriteAccess } from './write-access.ts'

/** The call that moves a scheduled send: a promotion's or a newsletter's (the same input and answer). */
export type RescheduleCall = typeof reschedulePromotion

export interface Reschedule {
  endpoint: RescheduleCall
  id: string
  /** The send in words, for the button's accessible name and the dialog ('Weekend drop'). */
  name: string
}

export function RescheduleSend({ at, reschedule }: { at: string; reschedule: Reschedule }) {
  const write = useWriteAccess()
  const { mutate } = useSWRConfig()
  const [open, setOpen] = useState(false)
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const inputId = useId()
  const errorId = useId()
  const noteId = useId()
  if (!write.allowed) return null
  const blocked = write.blockedReason
  const when = new Date(at)

  function start() {
    if (blocked !== undefined) {
      toast.error(blocked)
      return
    }
    setValue(localValueOf(at))
    setError(null)
    setOpen(true)
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    if (blocked !== undefined) return
    setBusy(true)
    try {
      const answer = await call(reschedule.endpoint, { id: reschedule.id, sendAt: sendAtOf(value) })
      toast.success(answer.message)
      setOpen(false)
      await refreshAfterWrite(mutate)
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <Button variant="outline" size="sm" className="self-start" aria-label={`Edit time of ${reschedule.name}`} aria-disabled={blocked === undefined ? undefined : true} onClick={start}>
        Edit time
      </Button>
      <Dialog open={open} onOpenChange={(next) => (busy ? null : setOpen(next))}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Edit the time of {reschedule.name}</DialogTitle>
            <DialogDescription>
              Scheduled for <time dateTime={at}>{when.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</time> ({utcText(when)}). Choose the new date and time in your
              time zone.
            </DialogDescription>
          </DialogHeader>
          <form onSubmit={save} noValidate className="relative flex flex-col gap-3">
            <div className="flex flex-col gap-1">
              <label htmlFor={inputId} className="text-sm font-medium text-slate-900">
                New time
              </label>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <Input
                  id={inputId}
                  type="datetime-local"
                  className="w-auto"
                  value={value}
                  onChange={(e) => {
                    setValue(e.target.value)
                    setError(null)
                  }}
                  aria-invalid={error === null ? undefined : true}
                  aria-describedby={error === null ? noteId : `${errorId} ${noteId}`}
                />
                <span id={noteId}>
                  {value.trim() === '' ? <span className="text-xs text-slate-600">Choose a date and time. Your time zone: {localZone()}.</span> : <SendLaterNote value={value} />}
                </span>
              </div>
              {error === null ? null : (
                <p id={errorId} role="alert" className="text-sm text-red-700">
                  {error}
                </p>
              )}
            </div>
            {blocked === undefined ? null : <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{blocked}</p>}
            <DialogFormFooter submit="Save time" onCancel={() => setOpen(false)} busy={busy} submitDisabled={blocked !== undefined} />
          </form>
        </DialogContent>
      </Dialog>
    </>
  )
}
