/**
 * The header's account menu (Profile, Reset Password, Logout) with Radix's dropdown menu, loaded
 * by layout.tsx the first time its trigger is hovered, focused or pressed (see ui/deferred.ts).
 */
import { useState, type FocusEvent, type ReactElement } from 'react'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '#src/ui/dropdown-menu.tsx'
import { THEMES, setTheme, useTheme } from '#src/lib/theme.ts'
import { promptInstall, useInstallable } from '#src/lib/install.ts'

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
  const theme = useTheme()
  const installable = useInstallable()
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
        <DropdownMenuSeparator />
        {THEMES.map((t) => (
          <DropdownMenuItem key={t.value} role="menuitemradio" aria-checked={theme === t.value} onSelect={() => setTheme(t.value)}>
            <span aria-hidden="true" className="inline-block w-4">
              {theme === t.value ? '✓' : ''}
            </span>
            {t.label}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        {installable ? <DropdownMenuItem onSelect={() => void promptInstall()}>Install app</DropdownMenuItem> : null}
        <DropdownMenuItem onSelect={onLogout}>Logout</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
