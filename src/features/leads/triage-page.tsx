/**
 * Contact Us as a queue (/contactus-triage): the oldest open enquiry first; one key resolves it
 * and shows the next, one skips it for this visit, one opens the lead's page. The next
 * enquiries are already here (a page of the oldest open ones is read at once and again after
 * each resolve), so the next one paints without waiting for the network. Resolving is the list's
 * own write (setContactStatus), so the menu's count of open enquiries moves with it.
 */
import { useEffect, useEffectEvent, useState, type ReactNode } from 'react'
import { Link, useLocation } from 'wouter'
import { useSWRConfig } from 'swr'
import { getContactUS, setContactStatus, type ContactRow } from '#contract/leads'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { FormFrame } from '#src/crud/form/form-frame.tsx'
import { refreshAfterWrite } from '#src/crud/writes/refresh.ts'
import { When } from '#src/crud/list/when.tsx'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'
import { call } from '#src/lib/api.ts'
import { useCall } from '#src/lib/use-call.ts'
import { useSession } from '#src/lib/session.ts'
import { Button } from '#src/ui/button.tsx'
import { Skeleton } from '#src/ui/skeleton.tsx'
import { toast } from '#src/ui/toast.ts'

/** Open enquiries read ahead: skipped ones stay in the answer, so the page grows with the skips. */
const AHEAD = 20
const MAX_PAGE = 100

/** The keys, shown on their buttons: a letter each, never with a modifier (the palette has those). */
export const TRIAGE_KEYS = { resolve: 'r', skip: 's', lead: 'l' } as const

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:gap-4">
      <dt className="w-36 shrink-0 text-sm font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 flex-1 text-sm break-words whitespace-pre-wrap text-slate-900">{children}</dd>
    </div>
  )
}

function Key({ children }: { children: string }) {
  return <kbd className="ml-2 rounded border border-current/30 px-1 font-mono text-xs uppercase opacity-80">{children}</kbd>
}

