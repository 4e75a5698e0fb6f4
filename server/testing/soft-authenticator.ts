/**
 * A software passkey authenticator for the server's tests: a real P-256 key from node:crypto, and
 * the browser's answers to create() and get() built as a platform authenticator would build them
 * (attestation 'none', user present and verified, a signature counter). The server checks them with
 * @simplewebauthn/server as it checks a browser's; the CBOR is encoded by the encoder that library
 * ships (@simplewebauthn/server/helpers, isoCBOR).
 *
 * Test support only: the server itself never builds or parses CBOR or signatures by hand.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest()

const FLAG_USER_PRESENT = 0x01
const FLAG_USER_VERIFIED = 0x04
const FLAG_ATTESTED_CREDENTIAL = 0x40

/** The creation options' fields the authenticator reads (contract/passkeys.ts, CreationOptions). */
export interface CreationOptionsLike {
  challenge: string
  rp: { id?: string }
  user: { id: string }
}
/** The request options' field the authenticator reads. */
export interface RequestOptionsLike {
  challenge: string
}

export interface SoftPasskeyOptions {
  /** The page's origin the browser would report ('http://localhost'). */
  origin: string
  /** The RP ID the credential is scoped to ('localhost'). */
  rpId: string
  /** The credential id to use (a copy of another's, to try it on another account); random by default. */
  credentialId?: Buffer
}

/** One credential of the software authenticator, made by `register`. */
export class SoftPasskey {
  readonly credentialId: Buffer
  readonly #key: KeyObject
  readonly #publicKey: KeyObject
  /** The signature counter: each assertion moves it on by one (tests may set it back). */
  counter = 0
  /** The user handle given at registration (the options' user.id), returned at each assertion. */
  userHandle = ''
  origin: string
  rpId: string

  constructor(options: SoftPasskeyOptions) {
    this.credentialId = options.credentialId ?? randomBytes(16)
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    this.#key = pair.privateKey
    this.#publicKey = pair.publicKey
    this.origin = options.origin
    this.rpId = options.rpId
  }

  get id(): string {
    return b64url(this.credentialId)
  }

  /** The public key as COSE (EC2, ES256, P-256). */
  #coseKey(): Uint8Array {
    const jwk = this.#publicKey.export({ format: 'jwk' })
    const coordinate = (v: string | undefined): Uint8Array => new Uint8Array(Buffer.from(v ?? '', 'base64url'))
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, coordinate(jwk.x)],
        [-3, coordinate(jwk.y)],
      ]),
    )
  }

  #authData(flags: number, attested: Uint8Array | null): Buffer {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(this.counter)
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags]), count, ...(attested === null ? [] : [attested])])
  }

  #clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): string {
    return JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false })
  }

  /** The answer of navigator.credentials.create() to `options`, as @simplewebauthn/browser sends it. */
  register(options: CreationOptionsLike) {
    this.userHandle = options.user.id
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.#coseKey()])
    const authData = this.#authData(FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL, attested)
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    )
    return {
      id: this.id,
      rawId: this.id,
      response: { clientDataJSON: b64url(this.#clientData('webauthn.create', options.challenge)), attestationObject: b64url(attestationObject), transports: ['internal'] },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
      type: 'public-key' as const,
    }
  }

  /** The answer of navigator.credentials.get() to `options`; the counter moves on first. */
  assert(options: RequestOptionsLike, overrides: { userHandle?: string; flags?: number } = {}) {
    this.counter += 1
    const authData = this.#authData(overrides.flags ?? FLAG_USER_PRESENT | FLAG_USER_VERIFIED, null)
    const clientDataJSON = this.#clientData('webauthn.get', options.challenge)
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.#key)
    return {
      id: this.id,
      rawId: this.id,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: overrides.userHandle ?? this.userHandle,
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
      type: 'public-key' as const,
    }
  }
}

/** Flags of an assertion made without user verification (user present only). */
export const PRESENT_ONLY = FLAG_USER_PRESENT
