import { describe, expect, it } from 'vitest'
import { MAX_SHOWN, visibleEntries, type Entry } from './palette-filter.ts'

const entry = (group: string, id: string, label: string, haystack = `${group} ${label}`.toLowerCase()): Entry => ({ value: `${group}:${id}`, group, label, detail: '', haystack, disabled: false, run: () => undefined })

describe('the palette filter', () => {
  const entries = [entry('Screens', '/users', 'Leads'), entry('Actions', 'logout', 'Logout'), ...Array.from({ length: 20 }, (_, i) => entry('Leads', `l${i}`, `ann${i}@example.com`))]

  it('shows screens and actions before a word, and records only once one is typed, a few per group', () => {
    expect(visibleEntries(entries, [], '').map((e) => e.group)).toEqual(['Screens', 'Actions'])
    const shown = visibleEntries(entries, [], 'ann')
    expect(shown.filter((e) => e.group === 'Leads')).toHaveLength(MAX_SHOWN)
  })

  it('puts the server records after the cached ones of their group, none twice, within the group limit', () => {
    const cached = [entry('Leads', 'a', 'zed@example.com'), entry('Games', 'g', 'Zed Racer')]
    const found = [entry('Leads', 'a', 'zed@example.com', ''), entry('Leads', 'b', 'zed2@example.com', ''), entry('Brands', 'z', 'Zedbrand', '')]
    const shown = visibleEntries(cached, found, 'zed')
    expect(shown.map((e) => e.value)).toEqual(['Leads:a', 'Leads:b', 'Games:g', 'Brands:z'])
    const many = Array.from({ length: 12 }, (_, i) => entry('Leads', `s${i}`, `zed${i}@x`, ''))
    expect(visibleEntries(cached, many, 'zed').filter((e) => e.group === 'Leads')).toHaveLength(MAX_SHOWN)
  })

  it('shows a server record that matched by a field the palette does not hold (a wallet address)', () => {
    expect(visibleEntries([], [entry('Leads', 'w', 'wallet.owner@example.com', '')], '0xfeed').map((e) => e.value)).toEqual(['Leads:w'])
  })
})
