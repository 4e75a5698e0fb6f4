/**
 * PostgreSQL text (and jsonb) cannot hold U+0000: a request value carrying one fails at its first
 * query with "invalid byte sequence for encoding UTF8: 0x00", which the error handler can only
 * answer as a 500. JSON (`"\u0000"`), a query string (`%00`) and a multipart field all let a
 * client send one, and no field of the contract has a use for it, so the registrar refuses such a
 * request as bad input before validation, naming the field (found by the contract-wide fuzz,
 * server/testing/fuzz.ts).
 */

/** The message of a refused value, the format message of requirements R5. */
export const NUL_MESSAGE = 'Incorrect format'

/**
 * The top-level field of the first string (value or key, at any depth) that holds U+0000, `form`
 * when the input itself is such a string, or null when there is none. Walks without recursion: a
 * body may nest thousands of levels deep.
 */
export function nulField(input: unknown): string | null {
  // `field` is the top-level key the value sits under; null while still at the root.
  const stack: { value: unknown; field: string | null }[] = [{ value: input, field: null }]
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, field } = next
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return field ?? 'form'
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, field })
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if (key.includes('\u0000')) return field ?? 'form'
        stack.push({ value: inner, field: field ?? key })
      }
    }
  }
  return null
}
