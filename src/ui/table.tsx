import { useLayoutEffect, useRef, type ComponentProps, type RefObject } from 'react'
import { cn } from './cn.ts'

/**
 * How a table gives way when its row is wider than its box, in order, each only when the one
 * before it was not enough: the row's action buttons wrap onto two lines (`data-wrap-actions`),
 * then one-line text is cut to fit with an ellipsis (`data-cut-text`), then dates and other
 * one-line values wrap between words (`data-wrap-values`). The box carries the attributes, and the
 * cells follow through `group-data-<stage>/table:` classes (src/crud/list/data-table.tsx and friends).
 * A table that fits keeps every value whole and its actions on one line; one that does not would
 * slide its last columns under the sticky Action column.
 */
export const FIT_STAGES = ['data-wrap-actions', 'data-cut-text', 'data-wrap-values'] as const

/** What fitting reads and writes of the table's box. */
type FitBox = Pick<HTMLElement, 'scrollWidth' | 'clientWidth' | 'setAttribute' | 'removeAttribute'>

/** Puts the box at the first stage its table fits at (all of them when none does). */
export function fitTable(box: FitBox): void {
  for (const stage of FIT_STAGES) box.removeAttribute(stage)
  for (const stage of FIT_STAGES) {
    // Each read lays the table out again: at most four times, and only when the content or the
    // box's width changed.
    if (box.scrollWidth <= box.clientWidth) return
    box.setAttribute(stage, '')
  }
}

/**
 * Fits the table to its box before it is painted, again whenever `content` changes (a new page of
 * rows, columns brought back) and when the box's width changes (a window resized, the side menu
 * folded). The resize is handled on the next frame: changing the table's height from inside the
 * observer would make it report again in the same frame.
 */
function useFit(box: RefObject<HTMLDivElement | null>, content: unknown): void {
  useLayoutEffect(() => {
    if (box.current) fitTable(box.current)
  }, [box, content])
  useLayoutEffect(() => {
    const element = box.current
    if (!element) return
    let width = element.clientWidth
    let frame = 0
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === width) return
      width = element.clientWidth
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => fitTable(element))
    })
    observer.observe(element)
    return () => {
      observer.disconnect()
      cancelAnimationFrame(frame)
    }
  }, [box])
}


/**
 * Table primitives: plain semantic elements (caption, th scope) so screen readers announce the
 * headers of each cell; the wrapper scrolls sideways on narrow screens instead of squeezing cells.
 * The wrapper is a size container, so cells can fold away by the table's own width (`@max-*:`
 * classes) rather than the window's, which also counts the side menu. `fitKey` is what the table
 * shows (its rows): when it changes, the table is fitted to its box again (FIT_STAGES).
 */
export function Table({ className, boxRef, fitKey, ...props }: ComponentProps<'table'> & { boxRef?: RefObject<HTMLDivElement | null>; fitKey?: unknown }) {
  const own = useRef<HTMLDivElement>(null)
  const box = boxRef ?? own
  useFit(box, fitKey)
  return (
    <div ref={box} className="group/table @container w-full overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className={cn('w-full border-collapse text-left text-sm', className)} {...props} />
    </div>
  )
}

/**
 * A cell kept in view at the right edge while the rest of a wide row scrolls sideways (a table's
 * actions on a tablet). Give it a background of its own (the row's), or the scrolled cells would
 * show through.
 */
export const STICKY_END = 'sticky right-0 z-10 shadow-[-1px_0_0_var(--color-slate-200)]'

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return <caption className={cn('sr-only', className)} {...props} />
}

export function TableHead({ className, ...props }: ComponentProps<'thead'>) {
  // The required header text as written ('S.No', 'Date Created'): no case transform.
  return <thead className={cn('bg-slate-50 text-xs font-semibold text-slate-700', className)} {...props} />
}

export function TableBody(props: ComponentProps<'tbody'>) {
  return <tbody {...props} />
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('border-b border-slate-200 last:border-b-0', className)} {...props} />
}

/**
 * A header's words may wrap (never within a word): where a wide table must fit beside the side
 * menu, a two-line 'Operating System' is better than a column pushed out of sight or a header cut.
 */
export function TableHeader({ className, scope = 'col', ...props }: ComponentProps<'th'>) {
  return <th scope={scope} className={cn('px-2 py-2 align-bottom font-semibold', className)} {...props} />
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-2 py-1.5 align-middle text-slate-900', className)} {...props} />
}
