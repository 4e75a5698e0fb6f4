import { z } from 'zod/mini'
import { Done, Id, ok, required } from './common.ts'
import { endpoint, nameEndpoints, publicAccess, sessionAccess, type Access } from './define.ts'
import * as self from './passkeys.ts'

/*
 * Passkeys (WebAuthn) of the signed-in admin (ours: not in the requirements). Profile's "Passkeys" adds
 * one (named by its owner), lists them and removes one; a passkey signs its admin in without a
 * password (and counts as the second factor), and proves the session's owner for step-up. The
 * ceremonies are @simplewebauthn's on both sides: the server hands out options with a single-use
 * challenge, the browser answers with what the authenticator made, the server checks it.
 */

export const PASSKEYS = 'Passkeys'
export const ADD_PASSKEY = 'Add a passkey'
export const USE_PASSKEY = 'Use a passkey'
export const SIGN_IN_WITH_PASSKEY = 'Sign in with a passkey'

export const PASSKEY_ADDED = 'Passkey added'
export const PASSKEY_REMOVED = 'Passkey removed'
export const PASSKEY_SIGNED_IN = 'Login successfully'
export const IDENTITY_PROVED_BY_PASSKEY = 'Identity confirmed'
/** A passkey answer that proves nothing: unknown, removed, another site's, a used or expired challenge, a bad signature. */
export const PASSKEY_FAILED = 'This passkey could not be checked. Try again, or use your password.'
export const PASSKEY_ALREADY_ADDED = 'This passkey is already added to your account'
export const MAX_PASSKEYS = 20
export const TOO_MANY_PASSKEYS = `You can keep at most ${MAX_PASSKEYS} passkeys. Remove one first.`

const Base64Url = z.string().check(z.maxLength(100_000, 'Incorrect format'), z.regex(/^[A-Za-z0-9_-]*={0,2}$/, 'Incorrect format'))

/** A credential named in options; `transports` as the browser reported them ('internal', 'usb', 'hybrid', ...). */
const CredentialDescriptor = z.object({ id: z.string(), type: z.string(), transports: z.optional(z.array(z.string())) })
const Hints = z.optional(z.array(z.enum(['hybrid', 'security-key', 'client-device'])))
const UserVerification = z.optional(z.enum(['required', 'preferred', 'discouraged']))

/** The options of navigator.credentials.create(), as JSON (@simplewebauthn's PublicKeyCredentialCreationOptionsJSON). */
export const CreationOptions = z.object({
  rp: z.object({ name: z.string(), id: z.optional(z.string()) }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal('public-key') })),
  timeout: z.optional(z.number()),
  excludeCredentials: z.optional(z.array(CredentialDescriptor)),
  authenticatorSelection: z.optional(
    z.object({
      authenticatorAttachment: z.optional(z.enum(['cross-platform', 'platform'])),
      requireResidentKey: z.optional(z.boolean()),
      residentKey: z.optional(z.enum(['discouraged', 'preferred', 'required'])),
      userVerification: UserVerification,
    }),
  ),
  hints: Hints,
  attestation: z.optional(z.enum(['direct', 'enterprise', 'indirect', 'none'])),
  extensions: z.optional(z.object({ credProps: z.optional(z.boolean()) })),
})

/** The options of navigator.credentials.get(), as JSON (@simplewebauthn's PublicKeyCredentialRequestOptionsJSON). */
export const RequestOptions = z.object({
  challenge: z.string(),
  timeout: z.optional(z.number()),
  rpId: z.optional(z.string()),
  allowCredentials: z.optional(z.array(CredentialDescriptor)),
  userVerification: UserVerification,
  hints: Hints,
})

const Attachment = z.optional(z.enum(['cross-platform', 'platform']))
/** Extension outputs are not used: accepted as the browser sends them, and ignored. */
const ExtensionResults = z.record(z.string(), z.unknown())

/** What the browser answers to create() (@simplewebauthn/browser's startRegistration). */
export const RegistrationResponse = z.object({
  id: Base64Url,
  rawId: Base64Url,
  response: z.object({
    clientDataJSON: Base64Url,
    attestationObject: Base64Url,
    authenticatorData: z.optional(Base64Url),
    transports: z.optional(z.array(z.string().check(z.maxLength(30)))),
    publicKeyAlgorithm: z.optional(z.number()),
    publicKey: z.optional(Base64Url),
  }),
  authenticatorAttachment: Attachment,
  clientExtensionResults: ExtensionResults,
  type: z.literal('public-key'),
})

/** What the browser answers to get() (@simplewebauthn/browser's startAuthentication). */
export const AuthenticationResponse = z.object({
  id: Base64Url,
  rawId: Base64Url,
  response: z.object({
    clientDataJSON: Base64Url,
    authenticatorData: Base64Url,
    signature: Base64Url,
    userHandle: z.optional(Base64Url),
  }),
  authenticatorAttachment: Attachment,
  clientExtensionResults: ExtensionResults,
  type: z.literal('public-key'),
})

