import { cloneElement, isValidElement, type ComponentProps, type ReactElement } from 'react'
import { cn } from './cn.ts'

const variants = {
  default: 'bg-primary text-on-fill hover:bg-primary-hover',
  outline: 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-100',
  ghost: 'text-slate-800 hover:bg-slate-100',
  destructive: 'bg-danger text-on-fill hover:bg-danger-hover',
  link: 'text-indigo-700 underline-offset-4 hover:underline',
} as const

const sizes = {
  md: 'h-9 px-4 text-sm',
  sm: 'h-8 px-3 text-sm',
  icon: 'h-9 w-9',
  /** A table row's icon buttons: a dense row, still a 32 px target. */
  'icon-sm': 'h-8 w-8',
} as const

export type ButtonProps = ComponentProps<'button'> & {
  variant?: keyof typeof variants
  size?: keyof typeof sizes
  /** Renders the child element (a link, say) with the button's look. */
  asChild?: boolean
}

export function Button({ className, variant = 'default', size = 'md', asChild = false, type, ...props }: ButtonProps) {
  const classes = cn(
    'inline-flex items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
    // Disabled is drawn in its own colours, not faded: faded text falls under 3:1 against its
    // background in both themes; slate-600 on slate-200 stays above it in both.
    'disabled:pointer-events-none disabled:border-slate-300 disabled:bg-slate-200 disabled:text-slate-600',
    // Announced unavailable but still pressable (it says why when pressed): the same look.
    'aria-disabled:cursor-not-allowed aria-disabled:border-slate-300 aria-disabled:bg-slate-200 aria-disabled:text-slate-600',
    variants[variant],
    sizes[size],
    className,
  )
  // The child (a link, say) is drawn as the button: its own props win, classes are joined. Every
  // screen has a button, so this carries no slot library.
  if (asChild && isValidElement<{ className?: string }>(props.children)) {
    const { children, ...rest } = props
    const child: ReactElement<{ className?: string }> = children
    return cloneElement(child, { ...rest, ...child.props, className: cn(classes, child.props.className) })
  }
  // A button inside a form submits by default; make that an explicit choice.
  return <button type={type ?? 'button'} className={classes} {...props} />
}
