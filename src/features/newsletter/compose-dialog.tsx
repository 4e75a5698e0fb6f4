/**
 * Writing and sending a newsletter: the subscriber multi-select ('All subscribers' or chosen ones),
 * Subject and the rich-text body (the kit's editor, its own chunk), then Send. Send first asks the
 * server how many subscribers the choice reaches now and asks the Admin to confirm with that exact
 * number and the mail pace; the send itself freezes its recipients on the server.
 */
import { useId, useState } from 'react'
import { Controller } from 'react-hook-form'
import { useSWRConfig } from 'swr'
import { plural } from '#contract/common'
import type { Input } from '#contract/define'
import { secondAdminNeeded } from '#contract/four-eyes'
import { NO_SUBSCRIBERS, countNewsletterRecipients, forecastNewsletter, sendNewsletter, sendTestNewsletter } from '#contract/newsletter'
import { SendForecast } from '#src/crud/writes/send-forecast.tsx'
import { newsletterForecastSources } from './forecast-sources.ts'
import { useCall } from '#src/lib/use-call.ts'
import { FieldControl } from '#src/crud/form/field-control.tsx'
import { fieldError, showFailure, textOf, useContractForm } from '#src/crud/form/form-hook.ts'
import { SendTestButton } from '#src/crud/writes/send-test-button.tsx'
import { dateTime, richText, text } from '#src/crud/form/form-fields.ts'
import { sendAtOf, utcText } from '#src/crud/form/fields/send-later.tsx'
import { ApiError } from '#src/lib/api.ts'
import { refreshAfterWrite } from '#src/crud/writes/refresh.ts'
import { call } from '#src/lib/api.ts'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'
import { stringList } from '#src/lib/string-list.ts'
import { ConfirmDialog } from '#src/ui/alert-dialog.tsx'
import { Dialog, DialogContent, DialogDescription, DialogFormFooter, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { Label } from '#src/ui/label.tsx'
import { toast } from '#src/ui/toast.ts'
import { SubscriberPicker } from './subscriber-picker.tsx'

const subjectField = text('subject', 'Subject')
const contentField = richText('content', 'Content')
// The local date and time; the payload's sendAt is its instant (sendAtOf), checked by the server.
const sendLaterField = dateTime('sendLater', 'Send later', { hint: 'Optional: the newsletter waits until this time; its subscribers are counted, and four eyes applied, then.' })
const names = ['id', 'subject', 'content', 'sendLater']
const blank = { all: false, id: [], subject: '', content: '', sendAt: '', sendLater: '' }

/** The server's word on the time goes under the field the admin filled in. */
function onScreen(error: unknown): unknown {
  const message = error instanceof ApiError ? error.errors['sendAt'] : undefined
  return error instanceof ApiError && message !== undefined ? new ApiError(error.status, error.message, { ...error.errors, sendLater: message }, error.body) : error
}

type Payload = Input<typeof sendNewsletter>

interface Confirming {
  payload: Payload
  count: number
  mailRate: number
  /** Over the four-eyes threshold (contract/four-eyes.ts): the send waits for a second Admin. */
  approval: string | null
}


/** "about 3 minutes": how long `count` mails take at `rate` per second. */
export function sendingTime(count: number, rate: number): string {
  const seconds = count / rate
  if (seconds < 60) return 'under a minute'
  if (seconds < 3600) return `about ${plural(Math.round(seconds / 60), 'minute', 'minutes')}`
  return `about ${plural(Math.round(seconds / 360) / 10, 'hour', 'hours')}`
}

/** The question before a send: now, or at its time (counted again then). */
function confirmTitle({ payload, count }: Confirming): string {
  const who = plural(count, 'subscriber', 'subscribers')
  const at = payload.sendAt ?? ''
  return at === '' ? `Send this newsletter to ${who}?` : `Schedule this newsletter for ${utcText(new Date(at))}? It reaches ${who} now.`
}

function pace(count: number, rate: number): string {
  if (rate <= 0) return 'Mails go out as fast as the mail server takes them.'
  return `About ${plural(rate, 'mail', 'mails')} per second: ${sendingTime(count, rate)} in all.`
}

/** The forecast of the choice as it stands (requirements R2.37): who gets the newsletter, who is left out and why. */
function NewsletterForecast({ all, id }: { all: boolean; id: readonly string[] }) {
  const scope = { all, id: [...id] }
  const chosen = all || id.length > 0
  const { data, error, fetchedAt } = useCall(forecastNewsletter, chosen ? scope : null, { revalidateOnFocus: false, keepPreviousData: true })
  // Shown from the start, so choosing the first subscriber moves nothing under the pointer.
  return (
    <SendForecast
      forecast={chosen ? data : undefined}
      error={chosen ? error : undefined}
      idle={chosen ? undefined : 'Choose the subscribers to see who will receive it.'}
      sources={newsletterForecastSources(scope)}
      fetchedAt={fetchedAt}
    />
  )
}

export function ComposeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const pickerId = useId()
  const form = useContractForm(sendNewsletter.input, blank)
  const { mutate } = useSWRConfig()
  const [confirming, setConfirming] = useState<Confirming | null>(null)
  const [busy, setBusy] = useState(false)
  const { isSubmitting } = form.formState
  const pickerError = fieldError(form, 'id')

  const write = useWriteAccess()
  const ask = form.handleSubmit(async (values) => {
    if (write.blockedReason !== undefined) return
    // The checked values hold the contract's fields only: the local time is read from the form.
    const parsed = sendNewsletter.input.safeParse({ ...values, sendAt: sendAtOf(form.getValues('sendLater')) })
    if (!parsed.success) return
    const payload: Payload = parsed.data
    try {
      const answer = await call(countNewsletterRecipients, { all: payload.all, id: payload.id })
      if (answer.count === 0) {
        form.setError('id', { type: 'server', message: NO_SUBSCRIBERS }, { shouldFocus: true })
        return
      }
      setConfirming({ payload, count: answer.count, mailRate: answer.mailRate, approval: answer.needsApproval ? secondAdminNeeded(answer.count, answer.approvalThreshold) : null })
    } catch (error) {
      showFailure(form, error, names)
    }
  })

  async function send(payload: Payload) {
    // The connection may have gone between the question and the answer.
    if (write.blockedReason !== undefined) {
      setConfirming(null)
      toast.error(write.blockedReason)
      return
    }
    setBusy(true)
    try {
      const answer = await call(sendNewsletter, payload)
      toast.success(answer.message)
      setConfirming(null)
      form.reset(blank)
      onClose()
      await refreshAfterWrite(mutate)
    } catch (error) {
      setConfirming(null)
      showFailure(form, onScreen(error), names)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => (next || busy ? null : onClose())}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Send Newsletter</DialogTitle>
          <DialogDescription>Choose the subscribers, write the mail, then send it. Each mail carries a link to unsubscribe.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={ask} aria-busy={isSubmitting} className="relative flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={pickerId}>Subscribers</Label>
            <Controller
              name="id"
              control={form.control}
              render={({ field }) => (
                <SubscriberPicker
                  id={pickerId}
                  value={{ all: form.watch('all') === true, id: stringList(field.value) }}
                  onChange={(next) => {
                    form.setValue('all', next.all)
                    field.onChange([...next.id])
                  }}
                  invalid={pickerError !== undefined}
                  describedBy={pickerError === undefined ? undefined : `${pickerId}-error`}
                />
              )}
            />
            {pickerError === undefined ? null : (
              <p id={`${pickerId}-error`} className="text-sm text-red-700">
                {pickerError}
              </p>
            )}
          </div>
          <NewsletterForecast all={form.watch('all') === true} id={stringList(form.watch('id'))} />
          <FieldControl field={subjectField} form={form} />
          <p className="-mt-3 text-xs text-slate-600">{'Write {{name}} in the subject to greet each subscriber by name.'}</p>
          <FieldControl field={contentField} form={form} />
          <FieldControl field={sendLaterField} form={form} />
          {/* Offline nothing is sent or queued: said here, and Send refused, as every write is. */}
          {write.blockedReason === undefined ? null : <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{write.blockedReason}</p>}
          <DialogFormFooter submit="Send" onCancel={onClose} busy={isSubmitting} busyLabel="Counting the subscribers…" waiting={busy} submitDisabled={write.blockedReason !== undefined}>
            <SendTestButton
              form={form}
              fields={['subject', 'content']}
              disabled={isSubmitting || busy || write.blockedReason !== undefined}
              send={(values) => call(sendTestNewsletter, { all: values['all'] === true, id: stringList(values['id']), subject: textOf(values['subject']), content: textOf(values['content']) })}
            />
          </DialogFormFooter>
        </form>
      </DialogContent>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(next) => (next || busy ? null : setConfirming(null))}
        title={confirming === null ? '' : confirmTitle(confirming)}
        description={confirming === null ? '' : `“${confirming.payload.subject}”. ${pace(confirming.count, confirming.mailRate)} Anyone who unsubscribes before their mail is made is left out.${confirming.approval === null ? '' : ` ${confirming.approval}`}`}
        busy={busy}
        onConfirm={() => undefined}
        choices={confirming === null ? [] : [{ label: busy ? 'Sending…' : (confirming.payload.sendAt ?? '') === '' ? 'Send' : 'Schedule', onChoose: () => void send(confirming.payload) }]}
      />
    </Dialog>
  )
}
