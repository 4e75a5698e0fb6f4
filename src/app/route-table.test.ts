import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { lazy } from 'react'
import { describe, expect, it } from 'vitest'
import { mayOpen, screens as contractScreens } from '#contract/routes'
import { declareAuthScreens, declareScreens, isAuthScreenList, isScreenList, lazyScreen, type LazyScreen } from '#src/crud/screens/screens.ts'
import type { Session } from '#src/lib/session.ts'
import { authRoutes, buildRouteTable, firstAllowed, hasAuthRoute, mayWrite, routeFor, routes } from './route-table.ts'

const session = (over: Partial<Session>): Session => ({
  isAuth: true,
  userId: 'a1',
  email: 'staff@example.com',
  role: 'subadmin',
  accessLevel: 'Admin',
  restrictions: [],
  canWrite: true,
  mayOpen: () => true,
  scope: 'a1',
  idleSeconds: null,
  viewAs: null,
  signedInSuperadmin: false,
  ...over,
})

const screen = (): LazyScreen => lazyScreen(async () => ({ Page: () => null }), 'Page')

describe('the route table', () => {
  it('picks up every area that has a screens.ts, without a list to keep', async () => {
    const features = join(import.meta.dirname, '../features')
    const areas = readdirSync(features).filter((name) => existsSync(join(features, name, 'screens.ts')))
    expect(areas).toEqual(expect.arrayContaining(['account', 'catalog', 'leads', 'staff']))
    const built = [...routes, ...authRoutes].map((r) => r.path)
    for (const area of areas) {
      const module: Record<string, unknown> = await import(`../features/${area}/screens.ts`)
      const paths = [
        ...(isScreenList(module.screens) ? module.screens : []),
        ...(isAuthScreenList(module.authScreens) ? module.authScreens : []),
      ].map((decl) => decl.path)
      expect(paths.length, area).toBeGreaterThan(0)
      for (const path of paths) expect(built, area).toContain(path)
    }
  })

  it('has each screen path once, in the contract order that the side menu follows', () => {
    const paths = routes.map((r) => r.path)
    expect(new Set(paths).size).toBe(paths.length)
    const order = contractScreens.map((s): string => s.path)
    const positions = paths.map((p) => order.indexOf(p))
    expect(positions.every((p) => p >= 0)).toBe(true)
    expect(positions).toEqual([...positions].sort((a, b) => a - b))
  })

  it('takes titles, menu places and parents from the contract', () => {
    expect(routeFor('/category')).toMatchObject({ title: 'Category List', menu: 'cms', kind: 'page', parent: undefined })
    expect(routeFor('/add-category')).toMatchObject({ title: 'Add Category', menu: undefined, kind: 'action', parent: '/category' })
    expect(routeFor('/EDIT-category')).toMatchObject({ title: 'Edit Category', kind: 'record', parent: '/category' })
    expect(routeFor('/users')).toMatchObject({ title: 'Leads', menu: 'top', kind: 'page' })
  })

  it('makes every Add and Edit page a child of a built list page', () => {
    for (const row of routes.filter((r) => r.kind !== 'page')) {
      expect(row.parent, row.path).toBeDefined()
      expect(routeFor(row.parent ?? '')?.kind, row.path).toBe('page')
    }
  })

  it('keeps the auth screens apart from the signed-in ones', () => {
    expect(hasAuthRoute('/forgot')).toBe(true)
    expect(routeFor('/forgot')).toBeUndefined()
  })

  it('lets staff pages be written only by an Admin who is not a subadmin', () => {
    const createUser = routeFor('/add-subAdmin')
    const addCategory = routeFor('/add-category')
    if (!createUser || !addCategory) throw new Error('Create User and Add Category are built')
    expect(mayWrite(addCategory, session({}))).toBe(true)
    expect(mayWrite(createUser, session({}))).toBe(false)
    expect(mayWrite(createUser, session({ role: 'superadmin' }))).toBe(true)
    expect(mayWrite(addCategory, session({ canWrite: false, accessLevel: 'View Only' }))).toBe(false)
  })

  it('sends a refused admin to the first page they may open, never to an Add page', () => {
    const only = (paths: string[]) => (path: string) => paths.includes(path)
    expect(firstAllowed(only(['/add-category', '/category']))?.path).toBe('/category')
    expect(firstAllowed(only(['/add-category']))).toBeUndefined()
  })

  it('puts the dashboard first in the menu, open to every restriction list, yet sends a refused admin to their own first page', () => {
    expect(routes[0]).toMatchObject({ path: '/dashboard', title: 'Dashboard', menu: 'top', kind: 'page' })
    expect(mayOpen(['/category', '/add-category'], '/dashboard')).toBe(true)
    expect(firstAllowed((path) => mayOpen(['/category'], path))?.path).toBe('/category')
    expect(firstAllowed((path) => mayOpen(['/profile', '/resetpassword'], path))?.path).toBe('/dashboard')
  })
})

