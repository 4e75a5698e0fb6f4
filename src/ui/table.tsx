import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

/**
 * Table primitives: plain semantic elements (caption, th scope) so screen readers announce the
 * headers of each cell; the wrapper scrolls sideways on narrow screens instead of squeezing cells.
 */
export function Table({ className, ...props }: ComponentProps<'table'>) {
  return (
    <div className="w-full overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className={cn('w-full border-collapse text-left text-sm', className)} {...props} />
    </div>
  )
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return <caption className={cn('sr-only', className)} {...props} />
}

export function TableHead({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('bg-slate-50 text-xs font-semibold text-slate-700 uppercase', className)} {...props} />
}

export function TableBody(props: ComponentProps<'tbody'>) {
  return <tbody {...props} />
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('border-b border-slate-200 last:border-b-0', className)} {...props} />
}

export function TableHeader({ className, scope = 'col', ...props }: ComponentProps<'th'>) {
  return <th scope={scope} className={cn('px-3 py-2 font-semibold whitespace-nowrap', className)} {...props} />
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cn('px-3 py-1.5 align-middle text-slate-900', className)} {...props} />
}
