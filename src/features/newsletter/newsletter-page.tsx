/**
 * Newsletter (/newsletter; requirements R2.22: a multi-select of subscribers and a Send button,
 * the rest ours). The screen lists the newsletters sent, newest first, each with its progress,
 * fetched again every few seconds while one is being sent. An Admin writes a new one with "Send
 * Newsletter" (a dialog with the subscriber multi-select, Subject, the rich-text body and Send,
 * loaded when first opened) and pauses, resumes or cancels a running send. View Only reads.
 */
import { Suspense, lazy, useState } from 'react'
import { SEND_STATUSES, approveNewsletter, cancelNewsletter, forecastNewsletterSend, listNewsletterSends, pauseNewsletter, rejectNewsletter, resumeNewsletter, type NewsletterSend } from '#contract/newsletter'
import { approvalActions, awaitsApproval } from '#src/crud/writes/approval.tsx'
import { col, date, low, serial, wrapped } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { newsletterBulk } from '#contract/bulk'
import type { ListSource } from '#src/crud/list/list-source.ts'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'
import { toast } from '#src/ui/toast.ts'
import { Tooltip } from '#src/ui/tooltip.tsx'
import { SendForecast } from '#src/crud/writes/send-forecast.tsx'
import { newsletterForecastSources } from './forecast-sources.ts'
import { SendMail } from './send-mail.tsx'
import { SendProgress, isRunning, statusText } from './send-progress.tsx'
import { listFilter } from '#src/crud/list/list-filters.tsx'

const ComposeDialog = lazy(async () => ({ default: (await import('./compose-dialog.tsx')).ComposeDialog }))

/** How often the list is fetched again while a send on it is running. */
const PROGRESS_POLL_MS = 2000

/** The sends, fetched again while one of the shown ones is being sent, so its progress moves. */
const sends: ListSource<NewsletterSend> = {
  useRows(query, filters) {
    const { data, error, isLoading, isValidating, mutate } = useCall(listNewsletterSends, { ...filters, ...query }, {
      keepPreviousData: true,
      // Also while one waits for a second Admin, so the decision shows without a reload.
      poll: { ms: PROGRESS_POLL_MS, when: (latest) => latest.result.some((s) => isRunning(s) || awaitsApproval(s)) },
    })
    return { rows: data?.result, count: data?.count, allRows: undefined, error, isLoading, isValidating, retry: () => void mutate() }
  },
}

/** Beside the title, for an Admin: opens the dialog that writes and sends a newsletter. */
function SendNewsletterButton() {
  const write = useWriteAccess()
  const [open, setOpen] = useState(false)
  const [used, setUsed] = useState(false)
  if (!write.allowed) return null
  const blocked = write.blockedReason
  return (
    <>
      {blocked ? (
        <Tooltip content={blocked}>
          <Button aria-disabled onClick={() => toast.error(blocked)}>
            Send Newsletter
          </Button>
        </Tooltip>
      ) : (
        <Button
          onClick={() => {
            setUsed(true)
            setOpen(true)
          }}
        >
          Send Newsletter
        </Button>
      )}
      {used ? (
        <Suspense fallback={null}>
          <ComposeDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  )
}

const progressText = (s: NewsletterSend): string => `${s.sent} of ${s.total} sent`

/** The forecast of a send awaiting approval, its recipients as they stand now (requirements R2.37). */
function SendForecastOf({ send }: { send: NewsletterSend }) {
  const { data, error, fetchedAt } = useCall(forecastNewsletterSend, { id: send._id }, { revalidateOnFocus: false })
  const scope = { send: send._id }
  return (
    <SendForecast
      forecast={data}
      error={error}
      sources={newsletterForecastSources(scope)}
      fetchedAt={fetchedAt}
    />
  )
}

export const NewsletterPage = defineList({
  title: 'Newsletter',
  empty: { says: 'Each newsletter sent to subscribers is listed here with its delivery: Send Newsletter writes the first.' },
  route: '/newsletter',
  endpoint: sends,
  // On a tablet the date folds into View, so that Progress (and an approval awaited) stays in sight beside the actions.
  columns: [serial(), low(date('createdAt', 'Date')), wrapped(col('subject', 'Subject')), { header: 'Progress', cell: (s: NewsletterSend) => <SendProgress send={s} editTime /> }],
  view: {
    title: 'Newsletter',
    fields: [
      { label: 'Subject', value: (s) => s.subject },
      { label: 'Sent by', value: (s) => s.createdBy || '--' },
      { label: 'Progress', value: (s) => <SendProgress send={s} /> },
      { label: 'Mail', value: (s) => <SendMail id={s._id} /> },
      { label: 'Forecast', value: (s) => (awaitsApproval(s) ? <SendForecastOf send={s} /> : 'Shown while the send awaits approval') },
    ],
  },
  // Where each send stands, in the Progress column's words; the Dashboard's counts open the list with it.
  filters: [listFilter('status', 'Status', SEND_STATUSES.map((value) => ({ value, label: statusText[value] })), 'All statuses')],
  toolbar: SendNewsletterButton,
  serverBulk: newsletterBulk,
  actions: [
    {
      label: 'Pause',
      endpoint: pauseNewsletter,
      when: isRunning,
      confirm: () => 'Pause this newsletter?',
      detail: (s) => `${progressText(s)}. The rest waits until you resume it.`,
      dismiss: 'Keep sending',
      choices: [{ label: 'Pause', payload: (s) => ({ id: s._id }) }],
    },
    {
      label: 'Resume',
      endpoint: resumeNewsletter,
      when: (s) => s.status === 'paused',
      confirm: () => 'Resume this newsletter?',
      detail: (s) => `${progressText(s)}; the other ${s.pending} go out next.`,
      choices: [{ label: 'Resume', payload: (s) => ({ id: s._id }) }],
    },
    {
      label: 'Cancel',
      endpoint: cancelNewsletter,
      when: (s) => s.status === 'sending' || s.status === 'paused' || s.status === 'scheduled' || awaitsApproval(s),
      confirm: () => 'Are you sure you want to stop sending this newsletter',
      detail: (s) => (s.status === 'scheduled' ? 'It is scheduled and nothing has been sent; it will not be sent.' : `${progressText(s)}; the rest will not be sent.`),
      dismiss: 'Keep sending',
      choices: [{ label: 'Stop sending', payload: (s) => ({ id: s._id }) }],
    },
    ...approvalActions({ what: 'this newsletter', approve: approveNewsletter, reject: rejectNewsletter, payload: (s: NewsletterSend) => ({ id: s._id }) }),
  ],
})
