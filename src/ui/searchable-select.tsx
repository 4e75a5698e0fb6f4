import { useMemo, useState } from 'react'
import { Command } from 'cmdk'
import { cn } from './cn.ts'
import { Popover, PopoverContent, PopoverTrigger } from './popover.tsx'
import { filterOptions } from './searchable-multi-select.tsx'
import { SelectChevron, selectTriggerClass } from './select-trigger.tsx'
import type { SelectOption } from './select.tsx'

interface SearchableSelectProps {
  id?: string
  /** The field's name, for the search box and the list ("Search Country"). */
  label: string
  /** '' for none. */
  value: string
  onValueChange: (value: string) => void
  options: readonly SelectOption[]
  /** Shown when nothing is chosen; also the first option, which clears the choice ("Any country"). */
  placeholder: string
  disabled?: boolean
  className?: string
  /** The trigger's accessible name where no label element names it (a list's filter). */
  'aria-label'?: string
}

const ITEM_CLASS =
  'relative flex h-8 cursor-default items-center rounded pr-3 pl-7 text-sm text-slate-900 select-none data-[selected=true]:bg-indigo-700 data-[selected=true]:text-white'
/** cmdk's value of the "none" option; never a value of the field. */
const NONE_ITEM = '__none__'

/**
 * One choice out of a long list (a country filter): the searchable list of
 * searchable-multi-select.tsx, picking one option and closing. Its first option clears the choice.
 */
export function SearchableSelect({ id, label, value, onValueChange, options, placeholder, disabled, className, 'aria-label': ariaLabel }: SearchableSelectProps) {
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const matching = useMemo(() => filterOptions(options, query), [options, query])
  const chosen = options.find((o) => o.value === value)
  const choose = (next: string) => {
    onValueChange(next)
    setOpen(false)
    setQuery('')
  }
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (!next) setQuery('')
      }}
    >
      <PopoverTrigger id={id} role="combobox" aria-label={ariaLabel} disabled={disabled} className={selectTriggerClass(className ?? 'w-full')}>
        <span className={cn('truncate', chosen ? '' : 'text-slate-600')}>{chosen ? chosen.label : placeholder}</span>
        <span aria-hidden="true" className="text-slate-600">
          <SelectChevron />
        </span>
      </PopoverTrigger>
      <PopoverContent aria-label={`Choose ${label}`} className="w-[var(--radix-popover-trigger-width)] min-w-64 p-0">
        <Command shouldFilter={false} label={`Search ${label}`}>
          <Command.Input
            value={query}
            onValueChange={setQuery}
            placeholder="Search…"
            className="h-9 w-full border-b border-slate-200 px-3 text-sm text-slate-900 outline-none placeholder:text-slate-500"
          />
          <Command.List label={label} className="max-h-72 overflow-y-auto p-1">
            <Command.Empty className="px-3 py-2 text-sm text-slate-600">No Record Found</Command.Empty>
            {query.trim() === '' ? (
              <Command.Item value={NONE_ITEM} onSelect={() => choose('')} className={ITEM_CLASS}>
                <span className="truncate font-medium">{placeholder}</span>
              </Command.Item>
            ) : null}
            {matching.map((o) => (
              <Command.Item key={o.value} value={o.value} onSelect={() => choose(o.value)} className={ITEM_CLASS}>
                {o.value === value ? (
                  <svg aria-hidden="true" viewBox="0 0 16 16" className="absolute left-2 size-3.5" fill="none" stroke="currentColor" strokeWidth="2">
                    <path d="M3 8.5l3 3 7-7" />
                  </svg>
                ) : null}
                <span className="truncate">{o.label}</span>
              </Command.Item>
            ))}
          </Command.List>
        </Command>
      </PopoverContent>
    </Popover>
  )
}
