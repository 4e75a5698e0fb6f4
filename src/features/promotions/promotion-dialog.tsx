/**
 * Add promotion's modal (requirements R2.20, R5.3): title, content and an optional image, checked by
 * addNotification's own rules and messages, with the exact number of recipients asked of the
 * server first (countRecipients: the checked users that exist, or every user the filter matches),
 * and the forecast of who is left out and why (forecastPromotion).
 * Submit stores the promotion with its recipients frozen and goes to /notificationlist; with a
 * "Send later" time it is stored as scheduled instead, and its recipients are frozen at that time.
 */
import { useMemo, type ReactNode } from 'react'
import { z } from 'zod/mini'
import { useLocation } from 'wouter'
import { plural } from '#contract/common'
import { secondAdminNeeded } from '#contract/four-eyes'
import { AddPromotionInput, addNotification, countRecipients, forecastPromotion, sendTestPromotion, type UserFilter } from '#contract/promotions'
import { SendForecast } from '#src/crud/writes/send-forecast.tsx'
import { promotionForecastSources } from './forecast-sources.ts'
import type { FormDef } from '#src/crud/form/define-form.tsx'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { FormBody } from '#src/crud/form/form-body.tsx'
import { textOf } from '#src/crud/form/form-hook.ts'
import { SendTestButton } from '#src/crud/writes/send-test-button.tsx'
import { call } from '#src/lib/api.ts'
import { dateTime, imageUpload, text, textarea, type Values } from '#src/crud/form/form-fields.ts'
import { sendAtOf } from '#src/crud/form/fields/send-later.tsx'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'

/** Who the promotion goes to: the checked users, or with `selectall` everyone the filter matches. */
export interface Audience {
  filter: UserFilter
  ids: readonly string[]
  selectall: boolean
}

// The modal's own fields; who receives it is added by `prepare`, so the form checks only these.
// "Send later" holds the local date and time: `prepare` makes it the instant the server checks.
const ModalFields = z.object({ title: AddPromotionInput.shape.title, content: AddPromotionInput.shape.content, sendAt: z.optional(z.string()) })

function promotionForm(audience: Audience): FormDef<typeof addNotification> {
  return {
    title: 'Add Promotion',
    endpoint: addNotification,
    schema: ModalFields,
    fields: [
      text('title', 'Title'),
      textarea('content', 'Content'),
      imageUpload('image', 'Image'),
      dateTime('sendAt', 'Send later', { hint: 'Optional: the promotion waits until this time; its users are chosen, and four eyes applied, then.' }),
    ],
    done: '/notificationlist',
    prepare: (values: Values) => ({ ...values, sendAt: sendAtOf(values['sendAt']), ...audience.filter, id: [...audience.ids], selectall: audience.selectall }),
  }
}

function RecipientCount({ audience }: { audience: Audience }) {
  const { data, error } = useCall(countRecipients, { ...audience.filter, id: [...audience.ids], selectall: audience.selectall }, { revalidateOnFocus: false })
  if (error) return <p role="alert" className="text-sm text-red-700">Could not count the recipients: {errorMessage(error)}</p>
  if (!data) return <p className="text-sm text-slate-600">Counting the recipients…</p>
  return (
    <div role="status" className="flex flex-col gap-1 rounded-md bg-indigo-50 px-3 py-2 text-sm font-medium text-indigo-950">
      <p>{data.count === 0 ? 'No user matches: there is nobody to send this promotion to.' : `This promotion will be sent to ${plural(data.count, 'user')}.`}</p>
      {data.needsApproval ? <p className="text-amber-900">{secondAdminNeeded(data.count, data.approvalThreshold)}</p> : null}
    </div>
  )
}

/** The forecast of this selection (requirements R2.37): who gets it, who is left out and why. */
function PromotionForecast({ audience }: { audience: Audience }) {
  const scope = { ...audience.filter, id: [...audience.ids], selectall: audience.selectall }
  const { data, error, fetchedAt } = useCall(forecastPromotion, scope, { revalidateOnFocus: false })
  return (
    <SendForecast
      forecast={data}
      error={error}
      sources={promotionForecastSources(scope)}
      fetchedAt={fetchedAt}
    />
  )
}

/** `origin`: where a handed-over audience came from, shown above its count. */
export function PromotionDialog({ audience, onClose, origin }: { audience: Audience | null; onClose: () => void; origin?: ReactNode }) {
  const [, navigate] = useLocation()
  const write = useWriteAccess()
  const def = useMemo(() => (audience === null ? null : promotionForm(audience)), [audience])
  return (
    <Dialog open={audience !== null} onOpenChange={(open) => (open ? null : onClose())}>
      {audience !== null && def !== null ? (
        <DialogContent className="[&>form]:border-0 [&>form]:p-0">
          <DialogHeader>
            <DialogTitle>Add Promotion</DialogTitle>
            <DialogDescription className="sr-only">Write the promotion, then submit it to send it</DialogDescription>
          </DialogHeader>
          {origin}
          <RecipientCount audience={audience} />
          <PromotionForecast audience={audience} />
          <FormBody
            def={def}
            defaults={{}}
            blockedReason={write.blockedReason}
            onSaved={() => {
              onClose()
              navigate('/notificationlist')
            }}
            onCancel={onClose}
            actions={(form, busy) => (
              <SendTestButton
                form={form}
                fields={['title', 'content']}
                disabled={busy}
                send={(values) => call(sendTestPromotion, { title: textOf(values['title']), content: textOf(values['content']) })}
              />
            )}
          />
        </DialogContent>
      ) : null}
    </Dialog>
  )
}
