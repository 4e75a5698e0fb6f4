import { z } from 'zod/mini'
import { EMAIL_PATTERN, PASSWORD_PATTERN, Done, Id, ok, required } from './common.ts'
import { endpoint, nameEndpoints, publicAccess, sessionAccess } from './define.ts'
import * as self from './auth.ts'

/** Requirements R5.2, Login: email. */
export const LoginEmail = z
  .string({ error: 'email is required' })
  .check(z.trim(), z.minLength(1, 'email is required'), z.maxLength(254, 'Incorrect format'), z.regex(EMAIL_PATTERN, 'Incorrect format'))

/** Requirements R5.2, Login: password (6-18, digit, upper, lower, special). */
export const LoginPassword = z
  .string({ error: 'password is required' })
  .check(z.minLength(1, 'password is required'), z.regex(PASSWORD_PATTERN, 'Incorrect format'))

/** Requirements R5.2: 2FA code, digits only, up to 6. */
export const TwoFACode = z._default(z.string().check(z.trim(), z.regex(/^\d{0,6}$/, 'Incorrect format')), '')

/** What a session's token says about its admin (requirements R3.1, R3.17). */
export const SessionClaims = z.object({
  _id: z.string(),
  email: z.string(),
  role: z.enum(['superadmin', 'subadmin']),
  accessLevel: z.enum(['Admin', 'View Only']),
  restrictions: z.array(z.string()),
})
export type SessionClaims = z.output<typeof SessionClaims>

export const Profile = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['superadmin', 'subadmin']),
  accessLevel: z.enum(['Admin', 'View Only']),
  restrictions: z.array(z.string()),
  twoFactorEnabled: z.boolean(),
  /**
   * Ours: present while the session views as a staff member (View as, contract/staff.ts): the
   * fields above are then that member's (what the menu and screens follow) and `by` is the
   * signed-in superadmin.
   */
  viewAs: z.optional(z.object({ by: z.object({ _id: z.string(), name: z.string() }) })),
})
export type Profile = z.output<typeof Profile>

export const login = endpoint({
  logAs: 'Signed in',
  method: 'POST',
  input: z.object({
    email: LoginEmail,
    password: LoginPassword,
    twoFACode: TwoFACode,
    /** Login sends a login-history record (requirements R7.2); we keep it as free text (browser, time). */
    loginHistory: z.optional(z.unknown()),
  }),
  // status TWO_FA (no token) is the other non-failure answer; see TwoFactorNeeded.
  output: ok({ token: z.string() }),
  access: publicAccess,
})

export const getProfile = endpoint({
  method: 'GET',
  path: '/get-profile',
  input: z.object({}),
  output: ok({ data: Profile }),
  access: sessionAccess,
})

export const editProfile = endpoint({
  logAs: 'Profile name changed',
  method: 'POST',
  path: '/edit-profile',
  input: z.object({ name: required('Name is required', 100) }),
  output: Done,
  access: sessionAccess,
})

/**
 * Logout: revokes the token of this call on the server, so a copy of it is
 * refused from now on, and ends the sockets opened with it (LOGOUT). The admin's other sessions
 * (another browser) stay signed in. The PWA forgets the token whatever the answer.
 */
export const logout = endpoint({
  logAs: 'Logged out',
  method: 'POST',
  input: z.object({}),
  output: Done,
  access: sessionAccess,
  // Signing out ends View as with the session.
  whileViewingAs: true,
  ours: 'Not in the requirements, whose Logout only removes the stored token: the server-side revocation of this token.',
})

/**
 * The PWA reports that its admin is active (pointer or keyboard) while no other call says so, at
 * most once a minute: a session unused past the idle limit is refused by the server too.
 */
export const keepAlive = endpoint({
  method: 'GET',
  path: '/keep-alive',
  input: z.object({}),
  output: Done,
  access: sessionAccess,
  ours: 'Not in the requirements: keeps an active session from reaching the idle limit on the server.',
})

export const IDENTITY_PROVED = 'Identity confirmed'

/**
 * Step-up: the session's holder proves to be its owner with the password (and the current 2FA
 * code when 2FA is on; without one the answer is status TWO_FA). The proof's time is kept on the
 * session, and lets its `stepUp` calls through for STEP_UP_MINUTES. Wrong passwords and codes
 * count towards the sign-in lockout; a lock ends the admin's sessions.
 */
export const proveIdentity = endpoint({
  logAs: 'Identity confirmed',
  method: 'POST',
  input: z.object({
    password: z.string({ error: 'Password is required' }).check(z.minLength(1, 'Password is required'), z.maxLength(200, 'Incorrect format')),
    twoFACode: TwoFACode,
  }),
  output: Done,
  access: sessionAccess,
  ours: 'Not in the requirements: the step-up proof (password, and the 2FA code when on) asked before exporting every lead, changing staff access or approving a mass send.',
})

/** One open session of the signed-in admin (ours: the Active sessions of Profile). */
export const ActiveSession = z.object({
  /** The session's id (its token's jti): what endSession names. */
  _id: z.string(),
  /** Browser and OS read from the sign-in's User-Agent; '' for a session that did not sign in through Login. */
  device: z.string(),
  /** The client address at sign-in; '' when unknown. */
  address: z.string(),
  /** ISO time of the sign-in; '' when unknown. */
  signedInAt: z.string(),
  /** ISO time of the last recorded use (written at most once a minute). */
  lastActiveAt: z.string(),
  /** The session of this call ("This device"). */
  current: z.boolean(),
})
export type ActiveSession = z.output<typeof ActiveSession>

/** The signed-in admin's sessions that still work (not ended, expired or idle), the current one marked. */
export const listSessions = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ data: z.array(ActiveSession) }),
  access: sessionAccess,
  ours: 'Not in the requirements: the Active sessions of Profile, each with its device, address, sign-in time and last activity.',
})

export const SESSION_ENDED = 'Session signed out'
export const OTHER_SESSIONS_ENDED = 'Signed out of all other sessions'
/** endSession naming the call's own session: Logout does that. */
export const USE_LOGOUT = 'Use Logout to end this session'

/**
 * Ends one of the signed-in admin's own sessions by id: its token answers 401 from now on and its
 * open sockets get LOGOUT. Another admin's session id is answered as unknown (404).
 */
export const endSession = endpoint({
  logAs: 'Session signed out',
  method: 'POST',
  input: z.object({ id: Id }),
  output: Done,
  access: sessionAccess,
  ours: 'Not in the requirements: Sign out of one of your other sessions (Profile, Active sessions).',
})

/** Ends every session of the signed-in admin but this call's; `count` says how many ended. */
export const endOtherSessions = endpoint({
  logAs: 'Other sessions signed out',
  method: 'POST',
  input: z.object({}),
  output: ok({ count: z.number() }),
  access: sessionAccess,
  ours: 'Not in the requirements: Sign out of all other sessions (Profile, the command palette).',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
