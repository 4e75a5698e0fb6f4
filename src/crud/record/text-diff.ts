/**
 * A word diff of two texts for the audit log's long values: which words the change removed and
 * which it added, the rest kept. Lines are compared first (a template of a hundred lines that
 * changed one stays quick), then the words of the lines that differ.
 */

export interface DiffPart {
  kind: 'same' | 'removed' | 'added'
  text: string
}

/** Beyond this many tokens a side the table of common runs would be too big: the whole texts differ. */
const MAX_TOKENS = 3000

/** Splits keeping the separators, so the parts put together give the text back. */
const tokens = (text: string, by: RegExp): string[] => text.split(by).filter((t) => t !== '')

/** The longest common subsequence of two token lists, as parts in order. */
function lcsDiff(a: readonly string[], b: readonly string[]): DiffPart[] {
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) {
    return [
      ...(a.length > 0 ? [{ kind: 'removed' as const, text: a.join('') }] : []),
      ...(b.length > 0 ? [{ kind: 'added' as const, text: b.join('') }] : []),
    ]
  }
  const n = a.length
  const m = b.length
  // lengths[i][j]: the longest common run of a[i..] and b[j..], one flat array.
  const lengths = new Uint32Array((n + 1) * (m + 1))
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * (m + 1) + j] = a[i] === b[j] ? (lengths[(i + 1) * (m + 1) + j + 1] ?? 0) + 1 : Math.max(lengths[(i + 1) * (m + 1) + j] ?? 0, lengths[i * (m + 1) + j + 1] ?? 0)
    }
  }
  const parts: DiffPart[] = []
  const push = (kind: DiffPart['kind'], text: string): void => {
    const last = parts[parts.length - 1]
    if (last !== undefined && last.kind === kind) last.text += text
    else parts.push({ kind, text })
  }
  let i = 0
  let j = 0
  while (i < n && j < m) {
    const x = a[i] as string
    const y = b[j] as string
    if (x === y) {
      push('same', x)
      i++
      j++
    } else if ((lengths[(i + 1) * (m + 1) + j] ?? 0) >= (lengths[i * (m + 1) + j + 1] ?? 0)) {
      push('removed', x)
      i++
    } else {
      push('added', y)
      j++
    }
  }
  for (; i < n; i++) push('removed', a[i] as string)
  for (; j < m; j++) push('added', b[j] as string)
  return parts
}

/** The parts of a change from `before` to `after`: lines first, then the words of the lines that changed. */
export function textDiff(before: string, after: string): DiffPart[] {
  const lines = lcsDiff(tokens(before, /(\n)/), tokens(after, /(\n)/))
  const parts: DiffPart[] = []
  for (let k = 0; k < lines.length; k++) {
    const part = lines[k] as DiffPart
    const next = lines[k + 1]
    // A run of lines removed then added: the words tell what changed within them.
    if (part.kind === 'removed' && next?.kind === 'added') {
      parts.push(...lcsDiff(tokens(part.text, /(\s+)/), tokens(next.text, /(\s+)/)))
      k++
    } else parts.push(part)
  }
  return parts
}

/** Whether a value is long enough to be shown as a diff rather than whole twice: several lines, or more than a line of text. */
export const isLongText = (value: string | null): boolean => value !== null && (value.includes('\n') || value.length > 80)
