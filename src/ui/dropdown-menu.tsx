import type { ComponentProps } from 'react'
import { DropdownMenu as Menu } from 'radix-ui'
import { cn } from './cn.ts'

export const DropdownMenu = Menu.Root
export const DropdownMenuTrigger = Menu.Trigger

export function DropdownMenuContent({ className, sideOffset = 6, ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={sideOffset}
        className={cn('z-50 min-w-44 rounded-md border border-slate-200 bg-white p-1 shadow-lg', className)}
        {...props}
      />
    </Menu.Portal>
  )
}

export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof Menu.Item>) {
  return (
    <Menu.Item
      className={cn(
        'flex cursor-pointer items-center gap-2 rounded px-3 py-2 text-sm text-slate-800 outline-none select-none',
        'data-[highlighted]:bg-slate-100 data-[disabled]:pointer-events-none data-[disabled]:opacity-50',
        className,
      )}
      {...props}
    />
  )
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Menu.Label>) {
  return <Menu.Label className={cn('px-3 py-1.5 text-xs text-slate-600', className)} {...props} />
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof Menu.Separator>) {
  return <Menu.Separator className={cn('my-1 h-px bg-slate-200', className)} {...props} />
}

/** A menu line with a check mark: the Columns menu's one per column. */
export function DropdownMenuCheckboxItem({ className, children, ...props }: ComponentProps<typeof Menu.CheckboxItem>) {
  return (
    <Menu.CheckboxItem
      className={cn(
        'flex cursor-pointer items-center gap-2 rounded py-2 pr-3 pl-2 text-sm text-slate-800 outline-none select-none',
        'data-[highlighted]:bg-slate-100 data-[disabled]:cursor-default data-[disabled]:opacity-60',
        className,
      )}
      {...props}
    >
      <span aria-hidden="true" className="flex size-4 shrink-0 items-center justify-center rounded border border-slate-400 bg-white">
        <Menu.ItemIndicator>
          <svg viewBox="0 0 24 24" className="size-3.5 text-indigo-700" fill="none" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round">
            <path d="M5 12l5 5 9-10" />
          </svg>
        </Menu.ItemIndicator>
      </span>
      {children}
    </Menu.CheckboxItem>
  )
}
