import { z } from 'zod/mini'
import { Done, ok } from './common.ts'
import { endpoint, nameEndpoints, sessionAccess } from './define.ts'
import * as self from './two-factor.ts'

/*
 * Two-factor authentication (TOTP) for the signed-in admin, from the Profile screen. The requirements
 * give only login's optional code and the TWO_FA answer; how a staff member turns 2FA on and off is
 * ours. Messages: '2FA code is required' and the 'Incorrect format' and 'password is required' of requirements R5.
 */

/** A current authenticator code: exactly 6 digits (requirements R9.4). Objects, arrays and null are refused. */
export const AuthenticatorCode = z
  .string({ error: '2FA code is required' })
  .check(z.trim(), z.minLength(1, '2FA code is required'), z.regex(/^\d{6}$/, 'Incorrect format'))

/**
 * Starts enabling 2FA: the server makes a new secret, keeps it pending (login does not ask for a
 * code yet) and answers it once, as an otpauth:// URI, as a QR code image (a PNG data URL) and as
 * text for typing into an app by hand. Refused while 2FA is already on (disable it first).
 */
export const twofaSetup = endpoint({
  logAs: 'Two-factor sign-in set up',
  method: 'POST',
  path: '/twofa-setup',
  input: z.object({}),
  output: ok({ otpauthUrl: z.string(), qr: z.string(), secret: z.string() }),
  access: sessionAccess,
  ours: 'Not in the requirements: begins TOTP enrolment; the secret is shown in this answer only.',
})

/**
 * Confirms the pending secret with a first code from the app and the admin's password; from then
 * on login answers TWO_FA. The password keeps a stolen session from switching 2FA on with the
 * thief's app, which would lock the owner out of their account.
 */
export const twofaEnable = endpoint({
  logAs: 'Two-factor sign-in turned on',
  method: 'POST',
  path: '/twofa-enable',
  input: z.object({
    code: AuthenticatorCode,
    password: z.string({ error: 'password is required' }).check(z.minLength(1, 'password is required'), z.maxLength(200, 'Incorrect format')),
  }),
  output: Done,
  access: sessionAccess,
  ours: 'Not in the requirements: turns TOTP on once a first code proves the app holds the secret.',
})

/** Turns 2FA off; needs a current code, so a stolen session alone cannot remove the second factor. */
export const twofaDisable = endpoint({
  logAs: 'Two-factor sign-in turned off',
  method: 'POST',
  path: '/twofa-disable',
  input: z.object({ code: AuthenticatorCode }),
  output: Done,
  access: sessionAccess,
  ours: 'Not in the requirements: turns TOTP off with a current code.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
