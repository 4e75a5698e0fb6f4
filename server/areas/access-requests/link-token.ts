/**
 * The secrets of the links this area mails (confirming a request, setting a first password):
 * 256 random bits, kept only as their SHA-256, so a read of the tables confirms or sets nothing.
 */
import { createHash, randomBytes } from 'node:crypto'

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex')

/** A new link secret and the form it is stored in. */
export function newConfirmToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: tokenHash(token) }
}
