/**
 * The side menu's scrolling box. On a short window (800 px tall, a laptop with its browser's bars)
 * the last entries sit below the fold; a menu that scrolls looks like one that ends, so while
 * anything is below, the bottom fades and says "More below" (a press scrolls down), and once
 * scrolled, the top fades over the entries above. Keyboard and screen-reader users reach every
 * entry anyway, so the hints are for the eye only.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'

/** Pixels of slack, so a fraction of a pixel left by zoom does not keep the hint up. */
const SLACK = 2

export function MenuScroller({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null)
  const [more, setMore] = useState(false)
  const [above, setAbove] = useState(false)
  const measure = useCallback(() => {
    const el = box.current
    if (!el) return
    setMore(el.scrollTop + el.clientHeight < el.scrollHeight - SLACK)
    setAbove(el.scrollTop > SLACK)
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
      {/* The fades lie over the menu but never take its clicks; "More below" has a strip of its own. */}
      {above ? <div aria-hidden="true" data-testid="menu-more-above" className="pointer-events-none absolute inset-x-0 top-0 h-10 bg-linear-to-b from-slate-900 to-transparent" /> : null}
      {more ? (
        <>
          <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 bottom-7 h-10 bg-linear-to-t from-slate-900 to-transparent" />
          <div
            aria-hidden="true"
            data-testid="menu-more-below"
            onClick={() => box.current?.scrollBy({ top: box.current.clientHeight * 0.8, behavior: 'smooth' })}
            className="flex h-7 shrink-0 cursor-pointer items-center justify-center border-t border-slate-700 text-xs font-medium text-slate-200 hover:text-white"
          >
            More below <span className="ml-1">▾</span>
          </div>
        </>
      ) : null}
    </div>
  )
}
