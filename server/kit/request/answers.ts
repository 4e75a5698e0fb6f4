/**
 * What a handler answers besides its endpoint's output: the one way to refuse (`throw failure(...)`,
 * `throw notFound()`), the second-factor prompt and a streamed file.
 */
import type { Readable } from 'node:stream'
import type { FieldErrors, Failure } from '#contract/common'

/** A refused or failed call: `{ status: 'failed', message, errors }` (requirements R8.3) with an HTTP status. */
export class ApiFailure extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    /** What else the answer tells (a revert's conflict: the values now). */
    readonly more?: Readonly<Record<string, unknown>>,
  ) {
    super(message)
  }

  body(): Failure {
    return { ...this.more, status: 'failed', message: this.message, ...(this.errors === undefined ? {} : { errors: this.errors }) }
  }
}

/** A failure with per-field errors (400 unless told). */
export const failure = (message: string, errors?: FieldErrors, statusCode = 400): ApiFailure => new ApiFailure(statusCode, message, errors)

export const RECORD_NOT_FOUND = 'Record not found'
/** An unknown id: 404 with the id field named, as the client shows field errors under inputs. */
export const notFound = (field = 'id'): ApiFailure => new ApiFailure(404, RECORD_NOT_FOUND, { [field]: RECORD_NOT_FOUND })

/** The login (and create-user) answer when a second factor is needed. */
export interface TwoFactorAnswer {
  status: 'TWO_FA'
  message: string
}
export const twoFactorNeeded = (message = 'Enter the 6-digit code from your authenticator app'): TwoFactorAnswer => ({ status: 'TWO_FA', message })

/** A streamed download (the CSV export): sent as an attachment named `filename`. */
export class FileAnswer {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly body: Readable,
  ) {}
}
