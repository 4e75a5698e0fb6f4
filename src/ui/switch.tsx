import type { ComponentProps } from 'react'
import { Switch as SwitchPrimitive } from 'radix-ui'
import { cn } from './cn.ts'

const TRACK = 'inline-flex h-6 w-11 shrink-0 items-center rounded-full border-2 border-transparent transition-colors'
const TRACK_ON = 'bg-primary'
const TRACK_OFF = 'bg-slate-400'
const THUMB = 'pointer-events-none block size-5 rounded-full bg-on-fill shadow transition-transform'

/**
 * "On" or "Off", written beside a switch's position: the position alone is easy to misread, in
 * dark mode above all. Screen readers hear the state from the switch itself, so the word is
 * hidden from them.
 */
function SwitchWord({ on }: { on: boolean }) {
  return (
    <span aria-hidden="true" data-switch-state="" className={cn('w-6 text-sm font-medium', on ? 'text-indigo-800' : 'text-slate-600')}>
      {on ? 'On' : 'Off'}
    </span>
  )
}

/**
 * An on/off switch (Radix Switch: a button with role switch, toggled by Space or Enter), with its
 * On or Off word beside it.
 */
export function Switch({ className, checked, ...props }: ComponentProps<typeof SwitchPrimitive.Root>) {
  return (
    <span className="inline-flex items-center gap-2">
      <SwitchPrimitive.Root
        className={cn(
          TRACK,
          'cursor-pointer',
          TRACK_OFF,
          'data-[state=checked]:bg-primary',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
          'disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:ring-2 aria-[invalid=true]:ring-red-600',
          className,
        )}
        checked={checked}
        {...props}
      >
        <SwitchPrimitive.Thumb className={cn(THUMB, 'data-[state=checked]:translate-x-5 data-[state=unchecked]:translate-x-0')} />
      </SwitchPrimitive.Root>
      <SwitchWord on={checked === true} />
    </span>
  )
}

/**
 * The same switch drawn inside a control of its own (a list row's toggle, whose button holds the
 * requirements' label too): the track, its thumb and the On or Off word, all hidden from screen
 * readers, which hear the control's own role and state.
 */
export function SwitchFace({ on }: { on: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <span aria-hidden="true" className={cn(TRACK, on ? TRACK_ON : TRACK_OFF)}>
        <span className={cn(THUMB, on ? 'translate-x-5' : 'translate-x-0')} />
      </span>
      <SwitchWord on={on} />
    </span>
  )
}
