/**
 * The signed-in admin, decoded from the stored token at start (requirements R4.2). The token's
 * signature is the server's business; the client reads the claims only to decide what to show,
 * and the server checks every call again.
 *
 * Claims are parsed by session-claims.ts, loaded on demand (`loadSessionDecoder`): main.tsx
 * awaits it before the first render when a token is stored, and login awaits it before storing
 * a new token, so a session is never seen half-read.
 */
import { useSyncExternalStore } from 'react'
import type { SessionClaims } from '#contract/auth'
import { mayOpen as restrictionsAllow } from '#contract/routes'
import { clearToken, readAuthorization, storeToken, subscribeToken } from './token.ts'
import { idleExpired, recordActivity } from './activity.ts'
import { API_BASE } from './api-origin.ts'
import type { DecodedClaims } from './session-claims.ts'
import { keepViewAs, readViewAs, subscribeViewAs, type ViewAs } from './view-as.ts'
import { toast } from '#src/ui/toast.ts'

export interface Session {
  isAuth: boolean
  userId: string
  email: string
  role: SessionClaims['role'] | null
  accessLevel: SessionClaims['accessLevel'] | null
  restrictions: readonly string[]
  /** Admin access level (or the superadmin): may add, edit and delete (requirements R6.5). */
  canWrite: boolean
  /** Whether this session may open a screen route (requirements R2.4). */
  mayOpen: (path: string) => boolean
  /** Identifies the admin and their permissions: the offline cache is kept per scope. */
  scope: string
  /** Seconds without activity after which the session ends (the token's `idle`), or null for none. */
  idleSeconds: number | null
  /**
   * While the superadmin views as a staff member (View as, src/lib/view-as.ts): who, and by whom.
   * The fields above are then the member's, but `canWrite`, false: View as is read only.
   */
  viewAs: { name: string; accessLevel: SessionClaims['accessLevel']; by: string } | null
  /** The token's own admin is the superadmin (who alone may view as someone), viewing as someone or not. */
  signedInSuperadmin: boolean
}

const SIGNED_OUT: Session = {
  isAuth: false,
  userId: '',
  email: '',
  role: null,
  accessLevel: null,
  restrictions: [],
  canWrite: false,
  mayOpen: () => false,
  scope: '',
  idleSeconds: null,
  viewAs: null,
  signedInSuperadmin: false,
}

type Decoder = (jwt: string) => DecodedClaims | null
let decoder: Decoder | null = null
let decoderLoad: Promise<void> | null = null
const listeners = new Set<() => void>()

/** Loads the claims parser (and zod); resolves at once when already loaded. */
export function loadSessionDecoder(): Promise<void> {
  decoderLoad ??= import('./session-claims.ts').then((module) => {
    decoder = module.decodeClaims
    for (const listener of listeners) listener()
  })
  return decoderLoad
}

function sessionFrom(claims: DecodedClaims, viewAs: ViewAs | null): Session {
  const own = claims.role === 'superadmin'
  // View as is the superadmin's only: a kept one under another admin's token is ignored (the server ignores it too).
  const viewing = own ? viewAs : null
  const { _id, email, role, accessLevel, restrictions } = viewing === null ? claims : viewing.member
  const superadmin = role === 'superadmin'
  return {
    isAuth: true,
    userId: _id,
    email,
    role,
    accessLevel,
    restrictions,
    canWrite: viewing === null && (superadmin || accessLevel === 'Admin'),
    mayOpen: (path) => superadmin || restrictionsAllow(restrictions, path),
    // The offline copy is kept per scope: the member's data viewed as is never the superadmin's own.
    scope: [...(viewing === null ? [] : [`view-as:${claims._id}`]), _id, role, accessLevel, [...restrictions].sort().join(',')].join('|'),
    idleSeconds: claims.idle ?? null,
    viewAs: viewing === null ? null : { name: viewing.member.name, accessLevel: viewing.member.accessLevel, by: viewing.by },
    signedInSuperadmin: own,
  }
}

