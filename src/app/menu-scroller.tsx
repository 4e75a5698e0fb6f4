/**
 * The side menu's scrolling box. On a short window (800 px tall, a laptop with its browser's bars)
 * the last entries sit below the fold; a menu that scrolls looks like one that ends, so while
 * anything is below, the bottom fades and says "More below" (a press scrolls down). Keyboard and
 * screen-reader users reach every entry anyway, so the hint is for the eye only.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'

/** Pixels of slack, so a fraction of a pixel left by zoom does not keep the hint up. */
const SLACK = 2

export function MenuScroller({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null)
  const [more, setMore] = useState(false)
  const measure = useCallback(() => {
    const el = box.current
    if (el) setMore(el.scrollTop + el.clientHeight < el.scrollHeight - SLACK)
  }, [])
  useEffect(() => {
    const el = box.current
    if (!el) return
    measure()
    // The box changes size with the window; its content with the CMS group opening or closing.
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    for (const child of Array.from(el.children)) observer.observe(child)
    return () => observer.disconnect()
  }, [measure])
  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div ref={box} onScroll={measure} className="min-h-0 flex-1 overflow-y-auto">
        {children}
      </div>
      {more ? (
        <div
          aria-hidden="true"
          data-testid="menu-more-below"
          onClick={() => box.current?.scrollBy({ top: box.current.clientHeight * 0.8, behavior: 'smooth' })}
          className="absolute inset-x-0 bottom-0 flex h-16 cursor-pointer items-end justify-center bg-linear-to-t from-slate-900 via-slate-900/90 to-transparent pb-2 text-xs font-medium text-slate-200"
        >
          More below <span className="ml-1">▾</span>
        </div>
      ) : null}
    </div>
  )
}
