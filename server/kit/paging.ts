/** Shared pieces of the list calls (page, limit, search). */

/** A LIKE pattern matching `term` anywhere, with LIKE's own wildcards escaped (backslash is the default escape). */
export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Rows to skip for a 1-based page. */
export const offsetOf = (page: number, limit: number): number => (page - 1) * limit
