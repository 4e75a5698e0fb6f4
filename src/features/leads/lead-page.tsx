/**
 * A lead's page (/lead?id=...): staff are asked about one person at a time, so everything about
 * the lead is on one page, from one call (getLead): every field with the ids and the wallet
 * address copyable, the brand it came through, its contact enquiries (by its email), each
 * promotion delivery with its outcome and time, and whether it receives the newsletter.
 * Opened from the Leads list (the email), from the palette, or by a link. Offline it shows the
 * copy this device holds; the offline notice says from when.
 */
import type { ReactNode } from 'react'
import { Link, useSearch } from 'wouter'
import { getLead, LEAD_DELIVERIES_SHOWN } from '#contract/leads'
import { reasonLabels } from '#contract/forecast'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { copyAndSay } from '#src/crud/list/columns.tsx'
import { When } from '#src/crud/list/when.tsx'
import { FormFrame, RecordUnloaded } from '#src/crud/form/form-frame.tsx'
import { RecordPresence } from '#src/crud/record/presence.tsx'
import { useCall } from '#src/lib/use-call.ts'
import { useSession } from '#src/lib/session.ts'
import { Button } from '#src/ui/button.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/ui/table.tsx'
import { Status } from './enquiry-status.tsx'

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:gap-4">
      <dt className="w-40 shrink-0 text-sm font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 flex-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  )
}

/** A value with a button that copies it whole (ids and wallet addresses are read out over chat). */
function Copyable({ value, label, mono = false }: { value: string; label: string; mono?: boolean }) {
  if (value === '') return <span className="text-slate-600">--</span>
  return (
    <span className="flex flex-wrap items-center gap-2">
      <span className={mono ? 'font-mono text-xs break-all' : undefined}>{value}</span>
      <Button type="button" variant="outline" size="sm" onClick={() => void copyAndSay(value)} aria-label={`Copy ${label}`}>
        Copy
      </Button>
    </span>
  )
}


const OUTCOME: Record<'pending' | 'sent' | 'failed' | 'cancelled' | 'excluded', string> = { pending: 'Pending', sent: 'Sent', failed: 'Failed', cancelled: 'Cancelled', excluded: 'Left out' }

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** What a part shows when the reader may not open the screen it comes from. */
function Withheld({ screen }: { screen: string }) {
  return <p className="text-sm text-slate-600">Not shown: you do not have access to {screen}.</p>
}

export function LeadPage() {
  const id = new URLSearchParams(useSearch()).get('id') ?? ''
  const session = useSession()
  const { data, error, mutate } = useCall(getLead, id === '' ? null : { id })

  let body: ReactNode
  if (id === '' || error?.status === 404) {
    body = <RecordUnloaded state={{ status: 'missing' }} what="the lead" rows={6} back="/users" />
  } else if (data) {
    const { record: lead, enquiries, deliveries, deliveryCount, withheld } = data
    body = (
      <div className="flex flex-col gap-8 rounded-md border border-slate-200 bg-white p-6">
        <dl className="flex flex-col gap-4">
          <Detail term="Date Created"><When at={lead.createdAt} /></Detail>
          <Detail term="Name">{lead.name || '--'}</Detail>
          <Detail term="Email">
            <Copyable value={lead.email} label="email" />
          </Detail>
          <Detail term="Operating System">{lead.operatingsystem || '--'}</Detail>
          <Detail term="Wallet Address">
            <Copyable value={lead.walletaddress} label="wallet address" mono />
          </Detail>
          <Detail term="Provider">{lead.provider || '--'}</Detail>
          <Detail term="Country">{lead.country || '--'}</Detail>
          <Detail term="Brand">
            {lead.brand === null ? (
              'None (not through a referral link)'
            ) : session.mayOpen('/view-brand') ? (
              <Link className="font-medium text-indigo-700 underline" href={`/view-brand?id=${encodeURIComponent(lead.brand._id)}`}>
                {lead.brand.brandname}
              </Link>
            ) : (
              lead.brand.brandname
            )}
          </Detail>
          <Detail term="Newsletter">
            {lead.subscribed
              ? <>Receives the newsletter{lead.subscribedAt ? <> (subscribed <When at={lead.subscribedAt} />)</> : null}</>
              : <>Does not receive the newsletter{lead.unsubscribedAt ? <> (unsubscribed <When at={lead.unsubscribedAt} />)</> : null}</>}
          </Detail>
          <Detail term="Lead ID">
            <Copyable value={lead._id} label="lead ID" mono />
          </Detail>
        </dl>

        <Section id="lead-enquiries" title="Contact enquiries">
          {withheld.includes('enquiries') ? (
            <Withheld screen="Contact Us" />
          ) : enquiries.length === 0 ? (
            <p className="text-sm text-slate-600">No enquiry came from this email.</p>
          ) : (
            <Table>
              <TableHead>
                <TableRow>
                  <TableHeader>Received</TableHeader>
                  <TableHeader>Message</TableHeader>
                  <TableHeader>Status</TableHeader>
                </TableRow>
              </TableHead>
              <TableBody>
                {enquiries.map((e) => (
                  <TableRow key={e._id}>
                    <TableCell className="whitespace-nowrap"><When at={e.createdAt} /></TableCell>
                    <TableCell className="whitespace-pre-wrap">{e.message}</TableCell>
                    <TableCell>
                      <Status status={e.status} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Section>

        <Section id="lead-promotions" title="Promotions sent">
          {withheld.includes('deliveries') ? (
            <Withheld screen="Messaging" />
          ) : deliveries.length === 0 ? (
            <p className="text-sm text-slate-600">No promotion was sent to this lead.</p>
          ) : (
            <>
              {deliveryCount > deliveries.length ? (
                <p className="text-sm text-slate-600">
                  The latest {LEAD_DELIVERIES_SHOWN} of {deliveryCount} deliveries.
                </p>
              ) : null}
              <Table>
                <TableHead>
                  <TableRow>
                    <TableHeader>Promotion</TableHeader>
                    <TableHeader>Round</TableHeader>
                    <TableHeader>Outcome</TableHeader>
                    <TableHeader>Sent</TableHeader>
                    <TableHeader>Attempts</TableHeader>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {deliveries.map((d) => (
                    <TableRow key={`${d.promotionId}:${d.round}`}>
                      <TableCell>{d.title}</TableCell>
                      <TableCell>{d.round}</TableCell>
                      <TableCell>{d.status === 'excluded' && d.reason !== '' ? `${OUTCOME[d.status]}: ${reasonLabels[d.reason]}` : OUTCOME[d.status]}</TableCell>
                      <TableCell className="whitespace-nowrap"><When at={d.sentAt} /></TableCell>
                      <TableCell>{d.attempts}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </>
          )}
        </Section>
      </div>
    )
  } else {
    const state = error ? { status: 'error' as const, message: errorMessage(error) } : { status: 'loading' as const }
    body = <RecordUnloaded state={state} what="the lead" rows={6} back="/users" retry={() => void mutate()} />
  }

  return (
    <FormFrame title="Lead" back="/users" wide>
      {data ? (
        <RecordPresence
          id={data.record._id}
          mode="view"
          onReload={async () => {
            await mutate()
          }}
        />
      ) : null}
      {body}
    </FormFrame>
  )
}
