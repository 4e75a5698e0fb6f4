/**
 * How an area declares its screens: each feature folder has a small, eagerly loaded
 * `screens.ts` listing its routes (typed as the contract's ScreenPath), what kind of page each is,
 * its write rule and the records it offers the palette. The route table, the side menu, the guard
 * and the palette all derive from these declarations (src/app/routes.tsx); the screens
 * themselves stay lazy chunks.
 *
 *     export const screens = declareScreens([
 *       { path: '/category', kind: 'page', component: lazyScreen(() => import('./category-list.tsx'), 'CategoryListPage'),
 *         records: paletteRecords('Categories', listCategory, (a) => a.result.map(...)) },
 *       { path: '/add-category', kind: 'action', component: lazyScreen(() => import('./category-form.tsx'), 'AddCategoryPage') },
 *     ])
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import { z } from 'zod'
import type { Endpoint, Output } from '#contract/define'
import type { ScreenPath } from '#contract/routes'
import type { WriteRule } from './write-access.ts'

/**
 * - `page`: a screen of its own (menu, palette).
 * - `action`: a page that creates something (an Add page): Admin only, listed as a palette action.
 * - `record`: a page about one record reached from a list (an Edit page): Admin only, not in the
 *   palette since it needs the record.
 */
export type ScreenKind = 'page' | 'action' | 'record'

export type LazyScreen = LazyExoticComponent<ComponentType>

/** A record the palette offers from data already in the cache (works offline). */
export interface PaletteRecord {
  id: string
  label: string
  detail: string
  /** Path (with query) to open; the lists keep their search in the URL. */
  href: string
}

/** Where a screen's palette records come from: the cached answers of one list endpoint. */
export interface PaletteSource {
  heading: string
  endpointName: string
  records: (data: unknown) => PaletteRecord[]
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

// Each lazy screen's loader, so the start-up can fetch the first screen's chunk in parallel with
// the session instead of after the first render (see preloadScreen in src/app/routes.tsx).
const loaders = new WeakMap<LazyScreen, () => Promise<unknown>>()

/** React.lazy for a named export: screens use named exports (STYLE.md), lazy wants a default. */
export function lazyScreen<K extends string>(load: () => Promise<Record<K, ComponentType>>, key: K): LazyScreen {
  const component = lazy(async () => ({ default: (await load())[key] }))
  loaders.set(component, load)
  return component
}

/** Starts loading a lazy screen's chunk. */
export const preloadLazy = (component: LazyScreen): Promise<unknown> => loaders.get(component)?.() ?? Promise.resolve()

/** An area's screens (a typed identity, so the declarations read alike everywhere). */
export const declareScreens = (decls: readonly ScreenDecl[]): readonly ScreenDecl[] => decls

/** Palette records from the cached answers of `endpoint`, parsed with its schema first. */
export function paletteRecords<E extends Endpoint>(heading: string, endpoint: E, pick: (answer: Output<E>) => PaletteRecord[]): PaletteSource {
  const output: E['output'] = endpoint.output
  return {
    heading,
    endpointName: endpoint.name,
    records: (data) => {
      const answer = z.safeParse(output, data)
      return answer.success ? pick(answer.data) : []
    },
  }
}

/** `/users?search=ann`: a list opened on one record's search. */
export const withSearch = (path: string, search: string): string => `${path}?search=${encodeURIComponent(search)}`
