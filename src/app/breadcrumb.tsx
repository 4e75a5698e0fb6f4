/**
 * Where a screen sits in the side menu, above its heading, on the screens that need it: a child page
 * (Add Brand) names the list it adds to, as a link back; a page whose heading is not its menu entry's
 * name (menu "Brand Tab", heading "Brand List", both as the requirements write them) shows the
 * menu's name, so staff see they are in the place they chose. Other screens' headings are their
 * menu names already, and show no breadcrumb.
 */
import { Fragment } from 'react'
import { Link } from 'wouter'
import { routeFor, type RouteRow } from './route-table.ts'

export interface Crumb {
  label: string
  /** A link back, absent for the group's name and for the page itself. */
  href?: string
  current?: boolean
}

/** The crumbs of a screen, [] when its heading says where it is already. */
export function crumbsFor(row: RouteRow | undefined): Crumb[] {
  if (row === undefined) return []
  const host = (r: RouteRow): RouteRow | undefined => (r.beneath === undefined ? undefined : routeFor(r.beneath))
  const group = (r: RouteRow): Crumb[] => {
    if (r.menu === 'cms') return [{ label: 'CMS' }]
    const above = host(r)
    return above === undefined ? [] : [{ label: above.title, href: above.path }]
  }
  if (row.parent !== undefined) {
    const parent = routeFor(row.parent)
    if (parent === undefined || parent.kind !== 'page') return []
    return [...group(parent), { label: parent.title, href: parent.path }]
  }
  // A page listed beneath another entry names that entry, as a link back to it.
  if (row.heading === undefined && row.beneath === undefined) return []
  return [...group(row), { label: row.title, current: true }]
}

export function Breadcrumb({ location }: { location: string }) {
  const crumbs = crumbsFor(routeFor(location))
  if (crumbs.length === 0) return null
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600">
      <ol className="flex flex-wrap items-center gap-1.5">
        {crumbs.map((c, i) => (
          <Fragment key={c.label}>
            {i > 0 ? (
              <li aria-hidden="true" className="text-slate-500">
                ›
              </li>
            ) : null}
            <li>
              {c.href !== undefined ? (
                <Link href={c.href} className="font-medium text-indigo-700 underline-offset-4 hover:underline">
                  {c.label}
                </Link>
              ) : (
                <span aria-current={c.current ? 'page' : undefined} className={c.current ? 'font-medium text-slate-800' : undefined}>
                  {c.label}
                </span>
              )}
            </li>
          </Fragment>
        ))}
      </ol>
    </nav>
  )
}
