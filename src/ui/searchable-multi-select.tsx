import { useMemo, useRef, useState, type ComponentProps, type ReactNode, type Ref, type UIEvent } from 'react'
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
  'relative flex min-h-8 cursor-default items-center rounded pr-3 pl-7 text-sm text-slate-900 select-none data-[selected=true]:bg-indigo-700 data-[selected=true]:text-white data-[disabled=true]:text-slate-600'

function Check() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="absolute left-2 size-3.5" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M3 8.5l3 3 7-7" />
    </svg>
  )
}

/** One row of the list: a check mark while chosen, the label cut to one line. */
export function MultiSelectOption({ checked, className, children, ...props }: ComponentProps<typeof Command.Item> & { checked: boolean }) {
  return (
    <Command.Item aria-checked={checked} className={cn(ITEM_CLASS, className)} {...props}>
      {checked ? <Check /> : null}
      <span className="truncate">{children}</span>
    </Command.Item>
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

export interface MultiSelectFrameProps {
  id?: string | undefined
  /** The field's name, for the search box and the list ("Search Country"). */
  label: string
  /** The trigger's text: what is chosen, or the placeholder. */
  summary: string
  /** The trigger shows the placeholder (muted). */
  empty: boolean
  open: boolean
  onOpenChange: (open: boolean) => void
  query: string
  onQueryChange: (query: string) => void
  searchPlaceholder?: string
  /** The options, and whatever the list says while loading or when nothing matches. */
  children: ReactNode
  /** Said under the list ("3 of 12 selected"), announced as it changes. */
  status: string
  canClear: boolean
  onClear: () => void
  /** The chips under the trigger: the first ones shown, the rest counted. */
  chips: readonly { key: string; label: string; onRemove: () => void }[]
  chipsLabel?: string
  /** cmdk's highlighted option, for a caller that follows it (the windowed list). */
  active?: string
  onActiveChange?: (value: string) => void
  listRef?: Ref<HTMLDivElement>
  onListScroll?: (event: UIEvent<HTMLDivElement>) => void
  contentClassName?: string
  disabled?: boolean | undefined
  onBlur?: (() => void) | undefined
  'aria-invalid'?: boolean | undefined
  'aria-describedby'?: string | undefined
  className?: string | undefined
}

/**
 * The frame of every searchable multi-select: a button opening a searchable list (cmdk inside a
 * Radix popover: type to search, arrow keys, Enter to check or uncheck, Escape to close), a
 * footer with the count and Clear, and the choices as chips with their own remove buttons under
 * the button. Where the options come from is the caller's: a list held whole and filtered here
 * (SearchableMultiSelect), or pages a server searches (the Newsletter's subscribers).
 */
export function MultiSelectFrame({
  id,
  label,
  summary,
  empty,
  open,
  onOpenChange,
  query,
  onQueryChange,
  searchPlaceholder = 'Search…',
  children,
  status,
  canClear,
  onClear,
  chips,
  chipsLabel = 'Selected',
  active,
  onActiveChange,
  listRef,
  onListScroll,
  contentClassName,
  disabled,
  onBlur,
  className,
  ...aria
}: MultiSelectFrameProps) {
  const summaryId = id ? `${id}-summary` : undefined
  const describedBy = [summaryId, aria['aria-describedby']].filter(Boolean).join(' ') || undefined
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <Popover
        open={open}
        onOpenChange={(next) => {
          onOpenChange(next)
          if (!next) onQueryChange('')
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
          <span id={summaryId} className={empty ? 'text-slate-600' : ''}>
            {summary}
          </span>
          <span aria-hidden="true" className="text-slate-600">
            <SelectChevron />
          </span>
        </PopoverTrigger>
        <PopoverContent aria-label={`Choose ${label}`} className={cn('w-[var(--radix-popover-trigger-width)] min-w-64 p-0', contentClassName)}>
          {/* cmdk names its input by this label (aria-labelledby); the list gets the field's own name. */}
          <Command shouldFilter={false} label={`Search ${label}`} {...(onActiveChange ? { value: active ?? '', onValueChange: onActiveChange } : {})}>
            <Command.Input
              value={query}
              onValueChange={onQueryChange}
              placeholder={searchPlaceholder}
              className="h-9 w-full border-b border-slate-200 px-3 text-sm text-slate-900 outline-none placeholder:text-slate-500"
            />
            <Command.List ref={listRef} label={label} aria-multiselectable="true" onScroll={onListScroll} className="max-h-72 overflow-y-auto p-1">
              {children}
            </Command.List>
            <div className="flex items-center justify-between gap-2 border-t border-slate-200 px-3 py-2 text-xs text-slate-700">
              <span aria-live="polite">{status}</span>
              <button
                type="button"
                disabled={!canClear}
                onClick={onClear}
                className="rounded px-1.5 py-0.5 font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-50"
              >
                Clear
              </button>
            </div>
          </Command>
        </PopoverContent>
      </Popover>
      {chips.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label={chipsLabel}>
          {chips.slice(0, CHIPS).map((chip) => (
            <li key={chip.key} className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2.5 text-sm text-indigo-900">
              {chip.label}
              <button
                type="button"
                disabled={disabled}
                aria-label={`Remove ${chip.label}`}
                onClick={chip.onRemove}
                className="rounded-full px-1.5 leading-5 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                ×
              </button>
            </li>
          ))}
          {chips.length > CHIPS ? <li className="py-0.5 text-sm text-slate-700">{`and ${chips.length - CHIPS} more`}</li> : null}
        </ul>
      ) : null}
    </div>
  )
}

/**
 * Several choices out of a long list held whole (countries): the frame above, filtered here as
 * the user types. Long lists render only the rows in sight.
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

  const toggle = (option: string) =>
    onValueChange(value.includes(option) ? value.filter((v) => v !== option) : [...value, option])
  const everything = options.length > 0 && chosen.length === options.length
  // Offered while nothing is typed: with a search, "all" would be ambiguous (all, or all found?).
  const showAll = allLabel !== undefined && query.trim() === '' && options.length > 0

  return (
    <MultiSelectFrame
      id={id}
      label={label}
      summary={chosen.length === 0 ? placeholder : `${chosen.length} selected`}
      empty={chosen.length === 0}
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (!next) setScrollTop(0)
      }}
      query={query}
      onQueryChange={(next) => {
        setQuery(next)
        setScrollTop(0)
        list.current?.scrollTo({ top: 0 })
      }}
      status={`${chosen.length} of ${options.length} selected`}
      canClear={value.length > 0}
      onClear={() => onValueChange([])}
      chips={chosen.map((o) => ({ key: o.value, label: o.label, onRemove: () => toggle(o.value) }))}
      active={active}
      onActiveChange={setActive}
      listRef={list}
      onListScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      disabled={disabled}
      onBlur={onBlur}
      className={className}
      {...aria}
    >
      <Command.Empty className="px-3 py-2 text-sm text-slate-600">No Record Found</Command.Empty>
      {showAll ? (
        <MultiSelectOption value={ALL_ITEM} onSelect={() => onValueChange(everything ? [] : options.map((o) => o.value))} checked={everything} className="font-medium">
          {allLabel}
        </MultiSelectOption>
      ) : null}
      {start > 0 ? <div aria-hidden="true" style={{ height: start * ROW }} /> : null}
      {matching.slice(start, end).map((o, i) => (
        <MultiSelectOption
          key={o.value}
          value={o.value}
          onSelect={() => toggle(o.value)}
          checked={value.includes(o.value)}
          aria-setsize={matching.length}
          aria-posinset={start + i + 1}
          className="h-8"
        >
          {o.label}
        </MultiSelectOption>
      ))}
      {end < matching.length ? <div aria-hidden="true" style={{ height: (matching.length - end) * ROW }} /> : null}
    </MultiSelectFrame>
  )
}
