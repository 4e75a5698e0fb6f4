/**
 * Messaging (/notificationlist, requirements R2.19, R6.5, R8.6, R9.3): the promotions with S.No, title,
 * content, image (or 'No image in this promotion') and each one's delivery progress, updated live
 * by the server's progress events while a send runs (and fetched again every few seconds then, in
 * case the socket is down). View shows the content and the recipients 100 at a time; Admin also
 * deletes, resends (to everyone or only the failed deliveries) and cancels a running send.
 */
import { DeletePromotion, PROMOTION_PAGE_SIZE, PROMOTION_STATUSES, PromotionProgress, ResendData, approvePromotion, cancelPromotion, forecastPromotionRound, listNotification, listnotfiyuser, rejectPromotion, reschedulePromotion, type Promotion } from '#contract/promotions'
import { reasonLabels } from '#contract/forecast'
import { SendForecast } from '#src/crud/writes/send-forecast.tsx'
import { promotionForecastSources } from './forecast-sources.ts'
import { useCall } from '#src/lib/use-call.ts'
import { SocketEvents } from '#contract/socket'
import { ApprovalNote, approvalActions, approvalUnsettled } from '#src/crud/writes/approval.tsx'
import { col, image, low, serial, withEmpty, wrapped } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { promotionsBulk } from '#contract/bulk'
import { CutText } from '#src/crud/list/cut-text.tsx'
import { live } from '#src/crud/list/list-source.ts'
import { LoadMoreList } from '#src/crud/list/load-more-list.tsx'
import { assetUrl } from '#src/lib/api.ts'
import { When } from '#src/crud/list/when.tsx'
import { DeliveryProgress, RecipientStatus, isOpen, statusText } from './delivery.tsx'
import { listFilter } from '#src/crud/list/list-filters.tsx'

/** A count of people, as a confirmation says it. */
const recipients = (n: number): string => (n === 1 ? '1 recipient' : `${n} recipients`)

export const NO_IMAGE = 'No image in this promotion'
/** A client message of requirements R8.6: a promotion with no recipient. */
export const NO_RECORDS_FOUND = 'No Records found!'
export const REMOVE_PROMOTION = 'Are you sure you want to remove this promotion'

/** When it was submitted, by whom and to how many: what staff look for first in a list of sends. */
function Submitted({ promotion: p }: { promotion: Promotion }) {
  return (
    <span className="flex flex-col">
      <When at={p.createdAt} />
      <span className="text-slate-600">
        {p.createdBy === '' ? 'by a removed account' : `by ${p.createdBy}`}, {p.status === 'scheduled' ? 'its users chosen at its time' : `to ${recipients(p.recipientCount)}`}
      </span>
    </span>
  )
}

function Recipients({ promotion }: { promotion: Promotion }) {
  return (
    <LoadMoreList
      key={promotion._id}
      label="Recipients"
      endpoint={listnotfiyuser}
      input={(page) => ({ id: promotion._id, page, limit: PROMOTION_PAGE_SIZE })}
      pick={(answer) => ({ items: answer.result, count: answer.count })}
      itemKey={(r) => r._id}
      render={(r) => (
        <span className="flex flex-wrap items-center justify-between gap-2">
          <span className="break-all">{r.email}</span>
          <span className="flex items-center gap-2">
            {r.status === 'excluded' && r.reason !== '' ? <span className="text-xs text-amber-900">{reasonLabels[r.reason]}</span> : null}
            <RecipientStatus status={r.status} />
          </span>
        </span>
      )}
      moreLabel="Load More"
      step={PROMOTION_PAGE_SIZE}
      empty={NO_RECORDS_FOUND}
    />
  )
}

/**
 * The forecast of a stored promotion's recipients as they stand now: what the approver of a round
 * awaiting approval weighs (requirements R2.37).
 */
function RoundForecast({ promotion }: { promotion: Promotion }) {
  const { data, error, fetchedAt } = useCall(forecastPromotionRound, { id: promotion._id }, { revalidateOnFocus: false })
  const scope = { promotion: promotion._id }
  return (
    <SendForecast
      forecast={data}
      error={error}
      sources={promotionForecastSources(scope)}
      fetchedAt={fetchedAt}
    />
  )
}