/** Typing in a field, or a key with a modifier, is never a triage key. */
function isTriageKey(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return false
  const target = event.target
  if (target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return false
  // A dialog (the palette, a confirmation) has the keyboard while it is open.
  return document.querySelector('[role="dialog"], [role="alertdialog"]') === null
}

export function TriagePage() {
  const [skipped, setSkipped] = useState<readonly string[]>([])
  const limit = Math.min(MAX_PAGE, AHEAD + skipped.length)
  const { data, error, isLoading, mutate: retry } = useCall(
    getContactUS,
    { page: 1, limit, search: '', status: 'Open', sortBy: 'createdAt', sortOrder: 'asc' },
    { keepPreviousData: true },
  )
  const { mutate } = useSWRConfig()
  const [resolved, setResolved] = useState<readonly string[]>([])
  const [busy, setBusy] = useState(false)
  const write = useWriteAccess()
  const session = useSession()
  const [, navigate] = useLocation()

  const waiting = (data?.result ?? []).filter((row) => !skipped.includes(row._id) && !resolved.includes(row._id))
  const current: ContactRow | undefined = waiting[0]
  const open = data === undefined ? undefined : Math.max(0, data.count - resolved.filter((id) => data.result.some((r) => r._id === id)).length)

  async function resolve(row: ContactRow) {
    if (busy || !write.allowed || write.blockedReason !== undefined) return
    setBusy(true)
    try {
      const answer = await call(setContactStatus, { _id: row._id, status: 'Resolved' })
      // Shown as gone at once; the answers read again behind it (this list, the menu's count).
      setResolved((ids) => [...ids, row._id])
      toast.success(answer.message)
      await refreshAfterWrite(mutate)
    } catch (failure) {
      toast.error(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  const skip = (row: ContactRow) => setSkipped((ids) => [...ids, row._id])
  const leadHref = (row: ContactRow) => (row.leadId === null ? null : `/lead?id=${encodeURIComponent(row.leadId)}`)

  // One document listener; the event reads this render's enquiry and access.
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (current === undefined || !isTriageKey(event)) return
    const key = event.key.toLowerCase()
    if (key === TRIAGE_KEYS.resolve && write.allowed) {
      event.preventDefault()
      void resolve(current)
    } else if (key === TRIAGE_KEYS.skip) {
      event.preventDefault()
      skip(current)
    } else if (key === TRIAGE_KEYS.lead) {
      const href = leadHref(current)
      if (href === null) return
      event.preventDefault()
      navigate(href)
    }
  })
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event)
    document.addEventListener('keydown', listener)
    return () => document.removeEventListener('keydown', listener)
  }, [])

  const back = (
    <Button variant="link" asChild>
      <Link href="/contactus">Back to Contact Us</Link>
    </Button>
  )

  let body: ReactNode
  if (data === undefined) {
    body = error ? (
      <div role="alert" className="flex items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        <span>The open enquiries could not be loaded: {errorMessage(error)}</span>
        <Button variant="outline" size="sm" onClick={() => void retry()}>
          Retry
        </Button>
      </div>
    ) : isLoading ? (
      <div aria-busy="true" aria-label="Loading the oldest open enquiry">
        <Skeleton className="h-48 w-full" />
      </div>
    ) : null
  } else if (current === undefined) {
    body = (
      <div className="flex flex-col items-start gap-3 rounded-md border border-slate-200 p-6">
        <p className="text-base font-medium text-slate-900">{skipped.length > 0 && (open ?? 0) > 0 ? 'No more open enquiries in this pass.' : 'No open enquiries.'}</p>
        <p className="text-sm text-slate-600">
          {skipped.length > 0 && (open ?? 0) > 0
            ? `You skipped ${skipped.length === 1 ? 'one enquiry' : `${skipped.length} enquiries`}; they are still open.`
            : 'Every enquiry is resolved. New ones arrive here, oldest first.'}
        </p>
        <div className="flex flex-wrap gap-2">
          {skipped.length > 0 ? (
            <Button variant="outline" onClick={() => setSkipped([])}>
              Start again with the skipped ones
            </Button>
          ) : null}
          <Button variant="outline" asChild>
            <Link href="/contactus">Back to Contact Us</Link>
          </Button>
        </div>
      </div>
    )
  } else {
    const href = leadHref(current)
    body = (
      <article aria-labelledby="triage-current" className="flex flex-col gap-4 rounded-md border border-slate-200 p-4">
        <h2 id="triage-current" className="text-base font-semibold text-slate-900">
          {current.name === '' ? current.email : current.name}
        </h2>
        <dl className="flex flex-col gap-3">
          <Detail term="Received">
            <When at={current.createdAt} />
          </Detail>
          <Detail term="Email">{current.email === '' ? '--' : current.email}</Detail>
          <Detail term="Contact Number">{current.phonenumber === '' ? '--' : current.phonenumber}</Detail>
          <Detail term="Message">{current.message}</Detail>
        </dl>
        <div className="flex flex-wrap items-center gap-2">
          {write.allowed ? (
            <Button onClick={() => void resolve(current)} disabled={busy || write.blockedReason !== undefined} title={write.blockedReason}>
              Mark Resolved
              <Key>{TRIAGE_KEYS.resolve}</Key>
            </Button>
          ) : null}
          <Button variant="outline" onClick={() => skip(current)}>
            Skip
            <Key>{TRIAGE_KEYS.skip}</Key>
          </Button>
          {href === null ? (
            <span className="text-sm text-slate-600">
              {current.email === '' ? 'No address: no lead to open.' : session.mayOpen('/users') ? 'No lead has this address.' : 'Leads is not yours to read.'}
            </span>
          ) : (
            <Button variant="outline" asChild>
              <Link href={href}>
                Open lead
                <Key>{TRIAGE_KEYS.lead}</Key>
              </Link>
            </Button>
          )}
        </div>
        {write.blockedReason === undefined ? null : <p className="text-sm text-amber-800">{write.blockedReason}</p>}
      </article>
    )
  }

  return (
    <FormFrame
      title="Contact Us Triage"
      description={open === undefined ? 'The oldest open enquiry first.' : `${open} open ${open === 1 ? 'enquiry' : 'enquiries'}, the oldest first.`}
      actions={back}
    >
      {/* Said when the next enquiry replaces the one just handled. */}
      <p className="sr-only" aria-live="polite">
        {current === undefined ? '' : `Open enquiry from ${current.name === '' ? current.email : current.name}${skipped.length > 0 ? `, ${skipped.length} skipped` : ''}.`}
      </p>
      {body}
    </FormFrame>
  )
}
