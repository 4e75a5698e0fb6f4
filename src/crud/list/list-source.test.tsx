import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { FetchRestrictions } from '#contract/restrictions'
import { BarAction, SelectionBar } from './selection-bar.tsx'
import { listModel } from './define-list.tsx'
import { isListSource, listInput, pageOfAll, wholeListSource } from './list-source.ts'
import { col } from './columns.tsx'
import { setPage } from './selection.ts'

const countries = ['Chile', 'France', 'French Guiana', 'Japan', 'South Africa'].map((country, i) => ({ _id: `c${i}`, country, hide: false }))
const text = (row: { country: string }) => row.country
const q = (page: number, limit: number, search = '') => ({ page, limit, search })

describe('a list answered whole, paged on the client', () => {
  it('sorts by a column ignoring case, both ways, before paging', () => {
    const mixed = ['france', 'Chile', 'japan', 'South Africa', 'French Guiana'].map((country, i) => ({ _id: `m${i}`, country, hide: false }))
    const byCountry = { country: text }
    expect(pageOfAll(mixed, { ...q(1, 3), sort: { by: 'country', order: 'asc' } }, text, byCountry).rows.map(text)).toEqual(['Chile', 'france', 'French Guiana'])
    expect(pageOfAll(mixed, { ...q(1, 2), sort: { by: 'country', order: 'desc' } }, text, byCountry).rows.map(text)).toEqual(['South Africa', 'japan'])
    // No text for the column: the call's own order.
    expect(pageOfAll(mixed, { ...q(1, 2), sort: { by: 'hide', order: 'desc' } }, text, byCountry).rows.map(text)).toEqual(['france', 'Chile'])
    expect(wholeListSource(FetchRestrictions, {}, () => mixed, text, byCountry).sort).toEqual({ columns: ['country'] })
  })

  it('sends the sort to a paged call only when one is chosen', () => {
    expect(listInput(q(2, 10, 'ann'))).toEqual({ page: 2, limit: 10, search: 'ann' })
    expect(listInput({ ...q(1, 10), sort: { by: 'name', order: 'desc' } })).toEqual({ page: 1, limit: 10, search: '', sortBy: 'name', sortOrder: 'desc' })
  })

  it('pages the rows and counts them all', () => {
    const first = pageOfAll(countries, q(1, 2), text)
    expect(first.rows.map(text)).toEqual(['Chile', 'France'])
    expect(first.count).toBe(5)
    expect(pageOfAll(countries, q(3, 2), text).rows.map(text)).toEqual(['South Africa'])
    expect(pageOfAll(countries, q(4, 2), text).rows).toEqual([])
  })

  it('searches case-insensitively anywhere in the text, and Select All gets every match on every page', () => {
    const found = pageOfAll(countries, q(1, 1, ' FR '), text)
    expect(found.rows.map(text)).toEqual(['France'])
    expect(found.count).toBe(3)
    expect(found.allRows.map((r) => r._id)).toEqual(['c1', 'c2', 'c4'])
    expect(pageOfAll(countries, q(1, 10, 'atlantis'), text)).toEqual({ rows: [], count: 0, allRows: [] })
  })

  it('defineList takes the source as the list endpoint and keeps a paged endpoint paged', () => {
    const source = wholeListSource(FetchRestrictions, {}, (a) => a.result[0]?.Restrictedcountry ?? [], (row) => row.country)
    expect(isListSource(source)).toBe(true)
    const model = listModel({ title: 'Restriction List', endpoint: source, columns: [col('country', 'Country')] })
    expect(model.source).toBe(source)
  })

  it('selecting all adds to what was picked before and never duplicates', () => {
    const picked = setPage(new Set(['c1']), ['c1', 'c2', 'c4'], true)
    expect([...picked].sort()).toEqual(['c1', 'c2', 'c4'])
  })
})

describe('the selection bar', () => {
  const noop = () => {}
  const deleteAll = <BarAction label="Delete All" danger onRun={noop} />

  it('stays hidden with nothing selected: a list that can select every row offers Select All alone', () => {
    expect(renderToStaticMarkup(<SelectionBar count={0} onClear={noop}>{deleteAll}</SelectionBar>)).toBe('')
    const html = renderToStaticMarkup(
      <SelectionBar count={0} onClear={noop} onSelectAll={noop}>
        {deleteAll}
      </SelectionBar>,
    )
    expect(html).toContain('Select All')
    expect(html).not.toContain('selected')
    expect(html).not.toContain('Delete All')
    expect(html).not.toContain('Selected rows')
  })

  it('offers Clear and a usable Delete All once rows are selected', () => {
    const html = renderToStaticMarkup(
      <SelectionBar count={3} onClear={noop} onSelectAll={noop}>
        {deleteAll}
      </SelectionBar>,
    )
    expect(html).toContain('3 selected')
    expect(html).toContain('Clear')
    expect(html).not.toMatch(/aria-disabled="true"[^>]*>Delete All/)
    // A removal: the danger style, not the primary one.
    expect(html).toMatch(/<button[^>]*bg-danger[^>]*>Delete All/)
    expect(html).not.toMatch(/<button[^>]*bg-primary[^>]*>Delete All/)
  })

  it('offers every row matching, then counts them; a blocked action stays reachable and says why', () => {
    const matching = (chosen: boolean) => ({ count: 120, chosen, onChoose: noop })
    const ticked = renderToStaticMarkup(<SelectionBar count={3} matching={matching(false)} onClear={noop} />)
    expect(ticked).toContain('Select all 120 matching')
    const all = renderToStaticMarkup(
      <SelectionBar count={3} matching={matching(true)} onClear={noop}>
        <BarAction label="Freeze" blockedReason="You are offline" onRun={noop} />
      </SelectionBar>,
    )
    expect(all).toContain('All 120 matching selected')
    expect(all).not.toContain('Select all 120 matching')
    expect(all).toMatch(/<button[^>]*aria-disabled="true"[^>]*>Freeze/)
    expect(all).not.toMatch(/<button[^>]*disabled=""[^>]*>Freeze/)
  })

  it('takes its dark-theme colours from the palette, which turns by itself: a dark: variant would turn them back', () => {
    const html = renderToStaticMarkup(
      <SelectionBar count={1} matching={{ count: 5, chosen: false, onChoose: noop }} onClear={noop}>
        <BarAction label="Freeze" onRun={noop} />
      </SelectionBar>,
    )
    expect(html).toContain('bg-indigo-50')
    expect(html).not.toContain('dark:')
  })
})