export const PromotionListPage = defineList({
  title: 'Messaging',
  empty: { says: 'Promotions sent to chosen users are listed here with their delivery.', addFirst: 'Write the first promotion' },
  route: '/notificationlist',
  endpoint: listNotification,
  columns: [
    serial(),
    // Wrapped, so that Delivery (where a send stands, and who asked for its approval) stays in
    // sight beside the Action column whatever the title's length.
    wrapped(col('title', 'Title')),
    // Content may run to 5,000 characters: the table shows its start, View shows it whole.
    low({ header: 'Content', cell: (p: Promotion) => <CutText text={p.content} lines={3} /> }),
    low(withEmpty(image('image', 'Image', 'title'), NO_IMAGE)),
    // Ours, beside the columns of requirements R2.19.
    low({ header: 'Submitted', cell: (p: Promotion) => <Submitted promotion={p} /> }),
    {
      header: 'Delivery',
      cell: (p: Promotion) => (
        <div className="flex flex-col gap-1">
          <DeliveryProgress progress={p} reschedule={{ endpoint: reschedulePromotion, id: p._id, name: p.title }} />
          <ApprovalNote row={p} />
        </div>
      ),
    },
  ],
  view: {
    title: 'Promotion',
    fields: [
      { label: 'Title', value: (p) => p.title },
      { label: 'Content', value: (p) => p.content },
      {
        label: 'Image',
        value: (p) => (p.image ? <img src={assetUrl(p.image)} alt={p.title} className="max-h-40 rounded border border-slate-200 object-contain" /> : NO_IMAGE),
      },
      { label: 'Submitted', value: (p) => <Submitted promotion={p} /> },
      { label: 'Delivery', value: (p) => <DeliveryProgress progress={p} /> },
      { label: 'Approval', value: (p) => (p.approval === null ? 'Not needed' : <ApprovalNote row={p} />) },
      { label: 'Forecast', value: (p) => (p.status === 'awaiting' ? <RoundForecast promotion={p} /> : `${p.excluded} left out when their delivery was due`) },
      { label: 'Recipients', value: (p) => <Recipients promotion={p} /> },
    ],
  },
  // Ours: where each send stands, in the Delivery column's words; the Dashboard's counts open the list with it.
  filters: [listFilter('status', 'Status', PROMOTION_STATUSES.map((value) => ({ value, label: statusText[value] })), 'All statuses')],
  add: { to: '/addnotification' },
  remove: { endpoint: DeletePromotion, confirm: REMOVE_PROMOTION },
  serverBulk: promotionsBulk,
  actions: [
    {
      label: 'Resend',
      endpoint: ResendData,
      when: (p) => !isOpen(p),
      confirm: () => 'Resend this promotion to',
      detail: (p) =>
        `${p.total} in the last round: ${p.sent} sent, ${p.failed} failed. All recipients sends it again to ${recipients(p.recipientCount)}${p.failed > 0 ? `; only failed deliveries, to ${recipients(p.failed)}` : ''}.`,
      choices: [
        { label: 'All recipients', payload: (p) => ({ id: p._id, round: p.round, only: 'all' }) },
        { label: 'Only failed deliveries', payload: (p) => ({ id: p._id, round: p.round, only: 'failed' }), when: (p) => p.failed > 0 },
      ],
    },
    {
      label: 'Cancel',
      endpoint: cancelPromotion,
      when: isOpen,
      confirm: () => 'Are you sure you want to stop sending this promotion',
      detail: (p) => (p.status === 'scheduled' ? 'It is scheduled and nothing has been sent; it will not be sent.' : `${p.sent} of ${p.total} already sent; the rest will not be sent.`),
      dismiss: 'Keep sending',
      choices: [{ label: 'Stop sending', payload: (p) => ({ id: p._id }) }],
    },
    ...approvalActions({ what: 'this promotion', approve: approvePromotion, reject: rejectPromotion, payload: (p: Promotion) => ({ id: p._id, round: p.round }) }),
  ],
  live: live(
    SocketEvents.promotionProgress,
    PromotionProgress,
    // An event of an older round (overtaken by a Resend) changes nothing.
    (row: Promotion, { id, ...progress }) => (id === row._id && progress.round >= row.round ? { ...row, ...progress } : undefined),
    // Fetched again while a round waits for approval too, until the list shows who decided.
    (p) => isOpen(p) || approvalUnsettled(p),
  ),
})
