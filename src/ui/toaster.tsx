/**
 * Renders the toasts of `toast.success/error` (toast.ts) top right for their duration
 * (requirements R9.5: 2 seconds). A small own component rather than Radix Toast, because it ships
 * with the login page and every kilobyte there counts. Screen readers hear each message through
 * live regions that exist before any toast is added; hovering or focusing a toast pauses it.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react'
import { getToasts, subscribeToasts, toast, type ToastItem } from './toast.ts'
import { cn } from './cn.ts'

const tone: Record<ToastItem['kind'], string> = {
  success: 'border-emerald-600 bg-emerald-50 text-emerald-900',
  error: 'border-red-600 bg-red-50 text-red-900',
  info: 'border-slate-500 bg-white text-slate-900',
}

/** The toast's own text colour as the ring: it stands out on each kind's background, in both themes. */
const FOCUS_RING = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current'

function ToastCard({ item }: { item: ToastItem }) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const start = () => {
    clearTimeout(timer.current)
    // A deadline is kept however long the toast is hovered: what it offers ends then on the server too.
    const left = item.deadline === undefined ? item.duration : item.deadline - Date.now()
    if (Number.isFinite(left)) timer.current = setTimeout(() => toast.dismiss(item.id), Math.max(0, left))
  }
  const stop = () => clearTimeout(timer.current)
  // A toast with a deadline is not held by hovering or focus: it goes when its offer ends.
  const pause = () => (item.deadline === undefined ? stop() : undefined)
  useEffect(() => {
    start()
    return stop
    // The timer belongs to this toast for its whole life; `start` only reads its fixed duration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  return (
    <div
      data-kind={item.kind}
      className={cn('pointer-events-auto flex items-start gap-3 rounded-md border-l-4 px-4 py-3 text-sm shadow-lg', tone[item.kind])}
      onMouseEnter={pause}
      onMouseLeave={start}
      onFocus={pause}
      onBlur={start}
    >
      <p className="flex-1">{item.message}</p>
      {item.action ? (
        <button type="button" className={cn('rounded border border-current px-2 py-0.5 font-medium', FOCUS_RING)} onClick={item.action.run}>
          {item.action.label}
        </button>
      ) : null}
      <button type="button" aria-label="Dismiss" className={cn('rounded px-1 leading-none opacity-70 hover:opacity-100 focus-visible:opacity-100', FOCUS_RING)} onClick={() => toast.dismiss(item.id)}>
        ×
      </button>
    </div>
  )
}

export function Toaster() {
  const items = useSyncExternalStore(subscribeToasts, getToasts, getToasts)
  const polite = items.filter((t) => t.kind !== 'error')
  const urgent = items.filter((t) => t.kind === 'error')
  return (
    <section aria-label="Notifications" className="pointer-events-none fixed top-4 right-4 z-[100] flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2">
      <div role="alert" aria-live="assertive" className="flex flex-col gap-2">
        {urgent.map((item) => (
          <ToastCard key={item.id} item={item} />
        ))}
      </div>
      <div role="status" aria-live="polite" className="flex flex-col gap-2">
        {polite.map((item) => (
          <ToastCard key={item.id} item={item} />
        ))}
      </div>
    </section>
  )
}
