/**
 * The side menu of spec section 2, built from the route table: top-level items, and the CMS
 * group in the place of its first item. Only screens that exist and that this session may open
 * appear, so no entry leads nowhere or to a refusal.
 */
import { useState } from 'react'
import { Link, useLocation } from 'wouter'
import { cn } from '#src/ui/cn.ts'
import { routes, type RouteRow } from './route-table.ts'

type Entry = { kind: 'item'; row: RouteRow } | { kind: 'group'; label: string; rows: RouteRow[] }

export function menuEntries(mayOpen: (path: string) => boolean): Entry[] {
  const visible = routes.filter((r) => r.kind === 'page' && r.menu !== undefined && mayOpen(r.path))
  const entries: Entry[] = []
  for (const row of visible) {
    if (row.menu === 'top') entries.push({ kind: 'item', row })
    else if (!entries.some((e) => e.kind === 'group')) {
      entries.push({ kind: 'group', label: 'CMS', rows: visible.filter((r) => r.menu === 'cms') })
    }
  }
  return entries
}

const linkClass = (active: boolean) =>
  cn(
    'block rounded-md px-3 py-2 text-sm',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white',
    active ? 'bg-indigo-600 font-medium text-white' : 'text-slate-200 hover:bg-slate-800 hover:text-white',
  )

function MenuLink({ row, onNavigate }: { row: RouteRow; onNavigate: () => void }) {
  const [location] = useLocation()
  // A child page (Add Category) keeps its parent's entry highlighted.
  const active = location.toLowerCase() === row.path.toLowerCase() || routes.some((r) => r.parent === row.path && r.path.toLowerCase() === location.toLowerCase())
  return (
    <Link href={row.path} className={linkClass(active)} aria-current={active ? 'page' : undefined} onClick={onNavigate}>
      {row.title}
    </Link>
  )
}

export function SideMenu({ mayOpen, onNavigate }: { mayOpen: (path: string) => boolean; onNavigate: () => void }) {
  const [location] = useLocation()
  const entries = menuEntries(mayOpen)
  const inCms = routes.some((r) => r.menu === 'cms' && (r.path === location || r.path === routes.find((c) => c.path === location)?.parent))
  const [cmsOpen, setCmsOpen] = useState(true)
  return (
    <nav aria-label="Main" className="px-3 py-4">
      <ul className="grid gap-1">
        {entries.map((entry) =>
          entry.kind === 'item' ? (
            <li key={entry.row.path}>
              <MenuLink row={entry.row} onNavigate={onNavigate} />
            </li>
          ) : (
            <li key="cms-group">
              <button
                type="button"
                aria-expanded={cmsOpen}
                aria-controls="menu-cms"
                onClick={() => setCmsOpen(!cmsOpen)}
                className={cn(
                  'flex w-full items-center justify-between rounded-md px-3 py-2 text-left text-sm hover:bg-slate-800',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white',
                  inCms ? 'text-white' : 'text-slate-200',
                )}
              >
                {entry.label}
                <span aria-hidden="true">{cmsOpen ? '▾' : '▸'}</span>
              </button>
              {cmsOpen ? (
                <ul id="menu-cms" className="mt-1 grid gap-1 pl-3">
                  {entry.rows.map((row) => (
                    <li key={row.path}>
                      <MenuLink row={row} onNavigate={onNavigate} />
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ),
        )}
      </ul>
    </nav>
  )
}
