import { z } from 'zod/mini'
import { Done, PASSWORD_PATTERN } from './common.ts'
import { endpoint, nameEndpoints, publicAccess, sessionAccess } from './define.ts'
import { LoginEmail, TwoFACode } from './auth.ts'
import * as self from './password.ts'

/*
 * Requirements R7.2 gives the password flows' fields but no messages for them. Ours:
 * 'OTP is required', 'Old password is required', 'New password is required',
 * 'Confirm password is required', 'Confirm password does not match' and
 * 'New password must differ from the old password'. Format errors reuse the
 * 'Incorrect format', and the new password follows Login's password rule.
 */

/** A one-time code: exactly 6 digits (requirements R9.4). Objects, arrays and null are refused. */
export const Otp = z
  .string({ error: 'OTP is required' })
  .check(z.trim(), z.minLength(1, 'OTP is required'), z.regex(/^\d{6}$/, 'Incorrect format'))

/** The new password: Login's rule (6-18 characters, digit, upper, lower, special). */
export const NewPassword = z
  .string({ error: 'New password is required' })
  .check(z.minLength(1, 'New password is required'), z.regex(PASSWORD_PATTERN, 'Incorrect format'))

export const ConfirmPassword = z.string({ error: 'Confirm password is required' }).check(z.minLength(1, 'Confirm password is required'))

export const CONFIRM_MISMATCH = 'Confirm password does not match'

/** The mismatch lands on confirmPassword, under the input the user must fix. */
const confirmMatches = (v: { newPassword: string; confirmPassword: string }, ctx: z.core.$RefinementCtx) => {
  if (v.newPassword !== v.confirmPassword) {
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: CONFIRM_MISMATCH })
  }
}

/** Runs the cross-field check only when both passwords parsed, so it never hides their own messages. */
const bothParsed = {
  when: (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    !payload.issues.some((i) => i.path?.[0] === 'newPassword' || i.path?.[0] === 'confirmPassword'),
}

/**
 * Reset Password screen (/resetpassword): the signed-in admin changes their own password with an
 * OTP from /send-mail. `email` must be the session's own address; the server refuses another.
 * Success revokes the admin's tokens (and so logs them out to /login).
 */
export const changePassword = endpoint({
  logAs: 'Password changed',
  method: 'POST',
  path: '/change-password',
  input: z
    .object({
      otp: Otp,
      oldPassword: z
        .string({ error: 'Old password is required' })
        .check(z.minLength(1, 'Old password is required'), z.maxLength(200, 'Incorrect format')),
      newPassword: NewPassword,
      confirmPassword: ConfirmPassword,
      email: LoginEmail,
    })
    .check(
      z.superRefine((v, ctx) => {
        confirmMatches(v, ctx)
        if (v.oldPassword === v.newPassword) {
          ctx.addIssue({ code: 'custom', path: ['newPassword'], message: 'New password must differ from the old password' })
        }
      }, bothParsed),
    ),
  output: Done,
  access: sessionAccess,
})

/**
 * Forgot screen (/forgot), step 2: set a new password with the OTP mailed by /ForgotSend-mail.
 * An admin with 2FA enabled also needs a current code: without one the answer is status TWO_FA,
 * so a reset never skips the second factor. Success revokes every session of that admin, and with
 * `removePasskeys` (the form's box, ticked unless unticked) removes every passkey of the account:
 * a passkey outlives a password, so a reset after a lost device would leave its passkey working.
 */
export const forgotPassword = endpoint({
  logAs: 'Password reset',
  method: 'POST',
  path: '/forgot-password',
  input: z
    .object({
      otp: Otp,
      newPassword: NewPassword,
      confirmPassword: ConfirmPassword,
      email: LoginEmail,
      twoFACode: TwoFACode,
      removePasskeys: z.optional(z.boolean({ error: 'Incorrect format' })),
    })
    .check(z.superRefine(confirmMatches, bothParsed)),
  output: Done,
  access: publicAccess,
  ours: 'twoFACode added to the payload so that a reset asks for an enabled second factor (answer TWO_FA). removePasskeys (optional, false unless sent) also removes every passkey of the account.',
})

/**
 * Forgot screen, step 1 (Send OTP). The answer is the same for known and unknown addresses, so
 * it cannot be used to find out who has an account.
 */
export const ForgotSendMail = endpoint({
  logAs: 'Password reset code sent',
  method: 'POST',
  path: '/ForgotSend-mail',
  input: z.object({ email: LoginEmail }),
  output: Done,
  access: publicAccess,
})

/** Reset Password screen's Send OTP: mails a code to the signed-in admin's own address. */
export const sendMail = endpoint({
  logAs: 'Password change code sent',
  method: 'POST',
  path: '/send-mail',
  input: z.object({}),
  output: Done,
  access: sessionAccess,
  ours: 'Payload and answer not shown: no payload (the address is the session\'s own), answer status and message.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
