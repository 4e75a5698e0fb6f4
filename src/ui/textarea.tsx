import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

/** A multi-line text input styled like the single-line inputs. */
export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'block min-h-24 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900',
        'placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600',
        'aria-[invalid=true]:border-red-600 disabled:cursor-not-allowed disabled:bg-slate-100 read-only:bg-slate-50',
        className,
      )}
      {...props}
    />
  )
}
