import { useMemo, useRef, useState, type UIEvent } from 'react'
import { Command } from 'cmdk'
import { cn } from './cn.ts'
import { Popover, PopoverContent, PopoverTrigger } from './popover.tsx'
import { SelectChevron, selectTriggerClass } from './select-trigger.tsx'
import type { SelectOption } from './select.tsx'

/** Past this many matching options only the rows in sight (and a margin) are rendered. */
export const WINDOW_FROM = 300
/** Height of one option row in pixels (`h-8`); the window's arithmetic depends on it. */
const ROW = 32
/** Rows rendered above and below the visible ones, so arrow keys always find a next row. */
const MARGIN = 8
/** Height of the scrolling list (`max-h-72`). */
const VIEWPORT = 288
/** Chips shown under the trigger; the rest are counted. */
const CHIPS = 12
/** cmdk's value of the All option: only for the highlight, never a value of the field. */
const ALL_ITEM = '__all__'
const ITEM_CLASS =
  'relative flex h-8 cursor-default items-center rounded pr-3 pl-7 text-sm text-slate-900 select-none data-[selected=true]:bg-indigo-700 data-[selected=true]:text-white'

function Check() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="absolute left-2 size-3.5" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M3 8.5l3 3 7-7" />
    </svg>
  )
}

interface SearchableMultiSelectProps {
  id?: string
  /** The field's name, for the search box and the list ("Search Country"). */
  label: string
  /** A first option that selects every option, and clears them all when unchecked; never a value. */
  allLabel?: string | undefined
  value: readonly string[]
  onValueChange: (value: string[]) => void
  options: readonly SelectOption[]
  placeholder?: string
  'aria-invalid'?: boolean
  'aria-describedby'?: string | undefined
  disabled?: boolean
  onBlur?: () => void
  className?: string
}

/**
 * Options whose label has every word of the query (case-insensitive), labels that start with the
 * query first, then those with a word that does ("fr": France, then South Africa).
 */
export function filterOptions(options: readonly SelectOption[], query: string): readonly SelectOption[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  const first = words[0]
  if (first === undefined) return options
  const rank = (label: string): number => (label.startsWith(first) ? 0 : label.split(/\s+/).some((w) => w.startsWith(first)) ? 1 : 2)
  return options
    .map((option) => ({ option, label: option.label.toLowerCase() }))
    .filter(({ label }) => words.every((w) => label.includes(w)))
    .map(({ option, label }, index) => ({ option, rank: rank(label), index }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ option }) => option)
}

/**
 * The rows to render: all of them, or, once the list is long, those in sight with a margin. The
 * highlighted row (`active`, -1 for none) pulls the window along when it is near, so arrow keys
 * find a next row before the scroll that follows them has been rendered.
 */
export function visibleRange(count: number, scrollTop: number, active = -1): { start: number; end: number } {
  if (count <= WINDOW_FROM) return { start: 0, end: count }
  const first = Math.floor(scrollTop / ROW)
  let start = Math.max(0, first - MARGIN)
  let end = Math.min(count, first + Math.ceil(VIEWPORT / ROW) + MARGIN)
  if (active >= start - MARGIN && active < end + MARGIN) {
    start = Math.max(0, Math.min(start, active - MARGIN))
    end = Math.min(count, Math.max(end, active + MARGIN + 1))
  }
  return { start, end }
}

/**
 * Several choices out of a long list (countries, subscribers): a button opening a searchable list
 * (cmdk inside a Radix popover: type to filter, arrow keys, Enter to check or uncheck, Escape to
 * close). Long lists render only the rows in sight. Choices show as chips with their own remove
 * buttons under the trigger.
 */
