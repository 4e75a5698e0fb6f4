import { describe, expect, it } from 'vitest'
import type { FileRule } from '#contract/define'
import { sizeWords } from '#contract/multipart'
import { formatHint } from './format-hint.ts'

const MB = 1024 * 1024
const rule = (over: Partial<FileRule>): FileRule => ({ kinds: ['png', 'jpeg'], max: 1, required: false, maxBytes: 5 * MB, messages: { kind: 'wrong kind' }, ...over })

describe('formatHint', () => {
  it('says the address forms a link may take', () => {
    expect(formatHint('url', undefined)).toBe('An address starting with https://, http:// or www.')
  })

  it("says a file field's kinds, count and size from the endpoint's rule", () => {
    expect(formatHint('image', rule({}))).toBe('PNG or JPEG; at most 5 MB.')
    expect(formatHint('images', rule({ max: 4 }))).toBe('PNG or JPEG; up to 4 files, at most 5 MB each.')
    expect(formatHint('video', rule({ kinds: ['mp4', 'webm', 'm4a'], maxBytes: 200 * MB }))).toBe('MP4, WebM or M4A; at most 200 MB.')
  })

  it('says nothing for other kinds, or a file field without a rule', () => {
    expect(formatHint('text', undefined)).toBeUndefined()
    expect(formatHint('image', undefined)).toBeUndefined()
  })
})

describe('sizeWords', () => {
  it("reads sizes as the server's refusal does", () => {
    expect(sizeWords(5 * MB)).toBe('5 MB')
    expect(sizeWords(300 * 1024)).toBe('300 KB')
    expect(sizeWords(512)).toBe('512 bytes')
  })
})
