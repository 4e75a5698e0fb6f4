/**
 * Declared list filters (the games' category and operating system): a dropdown each, beside the
 * search, whose choice lives in the URL under the filter's name (`?category=<id>&operatingsystem=ios`)
 * and goes to the list call as an input of that name.
 *
 *     filters: [
 *       listFilter('category', 'Category', optionsFrom(categoryDropdown, {}, categoryOptions), 'All categories'),
 *       listFilter('operatingsystem', 'Operating System', operatingSystemOptions, 'All systems'),
 *     ],
 *
 * Choosing or clearing a filter reloads page 1 at the default page size (requirements R4.10); Clear
 * filters restores the unfiltered view.
 */
import { useCallback, useMemo } from 'react'
import { useLocation, useSearch } from 'wouter'
import { Button } from '#src/ui/button.tsx'
import { DeferredSelect } from '#src/ui/deferred-select.tsx'
import { Input } from '#src/ui/input.tsx'
import { Popover, PopoverContent, PopoverTrigger } from '#src/ui/popover.tsx'
import { SearchableSelect } from '#src/ui/searchable-select.tsx'
import type { SelectOption } from '#src/ui/select.tsx'
import type { OptionSource } from '../form/form-fields.ts'

export interface ListFilter {
  /** The URL parameter and the list call's input field. */
  name: string
  label: string
  /** A dropdown's options, or 'date' for a day picker (the value is YYYY-MM-DD). */
  options: readonly SelectOption[] | OptionSource | 'date'
  /** What the dropdown reads while nothing is chosen. */
  placeholder: string
  /** A day of the admin's time zone: the call then also gets `tz`, the browser's zone (see `filterInput`). */
  zoned?: boolean
}

export const listFilter = (name: string, label: string, options: readonly SelectOption[] | OptionSource, placeholder = 'All'): ListFilter => ({
  name,
  label,
  options,
  placeholder,
})

/**
 * A day (`?from=2026-11-01`): the audit log's date range is two of these (UTC days). `zoned`: the
 * day is the admin's, in the browser's time zone (the leads' created from and to).
 */
export const dateFilter = (name: string, label: string, options: { zoned?: boolean } = {}): ListFilter => ({
  name,
  label,
  options: 'date',
  placeholder: '',
  ...(options.zoned === true ? { zoned: true } : {}),
})

/** The input that carries the time zone of zoned day filters. */
export const TIME_ZONE_INPUT = 'tz'

/** The browser's IANA time zone (the admin's), '' when the browser does not say. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone

/**
 * What the filters send to the list call: each filter's value ('' for none), and, while a zoned
 * day is chosen, `tz`, so the server reads the days in the admin's time zone. The URL keeps the
 * days only: a shared link or a saved view names days, read in the zone of whoever opens it.
 */
export function filterInput(filters: readonly ListFilter[] | undefined, values: Readonly<Record<string, string>>, zone: string = browserTimeZone()): Record<string, string> {
  const input: Record<string, string> = { ...values }
  if ((filters ?? []).some((f) => f.zoned === true && (values[f.name] ?? '') !== '')) input[TIME_ZONE_INPUT] = zone
  return input
}

const MAX_FILTER_LENGTH = 100

/** The chosen value of each filter ('' for none) from a query string. */
export function readFilters(search: string, filters: readonly ListFilter[]): Record<string, string> {
  const params = new URLSearchParams(search)
  return Object.fromEntries(filters.map((f) => [f.name, (params.get(f.name) ?? '').slice(0, MAX_FILTER_LENGTH)]))
}

/** The query string with one filter set (or removed when ''), back on page 1 at the default size. */
export function writeFilter(search: string, name: string, value: string): string {
  const params = new URLSearchParams(search)
  if (value === '') params.delete(name)
  else params.set(name, value)
  params.delete('page')
  params.delete('limit')
  const out = params.toString()
  return out === '' ? '' : `?${out}`
}

