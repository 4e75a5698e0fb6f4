import { DropdownMenu as Menu } from 'radix-ui'
import { cn } from './cn.ts'
import type { SelectOption } from './select.tsx'

interface MultiSelectProps {
  id?: string
  /** Chosen values; values that are not options are kept as they are and not listed. */
  value: readonly string[]
  onValueChange: (value: string[]) => void
  options: readonly SelectOption[]
  placeholder?: string
  'aria-invalid'?: boolean
  'aria-describedby'?: string | undefined
  disabled?: boolean
  className?: string
  onBlur?: () => void
}

/**
 * Several choices of a list: a button opening a menu of checkable items (Radix DropdownMenu:
 * arrow keys, type-ahead, Space or Enter to check, Escape to close, announced as
 * menuitemcheckbox). The menu stays open while choosing; each choice also shows as a chip with
 * its own remove button, so a choice can be undone without opening the menu.
 */
export function MultiSelect({ id, value, onValueChange, options, placeholder = 'Select', className, onBlur, disabled, ...aria }: MultiSelectProps) {
  const chosen = options.filter((o) => value.includes(o.value))
  const summaryId = id ? `${id}-summary` : undefined
  const toggle = (option: string, on: boolean) =>
    onValueChange(on ? [...value.filter((v) => v !== option), option] : value.filter((v) => v !== option))
  const describedBy = [summaryId, aria['aria-describedby']].filter(Boolean).join(' ') || undefined

  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <Menu.Root modal={false}>
        <Menu.Trigger
          id={id}
          disabled={disabled}
          onBlur={onBlur}
          aria-invalid={aria['aria-invalid']}
          aria-describedby={describedBy}
          className={cn(
            'inline-flex min-h-9 w-full items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-left text-sm text-slate-900',
            'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600 aria-[invalid=true]:border-red-600',
            'disabled:cursor-not-allowed disabled:bg-slate-100',
          )}
        >
          <span id={summaryId} className={chosen.length === 0 ? 'text-slate-600' : ''}>
            {chosen.length === 0 ? placeholder : `${chosen.length} selected`}
          </span>
          <span aria-hidden="true" className="text-slate-600">
            ▾
          </span>
        </Menu.Trigger>
        <Menu.Portal>
          <Menu.Content
            align="start"
            sideOffset={4}
            className="z-50 max-h-72 min-w-[var(--radix-dropdown-menu-trigger-width)] overflow-y-auto rounded-md border border-slate-300 bg-white p-1 shadow-lg"
          >
            {options.map((o) => (
              <Menu.CheckboxItem
                key={o.value}
                checked={value.includes(o.value)}
                onCheckedChange={(on) => toggle(o.value, on)}
                // Keep the menu open: choosing several pages is the point of this control.
                onSelect={(event) => event.preventDefault()}
                className="relative flex cursor-default items-center rounded py-1.5 pr-3 pl-7 text-sm text-slate-900 outline-none select-none data-[highlighted]:bg-indigo-700 data-[highlighted]:text-white"
              >
                <Menu.ItemIndicator className="absolute left-2" aria-hidden="true">
                  ✓
                </Menu.ItemIndicator>
                {o.label}
              </Menu.CheckboxItem>
            ))}
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
      {chosen.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Selected">
          {chosen.map((o) => (
            <li key={o.value} className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2.5 text-sm text-indigo-900">
              {o.label}
              <button
                type="button"
                disabled={disabled}
                aria-label={`Remove ${o.label}`}
                onClick={() => toggle(o.value, false)}
                className="rounded-full px-1.5 leading-5 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
