import type { EnquiryStatus } from '#contract/leads'

/** Open or Resolved, in words and colour, for every session; only an Admin gets the button that changes it. */
export function Status({ status }: { status: EnquiryStatus }) {
  return status === 'Open' ? (
    <span className="inline-flex rounded-full whitespace-nowrap bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800">Open</span>
  ) : (
    <span className="inline-flex rounded-full whitespace-nowrap bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800">Resolved</span>
  )
}