describe('palette sources', () => {
  it('come from the list screens that declare records, each with its own heading', () => {
    const withRecords = routes.filter((r) => r.records)
    const sources = withRecords.map((r) => [r.path, r.records?.heading])
    expect(sources).toEqual(expect.arrayContaining([['/users', 'Leads'], ['/contactus', 'Contact Us'], ['/category', 'Categories']]))
    expect(new Set(sources.map(([, heading]) => heading)).size).toBe(sources.length)
    expect(withRecords.every((r) => r.kind === 'page')).toBe(true)
  })

  it('all load, each from a list endpoint of its own', async () => {
    const readers = await Promise.all(routes.flatMap((r) => (r.records ? [r.records.load()] : [])))
    const names = readers.map((reader) => reader.endpointName)
    expect(names.every((name) => name.length > 0)).toBe(true)
    expect(new Set(names).size).toBe(names.length)
    for (const reader of readers) expect(reader.records(undefined)).toEqual([])
  })

  it('load their endpoint on demand and read its cached answers, ignoring what does not parse', async () => {
    const categories = await routeFor('/category')?.records?.load()
    expect(categories?.endpointName).toBe('listCategory')
    const answer = { status: 'success', message: 'ok', count: 1, result: [{ _id: 'c1', categoryName: 'Arcade & co', image: '', thumbnail: '', preference: 1, version: 1 }] }
    expect(categories?.records(answer)).toEqual([{ id: 'c1', label: 'Arcade & co', detail: 'Category ID c1', href: '/category?search=Arcade%20%26%20co' }])
    expect(categories?.records({ status: 'success', result: 'nope' })).toEqual([])
    const leads = await routeFor('/users')?.records?.load()
    expect(leads?.endpointName).toBe('getuser')
    expect(leads?.records(null)).toEqual([])
  })
})

describe('buildRouteTable', () => {
  it('refuses a path declared twice, naming both files', () => {
    const a = { screens: declareScreens([{ path: '/category', kind: 'page', component: screen() }]) }
    const b = { screens: declareScreens([{ path: '/category', kind: 'page', component: screen() }]) }
    expect(() => buildRouteTable({ 'a/screens.ts': a, 'b/screens.ts': b })).toThrow('b/screens.ts: /category is declared twice (also in a/screens.ts)')
  })

  it('refuses exports that declareScreens did not make, and a module with neither export', () => {
    const handMade = [{ path: '/category', kind: 'page', component: screen() }]
    expect(() => buildRouteTable({ 'x/screens.ts': { screens: handMade } })).toThrow('x/screens.ts: `screens` must be made by declareScreens')
    expect(() => buildRouteTable({ 'x/screens.ts': { authScreens: [] } })).toThrow('`authScreens` must be made by declareAuthScreens')
    expect(() => buildRouteTable({ 'x/screens.ts': { routes: [] } })).toThrow('x/screens.ts exports neither')
  })

  it('refuses a component that lazyScreen did not make (it could not be preloaded)', () => {
    const plain = lazy(async () => ({ default: () => null }))
    expect(() => buildRouteTable({ 'x/screens.ts': { screens: declareScreens([{ path: '/category', kind: 'page', component: plain }]) } })).toThrow(
      'x/screens.ts: the component of /category must be made by lazyScreen',
    )
  })

  it('orders rows by the contract whatever the order of files and declarations', () => {
    const table = buildRouteTable({
      'z/screens.ts': { screens: declareScreens([{ path: '/users', kind: 'page', component: screen() }]) },
      'a/screens.ts': {
        screens: declareScreens([
          { path: '/add-category', kind: 'action', component: screen() },
          { path: '/category', kind: 'page', component: screen() },
        ]),
        authScreens: declareAuthScreens([{ path: '/register', component: screen() }]),
      },
    })
    expect(table.routes.map((r) => r.path)).toEqual(['/users', '/category', '/add-category'])
    expect(table.authRoutes.map((r) => r.path)).toEqual(['/register'])
  })
})
