/**
 * What an admin may grant: the access rules of requirements R5.13 applied to a chosen page list, and the
 * privilege ceiling (nobody grants a level or a page they do not hold). Users and Access and the
 * approval of an access request both grant access, so the rules live here, once.
 */
import type { AccessLevel } from '#contract/staff'
import { alwaysAllowed, childrenOf, mayOpen, openToEveryone, screens } from '#contract/routes'
import { failure, type ApiFailure } from '../../request/answers.ts'
import type { AdminRow } from '../../../db/schema.ts'

export const EMAIL_TAKEN = 'Email already exists'
export const LEVEL_ABOVE_YOURS = 'You cannot grant an access level you do not have'
export const PAGES_ABOVE_YOURS = 'You cannot grant access to pages you cannot open'

/** What a grant is measured by: an admin's role, level and pages (read-only, so literals fit too). */
export type Holder = { readonly role: AdminRow['role']; readonly accessLevel: AdminRow['accessLevel']; readonly restrictions: readonly string[] }

const screenOrder = new Map<string, number>(screens.map((s, i) => [s.path, i]))
const childPages = new Set<string>(screens.filter((s) => 'parent' in s).map((s) => s.path))

/**
 * Requirements R5.13, the access rules, applied to what the client sent (the PWA applies them too, but a
 * client is not trusted to). An empty list means every page and is kept empty.
 */
export function normalizeRestrictions(level: AccessLevel, chosen: readonly string[], onEdit: boolean): string[] {
  // A page open to everyone (the dashboard) is no Access option: naming it grants nothing, and a
  // list holding only it must not pass as a choice (emptied, it would mean every page).
  const pages = new Set(chosen.filter((page) => !(openToEveryone as readonly string[]).includes(page)))
  if (level === 'Admin') {
    for (const page of chosen) for (const child of childrenOf(page)) pages.add(child)
  } else {
    for (const page of chosen) if (childPages.has(page)) pages.delete(page)
  }
  if (onEdit && pages.size > 0) for (const page of alwaysAllowed) pages.add(page)
  return [...pages].sort((a, b) => (screenOrder.get(a) ?? 0) - (screenOrder.get(b) ?? 0))
}

/**
 * The pages to store, or the "access is required" answer (requirements R5.11) when the access rules would empty
 * a chosen list (View Only given only child pages): an empty list means every page, so storing it
 * would grant far more than was chosen.
 */
export function grantedPages(level: AccessLevel, chosen: readonly string[], onEdit: boolean, message: string): string[] | ApiFailure {
  const granted = normalizeRestrictions(level, chosen, onEdit)
  return chosen.length > 0 && granted.length === 0 ? failure(message, { restrictions: message }) : granted
}

/** The privilege ceiling: null when `actor` holds `level` and every page of `restrictions` (empty: every page), else the 403 answer. */
export function grantCheck(actor: Holder, level: AccessLevel, restrictions: readonly string[]): ApiFailure | null {
  if (actor.role === 'superadmin') return null
  if (level === 'Admin' && actor.accessLevel !== 'Admin') return failure(LEVEL_ABOVE_YOURS, { accessLevel: LEVEL_ABOVE_YOURS }, 403)
  if (actor.restrictions.length === 0) return null
  if (restrictions.length === 0 || restrictions.some((page) => !mayOpen(actor.restrictions, page))) {
    return failure(PAGES_ABOVE_YOURS, { restrictions: PAGES_ABOVE_YOURS }, 403)
  }
  return null
}
