/**
 * The signed-in frame: side menu (open by default above 991 px, requirements R2.6), header with the
 * account menu (Profile, Reset Password, Logout), the offline banner and the command palette.
 */
import { Suspense, cloneElement, lazy, useLayoutEffect, useState, type ReactNode } from 'react'
import { useLocation } from 'wouter'
import type { ScreenPath } from '#contract/routes'
import { Button } from '#src/ui/button.tsx'
import { deferred, useDeferredTrigger } from '#src/ui/deferred.ts'
import type { AccountMenuProps } from './account-menu.tsx'
import { Breadcrumb } from './breadcrumb.tsx'
import { MenuScroller } from './menu-scroller.tsx'
import { OfflineBanner } from './offline-banner.tsx'
import { isBuilt, routeFor } from './route-table.ts'
import { SideMenu } from './side-menu.tsx'
import { SiteHeader } from './site-header.tsx'
import { logoutAndReload, useSession } from '#src/lib/session.ts'
import { SHOW_SHORTCUTS, keyIsTaken } from '#src/crud/list/list-keys.ts'
import { usePendingUndos } from '#src/crud/writes/undo-keys.ts'
import { useStepUpRequest } from '#src/lib/step-up.ts'
import { ViewAsBanner, useViewAsInStep } from './view-as-banner.tsx'

const Palette = lazy(async () => ({ default: (await import('./palette.tsx')).Palette }))
const StepUpDialog = lazy(async () => ({ default: (await import('./step-up-dialog.tsx')).StepUpDialog }))
const ShortcutsDialog = lazy(async () => ({ default: (await import('#src/crud/screens/shortcuts-dialog.tsx')).ShortcutsDialog }))
// Radix's menu code comes with the first hover, focus or press of the trigger (ui/deferred.ts).
const accountMenu = deferred(() => import('./account-menu.tsx'))

/** Requirements R2.6: open by default when the window is wider than 991 pixels. */
const WIDE = '(min-width: 992px)'
const isWide = (): boolean => window.matchMedia(WIDE).matches

const ACCOUNT_ITEMS: ReadonlyArray<{ path: ScreenPath; label: string }> = [
  { path: '/profile', label: 'Profile' },
  { path: '/resetpassword', label: 'Reset Password' },
]

type AccountMenuSlotProps = Omit<AccountMenuProps, 'trigger' | 'openOnArrival'>

/** The account menu, or until its code arrives a trigger that looks, reads and responds the same. */
function AccountMenuSlot(props: AccountMenuSlotProps) {
  const { module, openOnArrival, slot, placeholder } = useDeferredTrigger(accountMenu, { openKeys: ['Enter', ' ', 'ArrowDown'] })
  const trigger = (
    <Button variant="ghost" size="sm" aria-label={`Account menu for ${props.email}`} {...slot}>
      <span className="hidden max-w-48 truncate sm:inline">{props.email}</span>
      <span aria-hidden="true">▾</span>
    </Button>
  )
  if (module) return <module.AccountMenu {...props} trigger={trigger} openOnArrival={openOnArrival} />
  return cloneElement(trigger, { 'aria-haspopup': 'menu', 'aria-expanded': false, 'data-state': 'closed', ...placeholder })
}

export function Layout({ children }: { children: ReactNode }) {
  const session = useSession()
  usePendingUndos(session.userId)
  const [location, navigate] = useLocation()
  const [menuOpen, setMenuOpen] = useState(isWide)
  const [paletteOpen, setPaletteOpen] = useState(false)
  const [shortcutsOpen, setShortcutsOpen] = useState(false)
  const stepUp = useStepUpRequest()
  useViewAsInStep(session)

  // ? (outside fields and dialogs), or the palette's entry: the sheet of every shortcut. The key
  // listeners are bound before the first paint (layout effects): a key pressed as soon as the
  // screen shows must find them.
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === '?' && !keyIsTaken(event)) {
        event.preventDefault()
        setShortcutsOpen(true)
      }
    }
    const onShow = () => setShortcutsOpen(true)
    window.addEventListener('keydown', onKey)
    window.addEventListener(SHOW_SHORTCUTS, onShow)
    return () => {
      window.removeEventListener('keydown', onKey)
      window.removeEventListener(SHOW_SHORTCUTS, onShow)
    }
  }, [])

  // Ctrl+K / Cmd+K opens the palette from anywhere, inputs included (it is what users expect).
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault()
        setPaletteOpen((open) => !open)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  // On a narrow window the menu covers the page: close it after choosing a screen.
  const afterNavigate = () => {
    if (!isWide()) setMenuOpen(false)
  }

  const screenTitle = routeFor(location)?.title
  const accountItems = ACCOUNT_ITEMS.filter((item) => isBuilt(item.path) && session.mayOpen(item.path))

  return (
    <div className="flex h-full">
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      {menuOpen ? (
        <>
          <aside id="side-menu" className="fixed inset-y-0 left-0 z-40 flex w-60 shrink-0 flex-col bg-slate-900 scheme-light min-[992px]:static">
            <MenuScroller>
              <SiteHeader />
              <SideMenu mayOpen={session.mayOpen} onNavigate={afterNavigate} />
            </MenuScroller>
          </aside>
          <div className="fixed inset-0 z-30 bg-slate-900/40 scheme-light min-[992px]:hidden" aria-hidden="true" onClick={() => setMenuOpen(false)} />
        </>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col">
        <ViewAsBanner session={session} />
        <header className="flex h-14 shrink-0 items-center gap-2 border-b border-slate-200 bg-white px-3">
          <Button
            variant="ghost"
            size="icon"
            aria-label="Toggle menu"
            aria-expanded={menuOpen}
            aria-controls="side-menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </Button>
          {/* With the menu folded nothing else says where the admin is: the screen's title, as the menu names it. */}
          {!menuOpen && screenTitle !== undefined ? (
            <p className="min-w-0 truncate text-sm font-medium text-slate-900" data-testid="screen-title">
              {screenTitle}
            </p>
          ) : null}
          <Button variant="outline" size="sm" className="ml-auto shrink-0 text-slate-700" onClick={() => setPaletteOpen(true)} aria-keyshortcuts="Control+K Meta+K">
            Search or jump to…
            <kbd className="rounded border border-slate-300 px-1 text-xs text-slate-600">Ctrl K</kbd>
          </Button>
          <AccountMenuSlot
            email={session.email}
            level={session.role === 'superadmin' ? 'Super admin' : (session.accessLevel ?? '')}
            items={accountItems}
            onNavigate={navigate}
            onLogout={logoutAndReload}
          />
        </header>
        <OfflineBanner />
        <main id="main" className="min-h-0 flex-1 overflow-auto p-4 md:p-6">
          <Breadcrumb location={location} />
          {children}
        </main>
      </div>
      {paletteOpen ? (
        <Suspense fallback={null}>
          <Palette open={paletteOpen} onOpenChange={setPaletteOpen} />
        </Suspense>
      ) : null}
      {shortcutsOpen ? (
        <Suspense fallback={null}>
          <ShortcutsDialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} />
        </Suspense>
      ) : null}
      {/* A risky call waiting for the admin to confirm it is them (src/lib/step-up.ts). */}
      {stepUp ? (
        <Suspense fallback={null}>
          <StepUpDialog key={stepUp.message + String(stepUp.twoFactor)} request={stepUp} />
        </Suspense>
      ) : null}
    </div>
  )
}
