/**
 * Passkeys (WebAuthn): the ceremonies are @simplewebauthn/server's (options, and the checks of what
 * the browser answers: client data, RP ID hash, flags, signature, counter); this module keeps their
 * state in the database so that any instance can finish what another started.
 *
 * - The relying party is PUBLIC_URL's origin and host name (config.passkeyRelyingParty); without
 *   PUBLIC_URL, the call's own protocol and Host header (development and tests on localhost).
 * - Challenges are single-use and live PASSKEY_CHALLENGE_MS: a row per challenge, deleted when an
 *   answer names it (whatever the outcome), and refused when expired, of another purpose, or
 *   handed to another admin or session.
 * - Attestation is 'none': the server trusts the key, not the make of the authenticator.
 * - User verification (PIN, fingerprint) is required, so a passkey is both factors at once.
 * - The counter the authenticator signs must move past the stored one (when either is not 0),
 *   and the new value is stored: a copied authenticator shows as a counter that does not move.
 * - A credential belongs to one admin. A sign-in finds the admin from the credential, and the
 *   user handle the authenticator returns must be that admin's (the id it was registered with).
 */
import { desc, eq, lt, sql } from 'drizzle-orm'
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server'
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers'
import { relyingPartyOf, type RelyingParty } from '../../config.ts'
import type { Db } from '../../db/index.ts'
import { adminPasskeys, passkeyChallenges, type AdminRow } from '../../db/schema.ts'
import { failure } from '../../kit/request/answers.ts'
import { type Ctx } from '../../kit/request/handlers.ts'

/** How long a challenge may be answered (and the browser's timeout for the ceremony). */
export const PASSKEY_CHALLENGE_MS = 5 * 60_000
/** Without PUBLIC_URL, the call's Host header names the relying party; one that names no host is refused. */
export const NO_RELYING_PARTY = 'Passkeys cannot be used at this address'
/** The relying party's name, shown by some authenticators beside the account. */
export const RP_NAME = 'Back Office'

export type ChallengePurpose = 'register' | 'sign-in' | 'step-up'
export type PasskeyRow = typeof adminPasskeys.$inferSelect

/** The relying party of this call: PUBLIC_URL's, or the call's own address when PUBLIC_URL is unset. */
export function relyingParty(ctx: Pick<Ctx, 'config' | 'requestOrigin'>): RelyingParty {
  if (ctx.config.passkeyRelyingParty !== null) return ctx.config.passkeyRelyingParty
  try {
    return relyingPartyOf(ctx.requestOrigin)
  } catch {
    // A Host header that is no host name: the caller's mistake, not the server's.
    throw failure(NO_RELYING_PARTY)
  }
}

/** The user handle an admin's passkeys carry: the admin's id, as bytes. */
const userHandleOf = (adminId: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(adminId)

/** Keeps a challenge for `PASSKEY_CHALLENGE_MS`; expired ones go first, so the table holds only live ones. */
async function keepChallenge(db: Db, challenge: string, purpose: ChallengePurpose, owner: { adminId: string; jti: string } | null): Promise<void> {
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, sql`now()`))
  await db.insert(passkeyChallenges).values({
    challenge,
    purpose,
    adminId: owner?.adminId ?? null,
    jti: owner?.jti ?? null,
    expiresAt: new Date(Date.now() + PASSKEY_CHALLENGE_MS),
  })
}

/**
 * Takes the challenge the answer's client data names: deleted now whatever follows, so it is good
 * once. Null when it is unknown (never given, or used already), expired, for another purpose, or
 * given to another admin or session than `owner`.
 */
export async function takeChallenge(db: Db, clientDataJSON: string, purpose: ChallengePurpose, owner: { adminId: string; jti: string } | null): Promise<string | null> {
  let challenge: unknown
  try {
    challenge = decodeClientDataJSON(clientDataJSON).challenge
  } catch {
    return null
  }
  if (typeof challenge !== 'string' || challenge === '') return null
  const [row] = await db.delete(passkeyChallenges).where(eq(passkeyChallenges.challenge, challenge)).returning()
  if (row === undefined || row.purpose !== purpose || row.expiresAt.getTime() <= Date.now()) return null
  if (owner !== null && (row.adminId !== owner.adminId || row.jti !== owner.jti)) return null
  return challenge
}

/** An admin's passkeys, newest first. */
export const passkeysOf = (db: Db, adminId: string): Promise<PasskeyRow[]> =>
  db.select().from(adminPasskeys).where(eq(adminPasskeys.adminId, adminId)).orderBy(desc(adminPasskeys.createdAt), desc(adminPasskeys.id))

