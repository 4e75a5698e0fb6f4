/** The pieces around a form that every form screen shares: the frame, the loading and problem states. */
import { useId, type ReactNode } from 'react'
import { Link } from 'wouter'
import { useSession } from '#src/lib/session.ts'
import { Button } from '#src/ui/button.tsx'
import { cn } from '#src/ui/cn.ts'
import { Skeleton } from '#src/ui/skeleton.tsx'

/** The screen's heading, its own controls (an edit page's History) and, for a page reached from a list, a Back link to it. */
export function FormFrame({
  title,
  description,
  back,
  wide = false,
  actions,
  children,
}: {
  title: string
  /** A line under the title saying what the screen's record is. */
  description?: string | undefined
  back?: string
  wide?: boolean
  actions?: ReactNode
  children: ReactNode
}) {
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className={cn('flex flex-col gap-4', wide ? 'max-w-4xl' : 'max-w-2xl')}>
      <div className="flex items-center justify-between gap-3">
        <h1 id={headingId} className="text-xl font-semibold text-slate-900">
          {title}
        </h1>
        <div className="flex items-center gap-2">
          {actions}
          {back ? (
            <Button variant="link" asChild>
              <Link href={back}>Back</Link>
            </Button>
          ) : null}
        </div>
      </div>
      {description === undefined ? null : <p className="-mt-2 text-sm text-slate-700">{description}</p>}
      {children}
    </section>
  )
}

/** One grey bar per field while the record loads. */
export function FormSkeleton({ rows, label }: { rows: number; label: string }) {
  return (
    <div aria-busy="true" className="flex flex-col gap-4 rounded-md border border-slate-200 bg-white p-6">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-9" />
      ))}
    </div>
  )
}

/** A form that could not start: why, and a way on (back to the list, or Retry). */
export function FormProblem({ children, action }: { children: ReactNode; action: ReactNode }) {
  return (
    <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-slate-200 bg-white p-6 text-sm text-slate-800">
      <span>{children}</span>
      {action}
    </div>
  )
}

/** Said instead of a form to a session that may read the section but not change it. */
export function ReadOnlyNotice() {
  // An Admin held back by a stricter rule (staff management) is not View Only: say it right.
  const { canWrite } = useSession()
  return (
    <p role="alert" className="rounded-md border border-slate-200 bg-white p-6 text-sm text-slate-800">
      {canWrite ? 'Your account can read this section but not change it.' : 'Your access is View Only: you can read this section but not change it.'}
    </p>
  )
}

/** A record a screen cannot show yet: still loading, not found, or not loaded (with why). */
export type Unloaded = { status: 'loading' } | { status: 'missing' } | { status: 'error'; message: string }

/**
 * The one way a screen about one record (an edit form, a record form, a view page) says it cannot
 * show it yet: a skeleton while it loads, "not found" with the way back to the list, or why it
 * could not be loaded with Retry (when the screen can fetch again) or the way back.
 */
export function RecordUnloaded({
  state,
  what,
  rows,
  back,
  retry,
  missing = 'This record was not found. It may have been removed.',
}: {
  state: Unloaded
  /** What the screen shows, as said in "Loading the brand…" / "Could not load the brand: …". */
  what: string
  /** Skeleton bars (one per field of a form). */
  rows: number
  /** The list the record belongs to. */
  back?: string
  retry?: () => void
  /** Said when the record is not found, where the screen knows a likelier reason. */
  missing?: string
}) {
  if (state.status === 'loading') return <FormSkeleton rows={rows} label={`Loading ${what}…`} />
  const backLink = back ? (
    <Link href={back} className="font-medium text-indigo-700 underline">
      Back to the list
    </Link>
  ) : null
  if (state.status === 'missing') return <FormProblem action={backLink}>{missing}</FormProblem>
  return (
    <FormProblem
      action={
        retry ? (
          <Button variant="outline" size="sm" onClick={retry}>
            Retry
          </Button>
        ) : (
          backLink
        )
      }
    >
      {`Could not load ${what}: ${state.message}`}
    </FormProblem>
  )
}
