import type { ReactElement, ReactNode } from 'react'
import { Tooltip as RadixTooltip } from 'radix-ui'

/**
 * A hover and focus hint for an icon button (the spec names tooltips such as Edit and Delete).
 * The trigger must still carry its own accessible name; the tooltip only repeats it visually.
 * Each tooltip brings its own provider so screens need no extra wrapper.
 */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  return (
    <RadixTooltip.Provider delayDuration={300}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content
            sideOffset={4}
            className="z-50 rounded bg-slate-900 px-2 py-1 text-xs font-medium text-white shadow"
          >
            {content}
            <RadixTooltip.Arrow className="fill-slate-900" />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  )
}