const descriptorOf = (p: PasskeyRow): { id: string; transports: string[] } => ({ id: p.credentialId, transports: p.transports })

/** Creation options for a new passkey of `admin`, its challenge kept for this session. */
export async function registrationOptions(ctx: Ctx, admin: AdminRow, jti: string, existing: readonly PasskeyRow[]): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(ctx)
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: admin.email,
    userDisplayName: admin.name,
    userID: userHandleOf(admin.id),
    attestationType: 'none',
    // The same authenticator twice would replace its own discoverable credential: it is refused by the browser.
    excludeCredentials: existing.map(descriptorOf),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: PASSKEY_CHALLENGE_MS,
  })
  await keepChallenge(ctx.db, options.challenge, 'register', { adminId: admin.id, jti })
  return options
}

/** What a checked registration yields: the credential to keep. */
export interface NewPasskey {
  credentialId: string
  publicKey: string
  counter: number
  transports: string[]
  backedUp: boolean
}

/**
 * Checks the browser's answer to a registration challenge given to this admin and session; null
 * when it proves nothing (the challenge is gone, the origin or RP ID is another, no user
 * verification, a malformed answer).
 */
export async function checkRegistration(ctx: Ctx, admin: AdminRow, jti: string, response: RegistrationResponseJSON): Promise<NewPasskey | null> {
  const challenge = await takeChallenge(ctx.db, response.response.clientDataJSON, 'register', { adminId: admin.id, jti })
  if (challenge === null) return null
  const rp = relyingParty(ctx)
  try {
    const checked = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true })
    if (!checked.verified) return null
    const { credential, credentialBackedUp } = checked.registrationInfo
    return {
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      backedUp: credentialBackedUp,
    }
  } catch (error) {
    ctx.log.info({ err: error instanceof Error ? error.message : String(error) }, 'passkey registration refused')
    return null
  }
}

/**
 * Request options for a sign-in (no credential named: the passkey names its admin) or a step-up
 * (the admin's own passkeys named), the challenge kept for that purpose.
 */
export async function assertionOptions(ctx: Ctx, purpose: 'sign-in' | 'step-up', owner: { admin: AdminRow; jti: string; passkeys: readonly PasskeyRow[] } | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rp = relyingParty(ctx)
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_MS,
    ...(owner === null ? {} : { allowCredentials: owner.passkeys.map(descriptorOf) }),
  })
  await keepChallenge(ctx.db, options.challenge, purpose, owner === null ? null : { adminId: owner.admin.id, jti: owner.jti })
  return options
}

/** The passkey an assertion names, locked for this transaction (its counter is compared and moved); null when none. */
export async function passkeyOfAssertion(db: Db, response: AuthenticationResponseJSON): Promise<PasskeyRow | null> {
  const [row] = await db.select().from(adminPasskeys).where(eq(adminPasskeys.credentialId, response.id)).limit(1).for('update')
  return row ?? null
}

/**
 * Checks an assertion of `passkey` against `challenge` (already taken with takeChallenge, so it is
 * spent whatever this answers). On success the new counter and the time of use are stored. The
 * user handle, when the authenticator returns one (always at a sign-in, where it is required),
 * must be the passkey's admin's.
 */
export async function verifyAssertion(ctx: Ctx, passkey: PasskeyRow, response: AuthenticationResponseJSON, challenge: string, purpose: 'sign-in' | 'step-up'): Promise<boolean> {
  const handle = response.response.userHandle
  if (purpose === 'sign-in' && handle === undefined) return false
  if (handle !== undefined && isoBase64URL.trimPadding(handle) !== isoBase64URL.fromBuffer(userHandleOf(passkey.adminId))) return false
  const rp = relyingParty(ctx)
  try {
    const checked = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
      requireUserVerification: true,
    })
    if (!checked.verified) return false
    // The row is locked (passkeyOfAssertion): no other assertion moved the counter meanwhile.
    await ctx.db
      .update(adminPasskeys)
      .set({ counter: checked.authenticationInfo.newCounter, backedUp: checked.authenticationInfo.credentialBackedUp, lastUsedAt: sql`now()` })
      .where(eq(adminPasskeys.id, passkey.id))
    return true
  } catch (error) {
    // A counter that did not move, another origin, a bad signature: the reason is for the log only.
    ctx.log.info({ err: error instanceof Error ? error.message : String(error) }, 'passkey assertion refused')
    return false
  }
}
