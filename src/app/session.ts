/**
 * The signed-in admin, decoded from the stored token at start (spec section 4). The token's
 * signature is the server's business; the client only reads the claims to decide what to show,
 * and every call is still checked by the server.
 */
import { useSyncExternalStore } from 'react'
import { z } from 'zod'
import { SessionClaims } from '#contract/auth'
import { mayOpen as restrictionsAllow } from '#contract/routes'
import { clearToken, readAuthorization, storeToken, subscribeToken } from '#src/lib/token.ts'

export interface Session {
  isAuth: boolean
  userId: string
  email: string
  role: SessionClaims['role'] | null
  accessLevel: SessionClaims['accessLevel'] | null
  restrictions: readonly string[]
  /** Admin access level (or the superadmin): may add, edit and delete (spec section 6). */
  canWrite: boolean
  /** Whether this session may open a screen route (spec section 2). */
  mayOpen: (path: string) => boolean
  /** Identifies the admin and their permissions: the offline cache is kept per scope. */
  scope: string
}

const Claims = SessionClaims.extend({ exp: z.number().optional() })

function decodePayload(jwt: string): unknown {
  const part = jwt.split('.')[1]
  if (!part) return null
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/')
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes))
    return parsed
  } catch {
    return null
  }
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
}

/** Decodes a stored 'Bearer <jwt>' value; a malformed or expired token counts as signed out. */
export function sessionFrom(authorization: string | null): Session {
  if (!authorization) return SIGNED_OUT
  const claims = Claims.safeParse(decodePayload(authorization.slice('Bearer '.length)))
  if (!claims.success) return SIGNED_OUT
  const { _id, email, role, accessLevel, restrictions, exp } = claims.data
  if (exp !== undefined && exp * 1000 <= Date.now()) return SIGNED_OUT
  const superadmin = role === 'superadmin'
  return {
    isAuth: true,
    userId: _id,
    email,
    role,
    accessLevel,
    restrictions,
    canWrite: superadmin || accessLevel === 'Admin',
    mayOpen: (path) => superadmin || restrictionsAllow(restrictions, path),
    scope: [_id, role, accessLevel, [...restrictions].sort().join(',')].join('|'),
  }
}

// One decoded session per stored value, so useSyncExternalStore sees a stable snapshot.
let lastAuthorization: string | null | undefined
let current: Session = SIGNED_OUT

export function getSession(): Session {
  const authorization = readAuthorization()
  if (authorization !== lastAuthorization) {
    lastAuthorization = authorization
    current = sessionFrom(authorization)
    // A stored token that is expired or unreadable is dropped rather than sent with every call.
    if (authorization && !current.isAuth) clearToken()
  }
  return current
}

export function useSession(): Session {
  return useSyncExternalStore(subscribeToken, getSession, getSession)
}

/** Stores the raw JWT of a login answer; returns the session it opens. */
export function login(rawJwt: string): Session {
  storeToken(rawJwt)
  return getSession()
}

/** Ends the session: the token goes, and the offline cache is wiped (see session-effects). */
export function logout(): void {
  clearToken()
}

/** Runs `onEnd` whenever a session ends: Logout, a 401 from the server, another tab, LOGOUT. */
export function onSessionEnd(onEnd: (ended: Session) => void): () => void {
  let previous = getSession()
  return subscribeToken(() => {
    const next = getSession()
    if (previous.isAuth && previous.scope !== next.scope) onEnd(previous)
    previous = next
  })
}
