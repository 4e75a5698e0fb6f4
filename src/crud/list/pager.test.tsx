import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Pager } from './pager.tsx'

const render = (props: Partial<Parameters<typeof Pager>[0]>) =>
  renderToStaticMarkup(<Pager page={1} limit={50} count={null} shown={50} onPage={() => {}} {...props} />)
/** The page's words, tags aside. */
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()
const buttons = (html: string) => [...html.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => ({ label: m[1] ?? '', disabled: /\sdisabled=""/.test(m[0]) }))

describe('the pager before the count is in', () => {
  it('says counting…, offers the pages up to this one and Next while the page is full, and no last page', () => {
    const html = render({ page: 3 })
    expect(text(html)).toContain('Showing 101–150 of counting…')
    expect(buttons(html)).toEqual([
      { label: 'Previous', disabled: false },
      { label: '1', disabled: false },
      { label: '2', disabled: false },
      { label: '3', disabled: false },
      { label: 'Next', disabled: false },
    ])
  })

  it('disables Next when the page is not full (nothing comes after it)', () => {
    const html = render({ page: 2, shown: 7 })
    expect(text(html)).toContain('Showing 51–57 of counting…')
    expect(buttons(html).at(-1)).toEqual({ label: 'Next', disabled: true })
  })

  it('says the count is unknown when counting failed, with a button to count again, never a number', () => {
    const html = render({ countFailed: { retry: () => {} } })
    expect(text(html)).toContain('Showing 1–50 of an unknown number')
    expect(buttons(html).map((b) => b.label)).toContain('Count again')
    expect(text(html)).not.toContain('counting…')
  })
})

describe('the pager with the count', () => {
  it('shows the count, every page up to the last, and Next until the last', () => {
    const html = render({ page: 2, count: 120, shown: 50 })
    expect(text(html)).toContain('Showing 51–100 of 120')
    expect(buttons(html).map((b) => b.label)).toEqual(['Previous', '1', '2', '3', 'Next'])
    expect(buttons(render({ page: 3, count: 120, shown: 20 })).at(-1)).toEqual({ label: 'Next', disabled: true })
  })
})
