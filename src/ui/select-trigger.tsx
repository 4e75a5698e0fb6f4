import { cn } from './cn.ts'

/** The closed select's look, shared by the Radix select and its placeholder (deferred-select.tsx). */
export const selectTriggerClass = (className?: string): string =>
  cn(
    'inline-flex h-9 items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900',
    'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600 aria-[invalid=true]:border-red-600',
    'disabled:cursor-not-allowed disabled:bg-slate-100 data-[placeholder]:text-slate-600',
    className,
  )

export function SelectChevron() {
  return (
    <svg viewBox="0 0 16 16" className="size-3" fill="currentColor">
      <path d="M3 6l5 5 5-5z" />
    </svg>
  )
}
