/**
 * The header's account menu (Profile, Reset Password, Logout) with Radix's dropdown menu, loaded
 * by layout.tsx the first time its trigger is hovered, focused or pressed (see ui/deferred.ts).
 */
import { useState, type FocusEvent, type ReactElement } from 'react'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '#src/ui/dropdown-menu.tsx'

export interface AccountMenuProps {
  /** The trigger button; layout.tsx renders the same one as the placeholder. */
  trigger: ReactElement
  email: string
  /** "Super admin" or the access level. */
  level: string
  items: ReadonlyArray<{ path: string; label: string }>
  onNavigate: (path: string) => void
  onLogout: () => void
  /** The placeholder was pressed before this code arrived: open at once (see ui/deferred.ts). */
  openOnArrival: 'pointer' | 'keyboard' | null
}

export function AccountMenu({ trigger, email, level, items, onNavigate, onLogout, openOnArrival }: AccountMenuProps) {
  // Opened from the keyboard, Radix focuses the first item; the key that opened this one was
  // pressed before Radix listened, so do the same for that first opening.
  const [focusFirstItem, setFocusFirstItem] = useState(openOnArrival === 'keyboard')
  const onContentFocus = (event: FocusEvent<HTMLDivElement>) => {
    if (!focusFirstItem || event.target !== event.currentTarget) return
    setFocusFirstItem(false)
    event.currentTarget.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
  }
  return (
    <DropdownMenu defaultOpen={openOnArrival !== null}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" onFocus={onContentFocus}>
        <DropdownMenuLabel>
          {email}
          <br />
          {level}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {items.map((item) => (
          <DropdownMenuItem key={item.path} onSelect={() => onNavigate(item.path)}>
            {item.label}
          </DropdownMenuItem>
        ))}
        <DropdownMenuItem onSelect={onLogout}>Logout</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
