/**
 * How an area declares its screens: each feature folder has a small `screens.ts` listing its
 * routes (typed as the contract's ScreenPath), what kind of page each is, its write rule and the
 * records it offers the palette. The route table, the side menu, the guard and the palette all
 * derive from these declarations (src/app/route-table.ts finds every
 * `src/features/<area>/screens.ts` by itself, so a new area needs no edit elsewhere).
 *
 *     export const screens = declareScreens([
 *       { path: '/category', kind: 'page', component: lazyScreen(() => import('./category-list.tsx'), 'CategoryListPage'),
 *         records: paletteRecords('Categories', async () => (await import('./palette.ts')).categories) },
 *       { path: '/add-category', kind: 'action', component: lazyScreen(() => import('./category-form.tsx'), 'AddCategoryPage') },
 *     ])
 *
 * Pages a visitor opens before signing in (requirements R2.1: Forgot Password, Register) are
 * declared in the same file as a second export, and a signed-in admin who opens one goes home:
 *
 *     export const authScreens = declareAuthScreens([
 *       { path: '/forgot', component: lazyScreen(() => import('./forgot-page.tsx'), 'ForgotPage') },
 *     ])
 *
 * Every `screens.ts` is part of the first load of every page, the login included, so it stays
 * light: screens are lazy chunks, and the palette's record readers (the area's `palette.ts`,
 * made by recordReader in src/crud/screens/palette-reader.ts: the endpoint, its zod schema and the code
 * that turns answers into records) load only when the palette opens. Lint refuses a static
 * import of a contract area, a component or `palette.ts` there.
 */
import type { ComponentType } from 'react'
import { preloadable } from '#src/lib/preloadable.ts'
import type { ScreenPath } from '#contract/routes'
import type { WriteRule } from '../writes/write-access.ts'

/**
 * - `page`: a screen of its own (menu, palette).
 * - `action`: a page that creates something (an Add page): Admin only, listed as a palette action.
 * - `record`: a page about one record reached from a list (an Edit page): Admin only, not in the
 *   palette since it needs the record.
 * - `view`: a page that shows one record reached from a list (View Brand): for everyone who may
 *   open it, not in the menu or the palette since it needs the record.
 */
export type ScreenKind = 'page' | 'action' | 'record' | 'view'

/** A screen's component, loaded on demand; it renders at once once preloaded (src/lib/preloadable.ts). */
export type LazyScreen = ComponentType

/** A record the palette offers from data already in the cache (works offline). */
export interface PaletteRecord {
  id: string
  label: string
  detail: string
  /** Path (with query) to open; the lists keep their search in the URL. */
  href: string
  /**
   * Writes the palette offers on this record (Freeze game, Resend promotion), to sessions that may
   * write on its screen and only online; each answers the message its toast shows, and the undo
   * ticket of an undoable write (its toast then offers Undo, src/crud/writes/undo.ts).
   */
  actions?: readonly PaletteAction[]
}

export interface PaletteAction {
  label: string
  run: () => Promise<{ message: string; undo?: unknown }>
}

/** Reads the cached answers of one list endpoint into palette records. */
export interface PaletteReader {
  endpointName: string
  records: (data: unknown) => PaletteRecord[]
}

/** Where a screen's palette records come from; `load` fetches the endpoint's schema once. */
export interface PaletteSource {
  heading: string
  load: () => Promise<PaletteReader>
}

export interface ScreenDecl {
  path: ScreenPath
  kind: ScreenKind
  component: LazyScreen
  /** Who may use an action or record page when Admin access is not enough (staff: role too). */
  writeRule?: WriteRule
  /** Records of this screen's list offered in the palette. */
  records?: PaletteSource
}

/** Auth screens besides Login (requirements R2.1), for visitors who are not signed in. */
export type AuthPath = '/forgot' | '/register'

export interface AuthScreenDecl {
  path: AuthPath
  component: LazyScreen
}

// Each lazy screen's loader, so the start-up can fetch the first screen's chunk in parallel with
// the session instead of after the first render (see preloadScreen in src/app/route-table.ts).
const loaders = new WeakMap<object, () => Promise<unknown>>()

/** A lazy screen from a named export: screens use named exports, so each has one name wherever it is imported. */
export function lazyScreen<K extends string>(load: () => Promise<Record<K, ComponentType>>, key: K): LazyScreen {
  const { Component, preload } = preloadable(async () => (await load())[key])
  loaders.set(Component, preload)
  return Component
}

/** Starts loading a lazy screen's chunk. */
export const preloadLazy = (component: LazyScreen): Promise<unknown> => loaders.get(component)?.() ?? Promise.resolve()

// The route table finds the declarations by file name, so it receives them as unknown module
// exports. Only arrays made by the two functions below are accepted: being in one of these sets
// proves an export was type-checked as a declaration list.
const declaredScreens = new WeakSet<readonly ScreenDecl[]>()
const declaredAuthScreens = new WeakSet<readonly AuthScreenDecl[]>()

/** An area's screens. */
export function declareScreens(decls: readonly ScreenDecl[]): readonly ScreenDecl[] {
  declaredScreens.add(decls)
  return decls
}

/** An area's auth screens (see the top of this file). */
export function declareAuthScreens(decls: readonly AuthScreenDecl[]): readonly AuthScreenDecl[] {
  declaredAuthScreens.add(decls)
  return decls
}

export const isScreenList = (value: unknown): value is readonly ScreenDecl[] =>
  Array.isArray(value) && declaredScreens.has(value)

export const isAuthScreenList = (value: unknown): value is readonly AuthScreenDecl[] =>
  Array.isArray(value) && declaredAuthScreens.has(value)

/** Whether `value` was made by lazyScreen (and so can be preloaded). */
export const isLazyScreen = (value: unknown): boolean => typeof value === 'function' && loaders.has(value)

/**
 * Palette records from the cached answers of a list endpoint. The reader comes through a loader
 * (`async () => (await import('./palette.ts')).leads`), so that it, its endpoint's schema and zod
 * stay out of the first load; it is fetched once, when the palette first asks.
 */
export function paletteRecords(heading: string, load: () => Promise<PaletteReader>): PaletteSource {
  let reader: Promise<PaletteReader> | undefined
  return {
    heading,
    load: () => {
      // A failed load (offline, before the chunk was cached) is tried again next time.
      reader ??= load().catch((error: unknown) => {
        reader = undefined
        throw error
      })
      return reader
    },
  }
}
