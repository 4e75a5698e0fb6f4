/**
 * The one route table of the PWA (DESIGN.md, "Layout"): it drives the router, the side menu, the
 * header menu, the palette and the guard. Titles, menu placement and parents come from the
 * contract's screen list; this file adds only each built screen's lazy component and what kind
 * of page it is. A screen not built yet has no row, so nothing leads to it.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import { screens, type Screen, type ScreenPath } from '#contract/routes'
import { managesStaff } from '#src/features/staff/access.ts'
import type { Session } from './session.ts'

/**
 * - `page`: a screen of its own (menu, palette).
 * - `action`: a page that creates something (an Add page): Admin only, listed as a palette action.
 * - `record`: a page about one record reached from a list (an Edit page): Admin only, not in the
 *   palette since it needs the record.
 */
export type RouteKind = 'page' | 'action' | 'record'

export interface RouteRow {
  path: ScreenPath
  title: string
  menu: Screen['menu']
  parent: string | undefined
  kind: RouteKind
  component: LazyExoticComponent<ComponentType>
  /** Who may use an action or record page when Admin access is not enough (staff: role too). */
  writeRule?: (session: Session) => boolean
}

/** Whether this session may use an Add or Edit page: Admin access, and the row's own rule. */
export const mayWrite = (row: RouteRow, session: Session): boolean => session.canWrite && (row.writeRule?.(session) ?? true)

// Each lazy screen's loader, so the start-up can fetch the first screen's chunk in parallel with
// the session instead of after the first render (see preloadScreen).
const loaders = new WeakMap<LazyExoticComponent<ComponentType>, () => Promise<unknown>>()

/** React.lazy for a named export: screens use named exports (STYLE.md), lazy wants a default. */
function named<K extends string>(load: () => Promise<Record<K, ComponentType>>, key: K): LazyExoticComponent<ComponentType> {
  const component = lazy(async () => ({ default: (await load())[key] }))
  loaders.set(component, load)
  return component
}

const built: ReadonlyArray<Pick<RouteRow, 'path' | 'kind' | 'component' | 'writeRule'>> = [
  { path: '/users', kind: 'page', component: named(() => import('#src/features/leads/leads-page.tsx'), 'LeadsPage') },
  { path: '/contactus', kind: 'page', component: named(() => import('#src/features/leads/contact-page.tsx'), 'ContactPage') },
  { path: '/category', kind: 'page', component: named(() => import('#src/features/catalog/category-list.tsx'), 'CategoryListPage') },
  { path: '/add-category', kind: 'action', component: named(() => import('#src/features/catalog/category-form.tsx'), 'AddCategoryPage') },
  { path: '/edit-category', kind: 'record', component: named(() => import('#src/features/catalog/category-form.tsx'), 'EditCategoryPage') },
  { path: '/sub-admin', kind: 'page', component: named(() => import('#src/features/staff/staff-list.tsx'), 'StaffListPage') },
  { path: '/add-subAdmin', kind: 'action', component: named(() => import('#src/features/staff/staff-form.tsx'), 'CreateStaffPage'), writeRule: managesStaff },
  { path: '/edit-subAdmin', kind: 'record', component: named(() => import('#src/features/staff/staff-form.tsx'), 'EditStaffPage'), writeRule: managesStaff },
  { path: '/profile', kind: 'page', component: named(() => import('#src/features/account/profile-page.tsx'), 'ProfilePage') },
  { path: '/resetpassword', kind: 'page', component: named(() => import('#src/features/account/reset-password-page.tsx'), 'ResetPasswordPage') },
]

/** Built screens, in the contract's order (which is the spec's menu order). */
export const routes: readonly RouteRow[] = screens.flatMap((screen): RouteRow[] => {
  const row = built.find((b) => b.path === screen.path)
  if (!row) return []
  return [
    {
      ...row,
      title: screen.title,
      menu: 'menu' in screen ? screen.menu : undefined,
      parent: 'parent' in screen ? screen.parent : undefined,
    },
  ]
})

export const routeFor = (path: string): RouteRow | undefined =>
  routes.find((r) => r.path.toLowerCase() === path.toLowerCase())

/** Whether a built screen exists at `path` (the header shows Profile only once it is built). */
export const isBuilt = (path: string): boolean => routeFor(path) !== undefined

/** Auth screens besides Login (spec section 2); absent until built, so no link leads nowhere. */
export const authRoutes: ReadonlyArray<{ path: '/register' | '/forgot'; component: LazyExoticComponent<ComponentType> }> = [
  { path: '/forgot', component: named(() => import('#src/features/account/forgot-page.tsx'), 'ForgotPage') },
]

/** Starts loading the chunk of the screen at `path` (a no-op for unknown paths). */
export function preloadScreen(path: string): Promise<unknown> {
  const row = routeFor(path) ?? authRoutes.find((r) => r.path === path)
  return row ? (loaders.get(row.component)?.() ?? Promise.resolve()) : Promise.resolve()
}

export const hasAuthRoute = (path: string): boolean => authRoutes.some((r) => r.path === path)

/** The first screen this session may open: where a refused route sends the admin (spec section 6). */
export function firstAllowed(mayOpen: (path: string) => boolean): RouteRow | undefined {
  return routes.find((r) => r.kind === 'page' && mayOpen(r.path))
}