export function SearchableMultiSelect({ id, label, allLabel, value, onValueChange, options, placeholder = 'Select', disabled, onBlur, className, ...aria }: SearchableMultiSelectProps) {
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const [scrollTop, setScrollTop] = useState(0)
  // The highlighted option (cmdk's value), so the window follows the arrow keys.
  const [active, setActive] = useState('')
  const list = useRef<HTMLDivElement>(null)
  const chosen = useMemo(() => {
    const set = new Set(value)
    return options.filter((o) => set.has(o.value))
  }, [options, value])
  const matching = useMemo(() => filterOptions(options, query), [options, query])
  const { start, end } = visibleRange(
    matching.length,
    scrollTop,
    matching.findIndex((o) => o.value === active),
  )
  const summaryId = id ? `${id}-summary` : undefined
  const describedBy = [summaryId, aria['aria-describedby']].filter(Boolean).join(' ') || undefined

  const toggle = (option: string) =>
    onValueChange(value.includes(option) ? value.filter((v) => v !== option) : [...value, option])
  const everything = options.length > 0 && chosen.length === options.length
  // Offered while nothing is typed: with a search, "all" would be ambiguous (all, or all found?).
  const showAll = allLabel !== undefined && query.trim() === '' && options.length > 0

  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <Popover
        open={open}
        onOpenChange={(next) => {
          setOpen(next)
          if (!next) {
            setQuery('')
            setScrollTop(0)
          }
        }}
      >
        <PopoverTrigger
          id={id}
          disabled={disabled}
          onBlur={onBlur}
          aria-invalid={aria['aria-invalid']}
          aria-describedby={describedBy}
          className={selectTriggerClass('w-full')}
        >
          <span id={summaryId} className={chosen.length === 0 ? 'text-slate-600' : ''}>
            {chosen.length === 0 ? placeholder : `${chosen.length} selected`}
          </span>
          <span aria-hidden="true" className="text-slate-600">
            <SelectChevron />
          </span>
        </PopoverTrigger>
        <PopoverContent aria-label={`Choose ${label}`} className="w-[var(--radix-popover-trigger-width)] min-w-64 p-0">
          {/* cmdk names its input by this label (aria-labelledby); the list gets the field's own name. */}
          <Command shouldFilter={false} label={`Search ${label}`} value={active} onValueChange={setActive}>
            <Command.Input
              value={query}
              onValueChange={(next) => {
                setQuery(next)
                setScrollTop(0)
                list.current?.scrollTo({ top: 0 })
              }}
              placeholder="Search…"
              className="h-9 w-full border-b border-slate-200 px-3 text-sm text-slate-900 outline-none placeholder:text-slate-500"
            />
            <Command.List
              ref={list}
              label={label}
              aria-multiselectable="true"
              onScroll={(event: UIEvent<HTMLDivElement>) => setScrollTop(event.currentTarget.scrollTop)}
              className="max-h-72 overflow-y-auto p-1"
            >
              <Command.Empty className="px-3 py-2 text-sm text-slate-600">No Record Found</Command.Empty>
              {showAll ? (
                <Command.Item
                  value={ALL_ITEM}
                  onSelect={() => onValueChange(everything ? [] : options.map((o) => o.value))}
                  aria-checked={everything}
                  className={ITEM_CLASS}
                >
                  {everything ? <Check /> : null}
                  <span className="truncate font-medium">{allLabel}</span>
                </Command.Item>
              ) : null}
              {start > 0 ? <div aria-hidden="true" style={{ height: start * ROW }} /> : null}
              {matching.slice(start, end).map((o, i) => {
                const checked = value.includes(o.value)
                return (
                  <Command.Item
                    key={o.value}
                    value={o.value}
                    onSelect={() => toggle(o.value)}
                    aria-checked={checked}
                    aria-setsize={matching.length}
                    aria-posinset={start + i + 1}
                    className={ITEM_CLASS}
                  >
                    {checked ? <Check /> : null}
                    <span className="truncate">{o.label}</span>
                  </Command.Item>
                )
              })}
              {end < matching.length ? <div aria-hidden="true" style={{ height: (matching.length - end) * ROW }} /> : null}
            </Command.List>
            <div className="flex items-center justify-between gap-2 border-t border-slate-200 px-3 py-2 text-xs text-slate-700">
              <span>{`${chosen.length} of ${options.length} selected`}</span>
              <button
                type="button"
                disabled={value.length === 0}
                onClick={() => onValueChange([])}
                className="rounded px-1.5 py-0.5 font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
              >
                Clear
              </button>
            </div>
          </Command>
        </PopoverContent>
      </Popover>
      {chosen.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Selected">
          {chosen.slice(0, CHIPS).map((o) => (
            <li key={o.value} className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2.5 text-sm text-indigo-900">
              {o.label}
              <button
                type="button"
                disabled={disabled}
                aria-label={`Remove ${o.label}`}
                onClick={() => toggle(o.value)}
                className="rounded-full px-1.5 leading-5 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                ×
              </button>
            </li>
          ))}
          {chosen.length > CHIPS ? <li className="py-0.5 text-sm text-slate-700">{`and ${chosen.length - CHIPS} more`}</li> : null}
        </ul>
      ) : null}
    </div>
  )
}
