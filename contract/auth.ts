import { z } from 'zod'
import { EMAIL_PATTERN, PASSWORD_PATTERN, Done, ok, required } from './common.ts'
import { endpoint, publicAccess, sessionAccess } from './define.ts'

/** Spec section 5, Login: email. */
export const LoginEmail = z
  .string({ error: 'email is required' })
  .trim()
  .min(1, 'email is required')
  .max(254, 'Incorrect format')
  .regex(EMAIL_PATTERN, 'Incorrect format')

/** Spec section 5, Login: password (6-18, digit, upper, lower, special). */
export const LoginPassword = z
  .string({ error: 'password is required' })
  .min(1, 'password is required')
  .regex(PASSWORD_PATTERN, 'Incorrect format')

/** Spec section 5: 2FA code, digits only, up to 6. */
export const TwoFACode = z
  .string()
  .trim()
  .regex(/^\d{0,6}$/, 'Incorrect format')
  .default('')

/** What a session's token says about its admin (spec section 3, "Admin session"). */
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
})
export type Profile = z.output<typeof Profile>

export const login = endpoint({
  name: 'login',
  method: 'POST',
  path: '/login',
  input: z.object({
    email: LoginEmail,
    password: LoginPassword,
    twoFACode: TwoFACode,
    /** The spec sends a login-history record; we keep it as free text (browser, time). */
    loginHistory: z.unknown().optional(),
  }),
  // status TWO_FA (no token) is the other non-failure answer; see TwoFactorNeeded.
  output: ok({ token: z.string() }),
  access: publicAccess,
})

export const getProfile = endpoint({
  name: 'getProfile',
  method: 'GET',
  path: '/get-profile',
  input: z.object({}),
  output: ok({ data: Profile }),
  access: sessionAccess,
})

export const editProfile = endpoint({
  name: 'editProfile',
  method: 'POST',
  path: '/edit-profile',
  input: z.object({ name: required('Name is required', 100) }),
  output: Done,
  access: sessionAccess,
})
