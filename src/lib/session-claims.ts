/**
 * Reads the claims of a stored token with the contract's schema. Kept out of session.ts so that
 * zod loads only once there is a token to read: the login page does without it until submit.
 */
import { z } from 'zod/mini'
import { SessionClaims } from '#contract/auth'
import { jwtPayload } from './jwt-payload.ts'

/** `idle`: the seconds of inactivity after which the session ends (IDLE_TIMEOUT_MINUTES on the server). */
const Claims = z.extend(SessionClaims, { exp: z.optional(z.number()), idle: z.optional(z.number().check(z.int(), z.positive())) })
export type DecodedClaims = z.output<typeof Claims>

/** The token's claims, or null when it is malformed or expired. */
export function decodeClaims(jwt: string): DecodedClaims | null {
  const claims = Claims.safeParse(jwtPayload(jwt))
  if (!claims.success) return null
  if (claims.data.exp !== undefined && claims.data.exp * 1000 <= Date.now()) return null
  return claims.data
}
