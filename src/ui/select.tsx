import { Select as RadixSelect } from 'radix-ui'
import { cspNonce } from './csp-nonce.ts'
import { SelectChevron, selectTriggerClass } from './select-trigger.tsx'

export interface SelectOption {
  value: string
  label: string
}

interface SelectProps {
  id?: string
  value: string
  onValueChange: (value: string) => void
  options: readonly SelectOption[]
  placeholder?: string
  /** Accessible name when no <label htmlFor> points at the trigger. */
  'aria-label'?: string
  'aria-invalid'?: boolean
  'aria-describedby'?: string
  disabled?: boolean
  className?: string
  onBlur?: () => void
  /** Open from the first render (a placeholder was pressed before this code arrived). */
  defaultOpen?: boolean
  /** Marks the trigger for deferred-select.tsx (see deferred.ts). */
  'data-deferred-slot'?: string
  /** Said in the open menu when there is no option (a list with no saved view yet). */
  empty?: string
}

/**
 * A single-choice dropdown (Radix Select: arrow keys, type-ahead, Escape, announced as a
 * combobox). Radix reserves the empty string for "no value", so an empty `value` shows the
 * placeholder. It stays controlled with '' (never undefined): an undefined value would leave the
 * last choice on screen after the value was cleared (Clear filters).
 */
export function Select({ id, value, onValueChange, options, placeholder = 'Select', className, onBlur, defaultOpen, empty, ...aria }: SelectProps) {
  return (
    <RadixSelect.Root value={value} onValueChange={onValueChange} disabled={aria.disabled} defaultOpen={defaultOpen}>
      <RadixSelect.Trigger
        id={id}
        onBlur={onBlur}
        aria-label={aria['aria-label']}
        aria-invalid={aria['aria-invalid']}
        aria-describedby={aria['aria-describedby']}
        data-deferred-slot={aria['data-deferred-slot']}
        className={selectTriggerClass(className)}
      >
        <RadixSelect.Value placeholder={placeholder} />
        <RadixSelect.Icon aria-hidden="true" className="text-slate-600">
          <SelectChevron />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content
          position="popper"
          sideOffset={4}
          className="z-50 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-md border border-slate-300 bg-white shadow-lg"
        >
          {/* The viewport brings a style element of its own: it needs the page's style nonce (src/ui/csp-nonce.ts). */}
          <RadixSelect.Viewport className="p-1" nonce={cspNonce()}>
            {options.length === 0 && empty !== undefined ? <p className="max-w-64 px-3 py-1.5 text-sm text-slate-700">{empty}</p> : null}
            {options.map((o) => (
              <RadixSelect.Item
                key={o.value}
                value={o.value}
                className="relative flex cursor-default items-center rounded py-1.5 pr-3 pl-7 text-sm text-slate-900 outline-none select-none data-[highlighted]:bg-indigo-700 data-[highlighted]:text-white"
              >
                <RadixSelect.ItemIndicator className="absolute left-2" aria-hidden="true">
                  {/* An icon rather than a ✓ character, so the option's text is only its label. */}
                  <svg viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2">
                    <path d="M3 8.5l3 3 7-7" />
                  </svg>
                </RadixSelect.ItemIndicator>
                <RadixSelect.ItemText>{o.label}</RadixSelect.ItemText>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  )
}
