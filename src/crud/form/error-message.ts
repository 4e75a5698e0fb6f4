/** The text to toast for a failed call: the server's own message (requirements R8.1), carried by ApiError. */
export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong. Please try again.'
}
