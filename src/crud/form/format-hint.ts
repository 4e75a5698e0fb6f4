/**
 * What a field accepts, said under it before anyone types (an error then only repeats it): the
 * address forms a link may take, and the kinds, count and size a file field takes (from the
 * endpoint's own FileRule, so the words follow the rule the server applies).
 */
import type { FileKind, FileRule } from '#contract/define'
import { sizeWords } from '#contract/multipart'

const KIND_NAMES: Record<FileKind, string> = { png: 'PNG', jpeg: 'JPEG', mp4: 'MP4', m4a: 'M4A', webm: 'WebM' }

/** "A, B or C". */
const either = (names: readonly string[]): string => (names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`)

/** The line under a field of `kind` saying what it accepts, or undefined when its kind has none. */
export function formatHint(kind: string, rule: FileRule | undefined): string | undefined {
  if (kind === 'url') return 'An address starting with https://, http:// or www.'
  if (rule === undefined || (kind !== 'image' && kind !== 'images' && kind !== 'video')) return undefined
  const count = rule.max > 1 ? `up to ${rule.max} files, ` : ''
  return `${either(rule.kinds.map((k) => KIND_NAMES[k]))}; ${count}at most ${sizeWords(rule.maxBytes)}${rule.max > 1 ? ' each' : ''}.`
}
