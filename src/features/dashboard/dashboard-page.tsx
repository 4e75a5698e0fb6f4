/**
 * The dashboard (/dashboard, ours): a card per area the admin's access covers, each linking to
 * its lists. The server answers only those cards (contract/dashboard.ts), so the screen shows
 * what came. The answer is cached like every list's, so the last one shows offline too.
 */
import { Suspense, lazy, useId, type ReactNode } from 'react'
import { Link } from 'wouter'
import { getDashboard, NEW_LEADS_DAYS, SIGNUP_DAYS, type LinksCard, type PromotionsCard, type UsersCard, type WorkCard } from '#contract/dashboard'
import type { ScreenPath } from '#contract/routes'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { When } from '#src/crud/list/when.tsx'
import { useCall } from '#src/lib/use-call.ts'
import { RecordUnloaded } from '#src/crud/form/form-frame.tsx'
import { Skeleton } from '#src/ui/skeleton.tsx'

const SignupsChart = lazy(async () => ({ default: (await import('./signups-chart.tsx')).SignupsChart }))

const number = new Intl.NumberFormat()

function Card({ title, to, linkLabel, wide = false, children }: { title: string; to: ScreenPath; linkLabel: string; wide?: boolean; children: ReactNode }) {
  const headingId = useId()
  return (
    <article aria-labelledby={headingId} className={`flex flex-col gap-4 rounded-md border border-slate-200 bg-white p-5 ${wide ? 'md:col-span-2' : ''}`}>
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
      <Link href={to} className="mt-auto self-start text-sm font-medium text-indigo-700 underline-offset-4 hover:underline">
        {linkLabel}
      </Link>
    </article>
  )
}

/** One figure: its name above, the number large (a term and its description). */
function Figure({ term, value, to }: { term: string; value: string; to?: ScreenPath }) {
  return (
    <div className="flex flex-col-reverse gap-1">
      <dt className="text-sm text-slate-600">{to ? <Link href={to} className="underline-offset-4 hover:underline">{term}</Link> : term}</dt>
      <dd className="text-2xl font-semibold text-slate-900 tabular-nums">{value}</dd>
    </div>
  )
}

function UsersCardView({ card }: { card: UsersCard }) {
  return (
    <Card title="Users" to="/users" linkLabel="Open Leads" wide>
      <dl className="grid grid-cols-2 gap-4">
        <Figure term="Total leads" value={number.format(card.total)} />
        <Figure term={`New in the last ${NEW_LEADS_DAYS} days`} value={number.format(card.newLeads)} />
      </dl>
      <section aria-label={`Sign-ups, last ${SIGNUP_DAYS} days`} className="flex flex-col gap-2">
        <h3 className="text-sm font-medium text-slate-700">Sign-ups, last {SIGNUP_DAYS} days</h3>
        <Suspense fallback={<Skeleton className="h-24" />}>
          <SignupsChart days={card.signups} />
        </Suspense>
      </section>
    </Card>
  )
}

function PromotionsCardView({ card }: { card: PromotionsCard }) {
  return (
    <Card title="Promotions" to="/notificationlist" linkLabel="Open Messaging">
      <dl className="grid grid-cols-2 gap-4">
        <Figure term="Promotions" value={number.format(card.count)} />
        <Figure term="Deliveries in flight" value={number.format(card.inFlight)} />
      </dl>
      <p className="text-sm text-slate-700">Last sent: {card.lastSentAt === null ? 'never' : <When at={card.lastSentAt} />}</p>
    </Card>
  )
}

const linkLists = [
  { key: 'buy', term: 'Buy List', to: '/buy_list' },
  { key: 'swapOut', term: 'Swap out', to: '/swapout_list' },
  { key: 'swapIn', term: 'Swap in', to: '/swapin_list' },
] as const

