import { useEffect, useRef, type ComponentProps } from 'react'
import { cn } from './cn.ts'

type CheckboxProps = Omit<ComponentProps<'input'>, 'type'> & {
  /** Neither checked nor clear (a header checkbox over a partly selected page): "mixed" to screen readers. */
  indeterminate?: boolean
}

/**
 * A native checkbox: keyboard, forms and screen readers work without any script, and a table
 * with a checkbox per row stays cheap. `indeterminate` can only be set from script, hence the ref.
 */
export function Checkbox({ indeterminate = false, className, ...props }: CheckboxProps) {
  const ref = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = indeterminate
  }, [indeterminate])
  return (
    <input
      ref={ref}
      type="checkbox"
      className={cn(
        'size-4 cursor-pointer rounded border-slate-400 accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
      {...props}
    />
  )
}
