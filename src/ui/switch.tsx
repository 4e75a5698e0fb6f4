import type { ComponentProps } from 'react'
import { Switch as SwitchPrimitive } from 'radix-ui'
import { cn } from './cn.ts'

/**
 * An on/off switch (Radix Switch: a button with role switch, toggled by Space or Enter), with "On"
 * or "Off" written beside it: the position alone is easy to misread, in dark mode above all.
 * Screen readers hear the state from the switch itself, so the word is hidden from them.
 */
export function Switch({ className, checked, ...props }: ComponentProps<typeof SwitchPrimitive.Root>) {
  return (
    <span className="inline-flex items-center gap-2">
      <SwitchPrimitive.Root
        className={cn(
          'inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors',
          'bg-slate-400 data-[state=checked]:bg-primary',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
          'disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:ring-2 aria-[invalid=true]:ring-red-600',
          className,
        )}
        checked={checked}
        {...props}
      >
        <SwitchPrimitive.Thumb className="pointer-events-none block size-5 rounded-full bg-on-fill shadow transition-transform data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0" />
      </SwitchPrimitive.Root>
      <span aria-hidden="true" data-switch-state="" className={cn('w-6 text-sm font-medium', checked === true ? 'text-indigo-800' : 'text-slate-600')}>
        {checked === true ? 'On' : 'Off'}
      </span>
    </span>
  )
}
