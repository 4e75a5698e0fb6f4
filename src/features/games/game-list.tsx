import { Link } from 'wouter'
import { gamesBulk } from '#contract/bulk'
import { DeleteCms, FreezeCms, listCms, type Game } from '#contract/games'
import { IdText, col, field, low, mono, serial, wrapped, yesNo } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { listFilter } from '#src/crud/list/list-filters.tsx'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'
import { assetUrl } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { categoryOptions, operatingSystemOptions } from './game-options.ts'

const osText = (g: Game): string => (g.operatingsystem === '' ? '--' : g.operatingsystem)

/** The first image's thumbnail (never the original: a list of games would download every full image). */
function Thumbnail({ game }: { game: Game }) {
  const thumb = game.thumbnails[0]
  if (thumb === undefined) return <span aria-hidden="true">--</span>
  return <img src={assetUrl(thumb)} alt={game.title} width={40} height={40} loading="lazy" className="size-10 rounded object-cover" />
}

/**
 * The live link as a short "Open" link (a new tab): the whole address is in its tooltip and its
 * accessible name, and the View modal shows it in full. Shown as text, even shortened to the
 * column, an address said little (every one starts alike) and took the width the Status needs.
 */
function LiveLink({ href }: { href: string }) {
  // A link may be saved as a bare host (requirements R5.1: www...), which a browser would read as a path here.
  const absolute = /^https?:\/\//i.test(href) ? href : `https://${href}`
  return (
    <a href={absolute} target="_blank" rel="noopener noreferrer" title={href} aria-label={`Open ${href}`} className="text-indigo-700 underline-offset-4 hover:underline">
      Open
    </a>
  )
}

/**
 * Live or Frozen, as a badge: the state read at a glance, where the Freeze / UnFreeze button beside
 * it (requirements R4.4) names what pressing it does.
 */
export function GameStatus({ frozen }: { frozen: boolean }) {
  return frozen ? (
    <span className="inline-flex rounded-full bg-indigo-50 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-indigo-900">Frozen</span>
  ) : (
    <span className="inline-flex rounded-full bg-emerald-50 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-emerald-800">Live</span>
  )
}

/** Edit Token is a child of Games (contract/routes.ts): Admins reach it from here. */
function EditTokenLink() {
  const write = useWriteAccess()
  if (!write.allowed) return null
  return (
    <Button asChild variant="outline">
      <Link href="/edit-token">Edit Token</Link>
    </Button>
  )
}

/** Games (/cms): requirements R2.14, with the category and operating-system filters in the URL. */
export const GameListPage = defineList({
  title: 'Games',
  empty: { says: 'The games users can play, each with its category, operating system and live link.', addFirst: 'Create the first game' },
  endpoint: listCms,
  columns: [
    serial(),
    // Long titles wrap, so the columns after them stay on screen beside the sidebar at 1280 px.
    wrapped(col('title', 'Title')),
    { header: 'Operating System', cell: osText },
    { header: 'Category Name', sortBy: 'categoryName', cell: (g: Game) => g.categoryName.categoryName },
    low(mono('_id', 'Game ID')),
    low({ header: 'Category ID', cell: (g: Game) => <IdText value={g.categoryName._id} label="Category ID" /> }),
    low({ header: 'Live Link', cell: (g: Game) => <LiveLink href={g.liveLink} /> }),
    low(yesNo('isGameBackend', 'Game Backend')),
    // Ours, after the columns of requirements R2.14: last, so it sits beside the row's Freeze / UnFreeze.
    { header: 'Status', cell: (g: Game) => <GameStatus frozen={g.freeze} /> },
  ],
  // The first image's thumbnail is in View: R2.14 gives the table no image column, and its width
  // went to Status, so every column still fits at 1280 px beside the side menu.
  view: {
    title: 'Game Details',
    fields: [{ label: 'Image', value: (g: Game) => <Thumbnail game={g} /> }, field('title', 'Title'), field('description', 'Description'), field('_id', 'Game ID', 'mono'), field('liveLink', 'Live Link'), { label: 'Status', value: (g: Game) => <GameStatus frozen={g.freeze} /> }],
  },
  filters: [
    listFilter('category', 'Category', categoryOptions, 'All categories'),
    listFilter('operatingsystem', 'Operating System', operatingSystemOptions, 'All systems'),
  ],
  toolbar: EditTokenLink,
  add: { to: '/add-cms', label: 'Add Games' },
  edit: '/edit-cms',
  remove: { endpoint: DeleteCms, confirm: 'Are you sure you want to remove this games' },
  toggle: { kind: 'button', endpoint: FreezeCms, payload: (g) => ({ id: g._id }), isOn: (g) => g.freeze, label: (g) => (g.freeze ? 'UnFreeze' : 'Freeze') },
  serverBulk: gamesBulk,
})
