/**
 * The one route table of the PWA (docs/decisions/004-pwa-shell.md): it drives the router, the side menu, the
 * header menu, the palette and the guard. Titles, menu placement and parents come from the
 * contract's screen list; what each built screen is comes from its area's declarations
 * (`src/features/<area>/screens.ts`, see src/crud/screens/screens.ts), found here by file name, so a new
 * area needs no edit in this folder. A screen not built yet has no row, so nothing leads to it.
 */
import { alwaysAllowed, openToEveryone, screens as contractScreens, type Screen, type ScreenPath } from '#contract/routes'
import {
  isAuthScreenList,
  isLazyScreen,
  isScreenList,
  preloadLazy,
  type AuthPath,
  type AuthScreenDecl,
  type ScreenDecl,
} from '#src/crud/screens/screens.ts'
import type { Session } from '#src/lib/session.ts'

export interface RouteRow extends ScreenDecl {
  title: string
  /** The page's heading when it differs from the menu's name (contract/routes.ts). */
  heading: string | undefined
  menu: Screen['menu']
  /** The top-level entry it is listed beneath (contract/routes.ts). */
  beneath: string | undefined
  parent: string | undefined
}

export interface RouteTable {
  /** Built screens, in the contract's order (which is the menu order of requirements R2.6). */
  routes: readonly RouteRow[]
  authRoutes: readonly AuthScreenDecl[]
}

/** A module namespace as `import.meta.glob` hands it over: export name to value. */
type AreaModule = Readonly<Record<string, unknown>>

/**
 * The route table from the areas' `screens.ts` modules (file name to exports). A declaration that
 * is not what src/crud/screens/screens.ts makes, or a path declared twice, stops the start at once with
 * the file to fix, rather than leaving a screen silently unreachable.
 */
export function buildRouteTable(modules: Readonly<Record<string, AreaModule>>): RouteTable {
  const declared = new Map<string, ScreenDecl>()
  const authRoutes: AuthScreenDecl[] = []
  // Which file declared each path, to name both files of a path declared twice.
  const owner = new Map<string, string>()
  const claim = (path: string, component: unknown, file: string) => {
    const earlier = owner.get(path)
    if (earlier !== undefined) throw new Error(`${file}: ${path} is declared twice (also in ${earlier})`)
    if (!isLazyScreen(component)) throw new Error(`${file}: the component of ${path} must be made by lazyScreen`)
    owner.set(path, file)
  }
  for (const [file, module] of Object.entries(modules)) {
    const { screens, authScreens } = module
    if (screens === undefined && authScreens === undefined) {
      throw new Error(`${file} exports neither \`screens = declareScreens([...])\` nor \`authScreens = declareAuthScreens([...])\``)
    }
    if (screens !== undefined && !isScreenList(screens)) throw new Error(`${file}: \`screens\` must be made by declareScreens`)
    if (authScreens !== undefined && !isAuthScreenList(authScreens)) throw new Error(`${file}: \`authScreens\` must be made by declareAuthScreens`)
    for (const decl of screens ?? []) {
      claim(decl.path, decl.component, file)
      declared.set(decl.path, decl)
    }
    for (const decl of authScreens ?? []) {
      claim(decl.path, decl.component, file)
      authRoutes.push(decl)
    }
  }
  const routes = contractScreens.flatMap((screen): RouteRow[] => {
    const decl = declared.get(screen.path)
    if (!decl) return []
    declared.delete(screen.path)
    return [
      {
        ...decl,
        title: screen.title,
        heading: 'heading' in screen ? screen.heading : undefined,
        menu: 'menu' in screen ? screen.menu : undefined,
        beneath: 'beneath' in screen ? screen.beneath : undefined,
        parent: 'parent' in screen ? screen.parent : undefined,
      },
    ]
  })
  for (const path of declared.keys()) throw new Error(`${owner.get(path)}: ${path} is not a screen of the contract (contract/routes.ts)`)
  return { routes, authRoutes }
}

const table = buildRouteTable(import.meta.glob<AreaModule>('../features/*/screens.ts', { eager: true }))

export const routes: readonly RouteRow[] = table.routes

/** Forgot Password, Register: absent until an area declares them, so no link leads nowhere. */
export const authRoutes: readonly AuthScreenDecl[] = table.authRoutes

/** Whether this session may use an Add or Edit page: Admin access, and the row's own rule. */
export const mayWrite = (row: RouteRow, session: Session): boolean => session.canWrite && (row.writeRule?.(session) ?? true)

export const routeFor = (path: string): RouteRow | undefined =>
  routes.find((r) => r.path.toLowerCase() === path.toLowerCase())

/** Whether a built screen exists at `path` (the header shows Profile only once it is built). */
export const isBuilt = (path: ScreenPath): boolean => routeFor(path) !== undefined

export const hasAuthRoute = (path: AuthPath): boolean => authRoutes.some((r) => r.path === path)

/** Starts loading the chunk of the screen at `path` (a no-op for unknown paths). */
export function preloadScreen(path: string): Promise<unknown> {
  const row = routeFor(path) ?? authRoutes.find((r) => r.path === path)
  return row ? preloadLazy(row.component) : Promise.resolve()
}

const everyone: readonly string[] = [...openToEveryone, ...alwaysAllowed]

/**
 * The first screen this session may open: where a refused route sends the admin (requirements R6.3).
 * The first among the pages their access names; when it names none but those every admin keeps,
 * the first of those, the dashboard (so a restricted admin is not sent away from their lists).
 */
export function firstAllowed(mayOpen: (path: string) => boolean): RouteRow | undefined {
  const pages = routes.filter((r) => r.kind === 'page' && mayOpen(r.path))
  return pages.find((r) => !everyone.includes(r.path)) ?? pages[0]
}
