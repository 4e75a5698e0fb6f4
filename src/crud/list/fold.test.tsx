import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { col, field, low, mono, serial, viewLines, type Column, type ViewField } from './columns.tsx'
import { DataTable } from './data-table.tsx'
import { FOLD_BELOW_PX, FOLD_CLASS, foldedColumns, foldsAt, withFolded } from './fold.ts'

interface Lead {
  _id: string
  name: string
  operatingsystem: string
  walletaddress: string
}
const lead: Lead = { _id: '1', name: 'Ann', operatingsystem: 'ios', walletaddress: '0xabc' }
const columns: readonly Column<Lead>[] = [serial(), col('name', 'Name'), low(col('operatingsystem', 'Operating System')), low(mono('walletaddress', 'Wallet Address'))]
const view: ViewField<Lead>[] = [field('name', 'Name'), field('walletaddress', 'Wallet Address', 'mono')]

describe('column folding', () => {
  it('the CSS class and the number agree on the width', () => {
    expect(FOLD_CLASS).toBe(`@max-[${FOLD_BELOW_PX / 16}rem]:hidden`)
  })

  it('folds below the width, not at or above it, and not before the table has a width', () => {
    expect(foldsAt(820)).toBe(true)
    expect(foldsAt(FOLD_BELOW_PX - 1)).toBe(true)
    expect(foldsAt(FOLD_BELOW_PX)).toBe(false)
    expect(foldsAt(1200)).toBe(false)
    expect(foldsAt(undefined)).toBe(false)
    expect(foldsAt(0)).toBe(false)
  })

  it('folds only the low-priority columns', () => {
    expect(foldedColumns(columns, 820).map((c) => c.header)).toEqual(['Operating System', 'Wallet Address'])
    expect(foldedColumns(columns, 1200)).toEqual([])
  })

  it('adds a folded column to the view modal once: Operating System joins, Wallet Address is already there', () => {
    const fields = withFolded(view, foldedColumns(columns, 820))
    expect(fields.map((f) => f.label)).toEqual(['Name', 'Wallet Address', 'Operating System'])
    expect(viewLines(fields, lead).map((l) => l.content)).toEqual(['Ann', expect.anything(), 'ios'])
  })

  it('leaves the view modal as declared on a wide table', () => {
    expect(withFolded(view, foldedColumns(columns, 1200)).map((f) => f.label)).toEqual(['Name', 'Wallet Address'])
  })

  it('a folded custom column brings its own cell to the modal', () => {
    const custom = low({ header: 'Access', cell: (r: Lead) => `${r.name} everywhere` })
    const fields = withFolded([], [custom])
    expect(viewLines(fields, lead)).toEqual([{ label: 'Access', content: 'Ann everywhere' }])
  })

  it('the table marks low cells to fold and keeps the Action cell sticky at the right edge', () => {
    const html = renderToStaticMarkup(
      <DataTable caption="Leads" columns={columns} rows={[lead]} serial={(i) => i + 1} error={undefined} onRetry={() => {}} busy={false} actions={() => 'View'} />,
    )
    const cells = [...html.matchAll(/<(td|th)[^>]*class="([^"]*)"[^>]*>/g)].map((m) => m[2] ?? '')
    // Header and body: two folded cells each (OS, wallet); name and S.No never fold.
    expect(cells.filter((c) => c.includes(FOLD_CLASS))).toHaveLength(4)
    expect(cells.filter((c) => c.includes('sticky right-0'))).toHaveLength(2)
    expect(html).toContain('@container')
  })

  it('a low column the admin brought back does not fold; the other still does', () => {
    const html = renderToStaticMarkup(
      <DataTable caption="Leads" columns={columns} rows={[lead]} serial={(i) => i + 1} error={undefined} onRetry={() => {}} busy={false} kept={['walletaddress']} />,
    )
    const folded = [...html.matchAll(/<(td|th)[^>]*class="([^"]*)"[^>]*>(.*?)<\/\1>/g)].filter((m) => (m[2] ?? '').includes(FOLD_CLASS)).map((m) => (m[3] ?? '').replace(/<[^>]*>/g, ''))
    expect(folded).toEqual(['Operating System', 'ios'])
  })

  it('a one-line text is bounded and cut with an ellipsis, whole in its title, so the table keeps to its box', () => {
    const name = 'Annabelle Wilhelmina Fitzgerald-Montgomery of Somewhere Rather Far Away'
    const html = renderToStaticMarkup(
      <DataTable caption="Leads" columns={columns} rows={[{ ...lead, name }]} serial={(i) => i + 1} error={undefined} onRetry={() => {}} busy={false} />,
    )
    const cut = html.match(new RegExp(`<span title="${name}" class="([^"]*)">${name}</span>`))
    expect(cut).not.toBeNull()
    // One line at most 15rem; once the table is still too wide (FIT_STAGES), narrower, to fit its column.
    expect(cut?.[1]?.split(' ')).toEqual(expect.arrayContaining(['block', 'max-w-60', 'truncate', 'group-data-cut-text/table:line-clamp-1', 'group-data-cut-text/table:wrap-anywhere']))
  })

  it('a long id shows its first 8 characters, whole in its tooltip and for screen readers, with a copy button', () => {
    const wallet = '0x52908400098527886E0F7030069857D2E4169EE7'
    const html = renderToStaticMarkup(
      <DataTable caption="Leads" columns={columns} rows={[{ ...lead, walletaddress: wallet }]} serial={(i) => i + 1} error={undefined} onRetry={() => {}} busy={false} />,
    )
    expect(html).toContain(`title="${wallet}" class="font-mono text-xs">0x529084…</span>`)
    expect(html).toContain(`<span class="sr-only">${wallet}</span>`)
    expect(html).toContain('aria-label="Copy Wallet Address"')
  })
})

describe('sortable headers', () => {
  const table = (shown: { by: string; order: 'asc' | 'desc' } | undefined) =>
    renderToStaticMarkup(
      <DataTable caption="Leads" columns={columns} rows={[lead]} serial={(i) => i + 1} error={undefined} onRetry={() => undefined} busy={false} sort={{ columns: ['name', 'walletaddress'], shown, onSort: () => undefined }} />,
    )

  it('puts a button in each sortable header, and aria-sort on the one the rows are ordered by', () => {
    const html = table({ by: 'name', order: 'desc' })
    expect(html.match(/<th[^>]*aria-sort="descending"[^>]*><button type="button"[^>]*>Name<svg/g)).toHaveLength(1)
    expect(html).toContain('>Wallet Address<svg')
    expect(html.match(/aria-sort/g)).toHaveLength(1)
    // S.No and Operating System do not sort here: plain text headers.
    expect(html).toMatch(/<th[^>]*>S\.No<\/th>/)
    expect(html).toMatch(/<th[^>]*>Operating System<\/th>/)
    expect(table({ by: 'name', order: 'asc' })).toContain('aria-sort="ascending"')
    expect(table(undefined)).not.toContain('aria-sort')
  })

  it("shows the required header text as written, without a case transform", () => {
    expect(table(undefined)).not.toMatch(/uppercase/)
  })
})
