/**
 * The send forecast (requirements R2.37), shown before a promotion or a newsletter goes out and to
 * the approver of one: selected, will receive, left out, and left out per reason. Each reason's
 * count opens its leads, paged by the server, with a CSV download. The counting is the server's:
 * the audience itself never comes to the browser.
 *
 * Offline, the last forecast this browser made of the same selection (kept with the other reads,
 * src/lib/use-call.ts) is shown with its age, and the send itself is refused by the write controls
 * (src/crud/writes/write-access.ts): nothing is sent or queued without a connection.
 */
import { useId, useState } from 'react'
import { plural } from '#contract/common'
import type { Endpoint, Input } from '#contract/define'
import { reasonLabels, type ExclusionReason, type ForecastAnswer, type ForecastLead } from '#contract/forecast'
import { useCall } from '#src/lib/use-call.ts'
import { WRITES_OFFLINE_MESSAGE, useOnline } from '#src/lib/online.ts'
import { When } from '../list/when.tsx'
import { Button } from '#src/ui/button.tsx'
import { DownloadButton } from '../list/download-button.tsx'
import { errorMessage } from '../form/error-message.ts'

type Forecast = Pick<ForecastAnswer, 'selected' | 'recipients' | 'excluded' | 'restrictedCountryRule'>

/** Where a reason's leads come from: the forecast's own audience, with the reason and a page. */
export interface ForecastSources<L extends Endpoint, C extends Endpoint> {
  leads: L
  leadsInput: (reason: ExclusionReason, page: number, limit: number) => Input<L>
  csv: C
  csvInput: (reason: ExclusionReason) => Input<C>
}

const PAGE = 20

function ReasonLeads<L extends Endpoint, C extends Endpoint>({ reason, count, sources }: { reason: ExclusionReason; count: number; sources: ForecastSources<L, C> }) {
  const [page, setPage] = useState(1)
  const headingId = useId()
  const { data, error } = useCall(sources.leads, sources.leadsInput(reason, page, PAGE), { revalidateOnFocus: false, keepPreviousData: true })
  const answer = data as { result: ForecastLead[]; count: number } | undefined
  const pages = Math.max(1, Math.ceil((answer?.count ?? count) / PAGE))
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 rounded-md border border-slate-200 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          {reasonLabels[reason]}: {plural(answer?.count ?? count, 'lead')}
        </h3>
        <DownloadButton endpoint={sources.csv} filename={`left-out-${reason}.csv`} label="Download CSV" input={sources.csvInput(reason)} />
      </div>
      {error ? <p role="alert" className="text-sm text-red-700">{errorMessage(error)}</p> : null}
      {answer === undefined ? (
        <p className="text-sm text-slate-600">Loading the leads…</p>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-100 text-sm">
          {answer.result.map((lead) => (
            <li key={lead._id} className="flex flex-wrap justify-between gap-2 py-1">
              <span className="break-all text-slate-900">{lead.email === '' ? '(no address)' : lead.email}</span>
              <span className="text-slate-600">{[lead.name, lead.country].filter((v) => v !== '').join(' · ')}</span>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <div className="flex items-center justify-end gap-2 text-sm">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span>
            Page {page} of {pages}
          </span>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </div>
      ) : null}
    </section>
  )
}

export function SendForecast<L extends Endpoint, C extends Endpoint>({
  forecast,
  error,
  sources,
  idle,
  fetchedAt,
}: {
  forecast: Forecast | undefined
  error: unknown
  sources: ForecastSources<L, C>
  /** Said instead of the counts while there is nothing to forecast yet (no one chosen): the panel keeps its place. */
  idle?: string
  /** When `forecast` was made (its read's time): said offline, where it cannot be made again. */
  fetchedAt?: number | undefined
}) {
  const [open, setOpen] = useState<ExclusionReason | null>(null)
  const headingId = useId()
  const online = useOnline()
  const offline = !online && idle === undefined
  if (offline && forecast === undefined) {
    return (
      <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="send-forecast">
        Offline: no forecast of this selection was made on this device. {WRITES_OFFLINE_MESSAGE}
      </p>
    )
  }
  if (error && !offline) return <p role="alert" className="text-sm text-red-700">Could not make the forecast: {errorMessage(error)}</p>
  // The frame keeps its size while the counts come, so the form below never moves under a click.
  const figure = (value: number | undefined) => (value === undefined ? '…' : value.toLocaleString('en-US'))
  const left = forecast === undefined ? undefined : forecast.selected - forecast.recipients
  const shown = open === null || forecast === undefined ? undefined : forecast.excluded.find((e) => e.reason === open)
  return (
    <section aria-labelledby={headingId} aria-busy={forecast === undefined && idle === undefined} className="flex flex-col gap-2 rounded-md border border-indigo-200 bg-indigo-50/40 px-3 py-2 text-sm" data-testid="send-forecast">
      {/* One compact row: a form follows in the same dialog, and a taller panel would push its
          buttons below the fold, where an error appearing above them moves them under the pointer. */}
      <div className="flex min-h-8 flex-wrap items-center gap-x-4 gap-y-1">
        <h2 id={headingId} className="font-semibold text-slate-900">
          Forecast
        </h2>
        <dl className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
          <div className="flex items-baseline gap-1">
            <dt className="text-slate-600">Selected</dt>
            <dd className="font-semibold tabular-nums text-slate-900">{figure(forecast?.selected)}</dd>
          </div>
          <div className="flex items-baseline gap-1">
            <dt className="text-slate-600">Will receive</dt>
            <dd className="font-semibold tabular-nums text-emerald-800">{figure(forecast?.recipients)}</dd>
          </div>
          <div className="flex items-baseline gap-1">
            <dt className="text-slate-600">Left out</dt>
            <dd className="font-semibold tabular-nums text-amber-900">{figure(left)}</dd>
          </div>
        </dl>
      </div>
      {offline ? (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-amber-950">
          Offline: forecast as of {fetchedAt === undefined ? 'an earlier visit' : <When at={new Date(fetchedAt).toISOString()} />}. It may have changed, and nothing can be sent until you reconnect.
        </p>
      ) : null}
      {forecast === undefined ? (
        <p className="text-slate-600">{idle ?? 'Making the forecast…'}</p>
      ) : forecast.excluded.length > 0 ? (
        <ul aria-label="Left out by reason" className="flex flex-wrap gap-2">
          {forecast.excluded.map(({ reason, count }) => (
            <li key={reason}>
              <Button variant={open === reason ? 'default' : 'outline'} size="sm" aria-expanded={open === reason} onClick={() => setOpen(open === reason ? null : reason)}>
                {reasonLabels[reason]}: {count.toLocaleString('en-US')}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-600">No one is left out.</p>
      )}
      {forecast === undefined || forecast.restrictedCountryRule ? null : <p className="text-amber-900">The restricted-country rule is off: leads in restricted countries are not left out.</p>}
      {open !== null && shown !== undefined ? <ReasonLeads key={open} reason={open} count={shown.count} sources={sources} /> : null}
    </section>
  )
}
