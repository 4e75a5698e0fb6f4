/**
 * The emails listed under a brand (View Brand): 2 at first and 2 more per "Load More..." (spec
 * section 9). Each further page is its own listbrandUser call, kept by SWR like any read, so
 * Load More fetches only the next 2 and an offline visit still shows the pages already seen.
 */
import { useState } from 'react'
import { BRAND_EMAILS_STEP, listbrandUser, type BrandEmail } from '#contract/brands'
import { errorMessage } from '#src/crud/error-message.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'

function EmailItems({ emails }: { emails: readonly BrandEmail[] }) {
  return emails.map((e, i) => (
    <li key={`${e.email}-${i}`} className="break-all px-3 py-2 text-sm text-slate-800">
      {e.email}
    </li>
  ))
}

/** Page 2 onwards, each fetched on its own. */
function MoreEmails({ id, page }: { id: string; page: number }) {
  const { data, error } = useCall(listbrandUser, { id, page, limit: BRAND_EMAILS_STEP })
  if (data) return <EmailItems emails={data.result} />
  return (
    <li className="px-3 py-2 text-sm text-slate-600" role={error ? 'alert' : undefined}>
      {error ? `Could not load more emails: ${errorMessage(error)}` : 'Loading…'}
    </li>
  )
}

export function BrandEmails({ id, first, count }: { id: string; first: readonly BrandEmail[]; count: number }) {
  const [pages, setPages] = useState(1)
  const shown = Math.min(count, pages * BRAND_EMAILS_STEP)
  if (count === 0) return <p className="text-sm text-slate-600">No Record Found</p>
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label="Emails" className="divide-y divide-slate-100 rounded-md border border-slate-200">
        <EmailItems emails={first} />
        {Array.from({ length: pages - 1 }, (_, i) => (
          <MoreEmails key={i + 2} id={id} page={i + 2} />
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600" aria-live="polite">
          Showing {shown} of {count}
        </p>
        {shown < count ? (
          <Button variant="outline" size="sm" onClick={() => setPages(pages + 1)}>
            Load More...
          </Button>
        ) : null}
      </div>
    </div>
  )
}