/** The filters' values and how to change them; no filters, no parameters. */
export function useListFilters(filters: readonly ListFilter[] | undefined): {
  values: Readonly<Record<string, string>>
  set: (name: string, value: string) => void
  clear: () => void
} {
  const search = useSearch()
  const [location, navigate] = useLocation()
  const values = useMemo(() => readFilters(search, filters ?? []), [search, filters])
  const set = useCallback((name: string, value: string) => navigate(location + writeFilter(search, name, value)), [location, search, navigate])
  const clear = useCallback(() => {
    let next = search
    for (const f of filters ?? []) next = writeFilter(next, f.name, '')
    navigate(location + next)
  }, [filters, location, search, navigate])
  return { values, set, clear }
}

interface FilterProps {
  filter: ListFilter
  value: string
  onChange: (value: string) => void
}

/**
 * Past this many options a dropdown is searched, not scrolled: staff type "Fra" to find France
 * among 250 countries, which a plain dropdown's first-letter jump cannot do.
 */
const SEARCHED_FROM = 20

function FilterSelect({ filter, value, onChange, options, unavailable }: FilterProps & { options: readonly SelectOption[]; unavailable?: string }) {
  if (options.length > SEARCHED_FROM)
    return <SearchableSelect aria-label={`Filter by ${filter.label}`} label={filter.label} value={value} options={options} placeholder={filter.placeholder} onValueChange={onChange} className="w-44" />
  return (
    <DeferredSelect
      aria-label={`Filter by ${filter.label}`}
      value={value}
      options={options}
      placeholder={unavailable ?? filter.placeholder}
      disabled={unavailable !== undefined}
      onValueChange={onChange}
      className="w-44"
    />
  )
}

/** Options from a call: the dropdown waits for them, and says so when they could not be loaded. */
function RemoteFilter({ source, ...props }: FilterProps & { source: OptionSource }) {
  const state = source.useOptions()
  if (state.status === 'ready') return <FilterSelect {...props} options={state.options} />
  return <FilterSelect {...props} options={[]} unavailable={state.status === 'loading' ? 'Loading…' : `${props.filter.label} unavailable`} />
}

/** A day picker; the browser's own, so it is keyboard and screen-reader ready. */
function DateFilter({ filter, value, onChange }: FilterProps) {
  return (
    <label className="flex items-center gap-1 text-sm text-slate-600">
      {filter.label}
      <Input type="date" aria-label={filter.label} value={value} onChange={(e) => onChange(e.target.value)} className="h-9 w-40" />
    </label>
  )
}

interface ListFiltersProps {
  filters: readonly ListFilter[]
  values: Readonly<Record<string, string>>
  onChange: (name: string, value: string) => void
  onClear: () => void
}

/** The filter dropdowns and, once one is chosen, Clear filters. */
export function ListFilters({ filters, values, onChange, onClear, stacked = false }: ListFiltersProps & { stacked?: boolean }) {
  const active = filters.some((f) => (values[f.name] ?? '') !== '')
  return (
    <div className={stacked ? 'flex flex-col items-start gap-2' : 'flex flex-wrap items-center gap-2'} role="group" aria-label="Filters">
      {filters.map((f) => {
        const props = { filter: f, value: values[f.name] ?? '', onChange: (value: string) => onChange(f.name, value) }
        if (f.options === 'date') return <DateFilter key={f.name} {...props} />
        return 'useOptions' in f.options ? <RemoteFilter key={f.name} {...props} source={f.options} /> : <FilterSelect key={f.name} {...props} options={f.options} />
      })}
      {active ? (
        <Button variant="outline" size="sm" onClick={onClear}>
          Clear filters
        </Button>
      ) : null}
    </div>
  )
}

/**
 * On a tablet the filters fold into one "Filters" control beside the page size, so the toolbar
 * stays within two rows however many filters a list has (Leads has five); the control says how
 * many are in use, so a narrowed list never looks like the whole one. At a desk (`lg`) it is hidden
 * and the filters sit in their own row (list-page.tsx shows one or the other by width, in CSS).
 */
export function FoldedFilters(props: ListFiltersProps) {
  const used = props.filters.filter((f) => (props.values[f.name] ?? '') !== '').length
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" className="lg:hidden" aria-label={used > 0 ? `Filters, ${used} in use` : 'Filters'}>
          Filters
          {used > 0 ? <span className="rounded-full bg-indigo-100 px-1.5 text-xs font-semibold text-indigo-900 tabular-nums">{used}</span> : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent className="p-3">
        <ListFilters {...props} stacked />
      </PopoverContent>
    </Popover>
  )
}
