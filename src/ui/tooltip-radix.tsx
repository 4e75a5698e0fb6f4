import type { ReactElement, ReactNode } from 'react'
import { Tooltip as RadixTooltip } from 'radix-ui'

/**
 * The tooltip itself (Radix), loaded on first use by tooltip.tsx. `slot` marks the trigger so the
 * focus and hover of the placeholder it replaces carry over (see deferred.ts).
 */
export function RadixTooltipHint({ content, children, slot }: { content: ReactNode; children: ReactElement; slot: { 'data-deferred-slot': string } }) {
  return (
    <RadixTooltip.Provider delayDuration={300}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild {...slot}>
          {children}
        </RadixTooltip.Trigger>
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