// One decoded session per stored value, so useSyncExternalStore sees a stable snapshot.
let lastAuthorization: string | null | undefined
let lastDecoder: Decoder | null = null
let lastViewAs: ViewAs | null = null
let current: Session = SIGNED_OUT

export function getSession(): Session {
  const authorization = readAuthorization()
  const viewAs = readViewAs(authorization)
  if (authorization === lastAuthorization && decoder === lastDecoder && viewAs === lastViewAs) return current
  if (authorization && !decoder) {
    // Only reached when another tab stores a token before this one read any: read it shortly.
    void loadSessionDecoder()
    return SIGNED_OUT
  }
  lastAuthorization = authorization
  lastDecoder = decoder
  lastViewAs = viewAs
  const decoded = authorization && decoder ? decoder(authorization.slice('Bearer '.length)) : null
  // A token whose session went idle (a browser closed on a signed-in screen and opened again
  // later) ends here, before anything of the session is shown or read from the offline copy.
  const claims = decoded && decoded.idle !== undefined && idleExpired(decoded.idle, Date.now()) ? null : decoded
  current = claims ? sessionFrom(claims, viewAs) : SIGNED_OUT
  // A stored token that is expired, idle or unreadable is dropped rather than sent with every call.
  if (authorization && !claims) clearToken()
  return current
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  const stop = subscribeToken(listener)
  const stopViewAs = subscribeViewAs(listener)
  return () => {
    listeners.delete(listener)
    stop()
    stopViewAs()
  }
}

export function useSession(): Session {
  return useSyncExternalStore(subscribe, getSession, getSession)
}

/** Stores the raw JWT of a login answer; returns the session it opens. */
export async function login(rawJwt: string): Promise<Session> {
  await loadSessionDecoder()
  // Signing in is activity: the idle time counts from now, not from the last session's end.
  recordActivity(Date.now(), true)
  storeToken(rawJwt)
  return getSession()
}

/**
 * Logout (and the idle timeout): the server revokes this token, and the
 * browser forgets it at once, whatever the answer; main.tsx's `onSessionEnd` wipes the offline
 * cache. The request is sent with `keepalive`, so the reload that may follow does not cancel it;
 * offline or failing, the token is forgotten all the same (the server then refuses it once idle).
 */
export function logout(): void {
  const authorization = readAuthorization()
  clearToken()
  // Signing out ends View as on the server too: nothing of it is kept.
  keepViewAs(null)
  if (authorization) revokeOnServer(authorization)
}

/**
 * The admin's Logout (the account menu, the palette, the idle warning's Log out): as `logout`,
 * then the page reloads (requirements R4.3), so nothing of the session stays in this page's memory.
 * The start without a session that follows wipes what the offline copy still holds.
 */
export function logoutAndReload(): void {
  logout()
  window.location.reload()
}

/**
 * A session ended by the server (its LOGOUT event) or by the idle timeout: the reason in a toast,
 * then Logout. One path for both, so an idle session ends exactly as a forced logout does.
 */
export function endSession(message: string): void {
  // Already ended (another tab's logout arrived first, or a second event): say nothing twice.
  if (!readAuthorization()) return
  // It stays until dismissed: after an idle timeout nobody is looking at the screen.
  toast.lasting(message)
  logout()
}

function revokeOnServer(authorization: string): void {
  try {
    fetch(`${API_BASE}/logout`, {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: '{}',
      keepalive: true,
    }).catch(() => {})
  } catch {
    // No fetch at all (a very old browser): the token is forgotten here all the same.
  }
}

/** Runs `onEnd` whenever a session ends: Logout, a 401 from the server, another tab, LOGOUT. */
export function onSessionEnd(onEnd: (ended: Session) => void): () => void {
  let previous = getSession()
  return subscribe(() => {
    const next = getSession()
    if (previous.isAuth && previous.scope !== next.scope) onEnd(previous)
    previous = next
  })
}
