import { describe, expect, it } from 'vitest'
import { ageInWords } from './rows-snapshot.ts'

// Painting and keeping the rows need a real document: tests/e2e/reopen.spec.ts covers them in Chromium.
describe('the age of reopened rows', () => {
  const NOW = 1_800_000_000_000
  const words = new Intl.RelativeTimeFormat(undefined, { numeric: 'always' })

  it('says an age in the largest whole unit', () => {
    expect(ageInWords(NOW - 5_000, NOW)).toBe(words.format(-5, 'second'))
    expect(ageInWords(NOW - 3 * 60_000 - 59_000, NOW)).toBe(words.format(-3, 'minute'))
    expect(ageInWords(NOW - 2 * 3_600_000, NOW)).toBe(words.format(-2, 'hour'))
    expect(ageInWords(NOW - 3 * 86_400_000, NOW)).toBe(words.format(-3, 'day'))
  })

  it('never says a time in the future (a clock moved back)', () => {
    expect(ageInWords(NOW + 60_000, NOW)).toBe(words.format(-0, 'second'))
  })
})