function LinksCardView({ card }: { card: LinksCard }) {
  const shown = linkLists.flatMap((l) => {
    const value = card[l.key]
    return value === undefined ? [] : [{ ...l, value }]
  })
  const first = shown[0]
  if (first === undefined) return null
  return (
    <Card title="Links" to={first.to} linkLabel={`Open ${first.term}`}>
      <dl className="grid grid-cols-3 gap-4">
        {shown.map((l) => (
          <Figure key={l.key} term={l.term} value={number.format(l.value)} to={l.to} />
        ))}
      </dl>
    </Card>
  )
}

/**
 * The work waiting, each count a link to the list that shows those very rows (a filter in its
 * address). The server sends only the counts of lists the admin may read; a zero stays, dimmed, so
 * "nothing waits" is said rather than left to guess.
 */
const workItems: readonly { key: keyof WorkCard; label: string; href: string }[] = [
  { key: 'openEnquiries', label: 'Open enquiries', href: '/contactus?status=Open' },
  { key: 'accessRequests', label: 'Access requests to review', href: '/sub-admin' },
  { key: 'promotionsAwaiting', label: 'Promotions awaiting approval', href: '/notificationlist?status=awaiting' },
  { key: 'newslettersAwaiting', label: 'Newsletters awaiting approval', href: '/newsletter?status=awaiting' },
  { key: 'promotionsQueued', label: 'Promotions queued', href: '/notificationlist?status=queued' },
  { key: 'promotionsSending', label: 'Promotions sending', href: '/notificationlist?status=sending' },
  { key: 'newslettersSending', label: 'Newsletters sending', href: '/newsletter?status=sending' },
  { key: 'newslettersPaused', label: 'Newsletters paused', href: '/newsletter?status=paused' },
]

function WorkCardView({ card }: { card: WorkCard }) {
  const headingId = useId()
  const shown = workItems.flatMap((item) => {
    const value = card[item.key]
    return value === undefined ? [] : [{ ...item, value }]
  })
  const waiting = shown.reduce((sum, item) => sum + item.value, 0)
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-3 rounded-md border border-slate-200 bg-white p-5 md:col-span-2 xl:col-span-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          Work waiting
        </h2>
        <p className="text-sm text-slate-600">{waiting === 0 ? 'Nothing waits for you.' : 'Each count opens the list of what it counts.'}</p>
      </div>
      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
        {shown.map((item) => (
          <li key={item.key}>
            <Link
              href={item.href}
              className={`flex h-full items-baseline gap-3 rounded-md border px-3 py-2 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 ${item.value > 0 ? 'border-amber-300' : 'border-slate-200'}`}
            >
              <span className={`text-2xl font-semibold tabular-nums ${item.value > 0 ? 'text-slate-900' : 'text-slate-500'}`}>{number.format(item.value)}</span>
              <span className={`text-sm ${item.value > 0 ? 'text-slate-800' : 'text-slate-600'}`}>{item.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </article>
  )
}

function Loading() {
  return (
    <div aria-busy="true" className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      <span className="sr-only">Loading the dashboard…</span>
      <Skeleton className="h-64 md:col-span-2" />
      <Skeleton className="h-64" />
    </div>
  )
}

export function DashboardPage() {
  const headingId = useId()
  const { data, error, mutate } = useCall(getDashboard, {})
  let body: ReactNode
  if (data) {
    const { work, users, promotions, links } = data
    body =
      work || users || promotions || links ? (
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {work ? <WorkCardView card={work} /> : null}
          {users ? <UsersCardView card={users} /> : null}
          {promotions ? <PromotionsCardView card={promotions} /> : null}
          {links ? <LinksCardView card={links} /> : null}
        </div>
      ) : (
        <p className="rounded-md border border-slate-200 bg-white p-6 text-sm text-slate-700">
          Your access does not include leads, enquiries, messaging, the newsletter or links, so there is nothing to sum up here. Your pages are in the menu.
        </p>
      )
  } else if (error) {
    body = <RecordUnloaded state={{ status: 'error', message: errorMessage(error) }} what="the dashboard" rows={0} retry={() => void mutate()} />
  } else {
    body = <Loading />
  }
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h1 id={headingId} className="text-xl font-semibold text-slate-900">
        Dashboard
      </h1>
      {body}
    </section>
  )
}
