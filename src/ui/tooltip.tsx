import { cloneElement, type ReactElement, type ReactNode } from 'react'
import { deferred, useDeferredTrigger, withHandlers } from './deferred.ts'

const radixTooltip = deferred(() => import('./tooltip-radix.tsx'))

/**
 * A hover and focus hint for an icon button (the requirements name tooltips such as Edit and Delete, R2.14).
 * The trigger must still carry its own accessible name; the tooltip only repeats it visually.
 * Each tooltip brings its own provider so screens need no extra wrapper.
 *
 * A list shows one per row button, and nobody needs them to read the list: the Radix code is
 * fetched when a pointer or the focus first reaches one of them (deferred.ts), and until then the
 * button renders alone.
 */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  const { module, slot, placeholder } = useDeferredTrigger(radixTooltip, null)
  if (!module) return cloneElement(children, withHandlers(children.props as object, placeholder))
  return (
    <module.RadixTooltipHint content={content} slot={slot}>
      {children}
    </module.RadixTooltipHint>
  )
}
