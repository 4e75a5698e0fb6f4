/**
 * View as, in the browser (contract/staff.ts, startViewAs): while the superadmin's session views
 * the back office as a staff member, the session (session.ts) takes that member's access for the
 * menu and the route guard, and writes are hidden. The server decides and enforces it; this keeps
 * what the server answered (startViewAs, or Profile's `viewAs`) so a reload shows the same view
 * at once. It is kept beside the token it belongs to: another token never reads it.
 *
 * The session's scope changes with it, so the offline copy of the superadmin's own data is wiped
 * when View as starts and the viewed member's when it ends (main.tsx, onSessionEnd): the two are
 * never shown for each other.
 */
import type { ViewedMember } from '#contract/staff'
import { readAuthorization } from './token.ts'

export const VIEW_AS_KEY = 'admin_view_as'

export interface ViewAs {
  /** The end of the token it belongs to (its signature). */
  token: string
  member: ViewedMember
  /** The signed-in superadmin's name, for the banner. */
  by: string
}

const isText = (v: unknown): v is string => typeof v === 'string'

/**
 * What the storage holds, checked by hand: this is read on every start, and zod and the staff
 * contract stay out of the first chunk.
 */
function parseStored(value: unknown): ViewAs | null {
  if (typeof value !== 'object' || value === null) return null
  const token: unknown = Reflect.get(value, 'token')
  const by: unknown = Reflect.get(value, 'by')
  const member: unknown = Reflect.get(value, 'member')
  if (!isText(token) || !isText(by) || typeof member !== 'object' || member === null) return null
  const field = (name: string): unknown => Reflect.get(member, name)
  const role = field('role')
  const accessLevel = field('accessLevel')
  const restrictions = field('restrictions')
  const [_id, name, email] = [field('_id'), field('name'), field('email')]
  if (!isText(_id) || !isText(name) || !isText(email)) return null
  if (role !== 'superadmin' && role !== 'subadmin') return null
  if (accessLevel !== 'Admin' && accessLevel !== 'View Only') return null
  if (!Array.isArray(restrictions) || !restrictions.every(isText)) return null
  return { token, by, member: { _id, name, email, role, accessLevel, restrictions } }
}

const tokenMark = (authorization: string): string => authorization.slice(-24)

type Listener = () => void
const listeners = new Set<Listener>()
let lastRaw: string | null | undefined
let lastValue: ViewAs | null = null

function storage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}

/** The View as of the stored token, or null (none, or one kept for another token). */
export function readViewAs(authorization: string | null = readAuthorization()): ViewAs | null {
  const raw = storage()?.getItem(VIEW_AS_KEY) ?? null
  if (raw !== lastRaw) {
    lastRaw = raw
    let parsed: unknown = null
    try {
      parsed = raw === null ? null : JSON.parse(raw)
    } catch {
      parsed = null
    }
    lastValue = parseStored(parsed)
  }
  if (lastValue === null || authorization === null || lastValue.token !== tokenMark(authorization)) return null
  return lastValue
}

/** Keeps what the server answered: the member viewed as (and by whom), or null once it ended. */
export function keepViewAs(member: ViewedMember | null, by = ''): void {
  const authorization = readAuthorization()
  const s = storage()
  if (member === null || authorization === null) s?.removeItem(VIEW_AS_KEY)
  else s?.setItem(VIEW_AS_KEY, JSON.stringify({ token: tokenMark(authorization), member, by }))
  for (const listener of listeners) listener()
}

export function subscribeViewAs(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

// Started or ended in another tab of the same session: follow it here too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === VIEW_AS_KEY || event.key === null) for (const listener of listeners) listener()
  })
}
