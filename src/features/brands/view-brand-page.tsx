/**
 * View Brand (/view-brand?id=...): the brand's name and type, its referral link with a copy
 * button ('Link copy successfully'), the visits counted through that link, and the emails of the
 * leads who came through it (brand-emails.tsx). Everyone who may open /brand may read it.
 *
 * One listbrandUser call answers it all: the server makes the referral code, so the PWA carries
 * no crypto library (server/areas/brands/referral.ts).
 */
import type { ReactNode } from 'react'
import { useSearch } from 'wouter'
import { BRAND_EMAILS_STEP, listbrandUser } from '#contract/brands'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { FormFrame, RecordUnloaded } from '#src/crud/form/form-frame.tsx'
import { RecordPresence } from '#src/crud/record/presence.tsx'
import { copyText } from '#src/lib/copy-text.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'
import { Input } from '#src/ui/input.tsx'
import { toast } from '#src/ui/toast.ts'
import { BrandEmails } from './brand-emails.tsx'
import { referralLink } from './referral-link.ts'

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:gap-4">
      <dt className="w-32 shrink-0 text-sm font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 flex-1 text-sm text-slate-900">{children}</dd>
    </div>
  )
}

function ReferralLinkField({ link }: { link: string }) {
  async function copy() {
    try {
      await copyText(link)
      toast.success('Link copy successfully')
    } catch (error) {
      toast.error(`Could not copy the link: ${errorMessage(error)}`)
    }
  }
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      <Input aria-label="Referral link" readOnly value={link} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
      <Button type="button" variant="outline" onClick={() => void copy()}>
        Copy link
      </Button>
    </div>
  )
}

export function ViewBrandPage() {
  const id = new URLSearchParams(useSearch()).get('id') ?? ''
  const { data, error, mutate } = useCall(listbrandUser, id === '' ? null : { id, page: 1, limit: BRAND_EMAILS_STEP })

  let body: ReactNode
  if (id === '' || error?.status === 404) {
    body = <RecordUnloaded state={{ status: 'missing' }} what="the brand" rows={4} back="/brand" />
  } else if (data) {
    body = (
      <div className="flex flex-col gap-6 rounded-md border border-slate-200 bg-white p-6">
        <dl className="flex flex-col gap-4">
          <Detail term="Brand Name">{data.record.brandname}</Detail>
          <Detail term="Type">{data.record.type}</Detail>
          <Detail term="Referral link">
            <ReferralLinkField link={referralLink(data.referralCode)} />
          </Detail>
          <Detail term="Visits">
            {data.visits}
          </Detail>
        </dl>
        <section aria-labelledby="brand-emails" className="flex flex-col gap-3">
          <h2 id="brand-emails" className="text-base font-semibold text-slate-900">
            Emails
          </h2>
          <BrandEmails key={id} id={id} first={data} />
        </section>
      </div>
    )
  } else {
    const state = error ? { status: 'error' as const, message: errorMessage(error) } : { status: 'loading' as const }
    body = <RecordUnloaded state={state} what="the brand" rows={4} back="/brand" retry={() => void mutate()} />
  }

  return (
    <FormFrame title="View Brand" back="/brand" wide>
      {data ? (
        <RecordPresence
          id={id}
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
