/** Joins class names, skipping empty ones. Later classes do not override earlier ones: keep variants disjoint. */
export const cn = (...parts: Array<string | false | null | undefined>): string => parts.filter(Boolean).join(' ')
