/**
 * What the server remembers about each session token, by its `jti`: when it was
 * last used, for the idle limit, and whether Logout revoked it. A token issued by login has no row
 * until its first use; `checkSession` reads the row in the same query as the admin, so the check
 * costs no extra round trip, and writes it at most once a minute per token.
 *
 * Why the server enforces the idle limit too: the PWA's timer ends the session in the browser,
 * but a token copied out of it (or left in a browser closed without logging out) would otherwise
 * live to its 12-hour expiry. The server limit is the configured idle time plus a grace that
 * covers the PWA's activity reports (at most one a minute while the admin is active) and the
 * minute between two writes of `last_seen_at`, so a session the PWA still shows is never refused.
 */
import { lt, sql } from 'drizzle-orm'
import { ACTIVITY_REPORT_MS } from '#contract/common'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/index.ts'
import { sessionTokens } from '../../db/schema.ts'

/** `last_seen_at` is written again only when it is at least this old (bounds writes to one a minute per token). */
export const TOUCH_EVERY_MS = 60_000
/** Added to the configured idle time on the server: a report's delay plus a touch's. */
export const IDLE_GRACE_MS = ACTIVITY_REPORT_MS + TOUCH_EVERY_MS

/** The token fields the server keeps a row for. */
export interface TokenRef {
  jti: string
  /** Seconds since the epoch, as in the token. */
  iat: number
  exp: number
}

/** A token's row as read beside its admin: absent until the token's first use. */
export interface TokenSeen {
  lastSeenAt: Date | null
  revokedAt: Date | null
}

/** The server's idle limit in milliseconds. */
export const serverIdleMs = (config: Config): number => config.idleTimeoutSeconds * 1000 + IDLE_GRACE_MS

/**
 * Why a verified token may no longer be used, or null when it may: revoked by Logout, or unused
 * for longer than the idle limit (a token never used counts from its issue time).
 */
export function tokenRefusal(config: Config, token: TokenRef, seen: TokenSeen, now: number): 'revoked' | 'idle' | null {
  if (seen.revokedAt !== null) return 'revoked'
  const last = seen.lastSeenAt?.getTime() ?? token.iat * 1000
  return now - last > serverIdleMs(config) ? 'idle' : null
}

/**
 * When a token still valid now stops being so unless it is used again: its expiry, or the end of
 * its idle limit counted from its last recorded use (a socket is checked again then).
 */
export function sessionEndsAt(config: Config, token: TokenRef, seen: TokenSeen): number {
  const last = seen.lastSeenAt?.getTime() ?? token.iat * 1000
  return Math.min(token.exp * 1000, last + serverIdleMs(config))
}

/** Whether this use should be written down (the last write is a minute old, or there is none). */
export function needsTouch(seen: TokenSeen, now: number): boolean {
  return seen.lastSeenAt === null || now - seen.lastSeenAt.getTime() >= TOUCH_EVERY_MS
}

/** Records a use of the token now (creating its row on first use); a revoked row stays revoked. */
export async function touchToken(db: Db, token: TokenRef, adminId: string, now: number): Promise<void> {
  const at = new Date(now)
  await db
    .insert(sessionTokens)
    .values({ jti: token.jti, adminId, expiresAt: new Date(token.exp * 1000), lastSeenAt: at })
    .onConflictDoUpdate({ target: sessionTokens.jti, set: { lastSeenAt: at } })
}

/** Revokes one token (Logout): every later call with it answers 401. */
export async function revokeToken(db: Db, token: TokenRef, adminId: string): Promise<void> {
  await db
    .insert(sessionTokens)
    .values({ jti: token.jti, adminId, expiresAt: new Date(token.exp * 1000), revokedAt: sql`now()` })
    .onConflictDoUpdate({ target: sessionTokens.jti, set: { revokedAt: sql`coalesce(${sessionTokens.revokedAt}, now())` } })
}

/** Removes the rows of expired tokens: an expired token is refused by its signature check anyway. */
export async function pruneExpiredTokens(db: Db): Promise<void> {
  await db.delete(sessionTokens).where(lt(sessionTokens.expiresAt, sql`now()`))
}
