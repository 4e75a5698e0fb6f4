/**
 * Passkeys in the browser (contract/passkeys.ts): each ceremony asks the server for options, hands
 * them to @simplewebauthn/browser (which calls navigator.credentials and encodes the answer), and
 * sends the answer back. Loaded on demand: the sign-in page paints without it.
 */
import { WebAuthnAbortService, WebAuthnError, browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, startRegistration } from '@simplewebauthn/browser'
import {
  addPasskey,
  passkeyRegistrationOptions,
  passkeySignIn,
  passkeySignInOptions,
  passkeyStepUpOptions,
  provePasskey,
} from '#contract/passkeys'
import { call } from './api.ts'
import { login } from './session.ts'

/** The browser closed its passkey prompt: cancelled, timed out, or no passkey chosen. */
export const PASSKEY_CANCELLED = 'No passkey was used: the request was cancelled or timed out.'
/** This browser (or this page's address) cannot use passkeys. */
export const PASSKEYS_UNSUPPORTED = 'This browser cannot use passkeys here.'

/** A passkey ceremony that ended without an answer; its message is for the admin. */
export class PasskeyCancelled extends Error {
  constructor(message = PASSKEY_CANCELLED) {
    super(message)
    this.name = 'PasskeyCancelled'
  }
}

export const passkeysSupported = (): boolean => browserSupportsWebAuthn()

/**
 * The browser's errors, in words: a cancel or timeout (NotAllowedError), an authenticator that
 * holds a passkey of this account already (InvalidStateError), an address passkeys cannot be used on.
 */
function ceremonyError(error: unknown): Error {
  const name = error instanceof WebAuthnError ? error.code : error instanceof Error ? error.name : ''
  if (name === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') return new PasskeyCancelled('This authenticator already holds a passkey of your account.')
  if (name === 'ERROR_INVALID_DOMAIN' || name === 'ERROR_INVALID_RP_ID' || name === 'SecurityError') return new PasskeyCancelled(PASSKEYS_UNSUPPORTED)
  if (error instanceof WebAuthnError || (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))) return new PasskeyCancelled()
  return error instanceof Error ? error : new Error(String(error))
}

async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw ceremonyError(error)
  }
}

/** Adds a passkey named `name` to the signed-in admin (a step-up call: the API client asks for the proof). */
export async function createPasskey(name: string): Promise<string> {
  const { options } = await call(passkeyRegistrationOptions, {})
  const response = await ceremony(() => startRegistration({ optionsJSON: options }))
  const answer = await call(addPasskey, { name, response: { ...response, clientExtensionResults: { ...response.clientExtensionResults } } })
  return answer.message
}

/**
 * Signs in with a passkey and opens the session, as the password's login does; answers the
 * server's message. `autofill`: the request waits on the email field's autofill (conditional
 * mediation) instead of opening the browser's prompt. `wanted` is asked once the options are
 * there, before the browser is: false gives up (PasskeyCancelled).
 */
export async function signInWithPasskey(autofill = false, wanted: () => boolean = () => true): Promise<string> {
  const { options } = await call(passkeySignInOptions, {})
  // Starting a request ends the one waiting: an autofill request whose options arrive after the
  // passkey button was pressed must not end the button's.
  if (!wanted()) throw new PasskeyCancelled()
  const response = await ceremony(() => startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill }))
  const answer = await call(passkeySignIn, { response: { ...response, clientExtensionResults: { ...response.clientExtensionResults } } })
  await login(answer.token)
  return answer.message
}

/** Whether the email field's autofill can offer passkeys (conditional mediation). */
export const autofillSupported = (): Promise<boolean> => browserSupportsWebAuthnAutofill()

/** Proves the session's owner with one of their passkeys (the step-up question's "Use a passkey"). */
export async function provePasskeyNow(): Promise<string> {
  const { options } = await call(passkeyStepUpOptions, {})
  const response = await ceremony(() => startAuthentication({ optionsJSON: options }))
  const answer = await call(provePasskey, { response: { ...response, clientExtensionResults: { ...response.clientExtensionResults } } })
  return answer.message
}

/** Ends a passkey request still waiting (the autofill's, when the sign-in page goes away). */
export const cancelPasskeyRequest = (): void => WebAuthnAbortService.cancelCeremony()
