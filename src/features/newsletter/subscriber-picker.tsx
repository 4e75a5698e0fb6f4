/**
 * The Newsletter's multi-select of subscribers: searched and paged by the server (`allUser`), since
 * there may be many thousands, with 'All subscribers' as one choice rather than thousands of
 * chips. A button opens a searchable list (cmdk in a Radix popover: type to search, arrow keys,
 * Enter to check or uncheck, Escape to close); more rows come with "Load more". Chosen
 * subscribers show as chips under the button, each with its own remove button.
 *
 * The kit's searchable multi-select filters a list it holds whole; this one asks the server for
 * each page of each search, and its All is a flag the server resolves, not every id.
 */
import { useCallback, useEffect, useState } from 'react'
import { Command } from 'cmdk'
import { SUBSCRIBERS_PAGE_SIZE, allUser, type Subscriber } from '#contract/newsletter'
import { errorMessage } from '#src/crud/error-message.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Popover, PopoverContent, PopoverTrigger } from '#src/ui/popover.tsx'
import { SelectChevron, selectTriggerClass } from '#src/ui/select-trigger.tsx'

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

/** Chips shown under the button; the rest are counted. */
const CHIPS = 12
const SEARCH_DELAY_MS = 250
const ALL_ITEM = '__all__'
const MORE_ITEM = '__more__'
const ITEM_CLASS =
  'relative flex min-h-8 cursor-default items-center rounded pr-3 pl-7 text-sm text-slate-900 select-none data-[selected=true]:bg-indigo-700 data-[selected=true]:text-white data-[disabled=true]:text-slate-600'

function Check() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="absolute left-2 size-3.5" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M3 8.5l3 3 7-7" />
    </svg>
  )
}

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
      <Command.Item value={`__error_${page}`} onSelect={() => void mutate()} className={ITEM_CLASS}>
        <span className="text-red-700">{`${errorMessage(error)} Retry`}</span>
      </Command.Item>
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
      {data.result.map((s) => {
        const checked = value.all || value.id.includes(s._id)
        return (
          <Command.Item key={s._id} value={s._id} onSelect={() => toggle(s)} disabled={value.all} aria-checked={checked} className={ITEM_CLASS}>
            {checked ? <Check /> : null}
            <span className="truncate">{labelOf(s)}</span>
          </Command.Item>
        )
      })}
      {isLast && page * SUBSCRIBERS_PAGE_SIZE < data.count ? (
        <Command.Item value={MORE_ITEM} onSelect={loadMore} className={`${ITEM_CLASS} font-medium text-indigo-800`}>
          {`Load more (${data.count - page * SUBSCRIBERS_PAGE_SIZE} more)`}
        </Command.Item>
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
  const summaryId = `${id}-summary`
  const summary = value.all ? (total === undefined ? 'All subscribers' : `All subscribers (${total})`) : value.id.length === 0 ? 'Select subscribers' : `${value.id.length} selected`

  return (
    <div className="flex flex-col gap-2">
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next)
          if (!next) setQuery('')
        }}
      >
        <PopoverTrigger
          id={id}
          disabled={disabled}
          aria-invalid={invalid}
          aria-describedby={[summaryId, describedBy].filter(Boolean).join(' ')}
          className={selectTriggerClass('w-full')}
        >
          <span id={summaryId} className={!value.all && value.id.length === 0 ? 'text-slate-600' : ''}>
            {summary}
          </span>
          <span aria-hidden="true" className="text-slate-600">
            <SelectChevron />
          </span>
        </PopoverTrigger>
        <PopoverContent aria-label="Choose Subscribers" className="w-[var(--radix-popover-trigger-width)] min-w-72 p-0">
          <Command shouldFilter={false} label="Search Subscribers">
            <Command.Input
              value={query}
              onValueChange={setQuery}
              placeholder="Search by name or email…"
              className="h-9 w-full border-b border-slate-200 px-3 text-sm text-slate-900 outline-none placeholder:text-slate-500"
            />
            <Command.List label="Subscribers" aria-multiselectable="true" className="max-h-72 overflow-y-auto p-1">
              {matched.data === undefined && !matched.error ? (
                <Command.Loading>
                  <span className="block px-3 py-2 text-sm text-slate-600">Loading subscribers…</span>
                </Command.Loading>
              ) : null}
              {matched.data?.count === 0 ? <Command.Empty className="px-3 py-2 text-sm text-slate-600">No Record Found</Command.Empty> : null}
              {/* Offered while nothing is typed: with a search, "all" would be ambiguous (all, or all found?). */}
              {search === '' && query.trim() === '' && (total ?? 0) > 0 ? (
                <Command.Item
                  value={ALL_ITEM}
                  onSelect={() => onChange(value.all ? { all: false, id: [] } : { all: true, id: [] })}
                  aria-checked={value.all}
                  className={`${ITEM_CLASS} font-medium`}
                >
                  {value.all ? <Check /> : null}
                  <span className="truncate">{`All subscribers (${total ?? 0})`}</span>
                </Command.Item>
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
            </Command.List>
            <div className="flex items-center justify-between gap-2 border-t border-slate-200 px-3 py-2 text-xs text-slate-700">
              <span aria-live="polite">{value.all ? 'Every subscriber is selected' : `${value.id.length} selected`}</span>
              <button
                type="button"
                disabled={!value.all && value.id.length === 0}
                onClick={() => onChange({ all: false, id: [] })}
                className="rounded px-1.5 py-0.5 font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
              >
                Clear
              </button>
            </div>
          </Command>
        </PopoverContent>
      </Popover>
      {value.all || chosen.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Selected subscribers">
          {value.all ? (
            <Chip label={summary} onRemove={() => onChange({ all: false, id: [] })} disabled={disabled} />
          ) : (
            chosen.slice(0, CHIPS).map((s) => <Chip key={s._id} label={labelOf(s)} onRemove={() => toggle(s)} disabled={disabled} />)
          )}
          {!value.all && chosen.length > CHIPS ? <li className="py-0.5 text-sm text-slate-700">{`and ${chosen.length - CHIPS} more`}</li> : null}
        </ul>
      ) : null}
    </div>
  )
}

function Chip({ label, onRemove, disabled }: { label: string; onRemove: () => void; disabled: boolean }) {
  return (
    <li className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2.5 text-sm text-indigo-900">
      {label}
      <button
        type="button"
        disabled={disabled}
        aria-label={`Remove ${label}`}
        onClick={onRemove}
        className="rounded-full px-1.5 leading-5 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        ×
      </button>
    </li>
  )
}
