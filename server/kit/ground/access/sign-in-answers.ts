/**
 * The answers of a refused sign-in, shared by every call that checks a password or a code (login,
 * the forgot-password reset, two-factor, Create User) and by their tests: one wording per refusal,
 * so an unknown email and a wrong password read alike wherever they are asked.
 */
import { LOCK_MS, lockedMessage } from './lockout.ts'

export const LOGIN_FAILED = 'Invalid email or password'
/** The pair lock's answer with the default LOGIN_LOCK_MINUTES: 'Too many failed attempts. Try again in 10 minutes.' */
export const ACCOUNT_LOCKED = lockedMessage(LOCK_MS)
export const ACCOUNT_DEACTIVATED = 'Your account has been deactivated'
export const WRONG_2FA = 'Invalid 2FA code'
/** A signed-in admin's own password, asked again (2FA setup, the step-up proof), was wrong. */
export const WRONG_PASSWORD = 'Incorrect password'
