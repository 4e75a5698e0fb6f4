/**
 * The passkeys area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import { randomBytes } from 'node:crypto'
import * as passkeys from '#contract/passkeys'
import { defineSamples, unique } from '../../testing/sample-kit.ts'

const b64url = (text: string | Buffer): string => Buffer.from(text).toString('base64url')
const clientData = (type: string): string => b64url(JSON.stringify({ type, challenge: b64url(randomBytes(32)), origin: 'http://localhost' }))
/** A passkey registration's shape (contract/passkeys.ts), for a challenge nobody was given. */
const sampleRegistration = () => ({
  id: b64url(randomBytes(16)),
  rawId: b64url(randomBytes(16)),
  response: { clientDataJSON: clientData('webauthn.create'), attestationObject: b64url(randomBytes(64)), transports: ['internal'] },
  clientExtensionResults: {},
  type: 'public-key',
})
/** A passkey assertion's shape, of a credential nobody has. */
const sampleAssertion = () => ({
  id: b64url(randomBytes(16)),
  rawId: b64url(randomBytes(16)),
  response: { clientDataJSON: clientData('webauthn.get'), authenticatorData: b64url(randomBytes(37)), signature: b64url(randomBytes(64)), userHandle: b64url('nobody') },
  clientExtensionResults: {},
  type: 'public-key',
})

export const samples = defineSamples([passkeys], {
  listPasskeys: () => ({ json: {} }),
  passkeyRegistrationOptions: () => ({ json: {} }),
  // Well-formed answers to no challenge the server gave: refused as unproved (400), never 401/403.
  addPasskey: () => ({ json: { name: `Laptop ${unique()}`, response: sampleRegistration() } }),
  removePasskey: () => ({ json: { id: `no-passkey-${unique()}` } }),
  passkeySignInOptions: () => ({ json: {} }),
  passkeySignIn: () => ({ json: { response: sampleAssertion() } }),
  passkeyStepUpOptions: () => ({ json: {} }),
  provePasskey: () => ({ json: { response: sampleAssertion() } }),
})
