/** The text to toast for a failed call: the server's own message (spec section 8), carried by ApiError. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong. Please try again.'
}
