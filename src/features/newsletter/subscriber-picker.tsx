/**
 * The Newsletter's multi-select of subscribers: searched and paged by the server (`allUser`), since
 * there may be many thousands, with 'All subscribers' as one choice rather than thousands of
 * chips. It is the kit's searchable multi-select (its frame: button, search, list, Clear, chips)
 * with other options: the kit's own filters a list it holds whole, while this one asks the server
 * for each page of each search (more rows come with "Load more"), and its All is a flag the
 * server resolves, not every id.
 */
import { useCallback, useEffect, useState } from 'react'
import { Command } from 'cmdk'
import { SUBSCRIBERS_PAGE_SIZE, allUser, type Subscriber } from '#contract/newsletter'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { useCall } from '#src/lib/use-call.ts'
import { MultiSelectFrame, MultiSelectOption } from '#src/ui/searchable-multi-select.tsx'

export interface Recipients {
  all: boolean
  id: readonly string[]
}

interface SubscriberPickerProps {
  id: string
  value: Recipients
  onChange: (next: Recipients) => void
  invalid: boolean
  describedBy: string | undefined
  disabled?: boolean
}

const SEARCH_DELAY_MS = 250
const ALL_ITEM = '__all__'
const MORE_ITEM = '__more__'

const labelOf = (s: Subscriber): string => (s.name.trim() === '' ? s.email : `${s.name} (${s.email})`)

/** The text typed, once typing has paused: one request per search, not per key. */
function useSettled(value: string): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value.trim()), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [value])
  return settled
}

interface PageProps {
  page: number
  search: string
  isLast: boolean
  value: Recipients
  toggle: (s: Subscriber) => void
  remember: (rows: readonly Subscriber[]) => void
  loadMore: () => void
}

/** One page of the server's answer, as options; the last one offers the next page. */
function SubscriberPage({ page, search, isLast, value, toggle, remember, loadMore }: PageProps) {
  const { data, error, mutate } = useCall(allUser, { page, limit: SUBSCRIBERS_PAGE_SIZE, search }, { revalidateOnFocus: false, keepPreviousData: page === 1 })
  useEffect(() => {
    if (data) remember(data.result)
  }, [data, remember])
  if (error) {
    return (
      <MultiSelectOption value={`__error_${page}`} onSelect={() => void mutate()} checked={false} className="text-red-700">
        {`${errorMessage(error)} Retry`}
      </MultiSelectOption>
    )
  }
  if (!data) {
    return page === 1 ? null : (
      <Command.Loading>
        <span className="block px-3 py-2 text-sm text-slate-600">Loading…</span>
      </Command.Loading>
    )
  }
  return (
    <>
      {data.result.map((s) => (
        <MultiSelectOption key={s._id} value={s._id} onSelect={() => toggle(s)} disabled={value.all} checked={value.all || value.id.includes(s._id)}>
          {labelOf(s)}
        </MultiSelectOption>
      ))}
      {isLast && page * SUBSCRIBERS_PAGE_SIZE < data.count ? (
        <MultiSelectOption value={MORE_ITEM} onSelect={loadMore} checked={false} className="font-medium text-indigo-800">
          {`Load more (${data.count - page * SUBSCRIBERS_PAGE_SIZE} more)`}
        </MultiSelectOption>
      ) : null}
    </>
  )
}

/**
 * No blur handler: opening the list moves the focus into it, and a "touched" check there would
 * flag the field before anyone could choose. The choice is checked on Send, then on each change.
 */
export function SubscriberPicker({ id, value, onChange, invalid, describedBy, disabled = false }: SubscriberPickerProps) {
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const search = useSettled(query)
  // Pages shown for the current search; a new search starts again from its first page.
  const [loaded, setLoaded] = useState({ search, pages: 1 })
  const pages = loaded.search === search ? loaded.pages : 1
  // Names of the subscribers seen so far, for the chips of those chosen.
  const [known, setKnown] = useState<ReadonlyMap<string, Subscriber>>(new Map())
  const remember = useCallback(
    (rows: readonly Subscriber[]) =>
      setKnown((before) => {
        if (rows.every((r) => before.get(r._id) === r)) return before
        const next = new Map(before)
        for (const r of rows) next.set(r._id, r)
        return next
      }),
    [],
  )
  // The first page without a search: its total is what All means, shown before the list opens.
  const everyone = useCall(allUser, { page: 1, limit: SUBSCRIBERS_PAGE_SIZE, search: '' }, { revalidateOnFocus: false })
  const total = everyone.data?.total
  const matched = useCall(allUser, open ? { page: 1, limit: SUBSCRIBERS_PAGE_SIZE, search } : null, { revalidateOnFocus: false, keepPreviousData: true })

  const toggle = (s: Subscriber) => onChange({ all: false, id: value.id.includes(s._id) ? value.id.filter((x) => x !== s._id) : [...value.id, s._id] })
  const chosen = value.id.flatMap((x) => {
    const s = known.get(x)
    return s ? [s] : []
  })
  const summary = value.all ? (total === undefined ? 'All subscribers' : `All subscribers (${total})`) : value.id.length === 0 ? 'Select subscribers' : `${value.id.length} selected`
  const chips = value.all ? [{ key: ALL_ITEM, label: summary, onRemove: () => onChange({ all: false, id: [] }) }] : chosen.map((s) => ({ key: s._id, label: labelOf(s), onRemove: () => toggle(s) }))

  return (
    <MultiSelectFrame
      id={id}
      label="Subscribers"
      summary={summary}
      empty={!value.all && value.id.length === 0}
      open={open}
      onOpenChange={setOpen}
      query={query}
      onQueryChange={setQuery}
      searchPlaceholder="Search by name or email…"
      status={value.all ? 'Every subscriber is selected' : `${value.id.length} selected`}
      canClear={value.all || value.id.length > 0}
      onClear={() => onChange({ all: false, id: [] })}
      chips={chips}
      chipsLabel="Selected subscribers"
      contentClassName="min-w-72"
      disabled={disabled}
      aria-invalid={invalid}
      aria-describedby={describedBy}
    >
      {matched.data === undefined && !matched.error ? (
        <Command.Loading>
          <span className="block px-3 py-2 text-sm text-slate-600">Loading subscribers…</span>
        </Command.Loading>
      ) : null}
      {matched.data?.count === 0 ? <Command.Empty className="px-3 py-2 text-sm text-slate-600">No Record Found</Command.Empty> : null}
      {/* Offered while nothing is typed: with a search, "all" would be ambiguous (all, or all found?). */}
      {search === '' && query.trim() === '' && (total ?? 0) > 0 ? (
        <MultiSelectOption value={ALL_ITEM} onSelect={() => onChange(value.all ? { all: false, id: [] } : { all: true, id: [] })} checked={value.all} className="font-medium">
          {`All subscribers (${total ?? 0})`}
        </MultiSelectOption>
      ) : null}
      {Array.from({ length: pages }, (_, i) => (
        <SubscriberPage
          key={`${search}:${i + 1}`}
          page={i + 1}
          search={search}
          isLast={i + 1 === pages}
          value={value}
          toggle={toggle}
          remember={remember}
          loadMore={() => setLoaded({ search, pages: pages + 1 })}
        />
      ))}
    </MultiSelectFrame>
  )
}
