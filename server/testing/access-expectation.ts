/**
 * What the Access rule (server/kit/ground/access/auth.ts, docs/security.md) promises each kind of caller, for the authorization matrix and
 * the fuzz: one statement of the rule, so the two tests can never disagree about it.
 */
import type { Access } from '../../contract/define.ts'

export type Caller =
  | 'no token'
  | 'bad signature'
  | 'expired token'
  | 'revoked token'
  | 'deactivated admin'
  | 'View Only'
  | 'subadmin without the route'
  | 'subadmin with the route'
  | 'Admin'
  | 'superadmin'

export type Expected = 401 | 403 | 'allowed'

const signedOut = new Set<Caller>(['no token', 'bad signature', 'expired token', 'revoked token', 'deactivated admin'])

export function expectedAccess(access: Access, caller: Caller): Expected {
  if (access.kind === 'public') return 'allowed'
  if (signedOut.has(caller)) return 401
  if (access.kind === 'session' || caller === 'superadmin') return 'allowed'
  switch (caller) {
    case 'View Only':
      // The View Only caller is a sub-admin: staff calls refuse it even for reading.
      return access.write || access.staff === true ? 403 : 'allowed'
    case 'subadmin without the route':
      return 403
    case 'subadmin with the route':
      // Restricted to the one screen: never staff calls, nor a four-eyes approval (administrators only).
      return access.staff === true || access.approver === true ? 403 : 'allowed'
    default:
      // 'Admin' (every route): a sub-admin, so never staff calls.
      return access.staff === true ? 403 : 'allowed'
  }
}
