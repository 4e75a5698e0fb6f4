import { describe, expect, it } from 'vitest'
import { nextSort, pageCount, pageWindow, readListQuery, serialNumber, settlePage, shownSort, writeListQuery } from './list-query.ts'

const leadSort = { columns: ['createdAt', 'name', 'email'], initial: { by: 'createdAt', order: 'desc' as const } }

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

describe('the sort in the URL', () => {
  it("reads one of the list's columns and its order, ascending unless it says descending", () => {
    expect(readListQuery('?sortBy=name&sortOrder=desc', 50, leadSort).sort).toEqual({ by: 'name', order: 'desc' })
    expect(readListQuery('?sortBy=email', 50, leadSort).sort).toEqual({ by: 'email', order: 'asc' })
    expect(readListQuery('?sortBy=email&sortOrder=sideways', 50, leadSort).sort).toEqual({ by: 'email', order: 'asc' })
  })

  it('ignores a column the list does not sort by, and any sort on a list that has none', () => {
    expect(readListQuery('?sortBy=walletaddress&sortOrder=desc', 50, leadSort).sort).toBeUndefined()
    expect(readListQuery('?sortBy=name', 50).sort).toBeUndefined()
  })

  it('writes the sort, removes it when gone, and keeps other parameters', () => {
    expect(writeListQuery('?provider=ipfs', { page: 1, limit: 50, search: '', sort: { by: 'name', order: 'desc' } }, 50)).toBe('?provider=ipfs&sortBy=name&sortOrder=desc')
    expect(writeListQuery('?sortBy=name&sortOrder=desc&page=3', { page: 1, limit: 50, search: '' }, 50)).toBe('')
    const q = { page: 2, limit: 50, search: 'ann', sort: { by: 'email', order: 'asc' as const } }
    expect(readListQuery(writeListQuery('', q, 50), 50, leadSort)).toEqual(q)
  })

  it("shows the list's own order until a header is pressed", () => {
    expect(shownSort({ page: 1, limit: 50, search: '' }, leadSort)).toEqual({ by: 'createdAt', order: 'desc' })
    expect(shownSort({ page: 1, limit: 50, search: '', sort: { by: 'name', order: 'asc' } }, leadSort)).toEqual({ by: 'name', order: 'asc' })
    expect(shownSort({ page: 1, limit: 10, search: '' }, { columns: ['title'] })).toBeUndefined()
  })

  it('a first press sorts a column ascending, the next reverses it; the default order leaves the URL plain', () => {
    const plain = { page: 4, limit: 50, search: '' }
    expect(nextSort(plain, leadSort, 'name')).toEqual({ by: 'name', order: 'asc' })
    expect(nextSort({ ...plain, sort: { by: 'name', order: 'asc' } }, leadSort, 'name')).toEqual({ by: 'name', order: 'desc' })
    expect(nextSort({ ...plain, sort: { by: 'name', order: 'desc' } }, leadSort, 'name')).toEqual({ by: 'name', order: 'asc' })
    // Date Created is shown newest first already: a press turns it oldest first, the next back to the default.
    expect(nextSort(plain, leadSort, 'createdAt')).toEqual({ by: 'createdAt', order: 'asc' })
    expect(nextSort({ ...plain, sort: { by: 'createdAt', order: 'asc' } }, leadSort, 'createdAt')).toBeUndefined()
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
