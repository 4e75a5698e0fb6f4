import type { ComponentProps, Ref } from 'react'
import { cn } from './cn.ts'

/**
 * Table primitives: plain semantic elements (caption, th scope) so screen readers announce the
 * headers of each cell; the wrapper scrolls sideways on narrow screens instead of squeezing cells.
 * The wrapper is a size container, so cells can fold away by the table's own width (`@max-*:`
 * classes) rather than the window's, which also counts the side menu.
 */
export function Table({ className, boxRef, ...props }: ComponentProps<'table'> & { boxRef?: Ref<HTMLDivElement> }) {
  return (
    <div ref={boxRef} className="@container w-full overflow-x-auto rounded-md border border-slate-200 bg-white">
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