/** One passkey of the signed-in admin, as Profile lists it. */
export const Passkey = z.object({
  _id: z.string(),
  name: z.string(),
  /** ISO time it was added. */
  createdAt: z.string(),
  /** ISO time it last signed in or proved a step-up; '' when never. */
  lastUsedAt: z.string(),
})
export type Passkey = z.output<typeof Passkey>

export const PasskeyName = required('Name is required', 60)

/** The signed-in admin's passkeys, newest first. */
export const listPasskeys = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ data: z.array(Passkey) }),
  access: sessionAccess,
  ours: 'Not in the requirements: the Passkeys of Profile, each with its name, when it was added and when it was last used.',
})

/** Removes one of the signed-in admin's passkeys: it signs nobody in from now on. */
export const removePasskey = endpoint({
  method: 'POST',
  input: z.object({ id: Id }),
  output: Done,
  access: sessionAccess,
  stepUp: true,
  logAs: 'Passkey removed',
  ours: 'Not in the requirements: Remove a passkey (Profile); another admin\'s passkey id is answered as unknown (404).',
})

/** What a ceremony's call says of itself: its audit log words and what the requirements lack. */
interface Words {
  logAs: string
  ours: string
}

/** What the browser answers to get(), as the sign-in and the step-up proof take it. */
const Assertion = z.object({ response: AuthenticationResponse })

/**
 * A passkey ceremony's two calls: the options the browser needs, with a single-use challenge good
 * for 5 minutes, then the browser's answer to them, checked against that challenge. Adding a
 * passkey, signing in with one and proving the session with one differ only in the options' kind,
 * what the answer carries, what it gives back, who may call (and whether both calls are risky
 * ones, `stepUp` in define.ts) and their words.
 */
function ceremony<P extends z.ZodMiniType, I extends z.ZodMiniType, O extends z.ZodMiniType>(
  c: { options: P; answer: I; output: O; access: Access; stepUp?: true },
  words: { start: Words; finish: Words },
) {
  const risky = c.stepUp ? { stepUp: true } : {}
  return {
    start: endpoint({ method: 'POST', input: z.object({}), output: ok({ options: c.options }), access: c.access, ...risky, ...words.start }),
    finish: endpoint({ method: 'POST', input: c.answer, output: c.output, access: c.access, ...risky, ...words.finish }),
  }
}

/** Adds a passkey: creation options for this admin, then the passkey the browser made for them, under the name its owner gave. */
const adding = ceremony({ options: CreationOptions, answer: z.object({ name: PasskeyName, response: RegistrationResponse }), output: Done, access: sessionAccess, stepUp: true }, {
  start: { logAs: 'Passkey setup started', ours: 'Not in the requirements: the first half of Add a passkey (Profile): WebAuthn creation options for the signed-in admin, its challenge single-use and valid for 5 minutes.' },
  finish: { logAs: 'Passkey added', ours: 'Not in the requirements: the second half of Add a passkey (Profile): checks the new credential (attestation none) and keeps its public key under the name given.' },
})
export const passkeyRegistrationOptions = adding.start
export const addPasskey = adding.finish

/** Signs in with a passkey: request options naming no credential (the passkey names its admin), then the assertion, whose admin is signed in (no password, no 2FA code). */
const signingIn = ceremony({ options: RequestOptions, answer: Assertion, output: ok({ token: z.string() }), access: publicAccess }, {
  start: { logAs: 'Passkey sign-in started', ours: 'Not in the requirements: the first half of Sign in with a passkey (the sign-in page, and its autofill): WebAuthn request options, the challenge single-use and valid for 5 minutes.' },
  finish: { logAs: 'Signed in with a passkey', ours: "Not in the requirements: the second half of Sign in with a passkey: checks the assertion against the credential's admin and opens a session as Login does; a passkey counts as the second factor." },
})
export const passkeySignInOptions = signingIn.start
export const passkeySignIn = signingIn.finish

/** The step-up proof by passkey: request options naming the signed-in admin's passkeys, then an assertion of one of them marks the session proved, as proveIdentity does. */
const provingIdentity = ceremony({ options: RequestOptions, answer: Assertion, output: Done, access: sessionAccess }, {
  start: { logAs: 'Passkey check started', ours: "Not in the requirements: the first half of Use a passkey in the step-up question: request options for the signed-in admin's own passkeys." },
  finish: { logAs: 'Identity confirmed with a passkey', ours: "Not in the requirements: Use a passkey in the step-up question, beside the password: proves the session's owner for STEP_UP_MINUTES." },
})
export const passkeyStepUpOptions = provingIdentity.start
export const provePasskey = provingIdentity.finish

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
