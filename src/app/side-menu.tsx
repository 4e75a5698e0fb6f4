/**
 * The side menu of requirements R2.6, built from the route table: top-level items, and the CMS
 * group in the place of its first item. Only screens that exist and that this session may open
 * appear, so no entry leads nowhere or to a refusal.
 */
import { useState } from 'react'
import { Link, useLocation } from 'wouter'
import { LINK_CHANGES_SCREEN } from '#contract/link-changes'
import { cn } from '#src/ui/cn.ts'
import { useMenuCounts, type MenuCount } from './menu-counts.ts'
import { routes, type RouteRow } from './route-table.ts'

/** A top-level entry, with the pages listed beneath it (Suppressed addresses beneath Messaging). */
type Entry = { kind: 'item'; row: RouteRow; below: RouteRow[] } | { kind: 'group'; label: string; rows: RouteRow[] }

/**
 * Entries shown only while the menu counts carry their count: Link changes is open to everyone,
 * yet means something only to an admin who may make a write that stores a link (the server counts
 * for them alone, contract/dashboard.ts).
 */
const COUNTED_ONLY: readonly string[] = [LINK_CHANGES_SCREEN]

export function menuEntries(mayOpen: (path: string) => boolean, counted: ReadonlyMap<string, unknown> = new Map()): Entry[] {
  const visible = routes.filter((r) => r.kind === 'page' && r.menu !== undefined && mayOpen(r.path) && (!COUNTED_ONLY.includes(r.path) || counted.has(r.path)))
  const hosted = (row: RouteRow): boolean => row.beneath !== undefined && visible.some((r) => r.path === row.beneath)
  const entries: Entry[] = []
  for (const row of visible) {
    if (row.menu === 'top' && !hosted(row)) entries.push({ kind: 'item', row, below: visible.filter((r) => r.beneath === row.path) })
    else if (!entries.some((e) => e.kind === 'group')) {
      entries.push({ kind: 'group', label: 'CMS', rows: visible.filter((r) => r.menu === 'cms') })
    }
  }
  return entries
}

const linkClass = (active: boolean) =>
  cn(
    'flex items-center gap-2 rounded-md px-3 py-2 text-sm',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white',
    active ? 'bg-indigo-600 font-medium text-white' : 'text-slate-200 hover:bg-slate-800 hover:text-white',
  )

/** A count beside an entry; none at zero, so a number always means something to do. */
function Badge({ value, active }: { value: MenuCount | undefined; active: boolean }) {
  if (value === undefined || value.count === 0) return null
  return (
    <span className={cn('ml-auto rounded-full px-2 py-0.5 text-xs font-semibold tabular-nums', active ? 'bg-white text-indigo-700' : 'bg-indigo-500 text-white')}>
      {value.count}
      <span className="sr-only"> {value.noun}</span>
    </span>
  )
}

function MenuLink({ row, count, onNavigate }: { row: RouteRow; count?: MenuCount | undefined; onNavigate: () => void }) {
  const [location] = useLocation()
  // A child page (Add Category) keeps its parent's entry highlighted.
  const active = location.toLowerCase() === row.path.toLowerCase() || routes.some((r) => r.parent === row.path && r.path.toLowerCase() === location.toLowerCase())
  return (
    <Link href={row.path} className={linkClass(active)} aria-current={active ? 'page' : undefined} onClick={onNavigate}>
      {row.title}
      <Badge value={count} active={active} />
    </Link>
  )
}

export function SideMenu({ mayOpen, onNavigate }: { mayOpen: (path: string) => boolean; onNavigate: () => void }) {
  const [location] = useLocation()
  const counts = useMenuCounts()
  const entries = menuEntries(mayOpen, counts)
  const inCms = routes.some((r) => r.menu === 'cms' && (r.path === location || r.path === routes.find((c) => c.path === location)?.parent))
  const [cmsOpen, setCmsOpen] = useState(true)
  return (
    <nav aria-label="Main" className="px-3 py-4">
      <ul className="grid gap-1">
        {entries.map((entry) =>
          entry.kind === 'item' ? (
            <li key={entry.row.path}>
              <MenuLink row={entry.row} count={counts.get(entry.row.path)} onNavigate={onNavigate} />
              {entry.below.length > 0 ? (
                <ul aria-label={entry.row.title} className="mt-1 grid gap-1 pl-3">
                  {entry.below.map((row) => (
                    <li key={row.path}>
                      <MenuLink row={row} count={counts.get(row.path)} onNavigate={onNavigate} />
                    </li>
                  ))}
                </ul>
              ) : null}
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
