import { describe, expect, it } from 'vitest'
import { cmsMenuOrder, mayOpen, menuOrder, requiredMenuOrder, screens } from '#contract/routes'
import { menuEntries } from './side-menu.tsx'

const labels = (open: (path: string) => boolean): string[] =>
  menuEntries(open).map((e) => (e.kind === 'item' ? e.row.title : e.label))

describe('the side menu', () => {
  it("keeps the required entries in their order, and places every other screen among them", () => {
    // Every screen counted, so an entry shown only with a count (Link changes) takes its place too.
    const everyCount = new Map(screens.map((s) => [s.path, { count: 0, noun: '' }]))
    const all = menuEntries(() => true, everyCount).map((e) => (e.kind === 'item' ? e.row.title : e.label))
    expect(all).toEqual(menuOrder)
    expect(all.filter((l) => (requiredMenuOrder as readonly string[]).includes(l))).toEqual(requiredMenuOrder)
    const cms = menuEntries(() => true).find((e) => e.kind === 'group')
    expect(cms?.kind === 'group' ? cms.rows.map((r) => r.title) : []).toEqual(cmsMenuOrder)
    expect(cmsMenuOrder.length).toBeGreaterThan(0)
  })

  it('lists Suppressed addresses beneath Messaging, or at the top level for staff who may not open Messaging', () => {
    const below = (open: (path: string) => boolean, title: string): string[] => {
      const entry = menuEntries(open).find((e) => e.kind === 'item' && e.row.title === title)
      return entry?.kind === 'item' ? entry.below.map((r) => r.title) : []
    }
    expect(below(() => true, 'Messaging')).toEqual(['Suppressed addresses'])
    expect(labels(() => true)).not.toContain('Suppressed addresses')
    expect(labels((path) => mayOpen(['/suppressed-addresses', '/newsletter'], path))).toEqual(['Dashboard', 'Newsletter', 'Suppressed addresses'])
    expect(labels((path) => mayOpen(['/notificationlist'], path))).toEqual(['Dashboard', 'Messaging'])
    expect(below((path) => mayOpen(['/notificationlist'], path), 'Messaging')).toEqual([])
  })

  it('shows a restricted member of staff only the screens they may open', () => {
    expect(labels((path) => mayOpen(['/contactus', '/settings'], path))).toEqual(['Dashboard', 'Contact Us', 'Settings'])
  })

  it('lists Link changes only while the menu counts carry its count (for an admin who may make a link write)', () => {
    const titles = (counted: ReadonlyMap<string, unknown>) => menuEntries(() => true, counted).map((e) => (e.kind === 'item' ? e.row.title : e.label))
    expect(titles(new Map())).not.toContain('Link changes')
    expect(titles(new Map([['/link-changes', { count: 0, noun: 'link changes to approve' }]]))).toContain('Link changes')
  })
})
