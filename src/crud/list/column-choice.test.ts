import { describe, expect, it } from 'vitest'
import {
  DEFAULT_CHOICE,
  choiceInQuery,
  columnId,
  isCurrentView,
  isFolded,
  isLastOnScreen,
  parseChoice,
  setOnScreen,
  shownColumns,
  withChoice,
  withoutChoice,
  writeChoice,
  type ColumnChoice,
} from './column-choice.ts'
import { col, low, mono, serial, type Column } from './columns.tsx'

interface Lead {
  _id: string
  name: string
  email: string
  operatingsystem: string
  walletaddress: string
}
const columns: readonly Column<Lead>[] = [
  serial(),
  col('name', 'Name'),
  { header: 'Mail', cell: (l: Lead) => l.email },
  low(col('operatingsystem', 'Operating System')),
  low(mono('walletaddress', 'Wallet Address')),
]
const ids = columns.map(columnId)
const headers = (choice: ColumnChoice) => shownColumns(columns, choice).map((c) => c.header)

describe('column choice', () => {
  it('names columns by field, by header when computed, and serial for S.No', () => {
    expect(ids).toEqual(['serial', 'name', 'Mail', 'operatingsystem', 'walletaddress'])
  })

  it('shows every column by default', () => {
    expect(headers(DEFAULT_CHOICE)).toEqual(['S.No', 'Name', 'Mail', 'Operating System', 'Wallet Address'])
    expect(parseChoice(null, ids)).toEqual(DEFAULT_CHOICE)
    expect(parseChoice('', ids)).toEqual(DEFAULT_CHOICE)
  })

  it('reads and writes its text in column order, forgetting unknown columns and malformed parts', () => {
    const choice = parseChoice('-walletaddress,+operatingsystem,-gone,name,-name,-name', ids)
    expect(choice).toEqual({ hidden: ['name', 'walletaddress'], kept: ['operatingsystem'] })
    expect(writeChoice(choice)).toBe('-name,-walletaddress,+operatingsystem')
    expect(parseChoice(writeChoice(choice), ids)).toEqual(choice)
  })

  it('never hides every column: such a text shows them all', () => {
    expect(parseChoice(ids.map((id) => `-${id}`).join(','), ids).hidden).toEqual([])
  })

  it('hides and shows a column; hiding one forgets that it was kept', () => {
    const hidden = setOnScreen(columns, DEFAULT_CHOICE, 'Mail', false, false)
    expect(headers(hidden)).toEqual(['S.No', 'Name', 'Operating System', 'Wallet Address'])
    expect(setOnScreen(columns, hidden, 'Mail', true, false)).toEqual(DEFAULT_CHOICE)
    const kept = setOnScreen(columns, DEFAULT_CHOICE, 'walletaddress', true, true)
    expect(setOnScreen(columns, kept, 'walletaddress', false, true)).toEqual({ hidden: ['walletaddress'], kept: [] })
  })

  it('keeps the last column on screen', () => {
    let choice = DEFAULT_CHOICE
    for (const id of ['serial', 'name', 'Mail', 'operatingsystem']) choice = setOnScreen(columns, choice, id, false, false)
    expect(headers(choice)).toEqual(['Wallet Address'])
    expect(isLastOnScreen(columns, choice, 'walletaddress', false)).toBe(true)
    expect(setOnScreen(columns, choice, 'walletaddress', false, false)).toBe(choice)
  })

  it('counts folded columns as off screen when keeping the last one on a narrow table', () => {
    let choice = DEFAULT_CHOICE
    for (const id of ['serial', 'name']) choice = setOnScreen(columns, choice, id, false, true)
    // Narrow: Operating System and Wallet Address are folded, so Mail is the last on screen.
    expect(isLastOnScreen(columns, choice, 'Mail', true)).toBe(true)
    expect(setOnScreen(columns, choice, 'Mail', false, true)).toBe(choice)
    expect(isLastOnScreen(columns, choice, 'Mail', false)).toBe(false)
  })

  it('folds low columns only on a narrow table, and brings one back when it is chosen there', () => {
    const wallet = columns[4]
    if (wallet === undefined) throw new Error('no wallet column')
    expect(isFolded(wallet, DEFAULT_CHOICE, true)).toBe(true)
    expect(isFolded(wallet, DEFAULT_CHOICE, false)).toBe(false)
    const back = setOnScreen(columns, DEFAULT_CHOICE, 'walletaddress', true, true)
    expect(back).toEqual({ hidden: [], kept: ['walletaddress'] })
    expect(isFolded(wallet, back, true)).toBe(false)
    // Shown again on a wide table, a hidden low column is not kept: nothing folds there.
    const hidden = setOnScreen(columns, DEFAULT_CHOICE, 'walletaddress', false, false)
    expect(setOnScreen(columns, hidden, 'walletaddress', true, false)).toEqual(DEFAULT_CHOICE)
    // Shown again on a narrow table, it is kept, or it would stay out of sight.
    expect(setOnScreen(columns, hidden, 'walletaddress', true, true)).toEqual(back)
  })

  it('travels in a query as the columns parameter, beside the list state', () => {
    const choice = { hidden: ['Mail'], kept: [] }
    const query = withChoice('?search=ann&limit=20', choice)
    expect(query).toBe('?search=ann&limit=20&columns=-Mail')
    expect(choiceInQuery(query, ids)).toEqual(choice)
    expect(choiceInQuery('?search=ann', ids)).toBeUndefined()
    expect(withoutChoice(query)).toBe('?search=ann&limit=20')
    expect(withoutChoice('?columns=-Mail')).toBe('')
    // The default is written too, so a view saved with every column restores every column.
    expect(choiceInQuery(withChoice('', DEFAULT_CHOICE), ids)).toEqual(DEFAULT_CHOICE)
  })

  it('a saved view is the current one with the same query and the same columns', () => {
    const hidden = { hidden: ['Mail'], kept: [] }
    const saved = withChoice('?search=ann', hidden)
    expect(isCurrentView(saved, '?search=ann', hidden, ids)).toBe(true)
    expect(isCurrentView(saved, '?search=ann', DEFAULT_CHOICE, ids)).toBe(false)
    expect(isCurrentView(saved, '?search=bob', hidden, ids)).toBe(false)
    // A view saved without columns matches whatever columns are shown.
    expect(isCurrentView('?search=ann', '?search=ann', hidden, ids)).toBe(true)
  })
})
