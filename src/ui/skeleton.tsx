import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

/** A grey placeholder bar shown while data loads; hidden from screen readers (the busy region speaks). */
export function Skeleton({ className, ...props }: ComponentProps<'span'>) {
  return <span aria-hidden="true" className={cn('block h-4 animate-pulse rounded bg-slate-200', className)} {...props} />
}
