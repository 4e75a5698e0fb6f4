import { describe, expect, it } from 'vitest'
import { WINDOW_FROM, filterOptions, visibleRange } from './searchable-multi-select.tsx'

const countries = ['France', 'French Guiana', 'Germany', 'South Africa', 'South Korea'].map((label) => ({ value: label.toLowerCase(), label }))

describe('filterOptions', () => {
  it('keeps options whose label has every word of the query, in any case, starts of labels first', () => {
    expect(filterOptions(countries, 'fr').map((o) => o.label)).toEqual(['France', 'French Guiana', 'South Africa'])
    expect(filterOptions(countries, 'ko').map((o) => o.label)).toEqual(['South Korea'])
    expect(filterOptions(countries, 'south KOR').map((o) => o.label)).toEqual(['South Korea'])
    expect(filterOptions(countries, '  ')).toBe(countries)
    expect(filterOptions(countries, 'atlantis')).toEqual([])
  })
})

describe('visibleRange', () => {
  it('renders every row of a short list', () => {
    expect(visibleRange(WINDOW_FROM, 5000)).toEqual({ start: 0, end: WINDOW_FROM })
  })

  it('renders only the rows in sight, with a margin, past a few hundred', () => {
    const count = 10_000
    expect(visibleRange(count, 0)).toEqual({ start: 0, end: 17 })
    const middle = visibleRange(count, 32 * 1000)
    expect(middle).toEqual({ start: 992, end: 1017 })
    expect(visibleRange(count, 32 * count)).toEqual({ start: count - 8, end: count })
  })

  it('stretches the window to keep a margin past the highlighted row, when it is near', () => {
    expect(visibleRange(10_000, 0, 16)).toEqual({ start: 0, end: 25 })
    expect(visibleRange(10_000, 0, 5000)).toEqual({ start: 0, end: 17 })
  })
})
