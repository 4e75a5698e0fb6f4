import { describe, expect, it } from 'vitest'
import { isLongText, textDiff } from './text-diff.ts'

const joined = (parts: ReturnType<typeof textDiff>, keep: 'before' | 'after'): string =>
  parts.filter((p) => p.kind === 'same' || p.kind === (keep === 'before' ? 'removed' : 'added')).map((p) => p.text).join('')

describe('textDiff', () => {
  it('marks the one word that changed and keeps the rest', () => {
    const parts = textDiff('Your code is ready to use today', 'Your code is waiting to use today')
    expect(parts.filter((p) => p.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'ready' },
      { kind: 'added', text: 'waiting' },
    ])
  })

  it('gives both texts back exactly', () => {
    const before = 'line one\nline two stays\nline three\n'
    const after = 'line one\nline two changed\nline four\nline five\n'
    const parts = textDiff(before, after)
    expect(joined(parts, 'before')).toBe(before)
    expect(joined(parts, 'after')).toBe(after)
  })

  it('an unchanged line is one kept part', () => {
    expect(textDiff('a\nb', 'a\nc')[0]).toEqual({ kind: 'same', text: 'a\n' })
  })

  it('says which values are long', () => {
    expect(isLongText('short')).toBe(false)
    expect(isLongText('two\nlines')).toBe(true)
    expect(isLongText('x'.repeat(81))).toBe(true)
    expect(isLongText(null)).toBe(false)
  })
})
