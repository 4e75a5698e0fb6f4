import { describe, expect, it } from 'vitest'
import { dropIds, flipPage, pageState, setPage, toggleId, toggleRange, type Selection } from './selection.ts'

const none: Selection = new Set()
const page1 = ['a', 'b', 'c']
const page2 = ['d', 'e']

describe('row selection', () => {
  it('keeps rows chosen on page 1 while page 2 is chosen, and counts both', () => {
    let s = toggleId(none, 'a')
    s = toggleId(s, 'c')
    // Paging away: page 2 starts clear, page 1's choices are still there.
    expect(pageState(s, page2)).toBe('none')
    s = flipPage(s, page2)
    expect([...s].sort()).toEqual(['a', 'c', 'd', 'e'])
    expect(pageState(s, page1)).toBe('some')
    expect(pageState(s, page2)).toBe('all')
  })

  it('keeps a selection across a search that shows other rows, and shows a chosen row as chosen again', () => {
    let s = toggleId(none, 'b')
    const searched = ['x', 'y']
    s = toggleId(s, 'x')
    expect(s.size).toBe(2)
    // Clearing the search brings page 1 back with b still selected.
    expect(pageState(s, page1)).toBe('some')
    expect(s.has('b')).toBe(true)
    expect(pageState(s, searched)).toBe('some')
  })

  it('the header checkbox selects a partly selected page whole, and clears a whole page', () => {
    const partly = toggleId(none, 'b')
    const whole = flipPage(partly, page1)
    expect(pageState(whole, page1)).toBe('all')
    const cleared = flipPage(whole, page1)
    expect(pageState(cleared, page1)).toBe('none')
  })

  it('clearing one page leaves the other pages selected', () => {
    const s = setPage(setPage(none, page1, true), page2, true)
    expect([...setPage(s, page2, false)].sort()).toEqual(page1)
  })

  it('unticks a row by toggling it again', () => {
    expect(toggleId(toggleId(none, 'a'), 'a').size).toBe(0)
  })

  it('an empty page reads as not selected', () => {
    expect(pageState(toggleId(none, 'a'), [])).toBe('none')
  })

  it('forgets a deleted row, and returns the same selection when nothing changes', () => {
    const s = setPage(none, page1, true)
    expect([...dropIds(s, ['b'])].sort()).toEqual(['a', 'c'])
    expect(dropIds(s, ['z'])).toBe(s)
  })

  it('never changes the selection it was given', () => {
    const s = toggleId(none, 'a')
    flipPage(s, page1)
    setPage(s, page2, true)
    dropIds(s, ['a'])
    expect([...s]).toEqual(['a'])
  })

  it('Shift+click gives every row between the last one toggled and this one the state this one takes', () => {
    const rows = ['a', 'b', 'c', 'd', 'e']
    let s = toggleId(none, 'b')
    s = toggleRange(s, rows, 'b', 'd')
    expect([...s].sort()).toEqual(['b', 'c', 'd'])
    // Upwards, and clearing: d was selected, so the range from d up to c clears.
    s = toggleRange(s, rows, 'd', 'c')
    expect([...s]).toEqual(['b'])
    // No anchor on this page (a row of another page, or none): the row alone toggles.
    expect([...toggleRange(s, rows, 'z', 'e')].sort()).toEqual(['b', 'e'])
    expect([...toggleRange(none, rows, null, 'a')]).toEqual(['a'])
  })
})
