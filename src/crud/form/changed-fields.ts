import { isFileField, type FormField, type Values } from './form-fields.ts'

/** One field an Update would change, as a confirmation shows it. */
export interface FieldChange {
  label: string
  before: string
  after: string
}

/** Text and number inputs hold text; a stored number or flag reads the same as the text typed for it. */
const shown = (value: unknown): string => {
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return ''
}

/**
 * The fields whose value differs from the stored record's, in the form's order, with the values
 * as the reader will recognise them ('(empty)' for nothing). File fields are left out: a new file
 * has no value to show in words, and its preview is already on the form.
 */
export function changedFields(fields: readonly FormField<string>[], stored: Values, current: Values): FieldChange[] {
  const changes: FieldChange[] = []
  for (const f of fields) {
    if (isFileField(f)) continue
    const before = shown(stored[f.name])
    const after = shown(current[f.name])
    if (before !== after) changes.push({ label: f.label, before: before || '(empty)', after: after || '(empty)' })
  }
  return changes
}
