/**
 * Passwords, session tokens and the permission rule. Handlers and the registrar use these; the
 * staff and password handlers reuse `Passwords`, `revokeSessions` and `permits`.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto'
import argon2 from 'argon2'
import { eq, sql } from 'drizzle-orm'
import { SignJWT, jwtVerify } from 'jose'
import { z } from 'zod'
import { PASSWORD_PATTERN } from '#contract/common'
import { isAdministrator, type Access } from '#contract/define'
import { mayOpen } from '#contract/routes'
import type { Config, HashCost } from '../../../config.ts'
import type { Db } from '../../../db/index.ts'
import { admins, sessionTokens, type AdminRow } from '../../../db/schema.ts'
import { needsTouch, sessionEndsAt, tokenRefusal, touchToken, type TokenRef } from './sessions.ts'

/** argon2id hashing with the configured cost (library defaults unless a test lowers it). */
export class Passwords {
  readonly #options: argon2.HashOptions
  /**
   * A hash of a random password, verified when the email is unknown so both cases cost the same.
   * Made at construction, not on first use: otherwise the first unknown email after a start would
   * cost a hash and a verification, twice a known one.
   */
  readonly #dummy: Promise<string>

  constructor(cost: HashCost | null) {
    this.#options = { type: argon2.argon2id, ...(cost ?? {}) }
    this.#dummy = this.hash(randomBytes(16).toString('hex'))
    // Awaited in verifyDummy; this only keeps a failure before then from being an unhandled rejection.
    this.#dummy.catch(() => {})
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, this.#options)
  }

  /** A null hash (an account whose password was never set) refuses every password, in a verification's time. */
  async verify(hash: string | null, password: string): Promise<boolean> {
    if (hash === null) return await this.verifyDummy(password)
    try {
      return await argon2.verify(hash, password)
    } catch {
      // A malformed stored hash never matches.
      return false
    }
  }

  /** Spends the time of one verification and fails: for unknown emails and locked accounts. */
  async verifyDummy(password: string): Promise<false> {
    await this.verify(await this.#dummy, password)
    return false
  }
}

/**
 * What we put in a token: the claims of requirements R3.17 plus the token version and `idle`, the seconds of
 * inactivity after which the PWA ends the session (IDLE_TIMEOUT_MINUTES; the PWA reads it here,
 * so no call is needed to learn it, and it holds for the token's whole life).
 */
const TokenClaims = z.object({
  _id: z.string().min(1),
  email: z.string(),
  role: z.enum(['superadmin', 'subadmin']),
  accessLevel: z.enum(['Admin', 'View Only']),
  restrictions: z.array(z.string()),
  tv: z.number().int(),
  idle: z.number().int().positive().optional(),
  exp: z.number(),
  iat: z.number(),
  jti: z.string(),
})
export type TokenClaims = z.output<typeof TokenClaims>

/**
 * A new token for an admin: HS256, a fresh jti each time, expiring within the configured life.
 * `issuedAt` (epoch milliseconds) is now, unless a test back-dates a token to watch it end.
 */
export async function signToken(config: Config, admin: AdminRow, issuedAt = Date.now()): Promise<string> {
  return (await issueToken(config, admin, issuedAt)).token
}

/** A new token (as `signToken`) with the fields its session row keeps (sessions.ts, openSession). */
export async function issueToken(config: Config, admin: AdminRow, issuedAt = Date.now()): Promise<{ token: string; ref: Required<TokenRef> }> {
  // One clock reading for both: `setIssuedAt()` and a relative `setExpirationTime` each read the
  // clock, and when a second turned between the two the token lived one second longer than the
  // configured life, which verifyToken refuses (a fresh login answered 401 on its first call).
  const now = Math.floor(issuedAt / 1000)
  const jti = randomUUID()
  const exp = now + config.tokenTtlSeconds
  const token = await new SignJWT({
    _id: admin.id,
    email: admin.email,
    role: admin.role,
    accessLevel: admin.accessLevel,
    restrictions: admin.restrictions,
    tv: admin.tokenVersion,
    idle: config.idleTimeoutSeconds,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setJti(jti)
    .setExpirationTime(exp)
    .sign(config.jwtSecret)
  return { token, ref: { jti, iat: now, exp, tv: admin.tokenVersion } }
}

/**
 * The claims of a valid token, or null. Only HS256 is accepted (no `none`, no key confusion),
 * and `exp` is required, so a token without an expiry is refused rather than living forever.
 */
export async function verifyToken(config: Config, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, config.jwtSecret, {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'iat', 'jti'],
    })
    const claims = TokenClaims.safeParse(payload)
    if (!claims.success) return null
    // A token claiming a life longer than ours was not issued by us with this configuration.
    if (claims.data.exp - claims.data.iat > config.tokenTtlSeconds) return null
    return claims.data
  } catch {
    return null
  }
}

/** The token of an `Authorization: Bearer <jwt>` header, or null for anything else. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null
  const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(header)
  return match?.[1] ?? null
}

/** `endsAt`: when the session ends unless used again (sessions.ts, sessionEndsAt), in epoch milliseconds. */
/** `provedAt`: when the session last proved its owner (sign-in or step-up), or null (sessions.ts, stepUpFresh). */
export type SessionCheck = { ok: true; admin: AdminRow; token: TokenRef; endsAt: number; provedAt: Date | null } | { ok: false; status: 401 | 403; message: string }

export const UNAUTHORIZED = 'Unauthorized, please log in again'
export const FORBIDDEN = 'You do not have permission to do this'

