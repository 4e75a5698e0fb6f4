import type { ComponentProps } from 'react'
import { cn } from './cn.ts'
import { LABEL_CLASSES } from './label-classes.ts'

/**
 * A form label: a plain <label> (every form and the login screen have one, so it carries no
 * library). A double click on it selects no text, as a label of a native app would.
 */
export function Label({ className, onMouseDown, ...props }: ComponentProps<'label'>) {
  return (
    <label
      className={cn(LABEL_CLASSES, className)}
      onMouseDown={(event) => {
        onMouseDown?.(event)
        // Only a double click's second press: a single press must still focus the control.
        if (!event.defaultPrevented && event.detail > 1) event.preventDefault()
      }}
      {...props}
    />
  )
}
