/** A form value as a list of strings: what a multi-select holds, whatever the form was given (non-strings dropped). */
export const stringList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [])