/**
 * Who is calling: the token must verify, and the admin row, read fresh on every request, must be
 * active and carry the same token version, so deactivation and revocation take effect at once.
 * The token itself must not be revoked (Logout) nor idle past the limit (sessions.ts); its row is
 * read in the same query as the admin. The permission check then uses the row's current role,
 * level and restrictions, not the token's. `touch: false` checks without counting it as a use
 * (a socket reconnecting by itself is no sign of the admin's activity).
 */
export async function checkSession(
  db: Db,
  config: Config,
  header: string | undefined,
  access: Access,
  options: { touch?: boolean } = {},
): Promise<SessionCheck> {
  if (access.kind === 'public') throw new Error('checkSession is not for public calls')
  const token = bearerToken(header)
  if (token === null) return { ok: false, status: 401, message: UNAUTHORIZED }
  const claims = await verifyToken(config, token)
  if (claims === null) return { ok: false, status: 401, message: UNAUTHORIZED }
  const [row] = await db
    .select({ admin: admins, lastSeenAt: sessionTokens.lastSeenAt, revokedAt: sessionTokens.revokedAt, provedAt: sessionTokens.provedAt })
    .from(admins)
    .leftJoin(sessionTokens, eq(sessionTokens.jti, claims.jti))
    .where(eq(admins.id, claims._id))
    .limit(1)
  const admin = row?.admin
  if (row === undefined || admin === undefined || admin.activate !== 1 || admin.tokenVersion !== claims.tv) {
    return { ok: false, status: 401, message: UNAUTHORIZED }
  }
  const ref: TokenRef = { jti: claims.jti, iat: claims.iat, exp: claims.exp, tv: claims.tv }
  const now = Date.now()
  if (tokenRefusal(config, ref, row, now) !== null) return { ok: false, status: 401, message: UNAUTHORIZED }
  if (!permits(access, admin)) return { ok: false, status: 403, message: FORBIDDEN }
  const touch = options.touch !== false && needsTouch(row, now)
  if (touch) await touchToken(db, ref, admin.id, now)
  return { ok: true, admin, token: ref, endsAt: sessionEndsAt(config, ref, touch ? { ...row, lastSeenAt: new Date(now) } : row), provedAt: row.provedAt }
}

/**
 * The permission rule (docs/security.md, "Access rules"): superadmin passes everything; otherwise the route must be open
 * to the admin's restrictions, writes need the Admin level, staff calls refuse role subadmin, and
 * approver calls need an administrator (Admin level on every screen).
 */
export function permits(access: Access, admin: Pick<AdminRow, 'role' | 'accessLevel' | 'restrictions'>): boolean {
  if (access.kind === 'public' || access.kind === 'session') return true
  if (admin.role === 'superadmin') return true
  if (!mayOpen(admin.restrictions, access.route)) return false
  if (access.write && admin.accessLevel !== 'Admin') return false
  if (access.staff === true && admin.role === 'subadmin') return false
  if (access.approver === true && !isAdministrator(admin)) return false
  return true
}

/**
 * Ends every session of an admin: bumps the token version so older tokens fail `checkSession`.
 * Callers also emit LOGOUT to the admin's room (see realtime.ts) after their transaction commits.
 */
export async function revokeSessions(db: Db, adminId: string): Promise<void> {
  // Incremented in SQL: a read-then-write would let two revocations racing store the same version.
  await db.update(admins).set({ tokenVersion: sql`${admins.tokenVersion} + 1` }).where(eq(admins.id, adminId))
}

/** A strong password that also passes the login rule (6-18 characters, every class present). */
export function generatePassword(): string {
  const classes = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!@#$%^&*-_=+?']
  const all = classes.join('')
  const pick = (set: string): string => set[randomInt(set.length)] ?? ''
  const chars = classes.map(pick)
  while (chars.length < 18) chars.push(pick(all))
  // Shuffle so the class-guaranteed characters are not always first.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    const a = chars[i] ?? ''
    chars[i] = chars[j] ?? ''
    chars[j] = a
  }
  const password = chars.join('')
  return PASSWORD_PATTERN.test(password) ? password : generatePassword()
}

/**
 * On an empty admins table, creates the superadmin from ADMIN_EMAIL / ADMIN_PASSWORD, or with a
 * generated password. Returns the credentials to print once, or null when admins already exist.
 */
export async function ensureSuperadmin(
  db: Db,
  config: Config,
  passwords: Passwords,
): Promise<{ email: string; password: string; generated: boolean } | null> {
  const [existing] = await db.select({ id: admins.id }).from(admins).limit(1)
  if (existing !== undefined) return null
  const generated = config.adminPassword === null
  const password = config.adminPassword ?? generatePassword()
  if (!PASSWORD_PATTERN.test(password)) {
    // The login form would refuse it, so the operator could never sign in: stop with the reason.
    throw new Error('ADMIN_PASSWORD must be 6-18 characters with a digit, an upper-case letter, a lower-case letter and a special character')
  }
  const inserted = await db
    .insert(admins)
    .values({
      name: 'Super Admin',
      email: config.adminEmail,
      passwordHash: await passwords.hash(password),
      role: 'superadmin',
      accessLevel: 'Admin',
      restrictions: [],
    })
    // Two instances starting together: one wins, the other sees the row and prints nothing.
    .onConflictDoNothing()
    .returning({ id: admins.id })
  return inserted.length > 0 ? { email: config.adminEmail, password, generated } : null
}
