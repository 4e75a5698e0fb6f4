/**
 * A list that grows by a fixed step with a "Load More" button (requirements R9.3: View Brand's
 * emails 2 at a time, a promotion's recipients 100 at a time, Add promotion's users 100 per
 * "View More"). Each page is its own call, kept by SWR like any read, so a press fetches only the
 * next page and an offline visit still shows the pages already seen. Give the list a `key` that
 * changes with what it lists (a record's id, a filter), so a new subject starts at one page.
 */
import { useState, type ReactNode } from 'react'
import type { Endpoint, Input, Output } from '#contract/define'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'
import { Skeleton } from '#src/ui/skeleton.tsx'
import { NO_RECORD_FOUND } from './data-table.tsx'
import { errorMessage } from '../form/error-message.ts'

export interface LoadMoreListProps<E extends Endpoint, T> {
  /** Names the list for screen readers ("Emails", "Recipients"). */
  label: string
  endpoint: E
  /** The call's input for a page, counted from 1. */
  input: (page: number) => Input<E>
  /** The page's items and the total count, from the call's answer. */
  pick: (answer: Output<E>) => { items: readonly T[]; count: number }
  /** A key unique within a page (the index is there for items that have no id of their own). */
  itemKey: (item: T, index: number) => string
  render: (item: T) => ReactNode
  /** The button's text, as the requirements word it per screen ('Load More', 'View More', 'Load More...'). */
  moreLabel: string
  /** Items per page. */
  step: number
  /** Said when there is nothing to list; 'No Record Found' by default. */
  empty?: ReactNode
  /** The first page's answer when the caller already has it (View Brand reads the brand with it). */
  first?: Output<E>
  className?: string
}

const itemClass = 'px-3 py-2 text-sm text-slate-800'

function Items<T>({ items, itemKey, render }: { items: readonly T[]; itemKey: (item: T, index: number) => string; render: (item: T) => ReactNode }) {
  return items.map((item, index) => (
    <li key={itemKey(item, index)} className={`break-words ${itemClass}`}>
      {render(item)}
    </li>
  ))
}

/** Page 2 onwards, each fetched on its own when its button was pressed. */
function MorePage<E extends Endpoint, T>({ page, list }: { page: number; list: LoadMoreListProps<E, T> }) {
  const { data, error } = useCall(list.endpoint, list.input(page))
  if (data) return <Items items={list.pick(data).items} itemKey={list.itemKey} render={list.render} />
  return (
    <li className={`${itemClass} text-slate-600`} role={error ? 'alert' : undefined}>
      {error ? `Could not load more: ${errorMessage(error)}` : 'Loading…'}
    </li>
  )
}

export function LoadMoreList<E extends Endpoint, T>(list: LoadMoreListProps<E, T>) {
  const [pages, setPages] = useState(1)
  const fetched = useCall(list.endpoint, list.first ? null : list.input(1))
  const firstAnswer = list.first ?? fetched.data
  if (firstAnswer === undefined) {
    return fetched.error ? (
      <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-slate-800">
        <span>Could not load this list: {errorMessage(fetched.error)}</span>
        <Button variant="outline" size="sm" onClick={() => void fetched.mutate()}>
          Retry
        </Button>
      </div>
    ) : (
      <div aria-busy="true" className="flex flex-col gap-2">
        <span className="sr-only">Loading…</span>
        <Skeleton className="h-6" />
        <Skeleton className="h-6" />
      </div>
    )
  }
  const { items, count } = list.pick(firstAnswer)
  if (count === 0) return <p className="text-sm text-slate-600">{list.empty ?? NO_RECORD_FOUND}</p>
  const shown = Math.min(count, pages * list.step)
  return (
    <div className={`flex flex-col gap-3 ${list.className ?? ''}`}>
      <ul aria-label={list.label} className="divide-y divide-slate-200 rounded-md border border-slate-200">
        <Items items={items} itemKey={list.itemKey} render={list.render} />
        {Array.from({ length: pages - 1 }, (_, i) => (
          <MorePage key={i + 2} page={i + 2} list={list} />
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600" aria-live="polite">
          Showing {shown} of {count}
        </p>
        {shown < count ? (
          <Button variant="outline" size="sm" onClick={() => setPages(pages + 1)}>
            {list.moreLabel}
          </Button>
        ) : null}
      </div>
    </div>
  )
}
