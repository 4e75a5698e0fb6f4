import type { ComponentProps, KeyboardEvent } from 'react'
import { deferred, useDeferredTrigger, withHandlers } from './deferred.ts'
import type { Select as RadixBackedSelect } from './select.tsx'
import { SelectChevron, selectTriggerClass } from './select-trigger.tsx'

const radixSelect = deferred(() => import('./select.tsx'))

/** Keys that open the Radix select from its trigger. */
const OPEN_KEYS = [' ', 'Enter', 'ArrowUp', 'ArrowDown'] as const

type SelectProps = Omit<ComponentProps<typeof RadixBackedSelect>, 'defaultOpen' | 'data-deferred-slot'>

/**
 * The same select as select.tsx, for a control every screen of a kind shows but few people use
 * at once (the lists' page size): its Radix code is fetched when the trigger is first hovered,
 * focused or pressed (deferred.ts). Until then a trigger that looks and reads the same stands in;
 * a press opens the real one as soon as it arrives, and a typed character picks an option as
 * Radix's type-ahead does.
 */
export function DeferredSelect(props: SelectProps) {
  const { module, openOnArrival, slot, placeholder } = useDeferredTrigger(radixSelect, { openKeys: OPEN_KEYS })
  if (module) return <module.Select {...props} defaultOpen={openOnArrival !== null} {...slot} />

  const { id, value, onValueChange, options, placeholder: emptyText = 'Select', className, onBlur, disabled } = props
  const selected = options.find((o) => o.value === value)
  const typeAhead = (event: KeyboardEvent) => {
    if (event.key.length !== 1 || event.key === ' ' || event.ctrlKey || event.metaKey || event.altKey) return
    const start = options.findIndex((o) => o.value === value)
    const ordered = [...options.slice(start + 1), ...options.slice(0, start + 1)]
    const match = ordered.find((o) => o.label.toLowerCase().startsWith(event.key.toLowerCase()))
    if (match && match.value !== value) onValueChange(match.value)
  }
  return (
    <button
      type="button"
      role="combobox"
      id={id}
      aria-expanded="false"
      aria-autocomplete="none"
      aria-label={props['aria-label']}
      aria-invalid={props['aria-invalid']}
      aria-describedby={props['aria-describedby']}
      disabled={disabled}
      data-state="closed"
      data-placeholder={selected ? undefined : ''}
      className={selectTriggerClass(className)}
      {...withHandlers({ onBlur, onKeyDown: typeAhead }, placeholder)}
    >
      <span style={{ pointerEvents: 'none' }}>{selected ? selected.label : emptyText}</span>
      <span aria-hidden="true" className="text-slate-600">
        <SelectChevron />
      </span>
    </button>
  )
}
