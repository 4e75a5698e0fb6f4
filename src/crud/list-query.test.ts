import { describe, expect, it } from 'vitest'
import { pageCount, pageWindow, readListQuery, serialNumber, settlePage, writeListQuery } from './list-query.ts'

describe('readListQuery', () => {
  it('uses the defaults for an empty query', () => {
    expect(readListQuery('', 10)).toEqual({ page: 1, limit: 10, search: '' })
  })

  it('reads page, limit and search', () => {
    expect(readListQuery('?page=3&limit=20&search=ann%20lee', 10)).toEqual({ page: 3, limit: 20, search: 'ann lee' })
  })

  it('ignores a malformed page or a limit outside the menu', () => {
    expect(readListQuery('?page=-2&limit=7', 10)).toEqual({ page: 1, limit: 10, search: '' })
    expect(readListQuery('?page=abc&limit=1e3', 10)).toEqual({ page: 1, limit: 10, search: '' })
    expect(readListQuery('?page=0', 10).page).toBe(1)
  })

  it('keeps the screen default limit even when the menu lacks it', () => {
    expect(readListQuery('?limit=25', 25).limit).toBe(25)
  })
})

describe('writeListQuery', () => {
  it('leaves the defaults out of the URL', () => {
    expect(writeListQuery('', { page: 1, limit: 50, search: '' }, 50)).toBe('')
  })

  it('writes what differs from the defaults and keeps other parameters', () => {
    expect(writeListQuery('?id=7&page=4', { page: 2, limit: 20, search: 'x y' }, 10)).toBe(
      '?id=7&page=2&limit=20&search=x+y',
    )
  })

  it('round-trips through readListQuery', () => {
    const q = { page: 5, limit: 50, search: 'a&b=c' }
    expect(readListQuery(writeListQuery('', q, 10), 10)).toEqual(q)
  })
})

describe('settlePage', () => {
  it('resets to page 1 when the page size is at least the total count', () => {
    expect(settlePage(3, 50, 50)).toBe(1)
    expect(settlePage(2, 20, 7)).toBe(1)
    expect(settlePage(4, 10, 0)).toBe(1)
  })

  it('keeps a page that exists', () => {
    expect(settlePage(3, 10, 51)).toBe(3)
  })

  it('pulls a page past the end back to the last page', () => {
    expect(settlePage(9, 10, 25)).toBe(3)
  })
})

describe('pageCount and pageWindow', () => {
  it('counts at least one page', () => {
    expect(pageCount(10, 0)).toBe(1)
    expect(pageCount(10, 11)).toBe(2)
  })

  it('shows every page of a short list', () => {
    expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4])
  })

  it('elides long gaps around the current page', () => {
    expect(pageWindow(10, 40)).toEqual([1, null, 9, 10, 11, null, 40])
  })

  it('fills a gap of one page instead of eliding it', () => {
    expect(pageWindow(4, 9)).toEqual([1, 2, 3, 4, 5, null, 9])
  })
})

describe('serialNumber', () => {
  it('continues across pages', () => {
    expect(serialNumber({ page: 1, limit: 10 }, 0)).toBe(1)
    expect(serialNumber({ page: 3, limit: 20 }, 4)).toBe(45)
  })
})
