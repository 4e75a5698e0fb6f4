import { describe, expect, it } from 'vitest'
import { dateFilter, filterInput, listFilter, readFilters, writeFilter } from './list-filters.tsx'

const filters = [listFilter('category', 'Category', []), listFilter('operatingsystem', 'Operating System', [{ value: 'ios', label: 'ios' }])]

describe('list filters in the URL', () => {
  it('reads each declared filter, empty when absent, and ignores other parameters', () => {
    expect(readFilters('?category=c1&page=2&other=x', filters)).toEqual({ category: 'c1', operatingsystem: '' })
    expect(readFilters('', filters)).toEqual({ category: '', operatingsystem: '' })
    expect(readFilters(`?category=${'x'.repeat(500)}`, filters)['category']).toHaveLength(100)
  })

  it('sets a filter back on page 1 at the default page size, keeping the search and the other filters', () => {
    expect(writeFilter('?search=run&page=3&limit=50&category=c1', 'operatingsystem', 'ios')).toBe('?search=run&category=c1&operatingsystem=ios')
  })

  it('clears a filter, and the plain URL stays plain', () => {
    expect(writeFilter('?category=c1&page=2', 'category', '')).toBe('')
    expect(writeFilter('?search=run&category=c1', 'category', '')).toBe('?search=run')
  })
})

describe('what the filters send', () => {
  const leads = [listFilter('provider', 'Provider', []), dateFilter('from', 'Created from', { zoned: true }), dateFilter('to', 'Created to', { zoned: true })]

  it("adds the admin's time zone while a day of theirs is chosen, and only then", () => {
    expect(filterInput(leads, { provider: 'ipfs', from: '', to: '' }, 'Europe/Lisbon')).toEqual({ provider: 'ipfs', from: '', to: '' })
    expect(filterInput(leads, { provider: '', from: '', to: '2026-03-05' }, 'Europe/Lisbon')).toEqual({ provider: '', from: '', to: '2026-03-05', tz: 'Europe/Lisbon' })
  })

  it('leaves days that are not the admin\'s (the audit log\'s UTC days) without a zone', () => {
    expect(filterInput([dateFilter('from', 'From')], { from: '2026-03-05' }, 'Europe/Lisbon')).toEqual({ from: '2026-03-05' })
  })
})
