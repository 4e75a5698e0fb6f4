import { cn } from './cn.ts'

/** A small spinning ring; decorative, so callers put the words next to it. */
export function Spinner({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn('inline-block size-5 animate-spin rounded-full border-2 border-current border-r-transparent', className)}
    />
  )
}

/**
 * Covers a form while it is being sent (requirements R4.11: idle, loading overlay, then success or
 * failure). It blocks clicks and announces the label through a live status region.
 */
export function LoadingOverlay({ label = 'Saving…' }: { label?: string }) {
  return (
    <div
      role="status"
      className="absolute inset-0 z-10 flex items-center justify-center gap-3 rounded-md bg-white/80 text-sm font-medium text-slate-800"
    >
      <Spinner className="text-indigo-700" />
      {label}
    </div>
  )
}
