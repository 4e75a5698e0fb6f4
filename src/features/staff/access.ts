/**
 * The Access rules of Create User and Edit User (requirements R5.13), as pure
 * functions over route paths, all read from the contract's screen table.
 */
import { alwaysAllowed, childrenOf, screens } from '#contract/routes'
import type { Session } from '#src/lib/session.ts'
import type { SelectOption } from '#src/ui/select.tsx'

/** Staff management needs the Admin access level and a role other than subadmin (requirements R6.5). */
export const managesStaff = (session: Session): boolean => session.canWrite && session.role !== 'subadmin'

/** All menu pages but the dashboard; Edit User also offers Reset Password. */
export function accessOptions(form: 'create' | 'edit'): SelectOption[] {
  return screens
    .filter((s) => 'access' in s && (s.access === 'create' || (form === 'edit' && s.access === 'edit-only')))
    .map((s) => ({ value: s.path, label: s.title }))
}

const parentOf = (path: string): string | undefined => {
  const screen = screens.find((s) => s.path === path)
  return screen && 'parent' in screen ? screen.parent : undefined
}

const unique = (paths: readonly string[]): string[] => [...new Set(paths)]

/**
 * The access list after a change of user type or of the chosen pages: Admin gets the child pages
 * (add and edit screens) of every chosen parent, View Only loses every child page, and a child
 * page whose parent is no longer chosen goes with it. Other paths are kept as they are.
 */
export function normalizeAccess(paths: readonly string[], accessLevel: unknown): string[] {
  const kept = paths.filter((p) => {
    const parent = parentOf(p)
    if (parent === undefined) return true
    return accessLevel !== 'View Only' && paths.includes(parent)
  })
  if (accessLevel !== 'Admin') return unique(kept)
  return unique(kept.flatMap((p) => [p, ...childrenOf(p)]))
}

/** Edit User: a chosen list always keeps Profile and Reset Password (an empty list means all pages). */
export const withAlwaysAllowed = (paths: readonly string[]): string[] =>
  paths.length === 0 ? [] : unique([...paths, ...alwaysAllowed])

/**
 * The access list Create User and Edit User send. Access is hidden for Admin, so an Admin gets
 * every page (the empty list the staff list shows as '--'), whatever was chosen before switching;
 * any other type sends its chosen pages under the rules above (edit: with Profile and Reset Password).
 */
export function accessToSend(accessLevel: unknown, paths: readonly string[], form: 'create' | 'edit'): string[] {
  if (accessLevel === 'Admin') return []
  const chosen = normalizeAccess(paths, accessLevel)
  return form === 'edit' ? withAlwaysAllowed(chosen) : chosen
}

const titles = new Map<string, string>(screens.map((s) => [s.path, s.title]))

/** The staff list's Access column: '--' for every page (an empty list), else the pages' titles. */
export function accessLabel(restrictions: readonly string[]): string {
  if (restrictions.length === 0) return '--'
  return restrictions.map((path) => titles.get(path) ?? path).join(', ')
}

/** What a staff member may do on one menu page. */
type Grant = 'none' | 'read' | 'write'

/** A staff member's access as stored: their level and pages (none listed: every page). */
export interface StaffAccess {
  accessLevel: unknown
  restrictions: readonly string[]
}

/** What they may do on `page` (a menu page): Admin writes, View Only reads, where the page is theirs. */
function grantOn(access: StaffAccess, page: string): Grant {
  if (access.accessLevel !== 'Admin' && access.accessLevel !== 'View Only') return 'none'
  const theirs = access.restrictions.length === 0 || access.restrictions.includes(page)
  if (!theirs) return 'none'
  return access.accessLevel === 'Admin' ? 'write' : 'read'
}

/** One page whose access a save changes, in words: "Games: read → read and write". */
export interface AccessChange {
  page: string
  before: Grant
  after: Grant
}

const GRANT_WORDS: Record<Grant, string> = { none: 'no access', read: 'read only', write: 'read and write' }
export const grantWords = (grant: Grant): string => GRANT_WORDS[grant]

/**
 * The menu pages on which a save changes what the staff member may do, split into what they gain
 * (more than before) and what they lose, in the menu's order.
 */
export function accessChanges(before: StaffAccess, after: StaffAccess): { gains: AccessChange[]; losses: AccessChange[] } {
  const rank: Record<Grant, number> = { none: 0, read: 1, write: 2 }
  const gains: AccessChange[] = []
  const losses: AccessChange[] = []
  // Profile and Reset Password are open to every signed-in member whatever the list says: the
  // choosable pages are the others.
  for (const option of accessOptions('create')) {
    const change = { page: option.label, before: grantOn(before, option.value), after: grantOn(after, option.value) }
    if (rank[change.after] > rank[change.before]) gains.push(change)
    else if (rank[change.after] < rank[change.before]) losses.push(change)
  }
  return { gains, losses }
}
