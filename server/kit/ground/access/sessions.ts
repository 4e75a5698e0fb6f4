/**
 * What the server remembers about each session token, by its `jti`: when it was
 * last used, for the idle limit, and whether Logout (or the admin, from their session list) revoked
 * it. Login writes the row with the device, the address and the sign-in time the session list shows
 * (`openSession`); a token issued otherwise has no row until its first use. `checkSession` reads
 * the row in the same query as the admin, so the check costs no extra round trip, and writes it at
 * most once a minute per token.
 *
 * Why the server enforces the idle limit too: the PWA's timer ends the session in the browser,
 * but a token copied out of it (or left in a browser closed without logging out) would otherwise
 * live to its 12-hour expiry. The server limit is the configured idle time plus a grace that
 * covers the PWA's activity reports (at most one a minute while the admin is active) and the
 * minute between two writes of `last_seen_at`, so a session the PWA still shows is never refused.
 */
import Bowser from 'bowser'
import { and, desc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm'
import { ACTIVITY_REPORT_MS } from '#contract/common'
import type { Config } from '../../../config.ts'
import type { Db } from '../../../db/index.ts'
import { admins, sessionTokens } from '../../../db/schema.ts'

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
  /** The token version (`tv`) the token was issued with. */
  tv?: number
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
  const version = token.tv === undefined ? {} : { tokenVersion: token.tv }
  await db
    .insert(sessionTokens)
    .values({ jti: token.jti, adminId, expiresAt: new Date(token.exp * 1000), lastSeenAt: at, ...version })
    .onConflictDoUpdate({ target: sessionTokens.jti, set: { lastSeenAt: at, ...version } })
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

/** Browser and OS of a User-Agent, as the session list shows them ('Chrome 131 on Linux'); 'Unknown device' when it says nothing. */
export function deviceOf(userAgent: string | undefined): string {
  if (userAgent === undefined || userAgent.trim() === '') return 'Unknown device'
  const { browser, os } = Bowser.parse(userAgent.slice(0, 1000))
  // Bowser leaves a part it cannot read undefined or empty: either is left out.
  const words = (...parts: (string | undefined)[]): string => parts.map((p) => p?.trim() ?? '').filter((p) => p !== '').join(' ')
  const name = words(browser.name, browser.version?.split('.')[0])
  const system = words(os.name, os.versionName)
  if (name !== '' && system !== '') return `${name} on ${system}`
  return name !== '' ? name : system !== '' ? system : 'Unknown device'
}

/** Where and when a sign-in happened: the row a session list shows. */
export interface SignIn {
  device: string
  address: string
}

/**
 * Writes the row of a token just issued by a sign-in: its device, address and sign-in time, and
 * the sign-in as the session's first proof of its owner (step-up).
 */
export async function openSession(db: Db, token: Required<TokenRef>, adminId: string, signIn: SignIn): Promise<void> {
  await db.insert(sessionTokens).values({
    jti: token.jti,
    adminId,
    expiresAt: new Date(token.exp * 1000),
    lastSeenAt: sql`now()`,
    tokenVersion: token.tv,
    device: signIn.device,
    address: signIn.address,
    signedInAt: sql`now()`,
    provedAt: sql`now()`,
  })
}

/** Whether a session's last proof of its owner is recent enough for a `stepUp` call (STEP_UP_MINUTES). */
export const stepUpFresh = (config: Config, provedAt: Date | null, now: number): boolean => provedAt !== null && now - provedAt.getTime() <= config.stepUpMs

/** Records that the session's holder just proved to be its owner (the step-up call). */
export async function recordProof(db: Db, token: TokenRef, adminId: string): Promise<void> {
  const version = token.tv === undefined ? {} : { tokenVersion: token.tv }
  await db
    .insert(sessionTokens)
    .values({ jti: token.jti, adminId, expiresAt: new Date(token.exp * 1000), provedAt: sql`now()`, ...version })
    .onConflictDoUpdate({ target: sessionTokens.jti, set: { provedAt: sql`now()` } })
}

/** One live session of an admin, as their session list shows it. */
export interface LiveSession {
  jti: string
  device: string | null
  address: string | null
  signedInAt: Date | null
  lastSeenAt: Date
}

/**
 * The admin's sessions that still work: not revoked, not expired, not idle past the limit, and of
 * the admin's current token version (a forced logout ended the older ones). Newest use first.
 */
export async function liveSessions(db: Db, config: Config, adminId: string): Promise<LiveSession[]> {
  const idleSince = new Date(Date.now() - serverIdleMs(config))
  return db
    .select({ jti: sessionTokens.jti, device: sessionTokens.device, address: sessionTokens.address, signedInAt: sessionTokens.signedInAt, lastSeenAt: sessionTokens.lastSeenAt })
    .from(sessionTokens)
    .innerJoin(admins, eq(admins.id, sessionTokens.adminId))
    .where(
      and(
        eq(sessionTokens.adminId, adminId),
        isNull(sessionTokens.revokedAt),
        gt(sessionTokens.expiresAt, sql`now()`),
        gt(sessionTokens.lastSeenAt, idleSince),
        eq(sessionTokens.tokenVersion, admins.tokenVersion),
      ),
    )
    .orderBy(desc(sessionTokens.lastSeenAt), desc(sessionTokens.jti))
}

/**
 * Revokes sessions of one admin still open: `only` those jtis, or every one but `except`. Returns
 * the jtis revoked now, whose sockets the caller ends (Realtime.logoutToken) after the commit.
 * A jti of another admin's is never touched: the admin id is part of the statement.
 */
export async function revokeAdminTokens(db: Db, adminId: string, which: { only: readonly string[] } | { except: string }): Promise<string[]> {
  const pick = 'only' in which ? inArray(sessionTokens.jti, [...which.only]) : ne(sessionTokens.jti, which.except)
  const rows = await db
    .update(sessionTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessionTokens.adminId, adminId), isNull(sessionTokens.revokedAt), gt(sessionTokens.expiresAt, sql`now()`), pick))
    .returning({ jti: sessionTokens.jti })
  return rows.map((r) => r.jti)
}
